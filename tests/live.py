"""The app served on a free loopback port in a thread, by waitress: the server `make run` uses.

Werkzeug's development server leaves a static file open when the browser drops its connection
mid-answer (it stops before closing the answer), which a run with warnings as errors reports
against whichever test is then tearing down."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from waitress import wasyncore
from waitress.server import create_server


@contextmanager
def served(app, threads: int = 8) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields its base URL.

    The phones wait 30 s for a page before showing the copy they kept, not a venue's 4: on a machine
    running the whole suite a page can take longer than 4 s, and the test would meet the kept copy."""
    app.config["PAGE_WAIT_SECONDS"] = 30
    server = create_server(app, host="127.0.0.1", port=0, threads=threads, asyncore_loop_timeout=0.2,
                           ident="Courtier")
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # The threads answering requests finish theirs first, while the loop still sends what they
        # write; then every channel is closed in the loop's own thread, between two of its polls
        # (closed from here, a poll under way would find its sockets gone), and the loop, its map
        # empty, returns.
        server.task_dispatcher.shutdown(timeout=30)
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(timeout=30)
