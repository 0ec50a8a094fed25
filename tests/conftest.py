"""Fixtures: an app with its own temporary database per test, a test client, and for
browser tests a live server plus Debian's Chromium driven by Playwright."""

from __future__ import annotations

import os
import random
import re
import shutil

import psycopg_pool.base
import pytest
from hypothesis import settings

from companion import create_app
from companion.core import messages
from companion.storage import db
from tests.live import served
from tests.throwaway_postgres import ThrowawayPostgres

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}


# The suite draws the same examples on every run, so a property that fails fails every time (and a
# run that passed passes again), with no deadline: a loaded machine is slow, not wrong.
# HYPOTHESIS_PROFILE=explore draws new examples each run.
settings.register_profile("repeatable", derandomize=True, deadline=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
# psycopg_pool's threads draw their reconnection jitter from the global random generator, and hypothesis
# fails a property when that generator moves while it draws an example (a pool's thread connecting
# meanwhile): the pools draw from a generator of their own.
psycopg_pool.base.random = random.Random().random

#: The databases the app's tests run on; COURTIER_TEST_DATABASES=sqlite runs one (or -k "not postgresql").
DATABASES = os.environ.get("COURTIER_TEST_DATABASES", "sqlite,postgresql").split(",")


def pytest_collection_modifyitems(config, items):
    """A test marked ``one_database`` uses the app but never its database (the stateless API, forms
    rendered), or spends its time rendering PDFs from tables the other tests store and read on both:
    it runs once, on SQLite, and PostgreSQL's share of the run is spent where storage is. So does a
    Hypothesis property: it draws many games to check scoring and forms, not storage, and the
    PostgreSQL pool's own threads draw from the global random state, which Hypothesis treats as a
    strategy that is not deterministic."""
    once = [item for item in items if _runs_once(item)
            and getattr(item, "callspec", None) and item.callspec.params.get("database") == "postgresql"]
    if once:
        config.hook.pytest_deselected(items=once)
        dropped = set(map(id, once))
        items[:] = [item for item in items if id(item) not in dropped]


def _runs_once(item) -> bool:
    hypothesis_test = getattr(getattr(item, "obj", None), "is_hypothesis_test", False)
    return bool(item.get_closest_marker("one_database") or hypothesis_test)


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL for the whole run (tests/throwaway_postgres.py), stopped at the end."""
    if "postgresql" not in DATABASES:
        pytest.skip("COURTIER_TEST_DATABASES leaves PostgreSQL out")
    try:
        server = ThrowawayPostgres().start()
    except FileNotFoundError as err:
        pytest.skip(f"{err}; `make test` installs it (scripts/system-deps.sh); the PostgreSQL tests are skipped")
    yield server
    server.stop()


@pytest.fixture(params=DATABASES)
def database(request, tmp_path):
    """Where a test's app keeps its data: a new SQLite file, or the throwaway PostgreSQL's database
    emptied for this test. Every test that uses it (through ``app``, ``client``...) runs on both."""
    if request.param == "sqlite":
        return str(tmp_path / "test.sqlite")
    return request.getfixturevalue("postgres").empty_database()


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request leaves its reader's language set in the thread (each request sets its own); a test that
    asked in French leaves the next one, which may print a sheet outside any request, in English."""
    yield
    messages.set_language(messages.ENGLISH)


@pytest.fixture
def make_app(database):
    """Apps on the test's database, their connections closed at the end of the test."""
    made = []

    def make(**config):
        made.append(create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test-secret", **config}))
        return made[-1]

    yield make
    for app in made:
        db.pool(app).close()


@pytest.fixture
def app(make_app):
    # Tests create many tables from one address; test_hardening checks the limit.
    return make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False)


@pytest.fixture
def csrf_app(make_app):
    """An app with CSRF protection on, as in production."""
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def new_table(client, players=("Ann", "Ben", "Cat"), schedule="all", title=""):
    """Create a table through the home-page form; returns (view_url, edit_url)."""
    data = {f"seat{i}": name for i, name in enumerate(players, 1)}
    data["opt-schedule"] = schedule
    data["title"] = title
    response = client.post("/new/rummathon-royale", data=data)
    assert response.status_code == 303, response.data
    edit_url = response.headers["Location"]
    view_url = edit_url.split("?")[0]
    return view_url, edit_url


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


@pytest.fixture
def live_server(tmp_path):
    """The real app served on a free loopback port, in a thread, with CSRF on."""
    app = create_app({
        "DATABASE": str(tmp_path / "live.sqlite"),
        "SECRET_KEY": "live-secret",
    })
    with served(app) as base:
        yield base


#: How long a browser test waits for a condition (an element, a text, a page) before failing.
BROWSER_WAIT_MS = 30_000


@pytest.fixture(scope="session")
def chromium():
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium); browser tests skipped")
    from playwright.sync_api import expect, sync_playwright

    # Waits are on conditions, with margins for a loaded two-core machine: a busy server can take
    # seconds to answer, and a condition met sooner ends the wait sooner.
    expect.set_options(timeout=BROWSER_WAIT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                  "--no-first-run", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium):
    """A factory of fresh phone-sized browser contexts (each its own cookies)."""
    contexts = []

    def make(**kwargs):
        # Layout and taps are in CSS pixels, the same at any density: one device pixel to each keeps
        # Chromium's software drawing (no GPU here) a quarter of a 2x screen's.
        kwargs.setdefault("viewport", PHONE)
        context = chromium.new_context(device_scale_factor=1, is_mobile=True, has_touch=True, **kwargs)
        context.set_default_timeout(BROWSER_WAIT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def speaking_app(make_app):
    """An app offering French, Hindi and the test-only pseudo-language (core.messages.PSEUDO)."""
    return make_app(WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False, LANGUAGES="fr hi qps")
