"""The app served on a free loopback port in a thread, by waitress: the server `make run` uses.

Werkzeug's development server leaves a static file open when the browser drops its connection
mid-answer (it stops before closing the answer), which a run with warnings as errors reports
against whichever test is then tearing down."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import create_server

#: How long the loop waits on its sockets before it looks whether it is to stop.
LOOP_SECONDS = 0.05


@contextmanager
def served(app, threads: int = 8) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields its base URL.

    The phones wait 30 s for a page before showing the copy they kept, not a venue's 4: on a machine
    running the whole suite a page can take longer than 4 s, and the test would meet the kept copy."""
    app.config["PAGE_WAIT_SECONDS"] = 30
    server = create_server(app, host="127.0.0.1", port=0, threads=threads, ident="Courtier")
    stop = threading.Event()
    thread = threading.Thread(target=_loop, args=(server, stop), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # The threads answering requests finish theirs first, while the loop still sends what they write;
        # then the loop, told to stop, closes every channel itself. Not through waitress's trigger: a
        # closing run as the trigger's own task closes the trigger too, and the pull that asked for it
        # may then write to a descriptor already closed, or already another file's.
        server.task_dispatcher.shutdown(timeout=30)
        stop.set()
        thread.join(timeout=30)


def _loop(server, stop: threading.Event) -> None:
    """waitress's loop, a pass at a time until told to stop; then every channel closed, in this thread
    (closed from another, a pass under way would find its sockets gone). A channel still sending a file
    closes the file as it closes (``handle_close``): ``close`` alone would leave it to the collector."""
    while not stop.is_set():
        wasyncore.loop(timeout=LOOP_SECONDS, map=server._map, count=1)
    for channel in list(server._map.values()):
        if isinstance(channel, HTTPChannel):
            channel.handle_close()
    wasyncore.close_all(server._map)
