"""Indian Rummy referee: is this a valid declaration, and what would the hand count (IR-4 to IR-6)?

Given 13 cards, the arranger finds the best arrangement (a declaration when there is
one); given groups, they are judged as laid down.

>>> answer = declaration({"wild": "7", "groups": [["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"],
...                                               ["QC", "QD", "QS"], ["9H", "10H", "JH"]]})
>>> answer["valid"], answer["kinds"], answer["count"]
(True, ['pure', 'impure', 'set', 'pure'], 0)
>>> answer = declaration({"wild": "JK", "cards": ["AS", "2H", "3H", "5D", "6D", "7D", "KC", "KS", "KH", "9C",
...                                              "10C", "JC", "4S"]})
>>> answer["valid"], answer["groups"][0], answer["count"]
(False, ['5D', '6D', '7D'], 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.cards import Card, CardError, format_cards, parse_card, said
from ..core.messages import Text, say, say_n
from ..games.base import InputError, Problems, is_whole_number
from ..games.indian_rummy import (
    CAP,
    HAND_SIZE,
    MAX_DECKS,
    GroupKind,
    best_arrangement,
    card_value,
    check_decks,
    check_declaration,
    count_detail,
    group_line,
    wild_rank_of,
)

DECLARATION_FIELDS = {"wild", "cards", "groups", "loose", "decks"}
#: IR-1: a table has at most three decks, so no hand can hold a fourth copy of a card.
DEFAULT_DECKS = 3


def _cards(raw: object, where: str, found: Problems, places: list[tuple[Card, str, str]]) -> list[Card]:
    if not isinstance(raw, list):
        found.add(where, say("give the cards as a list of cards, such as KS, 10H and JK"))
        return []
    cards = []
    for k, text in enumerate(raw):
        try:
            card = parse_card(text, allow_joker=True)
        except CardError as err:
            found.add(f"{where}[{k}]", err.args[0])
            continue
        cards.append(card)
        places.append((card, f"{where}[{k}]", where.split("[")[0]))
    return cards


def _valid_line(declaration: Any) -> Text:
    """IR-5's verdict on a valid declaration, as a sentence.

    >>> _valid_line(check_declaration([["AH", "2H", "3H"], ["5S", "6S", "7D", "8S"], ["QC", "QD", "QS"],
    ...                                ["9H", "10H", "JH"]], "7"))
    'A valid declaration: 13 cards in groups, 3 sequences, 2 pure (IR-5)'
    """
    return say("A valid declaration: {cards} cards in groups, {sequences} sequences, {pure} pure (IR-5)",
               cards=declaration.cards, sequences=declaration.sequences, pure=declaration.pure)


def _group_lines(groups: Sequence[Sequence[Card]], kinds: Sequence[GroupKind]) -> list[str]:
    return [group_line(g, k) for g, k in zip(groups, kinds, strict=True)]


def _count_line(counted: Sequence[Card], raw: int, lives: bool, wild: str) -> Text:
    added = " + ".join(f"{c} {card_value(c, wild)}" for c in counted) or say("no cards")
    cap = say(", capped at {cap}", cap=CAP) if raw > CAP else ""
    which = (say("two sequences, one of them pure: only the cards outside valid groups count")
             if lives else say("not two sequences with a pure one: all {cards} cards count", cards=len(counted)))
    return say("As a losing hand it counts {count}: {which}: {added} = {raw}{cap} (IR-3, IR-6)", count=min(raw, CAP),
               which=which, added=added, raw=raw, cap=cap)


def declaration(body: object) -> dict[str, Any]:
    """IR-4 to IR-6: judge a declaration from its groups, or find the best one for 13 cards.

    >>> answer = declaration({"wild": "5", "groups": [["4C", "5C", "6C"], ["KS", "KD", "KH"], ["2D", "2S", "2C"],
    ...                                               ["9H", "9H", "9S", "JK"]]})
    >>> answer["valid"], answer["kinds"]
    (False, ['pure', 'set', 'set', 'invalid'])
    >>> for line in answer["explain"][-3:-1]:
    ...     print(line)
    Not a valid declaration: 9H 9H 9S JK is not a valid group (IR-4, IR-5)
    Not a valid declaration: only 1 sequence; a declaration needs at least two (IR-5)
    >>> answer["count"], answer["explain"][-1][:75]
    (73, 'As a losing hand it counts 73: not two sequences with a pure one: all 13 ca')
    """
    found = Problems()
    if not isinstance(body, Mapping):
        found.add("$", say("the body must be a JSON object: {cards} or {groups}", cards='{"wild": "7", "cards": [...]}',
                           groups='{"wild": "7", "groups": [[...], ...]}'))
        found.raise_if_any()
    for key in body:
        if key not in DECLARATION_FIELDS:
            found.add(key, say("unknown field {field}; this question takes {fields}", field=said(key),
                               fields=", ".join(sorted(DECLARATION_FIELDS))))
    wild = _wild(body, found)
    decks = _decks(body, found)
    has_cards, has_groups = "cards" in body, "groups" in body or "loose" in body
    if has_cards == has_groups:
        found.add("$", say("give either the 13 cards (to find the best arrangement) or the groups laid down, not both "
                           "(IR-5)") if has_cards else say("give the 13 cards, or the groups laid down (IR-5)"))
        found.raise_if_any()
    if has_cards:
        return _best(_hand(body, decks, found), wild)
    groups, loose = _laid_down(body, decks, found)
    return _judge(groups, loose, wild)


def _wild(body: Mapping[str, Any], found: Problems) -> str | None:
    """IR-2: the wild rank from the card cut, or None with the problem recorded."""
    wild = None
    if body.get("wild") is None:
        found.add("wild", say("give the wild joker: the rank of the card cut (2-10, J, Q, K, A), or JK when a "
                              "printed Joker was cut (IR-2)"))
    else:
        try:
            wild = wild_rank_of(str(body["wild"]) if is_whole_number(body["wild"]) else body["wild"])
        except (ValueError, AttributeError) as err:
            found.add("wild", say("{error} (IR-2)", error=err.args[0]) if isinstance(err, ValueError) else
                      say("{cut} is not a rank: the wild joker is 2-10, J, Q, K, A, or JK (IR-2)",
                          cut=said(body["wild"])))
    return wild


def _decks(body: Mapping[str, Any], found: Problems) -> int:
    """IR-1: how many decks the table plays with; left out (or wrong, with the problem recorded), the most."""
    decks = body.get("decks", DEFAULT_DECKS)
    if decks is None:
        decks = DEFAULT_DECKS
    if not is_whole_number(decks) or not 1 <= decks <= MAX_DECKS:
        found.add("decks", say("decks must be a whole number from 1 to {most} (IR-1)", most=MAX_DECKS))
        decks = DEFAULT_DECKS
    return decks


def _hand(body: Mapping[str, Any], decks: int, found: Problems) -> list[Card]:
    """The 13 cards to arrange (IR-5), no card more often than the decks hold; every problem raised at once."""
    places: list[tuple[Card, str, str]] = []
    cards = _cards(body["cards"], "cards", found, places)
    if isinstance(body["cards"], list) and len(body["cards"]) != HAND_SIZE:
        n = len(body["cards"])
        found.add("cards", say_n("a hand has {size} cards; {count} was given (IR-5)",
                                 "a hand has {size} cards; {count} were given (IR-5)", n, size=HAND_SIZE))
    check_decks(places, decks, found)
    found.raise_if_any()
    return cards


def _laid_down(body: Mapping[str, Any], decks: int, found: Problems) -> tuple[list[list[Card]], list[Card]]:
    """The groups laid down and the loose cards, 13 in all (IR-5); every problem raised at once."""
    places: list[tuple[Card, str, str]] = []
    raw_groups = body.get("groups", [])
    if not isinstance(raw_groups, list):
        found.add("groups", say("give the groups as a list of groups, each a list of cards such as AH 2H 3H"))
        found.raise_if_any()
    groups = [_cards(g, f"groups[{k}]", found, places) for k, g in enumerate(raw_groups)]
    loose = _cards(body.get("loose", []), "loose", found, places)
    given = sum(len(g) for g in groups) + len(loose)
    if not found and given != HAND_SIZE:
        found.add("groups", say("a hand has {size} cards; the groups and loose cards hold {given} (IR-5)",
                                size=HAND_SIZE, given=given))
    check_decks(places, decks, found)
    found.raise_if_any()
    return groups, loose


def _best(cards: Sequence[Card], wild: str) -> dict[str, Any]:
    best = best_arrangement(cards, wild)
    explain = [say("The cards arranged for the lowest count (IR-6)")] + _group_lines(best.groups, best.kinds)
    if best.valid_declaration:
        explain.append(_valid_line(check_declaration(best.groups, wild)))
    elif best.lives:
        explain.append(say_n("Not a valid declaration: {cards} stays outside the groups, and a declaration puts all 13 "
                             "cards in groups (IR-5)",
                             "Not a valid declaration: {cards} stay outside the groups, and a declaration puts all 13 "
                             "cards in groups (IR-5)", len(best.loose), cards=format_cards(best.loose)))
    else:
        explain.append(say("Not a valid declaration: no arrangement of these cards gives two sequences with a pure "
                           "one (IR-5)"))
    explain.append(_count_line(best.loose, best.raw, best.lives, wild))
    return {
        "valid": best.valid_declaration,
        "groups": [[str(c) for c in g] for g in best.groups],
        "kinds": [k.kind for k in best.kinds],
        "loose": [str(c) for c in best.loose],
        "count": best.count,
        "wild_rank": wild,
        "explain": explain,
    }


def _judge(groups: Sequence[Sequence[Card]], loose: Sequence[Card], wild: str) -> dict[str, Any]:
    verdict = check_declaration(groups, wild)
    counted = count_detail(groups, loose, wild)
    explain = _group_lines(groups, verdict.kinds)
    if loose:
        explain.append(say("Loose: {cards} (IR-6)", cards=format_cards(loose)))
    if verdict.valid:
        explain.append(_valid_line(verdict))
    else:
        for group, kind in zip(groups, verdict.kinds, strict=True):
            if not kind.valid:
                explain.append(say("Not a valid declaration: {cards} is not a valid group (IR-4, IR-5)",
                                   cards=format_cards(group)) if group else
                               say("Not a valid declaration: (empty group) is not a valid group (IR-4, IR-5)"))
        for reason in verdict.reasons:
            if "(IR-5)" in reason and " is not a valid group" not in reason:
                explain.append(say("Not a valid declaration: {reason}", reason=reason))
    explain.append(_count_line(counted.counted, counted.raw, counted.lives, wild))
    return {
        "valid": verdict.valid,
        "groups": [[str(c) for c in g] for g in groups],
        "kinds": [k.kind for k in verdict.kinds],
        "loose": [str(c) for c in loose],
        "count": 0 if verdict.valid else counted.count,
        "wild_rank": wild,
        "explain": explain,
    }


__all__ = ["InputError", "declaration"]
