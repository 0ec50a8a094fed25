"""Requests that cost little to send cost little to answer: the Monarchy checker in a bounded pool with a
bounded input and answer, and a sheet refused "busy" within the 2 seconds promised, however long its table."""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager

import pytest

from companion import create_app, referee
from companion.core import limits
from companion.paper import sheets
from companion.web import heavy

from .test_bounds import imported_table, long_indian_rummy

pytestmark = pytest.mark.one_database  # the pools and the stateless referee: the same on either database

DEAL = "Cr Ar Lr Mr Zb Eb Bb Rb Ab Mr Ar Cr Er Db Ob Ob Rb Sr Tr Ar Rr Er * Qb Xb"
MONARCHY = "/api/v1/referee/royalty/monarchy"


def _app(tmp_path, **config):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite"), "SECRET_KEY": "x",
                       "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False, **config})


@pytest.fixture
def small_pools(tmp_path):
    """One worker and no queue: a job holding the worker fills the pool."""
    app = _app(tmp_path, HEAVY_WORKERS=1, HEAVY_QUEUE=0)
    yield app
    limits.configure({})


@contextmanager
def holding(pool: heavy.Pool, jobs: int):
    """``jobs`` jobs that hold their places in ``pool`` until the block ends; then every place is free again."""
    release = threading.Event()
    held = [pool.submit(release.wait) for _ in range(jobs)]
    try:
        yield
    finally:
        release.set()
        for job in held:
            job.result(30)
        deadline = time.monotonic() + 30
        while pool.free() < pool.workers + pool.queue and time.monotonic() < deadline:
            time.sleep(0.01)  # a job hands its place back just after its result


def _largest_monarchy() -> dict:
    """The most a Monarchy check takes: 25 words of 25 cards (none dealt twice over), 1000 house words each way."""
    allow = [f"Q{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{'X' * (i % 30)}" for i in range(1000)]
    deny = [f"Z{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{'Y' * (i % 30)}" for i in range(1000)]
    return {"dealt": DEAL, "words": [" ".join(["Zb"] * 25)] * 25, "allow": allow, "deny": deny}


# The Monarchy checker (RY-16) ----------------------------------------------------------------------------


def test_monarchy_is_checked_in_the_pool_of_checks(small_pools, monkeypatch):
    threads = []
    judge = referee.REFEREES[("royalty", "monarchy")]

    def watched(body, **context):
        threads.append(threading.current_thread().name)
        return judge(body, **context)

    monkeypatch.setitem(referee.REFEREES, ("royalty", "monarchy"), watched)
    client = small_pools.test_client()
    response = client.post(MONARCHY, json={"dealt": DEAL, "words": ["Cr Ar Lr Mr"]})
    assert response.status_code == 200 and response.get_json()["words"][0]["valid"] is True
    page = client.post("/referee/royalty/monarchy", data={"dealt": DEAL, "words": "Cr Ar Lr Mr"})
    assert page.status_code == 200 and "CALM" in page.get_data(as_text=True)
    assert len(threads) == 2 and all(name.startswith("courtier-heavy") for name in threads), threads
    assert threading.current_thread().name not in threads


def test_the_largest_monarchy_check_is_answered_small_and_fast(small_pools):
    client = small_pools.test_client()
    client.post(MONARCHY, json={"dealt": DEAL, "words": []})  # the word list, loaded once per process
    started = time.process_time()
    response = client.post(MONARCHY, json=_largest_monarchy())
    spent = time.process_time() - started
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    # Every word uses Zb, dealt once: the first word takes it and 24 more it lacks; no word is valid.
    assert answer["valid"] is False and len(answer["words"]) == 25 and answer["unused_count"] == 24
    assert len(response.get_data()) < 32 * 1024, len(response.get_data())
    assert spent < 0.5, spent  # about 10 ms on a quiet machine; 115,000 words took 2 s before the bound


@pytest.mark.parametrize("body,where,says", [
    ({"dealt": DEAL, "words": ["Cr"] * 115_000}, "words",
     "at most 25 words can be made; 115,000 were given (RY-16)"),
    ({"dealt": DEAL, "words": ["Cr Ar Lr Mr"] * 26}, "words", "at most 25 words can be made; 26 were given"),
    ({"dealt": DEAL, "words": [" ".join(["Cr"] * 26)]}, "words[0]", "has at most 25 cards; this one is longer"),
    ({"dealt": DEAL, "words": [["Cr"] * 26]}, "words[0]", "has at most 25 cards"),
    ({"dealt": DEAL + " Ar" * 100_000, "words": []}, "dealt", "written in at most 200 characters; these are 300,"),
    ({"dealt": DEAL.split() * 4_000, "words": []}, "dealt", "Monarchy deals 25 cards; 100,000 were given (RY-16)"),
    ({"dealt": DEAL, "words": [], "cards": "Cr"}, "cards", "unknown field"),
])
def test_a_monarchy_check_beyond_any_deal_is_refused_in_words_before_any_card_is_read(small_pools, body, where,
                                                                                       says):
    started = time.perf_counter()
    response = small_pools.test_client().post(MONARCHY, json=body)
    waited = time.perf_counter() - started
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [e["where"] for e in errors] == [where] and says in errors[0]["message"], errors
    assert len(response.get_data()) < 1024 and waited < 1.0, (len(response.get_data()), waited)


def test_a_monarchy_check_while_the_pool_is_full_is_told_busy_at_once(small_pools):
    client = small_pools.test_client()
    with holding(small_pools.extensions["courtier.checks"], 1):  # a check holding the only worker
        started = time.perf_counter()
        response = client.post(MONARCHY, json={"dealt": DEAL, "words": ["Cr Ar Lr Mr"]})
        waited = time.perf_counter() - started
        assert response.status_code == 503 and response.headers["Retry-After"] == str(limits.get("RETRY_AFTER"))
        assert response.get_json() == {"errors": [{"where": "$", "message": heavy.CHECKING}]}
        page = client.post("/referee/royalty/monarchy", data={"dealt": DEAL, "words": "Cr Ar Lr Mr"})
        assert page.status_code == 503 and "busy checking other deals" in page.get_data(as_text=True)
        assert waited < 0.5, waited  # no wait at all: the pool has no room
        # A sheet being printed does not hold the checks up, nor a check the sheets.
        assert client.post("/api/v1/referee/royalty/word", json={"word": "calm"}).status_code == 200


# A sheet told "busy" within 2 seconds ------------------------------------------------------------------


@pytest.fixture(scope="module")
def long_table(tmp_path_factory):
    """A night of 200 deals at nine (bench/run.py's), imported into an app with one worker, one place in
    the queue and a wait of 1 second."""
    app = _app(tmp_path_factory.mktemp("sheet"), HEAVY_WORKERS=1, HEAVY_QUEUE=1, HEAVY_WAIT=1.0)
    table = imported_table(app.test_client(), long_indian_rummy(200))
    yield app, table
    limits.configure({})


def _cold(app) -> None:
    """Every table scored again on its next request, as after a restart."""
    app.extensions["courtier.states"].forget_idle(-1)


def test_a_sheet_asked_for_while_the_pool_is_full_is_refused_before_its_table_is_scored(long_table, monkeypatch):
    app, table = long_table
    limits.configure(app.config)
    built = []
    monkeypatch.setattr(sheets, "html_for_filled", lambda *a, **k: built.append(a) or "<p>drawn</p>")
    with holding(app.extensions["courtier.heavy"], 2):  # the worker and the one place in the queue taken
        _cold(app)
        started = time.perf_counter()
        response = app.test_client().get(f"{table}/sheet.pdf")
        waited = time.perf_counter() - started
    assert response.status_code == 503 and response.headers["Retry-After"] == str(limits.get("RETRY_AFTER"))
    assert "busy printing" in response.get_data(as_text=True)
    assert built == [] and waited < 0.5, waited  # neither scored nor built: a few milliseconds


def test_a_sheet_waiting_behind_another_is_refused_within_the_wait_counted_from_its_request(long_table,
                                                                                         monkeypatch):
    app, table = long_table
    limits.configure(app.config)
    pool = app.extensions["courtier.heavy"]
    submit, asked = pool.submit, []

    def asked_late(*args, **kwargs):
        """The request reaches the pool after most of its wait has gone (scoring a long table on a
        loaded machine): 0.7 of the 1 s."""
        time.sleep(0.7 * app.config["HEAVY_WAIT"])
        asked.append(time.perf_counter())
        return submit(*args, **kwargs)

    with holding(pool, 1):  # a sheet being drawn; the one place in the queue is free
        monkeypatch.setattr(pool, "submit", asked_late)
        _cold(app)
        response = app.test_client().get(f"{table}/sheet.pdf")
        answered = time.perf_counter()
    assert response.status_code == 503 and response.headers["Retry-After"] == str(limits.get("RETRY_AFTER"))
    # In the queue it waits only what is left of the wait counted from the request (0.3 s at most), where a
    # wait counted from the queue alone waited the whole second there.
    assert len(asked) == 1 and answered - asked[0] < 0.7 * app.config["HEAVY_WAIT"], answered - asked[0]


def test_a_sheet_in_the_cache_is_served_while_the_pool_is_full(long_table):
    app, _ = long_table
    limits.configure(app.config)
    client = app.test_client()
    table = imported_table(client, long_indian_rummy(3))  # a short night: drawn in a second
    drawn = client.get(f"{table}/sheet.pdf?paper=letter")
    assert drawn.status_code == 200 and drawn.data.startswith(b"%PDF")
    with holding(app.extensions["courtier.heavy"], 2):
        again = client.get(f"{table}/sheet.pdf?paper=letter")
        unchanged = client.get(f"{table}/sheet.pdf?paper=letter", headers={"If-None-Match": drawn.headers["ETag"]})
    assert again.status_code == 200 and again.data == drawn.data
    assert unchanged.status_code == 304


def test_the_pool_of_checks_answers_a_job_whose_deadline_passed_when_a_worker_is_free():
    pool = heavy.Pool(1, 0, wait=1.0, busy=heavy.CHECKING)
    assert pool.run(lambda: json.dumps([6, 7]), deadline=time.monotonic() - 5) == "[6, 7]"
    with holding(pool, 1), pytest.raises(heavy.Busy) as busy:
        assert pool.free() == 0
        pool.check_room()
    assert busy.value.message == heavy.CHECKING and pool.free() == 1


# Bad input answered in a few kilobytes, whatever its size ---------------------------------------------------


def test_a_hundred_thousand_bad_cards_are_answered_with_a_hundred_problems_and_a_count_of_the_rest(client):
    body = {"game": "alliance-royals", "players": ["Ann", "Ben", "Cat", "Dan"],
            "rounds": [{"players": {"Ann": {"house": "S", "spoils": ["XX"] * 150_000, "meld": [], "hand": []}}}]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert len(errors) == 101 and errors[0]["where"] == "rounds[0].players.Ann.spoils[0]"
    # 150,000 bad cards and the three boards not given: 150,003 problems, 100 of them named.
    assert errors[-1] == {"where": "$", "message": "and 149,903 more problems like these: correct those named first"}
    assert len(response.get_data()) < 32 * 1024  # 21 MB before


def test_a_royalty_word_of_a_page_of_bad_cards_names_five_of_them(client):
    body = {"game": "royalty", "players": ["Ann", "Ben"], "rounds": [{"player": "Ann", "meld": "Xx " * 300_000}]}
    response = client.post("/api/v1/score", json=body)
    assert response.status_code == 422
    [error] = response.get_json()["errors"]
    assert error["where"] == "rounds[0].meld" and error["message"].count("Xx is not a Royalty card") == 5
    assert error["message"].endswith("; and 299,995 more that are not Royalty cards")
    assert len(response.get_data()) < 4 * 1024  # 41 MB before
