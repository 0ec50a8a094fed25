"""What an operator of a hosted Courtier watches, for Prometheus: ``GET /metrics``.

Set ``METRICS_TOKEN`` (``COURTIER_METRICS_TOKEN``) and Prometheus scrapes each app server with
``Authorization: Bearer <token>``; without the setting nothing is counted and ``/metrics`` is a 404,
so a venue's server spends nothing on it. The proxy in front keeps ``/metrics`` from the public too
(docs/ops.md's nginx sample).

* ``courtier_requests_total{route, method, status}`` and ``courtier_request_seconds{route}``: every
  answer, the board refreshes answered before Flask (companion.web.board_poll) among them. A route is the
  view's name (``tables.board``), so the labels stay few whatever addresses visitors make up; an outage's
  503 is counted under the view that was asked for, and only an address no view answers is ``unmatched``.
* ``courtier_database_connections_in_use``, ``courtier_database_wait_seconds`` (how long a request
  waited for a connection) and ``courtier_database_unavailable_total`` (requests answered 503 because
  the database did not answer).
* ``courtier_heavy_jobs{pool, state="running"|"waiting"}`` and ``courtier_heavy_refused_total{pool}``: the
  pools of sheets and packs (``printing``) and of the referee's checks (``checks``, companion.web.heavy), and
  the requests they turned away busy.

Under gunicorn each worker writes its counts to files in ``PROMETHEUS_MULTIPROC_DIR`` (gunicorn.conf.py
makes one), and a scrape of any worker adds up all of them.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Response, abort, request

#: Where a view's name is left for the count (board_poll sets it for the refreshes it answers itself).
ROUTE = "courtier.route"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"})
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The app's metrics, made once per process (prometheus_client keeps them in its registry)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.requests = Counter("courtier_requests", "Requests answered, by route, method and status",
                                ["route", "method", "status"])
        self.seconds = Histogram("courtier_request_seconds", "Time to answer a request, by route", ["route"],
                                 buckets=BUCKETS)
        self.in_use = Gauge("courtier_database_connections_in_use", "Database connections lent to requests",
                            multiprocess_mode="livesum")
        self.waited = Histogram("courtier_database_wait_seconds", "Time a request waited for a database connection",
                                buckets=(0.001, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0))
        self.unavailable = Counter("courtier_database_unavailable", "Requests the database did not answer in time")
        self.heavy = Gauge("courtier_heavy_jobs", "Jobs in the heavy pools (printing: sheets, packs, plans; "
                           "checks: the referee's whole-deal checks), by pool and state", ["pool", "state"],
                           multiprocess_mode="livesum")
        self.refused = Counter("courtier_heavy_refused", "Heavy requests turned away because the pool was full",
                               ["pool"])


_METRICS: Metrics | None = None


def metrics() -> Metrics:
    global _METRICS
    if _METRICS is None:
        _METRICS = Metrics()
    return _METRICS


class CountedRequests:
    """WSGI, outermost: counts and times every answer by its route and status."""

    def __init__(self, app: Callable[..., Iterable[bytes]], counted: Metrics):
        self.app, self.counted = app, counted

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        status = ["500"]

        def answer(line: str, headers: list, *exc_info: Any):
            status[0] = line[:3]
            return start_response(line, headers, *exc_info)

        try:
            return self.app(environ, answer)
        finally:
            route = environ.get(ROUTE, "unmatched")
            method = environ.get("REQUEST_METHOD", "")
            self.counted.requests.labels(route, method if method in METHODS else "other", status[0]).inc()
            self.counted.seconds.labels(route).observe(time.perf_counter() - started)


class CountedConnections:
    """The database pool as the app uses it, its lending counted (every name not here is the pool's own)."""

    def __init__(self, connections: Any, counted: Metrics):
        self.connections, self.counted = connections, counted

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connections, name)

    def take(self, timeout: float | None = None):
        from ..storage.db import unavailable_errors

        started = time.perf_counter()
        try:
            db = self.connections.take(timeout)
        except unavailable_errors():
            self.counted.unavailable.inc()
            raise
        finally:
            self.counted.waited.observe(time.perf_counter() - started)
        self.counted.in_use.inc()
        return db

    def give_back(self, db: Any) -> None:
        self.counted.in_use.dec()
        self.connections.give_back(db)


def _heavy_observer(counted: Metrics, name: str) -> Callable[[Any, bool], None]:
    def observe(pool: Any, refused: bool) -> None:
        if refused:
            counted.refused.labels(name).inc()
        counted.heavy.labels(name, "running").set(pool.jobs_running)
        counted.heavy.labels(name, "waiting").set(pool.jobs_waiting)
    return observe


def registry():
    """Every worker's counts under gunicorn (PROMETHEUS_MULTIPROC_DIR), else this process's."""
    from prometheus_client import REGISTRY, CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    combined = CollectorRegistry()
    MultiProcessCollector(combined)
    return combined


def init_app(app: Flask) -> None:
    """Count when METRICS_TOKEN is set; called last, so that the count wraps every other layer."""
    token = app.config.get("METRICS_TOKEN")
    if not token:
        return
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    counted = metrics()
    app.extensions["courtier.db"] = CountedConnections(app.extensions["courtier.db"], counted)
    for name, extension in (("printing", "courtier.heavy"), ("checks", "courtier.checks")):
        pool = app.extensions[extension]
        pool.observer = _heavy_observer(counted, name)
        pool.observer(pool, False)  # every state shown from the start, at 0
    app.wsgi_app = CountedRequests(app.wsgi_app, counted)  # type: ignore[method-assign]

    def name_the_route(endpoint: str | None, values: Any) -> None:
        request.environ[ROUTE] = endpoint or "unmatched"

    # The very first of a request's hooks, before the one that answers an outage found by board_poll and
    # the blueprints' that load the table: an answer any of them gives is counted under its view's name.
    app.url_value_preprocessors.setdefault(None, []).insert(0, name_the_route)

    @app.get("/metrics")
    def scrape():
        sent = request.headers.get("Authorization", "")
        if not secrets.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            abort(404)  # to anyone without the token there is nothing here
        return Response(generate_latest(registry()), mimetype=CONTENT_TYPE_LATEST,
                        headers={"Cache-Control": "no-store"})
