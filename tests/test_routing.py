"""Every app a process makes shares one compiled builder per URL rule (companion/web/routing.py), and
builds the very URLs Werkzeug's own rules build."""

from __future__ import annotations

from flask import url_for
from werkzeug.routing import Map, Rule

from companion import create_app
from companion.storage import db
from companion.web.routing import SharedBuilderRule


def _app(tmp_path, name):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{name}.sqlite"), "SECRET_KEY": "test"})


def test_two_apps_share_each_rules_builder_and_build_the_same_urls(tmp_path):
    first, second = _app(tmp_path, "first"), _app(tmp_path, "second")
    try:
        # Flask adds the static files' rule before an app can choose its rule class.
        builders = {rule.rule: rule._build.__func__ for rule in first.url_map.iter_rules()
                    if rule.endpoint != "static"}
        assert len(builders) > 50
        for rule in second.url_map.iter_rules():
            if rule.endpoint != "static":
                assert isinstance(rule, SharedBuilderRule)
                assert rule._build.__func__ is builders[rule.rule], rule.rule
        urls = []
        for app in (first, second):
            with app.test_request_context():
                urls.append((url_for("tables.show", table_id="Ab3", key="k y"),
                             url_for("tables.edit_hand", table_id="Ab3", slot=7, key="k"),
                             url_for("static", filename="app.js")))
        assert urls[0] == urls[1] == (("/t/Ab3?key=k+y", "/t/Ab3/hands/7/edit?key=k", "/static/app.js"))
    finally:
        db.pool(first).close()
        db.pool(second).close()


def test_a_shared_builder_builds_what_werkzeugs_own_rule_builds():
    """Rules with the same pattern and different defaults or converters each build their own URLs."""
    patterns = [("/p/<int:n>", {}), ("/p/<int:n>", {"n": 3}), ("/p/<n>", {}), ("/a/<path:rest>/b", {}),
                ("/x", {"tab": "one"})]
    for pattern, defaults in patterns:
        ours = Map([SharedBuilderRule(pattern, endpoint="e", defaults=defaults or None)]).bind("h")
        theirs = Map([Rule(pattern, endpoint="e", defaults=defaults or None)]).bind("h")
        for values in ({"n": 3}, {"n": 12, "q": "a b"}, {"rest": "c/d", "z": "1"}, {"tab": "one"}, {}):
            built = []
            for adapter in (ours, theirs):
                try:
                    built.append(adapter.build("e", values))
                except Exception as err:  # noqa: BLE001 - the same refusal either way
                    built.append(type(err).__name__)
            assert built[0] == built[1], (pattern, defaults, values)
