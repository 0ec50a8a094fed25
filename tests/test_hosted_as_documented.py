"""A hosted Courtier set up exactly as docs/ops.md's *A hosted Courtier* tells an operator, played through.

Every file and command comes out of the page (tests/ops_doc.py): the role and database, the lines of
postgresql.conf and pg_hba.conf (password over TLS), the database's URL, the settings every server
shares, the gunicorn command (``--preload``, several workers), and the nginx sample in front. Only
addresses, ports, the password, file paths and the number of workers (4 to 2) are the test's own.

Then an evening's traffic of distinct tables goes through both servers, directly and through nginx,
many requests at once, and every answer must be the right table's; PostgreSQL is restarted (both
servers answer again on their own within 15 s), then stopped (a prompt 503 in words, a form kept),
then started again. The metrics each server keeps are read back, and the proxy's address handling
(the phone's own address, the port in links) checked.
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import re
import secrets
import shutil
import ssl
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import pytest
from markupsafe import escape

from tests import ops_doc
from tests.test_crash import ROOT, free_port
from tests.throwaway_postgres import binaries

pytestmark = pytest.mark.one_database
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
VENV_BIN = ROOT / ".venv" / "bin"
WORKERS = "2"
TABLES = 24
THREADS = 24
SAVES_PER_TABLE = 4
READS_PER_SAVE = 3
#: Addresses the test's "phones" send from (loopback has all of 127/8): one each, so nginx's per-address
#: cap and the creation limit see many phones, as in a room.
PHONES = [f"127.0.0.{n}" for n in range(10, 10 + TABLES + 2)]
CREATE_RATE = "3 per minute"
START_TIMEOUT = 60.0
SUPERUSER = "postgres"


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


# -- PostgreSQL, set up as the page says ---------------------------------------------------------

class DocumentedPostgres:
    """A PostgreSQL server of the test's own, on a loopback port, configured with the page's files and
    commands, run as root as the page's are (runuser, chown), the server as the ``postgres`` user."""

    def __init__(self, root: Path):
        self.bin = binaries()
        if self.bin is None:
            pytest.skip("PostgreSQL is not installed; `make test` installs it (scripts/system-deps.sh)")
        if os.geteuid() != 0 or not _has_user(SUPERUSER):
            pytest.skip("the page's steps run as root, with PostgreSQL's own user (the postgresql package's)")
        self.root, self.port = root, free_port()
        self.data, self.socket, self.tls = root / "data", root / "socket", root / "tls"
        self.user = SUPERUSER
        self.password = secrets.token_hex(12)

    def _run(self, *args: str) -> None:
        done = subprocess.run([str(self.bin / args[0]), *args[1:]], capture_output=True, text=True,
                              user=self.user, check=False, cwd=self.root)
        log = self.root / "log"
        assert done.returncode == 0, (done.stderr, log.read_text()[-2000:] if log.exists() else "")

    def as_superuser(self, words: list[str], stdin: str | None = None) -> str:
        """A documented ``runuser -u postgres -- PROGRAM ...`` against this server (its socket and port added)."""
        assert words[:4] == ["runuser", "-u", SUPERUSER, "--"], words
        program = str(self.bin / words[4]) if (self.bin / words[4]).exists() else words[4]
        done = subprocess.run([*words[:4], program, "--host", str(self.socket), "--port", str(self.port),
                               *words[5:]], input=stdin, capture_output=True, text=True, check=False, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    def make_certificate(self) -> None:
        """The page's commands for a self-signed certificate, in this test's folder, for 127.0.0.1."""
        commands = ops_doc.replaced(ops_doc.block("certificate"), {"/etc/postgresql/tls": str(self.tls),
                                                                   "10.0.0.5": "127.0.0.1"})
        done = subprocess.run(["bash", "-e", "-c", commands], capture_output=True, text=True, check=False, timeout=120)
        assert done.returncode == 0, done.stderr
        assert (self.tls / "server.key").stat().st_mode & 0o077 == 0  # the key readable by its owner alone

    def set_up(self) -> None:
        self.socket.mkdir()
        self.make_certificate()
        entry = pwd.getpwnam(self.user)
        for path in (self.root, self.socket):
            os.chown(path, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-E", "UTF8", "--locale=C", "--no-sync")
        conf = ops_doc.replaced(ops_doc.block("postgresql.conf"), {
            "10.0.0.5": "127.0.0.1",
            "/etc/postgresql/tls/server.crt": str(self.tls / "server.crt"),
            "/etc/postgresql/tls/server.key": str(self.tls / "server.key"),
        })
        with open(self.data / "postgresql.conf", "a") as settings:
            settings.write(f"\n{conf}\nport = {self.port}\nunix_socket_directories = '{self.socket}'\n"
                           "fsync = off\nsynchronous_commit = off\nlog_min_messages = fatal\n")
        hba = ops_doc.replaced(ops_doc.block("pg_hba.conf"), {"10.0.0.11/32": "127.0.0.1/32",
                                                              "10.0.0.12/32": "127.0.0.1/32"})
        (self.data / "pg_hba.conf").write_text(f"{hba}\n")  # in place of the file's own lines, as the page says
        self.start()
        sql = ops_doc.replaced(ops_doc.block("database"), {"'PASSWORD'": f"'{self.password}'"})
        prompt = ops_doc.command_lines(ops_doc.block("superuser"))[0]
        self.as_superuser([*prompt, "-v", "ON_ERROR_STOP=1"], stdin=sql)

    def url(self, database: str = "courtier") -> str:
        documented = ops_doc.exports(ops_doc.block("database url"))["COURTIER_DATABASE"]
        return ops_doc.replaced(documented, {"PASSWORD": self.password, "10.0.0.5:5432": f"127.0.0.1:{self.port}",
                                             "/courtier?": f"/{database}?"})

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def restart(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-m", "fast", "-w", "-t", "60",
                  "restart")

    def remove(self) -> None:
        subprocess.run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, user=self.user, check=False, cwd=self.root)


# -- The app servers and nginx, started with the page's commands ---------------------------------

class Client:
    """HTTP(S) to one address, from a chosen loopback address (a phone)."""

    def __init__(self, port: int, tls: bool = False):
        self.port, self.tls = port, tls

    def send(self, method: str, path: str, body: dict | None = None, form: dict | None = None,
             headers: dict | None = None, source: str = "127.0.0.1", timeout: float = 30):
        """(status, headers, text) of one request."""
        headers = dict(headers or {})
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        elif form is not None:
            data, headers["Content-Type"] = urlencode(form), "application/x-www-form-urlencoded"
        if self.tls:
            conn = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0),
                                               context=ssl._create_unverified_context())  # noqa: S323 - a test's own
        else:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, response.headers, response.read().decode()
        finally:
            conn.close()


def gunicorn_command(port: int) -> tuple[dict[str, str], list[str]]:
    """The page's gunicorn command with this test's address and two workers: (its environment, its words)."""
    lines = ops_doc.command_lines(ops_doc.block("gunicorn"))
    assert lines[0][:2] == [".venv/bin/pip", "install"], lines[0]  # done already: the suite's .venv has gunicorn
    words = lines[1]
    env = {}
    while "=" in words[0]:
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    assert words[0] == ".venv/bin/gunicorn" and "--preload" in words, words
    words = ops_doc.with_option(words, "--bind", f"127.0.0.1:{port}")
    words = ops_doc.with_option(words, "--workers", WORKERS)
    return env, [str(VENV_BIN / "gunicorn"), *words[1:]]


class AppServer(Client):
    def __init__(self, env: dict[str, str], log: Path):
        super().__init__(free_port())
        self.log = log
        extra, self.command = gunicorn_command(self.port)
        self.env = {**os.environ, **extra, **env}
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def wait_until_answering(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                if self.send("GET", "/healthz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"gunicorn did not answer in time: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def nginx_configuration(root: Path, servers: list[AppServer], port: int, redirect_port: int,
                        certificate: Path, key: Path) -> str:
    sample = ops_doc.replaced(ops_doc.block("nginx"), {
        "server 10.0.0.11:8000": f"server 127.0.0.1:{servers[0].port}",
        "server 10.0.0.12:8000": f"server 127.0.0.1:{servers[1].port}",
        "listen 443 ssl": f"listen 127.0.0.1:{port} ssl",
        "listen 80;": f"listen 127.0.0.1:{redirect_port};",
        "/etc/letsencrypt/live/courtier.example.org/fullchain.pem": str(certificate),
        "/etc/letsencrypt/live/courtier.example.org/privkey.pem": str(key),
        "/var/log/nginx/courtier.log": str(root / "access.log"),
        "/var/log/nginx/courtier-error.log": str(root / "courtier-error.log"),
    })
    temp = root / "temp"
    temp.mkdir()
    temp.chmod(0o777)
    return (f"daemon off;\npid {root / 'nginx.pid'};\nerror_log {root / 'error.log'} warn;\n"
            + ("user nobody nogroup;\n" if os.geteuid() == 0 else "")
            + "events { worker_connections 1024; }\nhttp {\n"
            + "".join(f"    {kind}_temp_path {temp / kind};\n" for kind in ("client_body", "proxy", "fastcgi",
                                                                            "uwsgi", "scgi"))
            + f"    access_log off;\n{sample}\n}}\n")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """PostgreSQL, two gunicorn servers of two workers and nginx in front, each as the page says."""
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed; `make test` installs it (scripts/system-deps.sh)")
    root = tmp_path_factory.mktemp("hosted")
    root.chmod(0o755)
    database = DocumentedPostgres(Path(tempfile.mkdtemp(prefix="courtier-pg-")))  # a folder PostgreSQL's user reaches
    database.root.chmod(0o755)
    database.set_up()
    certificate, key = database.tls / "server.crt", database.tls / "server.key"  # nginx's too, made the same way
    settings = ops_doc.exports(ops_doc.block("settings"))
    assert set(settings) >= {"COURTIER_SECRET_KEY", "COURTIER_TRUSTED_PROXIES", "COURTIER_METRICS_TOKEN"}
    token = secrets.token_hex(16)
    env = {**settings, "COURTIER_DATABASE": database.url(), "COURTIER_SECRET_KEY": secrets.token_hex(16),
           "COURTIER_METRICS_TOKEN": token, "COURTIER_CREATE_RATE": CREATE_RATE}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    servers = [AppServer(env, root / f"gunicorn-{name}.log") for name in "AB"]
    nginx = None
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_until_answering(time.monotonic() + START_TIMEOUT)
        port, redirect_port = free_port(), free_port()
        (root / "nginx.conf").write_text(nginx_configuration(root, servers, port, redirect_port, certificate, key))
        nginx = subprocess.Popen([NGINX, "-c", str(root / "nginx.conf"), "-e", str(root / "error.log")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        proxy = Client(port, tls=True)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert nginx.poll() is None, nginx.stderr.read().decode()
            try:
                if proxy.send("GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not answer in time"
                time.sleep(0.1)
        yield {"database": database, "servers": servers, "proxy": proxy, "token": token, "root": root}
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=10)
            nginx.stderr.close()
        for server in servers:
            server.stop()
        database.remove()
        shutil.rmtree(database.root, ignore_errors=True)


# -- An evening through it -------------------------------------------------------------------------

def players_of(number: int) -> list[str]:
    return [f"Table{number}{seat}" for seat in ("Ann", "Ben", "Cat", "Dan")]


def deal(number: int, hand: int) -> dict:
    """An Indian Rummy deal for table ``number``, its counts particular to the table and the hand."""
    names = players_of(number)
    return {"winner": names[hand % 4],
            "hands": {name: {"count": 2 + (number * 7 + hand * 3 + seat) % 60}
                      for seat, name in enumerate(names) if name != names[hand % 4]}}


def expected_totals(number: int, hands: int) -> dict[str, int]:
    from companion.games import score

    game = {"game": "indian-rummy", "players": players_of(number), "rounds": [deal(number, h) for h in range(hands)]}
    return score(game).totals


@pytest.fixture(scope="module")
def tables(site):
    """Distinct tables started through nginx, each from a phone of its own: (number, id, edit key, view key)."""
    made = []
    for number in range(TABLES):
        status, _, text = site["proxy"].send("POST", "/api/v1/tables", {"game": "indian-rummy",
                                                                        "players": players_of(number)},
                                             source=PHONES[number])
        assert status == 201, text
        answer = json.loads(text)
        made.append((number, answer["id"], answer["edit_key"], answer["view_key"]))
    return made


def _play_one_table(site, table, wrong: list[str]) -> None:
    """Saves and reads of one table, spread over nginx and both servers; every answer must be this table's."""
    number, table_id, edit, view = table
    ways = [site["proxy"], *site["servers"]]
    names = players_of(number)
    for hand in range(SAVES_PER_TABLE):
        way = ways[(number + hand) % 3]
        status, _, text = way.send("POST", f"/api/v1/tables/{table_id}/rounds",
                                   {"round": deal(number, hand), "base_version": hand},
                                   headers={"Authorization": f"Bearer {edit}"}, source=PHONES[number])
        if status != 201 or json.loads(text)["version"] != hand + 1:
            wrong.append(f"table {number}, save {hand + 1}: {status} {text[:300]}")
            return
        for read in range(READS_PER_SAVE):
            way = ways[(number + hand + read + 1) % 3]
            if read % 2:
                status, _, text = way.send("GET", f"/t/{table_id}", source=PHONES[number])
                if status != 200 or set(re.findall(r"Table(\d+)(?:Ann|Ben|Cat|Dan)", text)) != {str(number)}:
                    wrong.append(f"table {number}, page after save {hand + 1}: {status} {text[:300]}")
                continue
            status, _, text = way.send("GET", f"/api/v1/tables/{table_id}", headers={"Authorization": f"Bearer {view}"},
                                       source=PHONES[number])
            answer = json.loads(text) if status == 200 else {}
            if (status != 200 or answer.get("id") != table_id or answer.get("players") != names
                    or answer.get("version") != hand + 1
                    or answer["scored"]["totals"] != expected_totals(number, hand + 1)):
                wrong.append(f"table {number}, read after save {hand + 1}: {status} {text[:300]}")


def test_many_tables_at_once_through_both_servers_each_answer_the_right_tables(site, tables):
    wrong: list[str] = []
    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(lambda table: _play_one_table(site, table, wrong), tables))
    assert wrong == [], f"{len(wrong)} wrong answers, such as: {wrong[:5]}"


def test_the_proxy_counts_each_phone_by_its_own_address_and_keeps_the_port_in_links(site, tables):
    proxy = site["proxy"]
    phone, other = "127.0.0.200", "127.0.0.201"
    game = {"game": "indian-rummy", "players": ["Ann", "Ben"]}
    answers = [proxy.send("POST", "/api/v1/tables", game, source=phone) for _ in range(4)]
    assert [status for status, _, _ in answers] == [201, 201, 201, 429]  # CREATE_RATE: 3 per minute
    status, _, text = proxy.send("POST", "/api/v1/tables", game, source=other)
    assert status == 201, text  # another phone behind the same proxy is not held back by the first
    links = json.loads(answers[0][2])["links"]
    assert links["edit"].startswith(f"https://127.0.0.1:{proxy.port}/t/"), links


def test_metrics_are_closed_to_the_public_and_add_up_every_worker(site, tables):
    assert site["proxy"].send("GET", "/metrics", headers={"Authorization": f"Bearer {site['token']}"})[0] == 404
    for server in site["servers"]:
        assert server.send("GET", "/metrics")[0] == 404
        status, headers, text = server.send("GET", "/metrics", headers={"Authorization": f"Bearer {site['token']}"})
        assert status == 200 and headers["Content-Type"].startswith("text/plain"), text[:300]
        reads = sum(float(value) for value in re.findall(
            r'courtier_requests_total\{method="GET",route="table_api.show",status="200"\} (\S+)', text))
        assert reads >= TABLES  # each server answered some of every table's reads, across its two workers
        assert re.search(r"^courtier_database_connections_in_use \S+", text, re.MULTILINE), text[-2000:]
        assert "courtier_heavy_jobs" in text and "courtier_request_seconds_bucket" in text


def _answering(server: Client, table) -> bool:
    number, table_id, _, view = table
    try:
        status, _, text = server.send("GET", f"/api/v1/tables/{table_id}", headers={"Authorization": f"Bearer {view}"},
                                      timeout=5)
    except OSError:
        return False
    return status == 200 and json.loads(text)["players"] == players_of(number)


def _seconds_until_every_worker_answers(site, tables, limit: float) -> float:
    """How long until each server answers ten reads in a row (its two workers both among them)."""
    started = time.monotonic()
    for server in site["servers"]:
        in_a_row = 0
        while in_a_row < 10:
            assert time.monotonic() - started < limit, f"not answering {limit} s after PostgreSQL came back"
            in_a_row = in_a_row + 1 if _answering(server, tables[in_a_row]) else 0
            if not in_a_row:
                time.sleep(0.2)
    return time.monotonic() - started


def test_a_restarted_postgresql_is_found_again_without_restarting_the_servers(site, tables):
    site["database"].restart()
    print(f"answering again {_seconds_until_every_worker_answers(site, tables, limit=15):.1f} s after the restart")
    assert all(server.proc.poll() is None for server in site["servers"])


def test_a_stopped_postgresql_is_a_prompt_503_in_words_and_a_form_is_kept(site, tables):
    number, table_id, edit, view = tables[0]
    site["database"].stop()
    try:
        status, _, text = site["proxy"].send("GET", f"/t/{table_id}?key={edit}", timeout=30)
        assert status == 503 and "Courtier cannot reach its database right now" in text, text[:500]
        assert len(_upstreams_tried(site, f"/t/{table_id}")) == 1  # one wait of DATABASE_WAIT, not one per server
        for server in site["servers"]:
            started = time.monotonic()
            status, headers, text = server.send("GET", f"/t/{table_id}", timeout=30)
            assert time.monotonic() - started < 5
            assert status == 503 and headers["Retry-After"], text[:500]
            assert "Courtier cannot reach its database right now" in text and "Something went wrong" not in text
            status, headers, text = server.send("POST", f"/api/v1/tables/{table_id}/rounds",
                                                {"round": deal(number, 9), "base_version": SAVES_PER_TABLE},
                                                headers={"Authorization": f"Bearer {edit}"})
            assert status == 503 and json.loads(text)["errors"][0]["message"].startswith("The scores are safe")
            typed = {"base_version": str(SAVES_PER_TABLE), "winner": "Table0Ben", "p0_count": "41",
                     "note": "Dan's last deal"}
            status, _, text = server.send("POST", f"/t/{table_id}/hands?key={edit}", form=typed)
            assert status == 503, text[:500]
            for name, value in typed.items():  # what was typed comes back, to send again with one tap
                assert f'name="{name}" value="{escape(value)}"' in text, (name, text[:1500])
            assert "Send again" in text
            assert server.send("GET", "/healthz", timeout=5)[0] == 503
    finally:
        site["database"].start()
    print(f"answering again {_seconds_until_every_worker_answers(site, tables, limit=15):.1f} s after the start")
    _no_key_in_nginx_logs(site)


# -- The proxy through restarts and outages -------------------------------------------------------

LOAD_THREADS = 6
LOAD_MOST_REQUESTS = 3000  # in all: the loop stops at this count or at its deadline, whichever is first
LOAD_SECONDS = 60.0
KEY_IN_LOG = re.compile(r"key=")


def _directive(sample: str, name: str) -> list[list[str]]:
    """Every use of an nginx directive in the sample, as its words."""
    return [line.split(";")[0].split()[1:] for line in sample.splitlines() if line.split()[:1] == [name]]


def test_the_nginx_sample_sends_a_request_to_a_second_server_only_when_the_first_cannot_be_reached():
    """A 503 is Courtier's answer in words, given within DATABASE_WAIT: passed on once, never tried again on the
    other server (a second wait) nor counted as a failure (which marks both servers down: nginx's bare 502)."""
    from companion.storage.db import WAIT_SECONDS

    sample = ops_doc.block("nginx")
    assert _directive(sample, "proxy_next_upstream") == [["error", "timeout"]]
    assert all(words[:1] == ["http://courtier"] for words in _directive(sample, "proxy_pass"))
    read_timeout = _directive(sample, "proxy_read_timeout")
    assert not read_timeout or int(read_timeout[0][0].rstrip("s")) > WAIT_SECONDS  # nginx's default: 60 s
    assert {tuple(words[1:]) for words in _directive(sample, "error_log")} == {("alert",)}  # no request lines


def _requests_through(proxy: Client, tables, stop, answers: list, worker: int) -> None:
    """One phone's bounded loop of reads through nginx, edit keys in the links: (status, path, text) each."""
    sent = 0
    while not stop.is_set() and sent < LOAD_MOST_REQUESTS // LOAD_THREADS:
        number, table_id, edit, _ = tables[(worker + sent) % len(tables)]
        path = (f"/t/{table_id}?key={edit}", f"/t/{table_id}/board?key={edit}", f"/t/{table_id}/hands/new?key={edit}")[
            sent % 3]
        try:
            status, _, text = proxy.send("GET", path, source=PHONES[number], timeout=20)
        except OSError as err:
            status, text = 0, repr(err)
        answers.append((status, path, text))
        sent += 1


def _through_nginx_while(site, tables, happening) -> list[tuple[int, str, str]]:
    """The answers of a bounded load through nginx, while ``happening()`` runs and for a moment after."""
    import threading

    stop, answers = threading.Event(), []
    threads = [threading.Thread(target=_requests_through, args=(site["proxy"], tables, stop, answers, n))
               for n in range(LOAD_THREADS)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + LOAD_SECONDS
        while len(answers) < 30 and time.monotonic() < deadline:  # under way before anything happens
            time.sleep(0.05)
        happening()
        counted = len(answers)
        while len(answers) < counted + 150 and time.monotonic() < deadline:  # and well after
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    return answers


def _statuses(answers) -> dict[int, int]:
    counted: dict[int, int] = {}
    for status, _, _ in answers:
        counted[status] = counted.get(status, 0) + 1
    return counted


def _no_key_in_nginx_logs(site) -> None:
    for name in ("error.log", "courtier-error.log", "access.log"):
        log = site["root"] / name
        lines = [line for line in log.read_text().splitlines() if KEY_IN_LOG.search(line)] if log.exists() else []
        assert lines == [], f"{len(lines)} lines of {name} hold an edit key, such as {lines[:2]}"


def test_postgresql_restarted_under_load_through_nginx_gives_503s_in_words_and_no_502(site, tables):
    answers = _through_nginx_while(site, tables, site["database"].restart)
    statuses = _statuses(answers)
    print(f"through nginx while PostgreSQL restarted: {statuses}")
    assert set(statuses) <= {200, 503}, statuses  # never nginx's bare 502 (nor 504, nor a connection dropped)
    for status, path, text in answers:
        if status == 503:
            assert "Courtier cannot reach its database right now" in text, (path, text[:300])
    _no_key_in_nginx_logs(site)


def test_an_app_server_stopped_under_load_is_passed_over_without_a_502_and_no_key_is_logged(site, tables):
    stopped = site["servers"][1]
    answers = _through_nginx_while(site, tables, stopped.stop)
    try:
        statuses = _statuses(answers)
        print(f"through nginx while an app server stopped: {statuses}")
        assert statuses == {200: len(answers)}, statuses  # every GET answered by the other server
        number, table_id, edit, view = tables[1]
        version = json.loads(site["proxy"].send("GET", f"/api/v1/tables/{table_id}",
                                                headers={"Authorization": f"Bearer {view}"})[2])["version"]
        saved = {"round": deal(number, version), "base_version": version}
        status, _, _ = site["proxy"].send("POST", f"/api/v1/tables/{table_id}/rounds", saved,
                                          headers={"Authorization": f"Bearer {edit}"}, source=PHONES[number])
        assert status == 201  # a save too: nginx sends it to a server it can reach
        _no_key_in_nginx_logs(site)
        log = (site["root"] / "access.log").read_text()
        assert re.search(r'"[^"]*, [^"]*" "502, 200"$', log, re.MULTILINE), "no second server tried in the log"
    finally:
        stopped.start()
        stopped.wait_until_answering(time.monotonic() + START_TIMEOUT)


def _upstreams_tried(site, path: str) -> list[str]:
    """The servers nginx tried for the last request of ``path`` (its access log's $upstream_addr)."""
    lines = [line for line in (site["root"] / "access.log").read_text().splitlines() if f"GET {path} " in line]
    assert lines, f"no access log line for {path}"
    return re.search(r'"([^"]*)" "[^"]*"$', lines[-1]).group(1).split(", ")


def test_a_venues_night_is_copied_into_a_database_of_its_own_as_the_page_says(site, tmp_path):
    """The page's createdb and copy-db, as root on the database server: the guide's pg_hba.conf lets the role
    into the new database, over TLS, with its password."""
    venue = tmp_path / "courtier.sqlite"
    game = tmp_path / "table.json"
    game.write_text(json.dumps({"game": "indian-rummy", "players": players_of(0),
                                "rounds": [deal(0, hand) for hand in range(3)]}))
    env = {**os.environ, "COURTIER_DATABASE": str(venue), "COURTIER_SECRET_KEY": "copy-test"}
    done = subprocess.run([str(VENV_BIN / "companion"), "import", str(game)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    create, copy = ops_doc.command_lines(ops_doc.block("copy-db"))
    site["database"].as_superuser(create)
    assert copy[:2] == [".venv/bin/companion", "copy-db"] and copy[2] == "instance/courtier.sqlite", copy
    target = ops_doc.replaced(copy[3], {"PASSWORD": site["database"].password,
                                        "10.0.0.5:5432": f"127.0.0.1:{site['database'].port}"})
    done = subprocess.run([str(VENV_BIN / "companion"), "copy-db", str(venue), target], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    copied = json.loads(done.stdout)["copied"]
    assert copied["tables"] == 1 and copied["entries"] == 3, copied
