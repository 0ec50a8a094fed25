"""Referees for Battle Royals (two players) and Marriage Royals (three): the Battle (AR-14,
kept by BR-1 and MR-1) and the privileges (AR-15) read with BR-2 or MR-2 and MR-3.

In Battle Royals a player owns only the Royals in their own Spoils; in Marriage Royals also
their House's Kings and Queens married in another player's Spoils (the player is then that
marriage's spouse). The other players are given in seat order from the player's left, since
MR-2 counts marriages in that order.

>>> battle_royals_battle({"cards": ["AS", "2S"]})["card"]
'2S'
>>> answer = marriage_royals_privileges({"house": "S", "spoils": ["JS", "KS"], "others": [
...     {"house": "H", "spoils": ["KH", "QS"]}, {"house": "D", "spoils": []}], "battle_won": True})
>>> answer["royals"], answer["may_take_discard_bundle"]
(['KS', 'QS', 'JS'], True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..core.cards import CardError, parse_suit, said
from ..core.messages import Text, say
from ..games.alliance_royals import ROYAL_RANKS
from ..games.base import InputError, Problem, Problems
from ..games.royals import BATTLE, MARRIAGE, Family, find_marriages
from . import alliance_royals as ar
from .bodies import checked_body

FIELDS = {"house", "spoils", "meld", "hand", "battle_won"}
OTHER_FIELDS = {"house", "spoils"}


def _battle(family: Family, body: object) -> dict[str, Any]:
    if isinstance(body, Mapping) and isinstance(body.get("cards"), list) and len(body["cards"]) > family.seats:
        raise InputError([Problem("cards", say("a Battle in {game} has at most {most} cards, one per player; {count} "
                                               "were given ({rulings})", game=family.title, most=family.seats,
                                               count=len(body["cards"]), rulings=f"{family.ruling}-1"))])
    return ar.battle(body)


def battle_royals_battle(body: object) -> dict[str, Any]:
    """AR-14 for two players: the Battle's two cards in play order."""
    return _battle(BATTLE, body)


def marriage_royals_battle(body: object) -> dict[str, Any]:
    """AR-14 for three players: two or three cards in play order."""
    return _battle(MARRIAGE, body)


def _house(value: object, where: str, missing: Text, found: Problems) -> str | None:
    if value is None:
        found.add(where, missing)
        return None
    try:
        return parse_suit(value)
    except CardError as err:
        found.add(where, ar.card_problem(err))
        return None


def _privileges(family: Family, body: object) -> dict[str, Any]:
    found = Problems()
    fields = FIELDS | ({"others"} if family.marries else set())
    body = checked_body(body, fields, found)
    house = _house(body.get("house"), "house", say("give your Home House: S, H, D or C"), found)
    lists = {key: ar._cards(body.get(key), key, found) for key in ("spoils", "meld", "hand")}
    battle_won = body.get("battle_won")
    if battle_won is not None and not isinstance(battle_won, bool):
        found.add("battle_won", say("battle_won must be true or false"))
    others: list[tuple[str | None, list]] = []
    raw_others = body.get("others")
    if raw_others is None:
        raw_others = []
    elif not isinstance(raw_others, list) or len(raw_others) > family.seats - 1:
        found.add("others", say('give the other two players, from your left, as {shape}',
                                shape='[{"house": "H", "spoils": [...]}, ...]'))
        raw_others = []
    for i, other in enumerate(raw_others):
        at = f"others[{i}]"
        if not isinstance(other, Mapping):
            found.add(at, say("each other player is {shape}", shape='{"house": "H", "spoils": ["QS"]}'))
            continue
        for key in other:
            if key not in OTHER_FIELDS:
                found.add(f"{at}.{key}", say("unknown field {key}; another player has house and spoils", key=said(key)))
        missing = (say("give the House of the player on your left: S, H, D or C") if i == 0 else
                   say("give the House of the player on your right: S, H, D or C"))
        others.append((_house(other.get("house"), f"{at}.house", missing, found),
                       ar._cards(other.get("spoils"), f"{at}.spoils", found)))
    found.raise_if_any()
    ar._check_pack([e for key in lists for e in lists[key]] + [e for _, cards in others for e in cards], found)
    found.raise_if_any()

    spoils, meld, hand = ([c for c, _ in lists[key]] for key in ("spoils", "meld", "hand"))
    explain: list[Text] = []
    owned = Counter(c.rank for c in spoils if c.suit == house and c.rank in ROYAL_RANKS)
    if family.marries:
        seats = ["you", *(f"player {i + 1}" for i in range(len(others)))]
        houses = {"you": house, **{seats[i + 1]: h for i, (h, _) in enumerate(others)}}
        spoils_of = {"you": spoils, **{seats[i + 1]: [c for c, _ in cards] for i, (_, cards) in enumerate(others)}}
        married_on = (say("Married in the Spoils of the player on your left: {cards}; the {card} counts as your "
                          "Royal (MR-2, MR-3)"),
                      say("Married in the Spoils of the player on your right: {cards}; the {card} counts as your "
                          "Royal (MR-2, MR-3)"))
        for i in range(len(others)):
            for m in find_marriages(seats, houses, spoils_of, seats[i + 1]):
                if "you" in m.spouses:
                    owned[m.other.rank] += 1
                    explain.append(say(married_on[i].template, cards=m.cards(), card=m.other))
        owned_where = say("in your Spoils, or married in another player's Spoils")
    else:
        owned_where = say("in your Spoils: in Battle Royals nobody else's count")
    royals = [f"{rank}{house}" for rank in ROYAL_RANKS for _ in range(owned[rank])]
    ruling = "MR-3, AR-7" if family.marries else "BR-2, AR-7"
    if royals:
        explain.append(say("Royals owned: {cards} ({rulings})", cards=" ".join(royals), rulings=ruling))
    else:
        explain.append(say("No Royal of {house} owned {where} ({rulings})", house=ar.HOUSE_NAMES[house],
                           where=owned_where, rulings=ruling))
    return ar.verdict(house, owned, royals, spoils, meld, hand, battle_won, explain, owned_where)


def battle_royals_privileges(body: object) -> dict[str, Any]:
    """AR-15 with BR-2: from the player's own Spoils only."""
    return _privileges(BATTLE, body)


def marriage_royals_privileges(body: object) -> dict[str, Any]:
    """AR-15 with MR-2 and MR-3: the player's Spoils and the other players' (from the left)."""
    return _privileges(MARRIAGE, body)


REFEREES = {
    ("battle-royals", "battle"): battle_royals_battle,
    ("battle-royals", "privileges"): battle_royals_privileges,
    ("marriage-royals", "battle"): marriage_royals_battle,
    ("marriage-royals", "privileges"): marriage_royals_privileges,
}

__all__ = ["REFEREES", "battle_royals_battle", "battle_royals_privileges", "marriage_royals_battle",
           "marriage_royals_privileges"]
