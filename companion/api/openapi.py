"""The OpenAPI description of the public JSON API (docs/api.md), served at ``GET /api/v1/openapi.json``.

It is built from the registries on every call: a game added to ``games.ENGINES`` joins the
``game`` enum and gets its own request example, and a referee added to ``referee.REFEREES``
gets its own path. :data:`REFEREE_BODIES` holds what docs/api.md says each referee takes and
answers; a referee missing there is still described, with a body that is any JSON object.

The schemas are strict about what every request needs at the top level (the fields, their
types, the enum of games) and permissive below that, where each engine reads many shapes
(rounds, options) and reports what it cannot read as a 422 naming the place.

>>> spec = description()
>>> spec["openapi"], sorted(spec["paths"])[:3]
('3.1.0', ['/api/v1/clubs', '/api/v1/clubs/{club_id}', '/api/v1/games'])
>>> "rummathon-royale" in spec["components"]["schemas"]["GameRequest"]["properties"]["game"]["enum"]
True
"""

from __future__ import annotations

import copy
from importlib import metadata
from typing import Any

from .. import games, referee
from . import openapi_clubs, openapi_tables

JSON = "application/json"
SCHEMAS = "#/components/schemas/"

#: What docs/api.md says each referee question takes and answers, keyed like ``referee.REFEREES``.
#: ``example`` is a body from docs/api.md that gets a 200.
REFEREE_BODIES: dict[tuple[str, str], dict[str, Any]] = {}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": SCHEMAS + name}


def _strings(description: str = "", **limits: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": {"type": "string"}, **limits}
    if description:
        schema["description"] = description
    return schema


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema, or JSON null (which the referees read as "left out")."""
    out = copy.deepcopy(schema)
    out["type"] = [out["type"], "null"]
    return out


CARDS = "cards as written in docs/api.md (e.g. AS, 10H, QD; upper or lower case)"
EXPLAIN = _strings("the steps, for people, each naming the ruling it applies")
#: One line of a why as data (docs/api.md, Languages): its message id, its values, the rulings it cites.
WHY_LINE = {
    "type": "object", "required": ["id", "rulings"],
    "properties": {
        "id": {"type": ["string", "null"], "description": "the message's id: its English template, {fields} "
                                                          "named in values (null for sentences joined, in parts)"},
        "values": {"type": "object", "description": "each field's value: a number, a name, a card, a list, or "
                                                     "a message in the same shape"},
        "parts": {"type": "array", "description": "sentences said one after another, each in the same shape"},
        "rulings": _strings("the ruling ids the line cites"),
    },
}
HOUSE_WORDS = _strings("house words, letters A to Z only (RY-17)", maxItems=1000)
HOUSE = {"type": "string", "description": "a Home House: S, H, D or C (the suit symbols are accepted too)"}

REFEREE_BODIES[("alliance-royals", "battle")] = {
    "summary": "Alliance Royals: who wins a Battle (AR-14)",
    "request": {
        "type": "object", "required": ["cards"], "additionalProperties": False,
        "properties": {"cards": _strings(f"the 2 to 4 {CARDS} of one Battle, the lead first", minItems=2,
                                         maxItems=4)},
    },
    "answer": {
        "type": "object", "required": ["winner", "card", "explain"],
        "properties": {"winner": {"type": "integer", "minimum": 0, "maximum": 3,
                                  "description": "the position of the winning card in cards, from 0"},
                       "card": {"type": "string"}, "explain": EXPLAIN},
    },
    "example": {"cards": ["AS", "2S", "KS", "10H"]},
}

REFEREE_BODIES[("alliance-royals", "privileges")] = {
    "summary": "Alliance Royals: what a player may do (AR-15)",
    "request": {
        "type": "object", "required": ["house", "ally_house"], "additionalProperties": False,
        "properties": {
            "house": HOUSE, "ally_house": HOUSE,
            **{key: _nullable(_strings(f"{what}: {CARDS}; empty when left out"))
               for key, what in (("spoils", "the player's Spoils"), ("ally_spoils", "the ally's Spoils"),
                                 ("meld", "the player's Meld"), ("hand", "the player's Hand"))},
            "battle_won": {"type": ["boolean", "null"],
                           "description": "true once the player has won the Battle that would end the round"},
        },
    },
    "answer": {
        "type": "object",
        "required": ["may_meld", "may_take_discard_bundle", "may_end_round", "end_round_needs", "assassins",
                     "may_change_house", "royals", "explain"],
        "properties": {
            "may_meld": {"type": "boolean"}, "may_take_discard_bundle": {"type": "boolean"},
            "may_end_round": {"type": "boolean"}, "end_round_needs": _strings(),
            "assassins": {"type": "array", "items": {
                "type": "object", "required": ["card", "strikes"],
                "properties": {"card": {"type": "string"}, "strikes": {"type": "string"}}}},
            "may_change_house": {"type": "array", "items": {
                "type": "object", "required": ["card", "house"],
                "properties": {"card": {"type": "string"}, "house": {"type": "string"}}}},
            "royals": _strings(), "explain": EXPLAIN,
        },
    },
    "example": {"house": "S", "ally_house": "D", "spoils": ["KS", "JS", "AH", "9C"], "ally_spoils": ["KD", "QS"],
                "meld": ["9C", "9C"], "hand": ["4H"], "battle_won": True},
}

# Battle Royals and Marriage Royals: the Battle of AR-14 with one card per player, and AR-15 from
# the player's own Spoils (BR-2) or with the other two players' Spoils from the player's left (MR-3).
for _slug, _title, _seats in (("battle-royals", "Battle Royals", 2), ("marriage-royals", "Marriage Royals", 3)):
    _battle = copy.deepcopy(REFEREE_BODIES[("alliance-royals", "battle")])
    _battle["summary"] = f"{_title}: who wins a Battle (AR-14)"
    _battle["request"]["properties"]["cards"].update(maxItems=_seats, description=(
        f"the 2 to {_seats} {CARDS} of one Battle, the lead first"))
    _battle["example"] = {"cards": ["AS", "2S", "KS"][:_seats]}
    REFEREE_BODIES[(_slug, "battle")] = _battle
    _privileges = copy.deepcopy(REFEREE_BODIES[("alliance-royals", "privileges")])
    _privileges["summary"] = f"{_title}: what a player may do (AR-15)"
    _properties = _privileges["request"]["properties"]
    del _properties["ally_house"], _properties["ally_spoils"]
    _privileges["request"]["required"] = ["house"]
    _privileges["example"] = {"house": "S", "spoils": ["KS", "QS", "JS"], "hand": [], "battle_won": True}
    if _seats == 3:
        _properties["others"] = {"type": ["array", "null"], "maxItems": 2, "description": (
            "the other two players from the player's left, each with house and spoils (MR-2, MR-3)"),
            "items": {"type": "object", "required": ["house"], "additionalProperties": False,
                      "properties": {"house": HOUSE, "spoils": _nullable(_strings(CARDS))}}}
        _privileges["example"] = {"house": "S", "spoils": ["JS", "KS"], "battle_won": True, "others": [
            {"house": "H", "spoils": ["KH", "QS"]}, {"house": "D", "spoils": []}]}
    REFEREE_BODIES[(_slug, "privileges")] = _privileges

REFEREE_BODIES[("rally-the-king", "trick")] = {
    "summary": "Rally the King: who wins a trick (RK-11)",
    "request": {
        "type": "object", "required": ["cards"], "additionalProperties": False,
        "properties": {
            "cards": _strings("the 2 to 4 cards of one trick, the lead first: T1 to T21, F, or rank K Q C V 10 9 8 7 "
                              "then suit", minItems=2, maxItems=4),
            "no_trumps": {"type": ["boolean", "null"], "description": "the hand is played at No trumps"},
        },
    },
    "answer": {
        "type": "object", "required": ["winner", "card", "cards", "explain"],
        "properties": {"winner": {"type": "integer", "minimum": 0, "maximum": 3}, "card": {"type": "string"},
                       "cards": _strings(minItems=2, maxItems=4), "explain": EXPLAIN},
    },
    "example": {"cards": ["T5", "KH", "F", "T1"], "no_trumps": False},
}

_HAND = _strings(f"{CARDS}; a printed joker is JK")
REFEREE_BODIES[("indian-rummy", "declaration")] = {
    "summary": "Indian Rummy: is this a valid declaration? (IR-4 to IR-6)",
    "request": {
        "type": "object", "required": ["wild"], "additionalProperties": False,
        "description": "Give either cards (Courtier arranges them) or groups and loose (judged as given), not both.",
        "properties": {
            "wild": {"type": ["string", "integer"], "description": "the rank cut: 2 to 10, J, Q, K, A, or JK"},
            "cards": {**_HAND, "minItems": 13, "maxItems": 13},
            "groups": {"type": "array", "items": _HAND, "description": "the groups as laid down"},
            "loose": _HAND,
            "decks": {"type": ["integer", "null"], "minimum": 1, "maximum": 4, "description": "decks in play (3)"},
        },
        "oneOf": [{"required": ["cards"]}, {"anyOf": [{"required": ["groups"]}, {"required": ["loose"]}]}],
    },
    "answer": {
        "type": "object", "required": ["valid", "groups", "kinds", "loose", "count", "wild_rank", "explain"],
        "properties": {
            "valid": {"type": "boolean"}, "groups": {"type": "array", "items": _strings()},
            "kinds": {"type": "array", "items": {"type": "string", "enum": ["pure", "impure", "set", "invalid"]}},
            "loose": _strings(), "count": {"type": "integer", "minimum": 0, "maximum": 80},
            "wild_rank": {"type": "string"}, "explain": EXPLAIN,
        },
    },
    "example": {"wild": "4", "cards": ["KS", "9H", "2S", "7D", "4D", "KC", "3S", "QH", "6D", "4S", "10H", "KD",
                                       "8D"]},
}

_WORD = {"type": "string", "minLength": 1, "maxLength": 40}
REFEREE_BODIES[("royalty", "word")] = {
    "summary": "Royalty: is it a word? (RY-17)",
    "request": {
        "type": "object", "required": ["word"], "additionalProperties": False,
        "properties": {"word": {**_WORD, "description": "one word as typed"},
                       "allow": _nullable(HOUSE_WORDS), "deny": _nullable(HOUSE_WORDS)},
    },
    "answer": {
        "type": "object", "required": ["word", "valid", "explain"],
        "properties": {"word": {"type": "string"}, "valid": {"type": "boolean"}, "explain": EXPLAIN},
    },
    "example": {"word": "zebra"},
}

REFEREE_BODIES[("royalty", "capture")] = {
    "summary": "Royalty: does a capture work? (RY-7, RY-17)",
    "request": {
        "type": "object", "required": ["target", "word"], "additionalProperties": False,
        "properties": {"target": {**_WORD, "description": "the word on the table, letters A to Z"},
                       "word": {**_WORD, "description": "the new word as typed"},
                       "allow": _nullable(HOUSE_WORDS), "deny": _nullable(HOUSE_WORDS)},
    },
    "answer": {
        "type": "object", "required": ["target", "word", "valid", "added", "warnings", "explain"],
        "properties": {"target": {"type": "string"}, "word": {"type": "string"}, "valid": {"type": "boolean"},
                       "added": {"type": "string"}, "warnings": _strings(), "explain": EXPLAIN},
    },
    "example": {"target": "EAR", "word": "BEARS"},
}

REFEREE_BODIES[("royalty", "monarchy")] = {
    "summary": "Royalty: the Monarchy checker (RY-16)",
    "request": {
        "type": "object", "required": ["dealt", "words"],
        "properties": {
            "dealt": {"type": ["string", "array"], "items": {"type": "string"},
                      "description": "the 25 cards dealt, as one string of cards or a list of them"},
            "words": {**_strings("the words made, each as its cards (a Knave as * and its letter, e.g. *O); "
                                 "at most 25, each of at most 25 cards"), "maxItems": 25},
        },
    },
    "answer": {
        "type": "object", "required": ["valid", "solved", "words", "unused", "unused_count", "explain"],
        "properties": {
            "valid": {"type": "boolean"}, "solved": {"type": "boolean"},
            "words": {"type": "array", "items": {
                "type": "object", "required": ["word", "cards", "royalty", "uses_dealt_cards", "valid"],
                "properties": {"word": {"type": "string"}, "cards": {"type": "string"},
                               "royalty": {"type": "boolean"}, "uses_dealt_cards": {"type": "boolean"},
                               "valid": {"type": "boolean"}}}},
            "unused": _strings(), "unused_count": {"type": "integer", "minimum": 0}, "explain": EXPLAIN,
        },
    },
    "example": {"dealt": "Zb Cr Rr Sb Ob Eb Ar Tb Yr * Lr Bb Dr Ab Mr Rb Ar Lb Ab Nb Tr Er Eb Rr Yb",
                "words": ["Cr Ar Lr Mr", "Zb Eb Bb Rb Ab", "Rr Ob Yr Ab Lb Tr Yb", "Dr Ar Rr Er", "Sb Tb *O Nb Eb"]},
}

REFEREE_BODIES[("rummy-royal", "poker")] = {
    "summary": "Rummy Royal: who wins the poker stage, from each player's cards (RM-9)",
    "request": {
        "type": "object", "required": ["hands"], "additionalProperties": False,
        "properties": {"hands": {
            "type": "object", "minProperties": 2, "maxProperties": 9,
            "description": "each player's name to their cards: 5 to 13 " + CARDS,
            "additionalProperties": _strings(minItems=5, maxItems=13)}},
    },
    "answer": {
        "type": "object", "required": ["winners", "best", "explain"],
        "properties": {
            "winners": _strings("the player or players with the best five cards", minItems=1),
            "best": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["cards", "rank", "words"],
                "properties": {"cards": _strings(minItems=5, maxItems=5), "words": {"type": "string"},
                               "rank": {"type": "string", "enum": [
                                   "straight flush", "four of a kind", "full house", "flush", "straight",
                                   "three of a kind", "two pair", "one pair", "high card"]}}}},
            "explain": EXPLAIN,
        },
    },
    "example": {"hands": {"Ann": ["KH", "KD", "QS", "QC", "7H"], "Ben": ["KS", "KC", "QH", "QD", "9S"]}},
}

#: A referee that REFEREE_BODIES does not know yet: any object in, any object out.
UNDESCRIBED = {"summary": "", "request": {"type": "object"}, "answer": {"type": "object"}}


def _version() -> str:
    try:
        return metadata.version("courtier")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "0.0.0"


def _names(count: int) -> list[str]:
    return [f"Player {i}" for i in range(1, count + 1)]


def _schemas() -> dict[str, Any]:
    slugs = list(games.ENGINES)
    return {
        **_problem_schemas(),
        "GameRequest": _game_request_schema(slugs),
        "ScoredRound": _scored_round_schema(),
        "ScoredGame": _scored_game_schema(slugs),
        "GameList": _game_list_schema(slugs),
    }


def _problem_schemas() -> dict[str, Any]:
    return {
        "Problem": {
            "type": "object", "required": ["where", "message"], "additionalProperties": False,
            "properties": {
                "where": {"type": "string", "description": "the place in the request: $ for the body as a whole, "
                                                           "or a path such as players[1] or rounds[0].left.Cat"},
                "message": {"type": "string", "description": "what is wrong, naming the ruling where one applies"},
            },
        },
        "Errors": {
            "type": "object", "required": ["errors"], "additionalProperties": False,
            "description": "Everything found wrong with the request, in one stage (docs/api.md, Errors).",
            "properties": {"errors": {"type": "array", "minItems": 1, "items": _ref("Problem")}},
        },
    }


def _game_request_schema(slugs: list[str]) -> dict[str, Any]:
    engines = games.ENGINES.values()
    defaults = "; ".join(f"{e.SLUG}: {', '.join(e.OPTIONS) or 'none'}" for e in engines)
    seats = "; ".join(f"{e.TITLE} {e.MIN_PLAYERS}" + (f" to {e.MAX_PLAYERS}" if e.MAX_PLAYERS != e.MIN_PLAYERS
                                                          else "") for e in engines)
    return {
        "type": "object", "required": ["game", "players"],
        "description": "A whole game so far. Fields not listed here are ignored.",
        "properties": {
            "game": {"type": "string", "enum": slugs},
            "players": {
                "type": "array", "minItems": min(e.MIN_PLAYERS for e in engines),
                "maxItems": max(e.MAX_PLAYERS for e in engines),
                "items": {"type": "string", "minLength": 1, "maxLength": games.MAX_NAME_LENGTH},
                "description": f"the names in seat order, 1 to {games.MAX_NAME_LENGTH} characters once trimmed, "
                               f"no two the same ignoring case; as many as the game seats: {seats}",
            },
            "options": {
                "type": ["object", "null"],
                "description": "house rules; one left out (or null for all) takes its default. "
                               f"Options by game: {defaults}",
            },
            "rounds": {
                "type": "array", "items": {"type": "object"},
                "description": "the rounds so far, in order; each game's round shape is in docs/api.md",
            },
            "joined": {
                "type": ["object", "null"], "additionalProperties": {"type": "integer", "minimum": 1},
                "description": "players seated late, each with the first round they play (counted from 1, at "
                               "most one more than the rounds given); Rummathon Royale, Indian Rummy's points and "
                               "pool rummy, and Royalty (not a Joust, not with coalitions) take them",
            },
        },
    }


def _scored_round_schema() -> dict[str, Any]:
    return {
        "type": "object", "required": ["points", "explain", "detail"],
        "properties": {
            "points": _whole_per_name("each player's points for this round"),
            "side_points": _whole_per_name("team games: each team's points"),
            "explain": {"type": "object", "additionalProperties": EXPLAIN},
            "why": {"type": "object", "additionalProperties": {"type": "array", "items": WHY_LINE},
                    "description": "each player's explain lines as data, in the same order: the same in every "
                                   "language"},
            "detail": {"type": "object", "description": "the game's own working"},
        },
    }


def _scored_game_schema(slugs: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["game", "players", "options", "sides", "rounds", "totals", "over", "winners", "reason"],
        "properties": {
            "game": {"type": "string", "enum": slugs},
            "players": _strings("the names, trimmed", minItems=1),
            "options": {"type": "object", "description": "the options applied, defaults filled in"},
            "joined": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 2},
                       "description": "the players seated late and the first round each played; absent when "
                                      "nobody joined late"},
            "sides": {"type": ["object", "null"], "additionalProperties": _strings(),
                      "description": "team games: each team's members; null otherwise"},
            "rounds": {"type": "array", "items": _ref("ScoredRound")},
            "totals": _whole_per_name("each player's running total"),
            "side_totals": _whole_per_name("team games: each team's running total"),
            "over": {"type": "boolean"},
            "winners": _strings("every winner once the game is over; empty before"),
            "reason": {"type": ["string", "null"], "description": "why the game ended; null before that"},
            "standing": {"type": "object", "description": "the game's standing; its shape depends on the game"},
        },
    }


def _game_list_schema(slugs: list[str]) -> dict[str, Any]:
    return {
        "type": "object", "required": ["games"], "additionalProperties": False,
        "properties": {"games": {"type": "array", "items": {
            "type": "object", "required": ["slug", "title", "min_players", "max_players", "options"],
            "properties": {"slug": {"type": "string", "enum": slugs}, "title": {"type": "string"},
                           "min_players": {"type": "integer", "minimum": 1},
                           "max_players": {"type": "integer", "minimum": 1},
                           "options": {"type": "object", "description": "the default options"}},
        }}},
    }


def _whole_per_name(description: str) -> dict[str, Any]:
    """A whole number for each player's (or team's) name: points, totals."""
    return {"type": "object", "additionalProperties": {"type": "integer"}, "description": description}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


ERRORS = _json(_ref("Errors"), "the request cannot be answered: every problem found, each with where and message")
TOO_LARGE = _json(_ref("Errors"), "the body is over 1 MB")


def _score_operation() -> dict[str, Any]:
    examples = {e.SLUG: {"summary": f"{e.TITLE}, not started",
                         "value": {"game": e.SLUG, "players": _names(e.MIN_PLAYERS), "options": {}, "rounds": []}}
                for e in games.ENGINES.values()}
    return {"post": {
        "operationId": "score",
        "summary": "Score a whole game",
        "description": "Send every round played so far; get each round scored, the totals and the outcome. "
                       "Stores nothing; needs no key or CSRF token.",
        "requestBody": {"required": True, "content": {JSON: {"schema": _ref("GameRequest"), "examples": examples}}},
        "responses": {"200": _json(_ref("ScoredGame"), "the scored game"), "413": TOO_LARGE, "422": ERRORS},
    }}


def _referee_operation(game: str, question: str) -> dict[str, Any]:
    body = REFEREE_BODIES.get((game, question), UNDESCRIBED)
    media: dict[str, Any] = {"schema": body["request"]}
    if "example" in body:
        media["example"] = body["example"]
    return {"post": {
        "operationId": f"referee-{game}-{question}",
        "tags": ["referee"],
        "summary": body["summary"] or f"Referee: {game}/{question}",
        "description": "One question about a single position; stores nothing, needs no key or CSRF token.",
        "requestBody": {"required": True, "content": {JSON: media}},
        "responses": {"200": _json(body["answer"], "the referee's answer"), "413": TOO_LARGE, "422": ERRORS},
    }}


def _unknown_referee_operation() -> dict[str, Any]:
    known = ", ".join(f"{g}/{q}" for g, q in sorted(referee.REFEREES))
    slug = {"type": "string", "pattern": "^[a-z0-9-]+$", "minLength": 1}
    return {"post": {
        "operationId": "referee-unknown",
        "tags": ["referee"],
        "summary": "A referee question Courtier does not answer",
        "description": f"The questions that answer have paths of their own: {known}. Any other game/question is "
                       "a 404 whose single error lists them.",
        "parameters": [{"name": "game", "in": "path", "required": True, "schema": slug},
                       {"name": "question", "in": "path", "required": True, "schema": slug}],
        "requestBody": {"content": {JSON: {"schema": {}}}},
        "responses": {"404": _json(_ref("Errors"), "no referee answers this question"),
                      "200": _json({"type": "object"}, "a question with a path of its own, answered"),
                      "413": TOO_LARGE, "422": ERRORS},
    }}


def description() -> dict[str, Any]:
    """The OpenAPI 3.1 description of the JSON API, from the registries as they are now."""
    paths: dict[str, Any] = {
        "/api/v1/score": _score_operation(),
        "/api/v1/games": {"get": {
            "operationId": "games", "summary": "The games Courtier scores, with their seats and default options",
            "responses": {"200": _json(_ref("GameList"), "every registered game")},
        }},
        "/api/v1/openapi.json": {"get": {
            "operationId": "openapi", "summary": "This description",
            "responses": {"200": _json({"type": "object", "required": ["openapi", "info", "paths"]},
                                       "the OpenAPI description of the JSON API")},
        }},
    }
    for game, question in sorted(referee.REFEREES):
        paths[f"/api/v1/referee/{game}/{question}"] = _referee_operation(game, question)
    paths["/api/v1/referee/{game}/{question}"] = _unknown_referee_operation()
    paths.update(openapi_tables.paths())
    paths.update(openapi_clubs.paths())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Courtier JSON API",
            "version": _version(),
            "description": "Scoring and referee answers for card games at a real table, and the tables the phones "
                           "keep. docs/api.md is the full contract: card notation, each game's round shape and "
                           "worked examples.",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": {**_schemas(), **openapi_tables.SCHEMAS_OF_TABLES,
                                   **openapi_clubs.SCHEMAS_OF_CLUBS},
                       "securitySchemes": {**openapi_tables.SECURITY_SCHEMES, **openapi_clubs.SECURITY_SCHEMES}},
    }


__all__ = ["REFEREE_BODIES", "description"]
