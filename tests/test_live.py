"""The server the browser tests share (tests/live.py): stopped while phones are still being answered, it
closes what it opened, and nothing it closes is left to be closed again."""

from __future__ import annotations

import gc
import socket
import threading
import warnings

from companion import create_app
from tests.live import served

#: A static file larger than a socket's first send: the answer is still going when the phone drops it.
ICON = "/static/icons/icon-maskable-512.png"


def _drop_mid_answer(port: int, times: int) -> None:
    """Ask for the icon and hang up at once with a reset, as a phone closing its tab mid-download."""
    for _ in range(times):
        with socket.create_connection(("127.0.0.1", port)) as phone:
            phone.sendall(f"GET {ICON} HTTP/1.1\r\nHost: courtier\r\n\r\n".encode())
            phone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")


def test_a_server_stopped_while_phones_drop_their_downloads_closes_every_file_it_opened(tmp_path):
    """Eight servers, each stopped right after 120 downloads dropped by four phones at once. The old
    stop (waitress's channels closed without their files, through the trigger's own task) left an icon
    open to the collector in most rounds, and in some lost its trigger before the pull that stopped it."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        for n in range(8):
            app = create_app({"DATABASE": str(tmp_path / f"live-{n}.sqlite"), "SECRET_KEY": "live-secret"})
            with served(app) as base:
                port = int(base.rsplit(":", 1)[1])
                phones = [threading.Thread(target=_drop_mid_answer, args=(port, 30)) for _ in range(4)]
                for phone in phones:
                    phone.start()
                for phone in phones:
                    phone.join()
            gc.collect()
    assert [str(w.message) for w in said if issubclass(w.category, ResourceWarning)] == []
