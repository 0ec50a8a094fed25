"""bench/load.py aimed at a site already running, as an operator aims it at theirs: `make run` with CSRF on,
as it serves an evening, and a short bounded load that opens forms, sends their tokens back and saves hands."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import subprocess
import sys
import time

from tests.test_crash import ROOT, Server, free_port

START_TIMEOUT = 60.0


class Running(Server):
    """`python -m companion.serve` on loopback with CSRF on (the default), as `make run HOST=127.0.0.1` serves."""

    def start(self, deadline: float) -> None:
        self.port = free_port()
        env = dict(os.environ, COURTIER_DATABASE=str(self.database), COURTIER_SECRET_KEY="load-target-test",
                   COURTIER_CREATE_RATE="20 per minute")
        env.pop("COURTIER_WTF_CSRF_ENABLED", None)
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "companion.serve", "--host", "127.0.0.1",
                                          "--port", str(self.port)], cwd=ROOT, env=env, stdout=log,
                                         stderr=subprocess.STDOUT)
        self.answering(deadline)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def test_the_load_plays_against_a_running_site_with_its_csrf_tokens(tmp_path):
    site = Running(tmp_path / "site.sqlite", tmp_path / "site.log")
    site.start(time.monotonic() + START_TIMEOUT)
    try:
        without_token = site.request("POST", "/new/rummathon-royale", {"seat1": "Ann", "seat2": "Ben"})
        assert without_token[0] == 400  # the site checks CSRF tokens, as it does for the phones
        done = subprocess.run([sys.executable, "bench/load.py", "--target", f"http://127.0.0.1:{site.port}",
                               "--tables", "3", "--seconds", "6", "--hand-every", "1", "--workers", "8"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    finally:
        site.stop()
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "errors: 0" in said and "against the site running at http://127.0.0.1:" in said, said
    saved = int(re.search(r"hands entered: (\d+)", said).group(1))
    assert saved >= 3, said  # a hand a second at each of 3 tables for 6 s: at least one each, on any machine
    with contextlib.closing(sqlite3.connect(site.database)) as stored:
        assert stored.execute("SELECT COUNT(*) FROM events").fetchone()[0] == saved
        assert stored.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 3
