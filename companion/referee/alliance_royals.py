"""Alliance Royals referees: who wins a Battle (AR-14) and what a player may do (AR-15).

>>> battle({"cards": ["AS", "2S", "KS", "10H"]})["card"]
'2S'
>>> answer = privileges({"house": "S", "ally_house": "D", "spoils": ["KS", "AH"],
...                      "ally_spoils": ["KD", "QS"], "meld": [], "hand": ["5C"], "battle_won": True})
>>> answer["royals"], answer["may_take_discard_bundle"], answer["may_end_round"]
(['KS', 'QS'], True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.cards import Card, CardError, format_cards, parse_card, parse_suit
from ..core.messages import Text, joined, say
from ..games.alliance_royals import (
    HOUSE_WORDS,
    OPTIONS,
    ROYAL_RANKS,
    both,
    copies_in_pack,
    counted_as,
    marriages,
    pair_text,
)
from ..games.base import InputError, Problems
from .bodies import checked_body

HOUSE_NAMES: Mapping[str, str] = HOUSE_WORDS
assert {suit: str(word) for suit, word in HOUSE_WORDS.items()} == OPTIONS["house_names"]
BATTLE_FIELDS = {"cards"}
PRIVILEGE_FIELDS = {"house", "ally_house", "spoils", "ally_spoils", "meld", "hand", "battle_won"}
CARD_LISTS = ("spoils", "ally_spoils", "meld", "hand")
ORDINALS = (say("The first card played, {card}, wins the Battle (AR-14)"),
            say("The second card played, {card}, wins the Battle (AR-14)"),
            say("The third card played, {card}, wins the Battle (AR-14)"),
            say("The fourth card played, {card}, wins the Battle (AR-14)"))


def _cards(raw: object, where: str, found: Problems) -> list[tuple[Card, str]]:
    """Parsed cards with the place each was entered."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        found.add(where, say("give the cards one by one, such as KS and 10H"))
        return []
    cards = []
    for i, text in enumerate(raw):
        try:
            cards.append((parse_card(text), f"{where}[{i}]"))
        except CardError as err:
            found.add(f"{where}[{i}]", card_problem(err))
    return cards


def _check_pack(cards: Sequence[tuple[Card, str]], found: Problems) -> None:
    """AR-1: no more copies of a card than the pack holds; reported at the first copy too many."""
    seen: dict[Card, list[str]] = {}
    first_over: dict[Card, str] = {}
    for card, where in cards:
        places = seen.setdefault(card, [])
        places.append(where)
        if len(places) == copies_in_pack(card.rank) + 1:
            first_over[card] = where
    for card, where in first_over.items():
        found.add(where, say("the pack has only {copies} {card}; {count} were entered ({places}) (AR-1)",
                             copies=copies_in_pack(card.rank), card=card, count=len(seen[card]),
                             places=", ".join(seen[card])))


def card_problem(err: Exception) -> str:
    """What core.cards says of a card it cannot read, as it says it (a sentence in the reader's language)."""
    return err.args[0] if err.args else str(err)


def battle(body: object) -> dict[str, Any]:
    """AR-14: the winner of a Battle, cards given in play order (the first is the lead).

    >>> battle({"cards": ["KS", "AH", "9S"]})["winner"]
    0
    >>> battle({"cards": ["2S", "KS"]})["card"]
    'KS'
    """
    found = Problems()
    body = checked_body(body, BATTLE_FIELDS, found)
    raw = body.get("cards")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        found.add("cards", say("give the 2 to 4 cards of the Battle as a list, in the order they were played"))
        found.raise_if_any()
    played = _cards(raw, "cards", found)
    found.raise_if_any()
    _check_pack(played, found)
    found.raise_if_any()
    cards = [card for card, _ in played]
    winner, explain = battle_winner(cards)
    return {"winner": winner, "card": str(cards[winner]), "explain": explain}


def battle_winner(cards: Sequence[Card]) -> tuple[int, list[str]]:
    """AR-14 on parsed cards: the index of the winning card, and why.

    >>> battle_winner([Card("2", "S"), Card("A", "S")])[0]
    0
    >>> battle_winner([Card("Q", "H"), Card("Q", "H")])[0]
    0
    """
    lead = cards[0]
    suit = HOUSE_NAMES[lead.suit]
    explain: list[Text] = [say("{card} leads: only {house} can win (AR-14)", card=lead, house=suit)]
    off = [c for c in cards[1:] if c.suit != lead.suit]
    if off:
        explain.append(say("Off-suit, so they cannot win: {cards} (AR-14)", cards=format_cards(off)))
    # AR-14: the Sneak rule needs both the 2 and an Ace of the led suit; off-suit ones never count.
    in_suit = [i for i, c in enumerate(cards) if c.suit == lead.suit]
    ranks = {cards[i].rank for i in in_suit}
    if "2" in ranks and "A" in ranks:
        winner = next(i for i in in_suit if cards[i].rank == "2")
        explain.append(say("The Sneak {sneak} and the Ace {ace} of the led suit are both in the Battle: the Sneak "
                           "wins (AR-14)", sneak=cards[winner], ace=f"A{lead.suit}"))
    else:
        best = max(cards[i].strength for i in in_suit)
        winner = next(i for i in in_suit if cards[i].strength == best)  # the first of identical cards
        if len(in_suit) == 1:
            explain.append(say("No other {house} was played: the lead wins (AR-14)", house=suit))
        else:
            explain.append(say("Highest of the led suit: {card} (AR-14)", card=cards[winner]))
            if "2" in ranks and cards[winner].rank != "2":
                explain.append(say("The Sneak {card} beats only an Ace of its suit, and none was played (AR-14)",
                                   card=f"2{lead.suit}"))
            copies = [i for i in in_suit if cards[i] == cards[winner]]
            if len(copies) == 2:
                explain.append(say("{card} was played twice; the first played wins (AR-14)", card=cards[winner]))
            elif len(copies) > 2:
                explain.append(say("{card} was played {count} times; the first played wins (AR-14)",
                                   card=cards[winner], count=len(copies)))
    explain.append(say(ORDINALS[winner].template, card=cards[winner]))
    return winner, explain


def privileges(body: object) -> dict[str, Any]:
    """AR-15: what a player's Spoils, and their ally's, allow them to do.

    >>> answer = privileges({"house": "H", "ally_house": "C", "spoils": ["AH", "AS", "9C"],
    ...                      "meld": ["9C", "9C"], "hand": ["KD"]})
    >>> answer["may_meld"], answer["assassins"], answer["may_change_house"]
    (False, [{'card': 'AH', 'strikes': 'H'}, {'card': 'AS', 'strikes': 'S'}], [{'card': '9C', 'house': 'C'}])
    >>> answer["end_round_needs"][1]
    'no K, Q or J left in hand (it holds KD)'
    """
    found = Problems()
    body = checked_body(body, PRIVILEGE_FIELDS, found)
    houses = {}
    for key in ("house", "ally_house"):
        value = body.get(key)
        if value is None:
            found.add(key, say("choose your Home House (AR-7)") if key == "house" else
                      say("choose your ally's Home House (AR-7)"))
            continue
        try:
            houses[key] = parse_suit(value)
        except CardError as err:
            found.add(key, card_problem(err))
    lists = {key: _cards(body.get(key), key, found) for key in CARD_LISTS}
    battle_won = body.get("battle_won")
    if battle_won is not None and not isinstance(battle_won, bool):
        found.add("battle_won", say("say yes or no: did you win this turn's Battle? (AR-15)"))
    found.raise_if_any()
    _check_pack([entry for key in CARD_LISTS for entry in lists[key]], found)
    found.raise_if_any()

    house, ally_house = houses["house"], houses["ally_house"]
    spoils, ally_spoils, meld, hand = ([c for c, _ in lists[key]] for key in CARD_LISTS)
    name = HOUSE_NAMES[house]
    explain: list[Text] = []

    # AR-7, AR-8: owned Royals.
    own = Counter(c.rank for c in spoils if c.suit == house and c.rank in ROYAL_RANKS)
    ally_married = marriages(ally_spoils, ally_house, house)
    via_ally = Counter({"Q": ally_married[0], "K": ally_married[1]})
    owned = own + via_ally
    royals = [f"{rank}{house}" for rank in ROYAL_RANKS for _ in range(owned[rank])]
    if house == ally_house:
        explain.append(say("You and your ally share a House, so there are no marriages (AR-8)"))
    else:
        for kind in (0, 1):
            if ally_married[kind]:
                explain.append(say("Married in your ally's Spoils: {pair}; the {card} counts as your Royal "
                                   "(AR-7, AR-8)",
                                   pair=counted_as(pair_text(kind, ally_house, house), ally_married[kind]),
                                   card=f"{'Q' if kind == 0 else 'K'}{house}"))
    if royals:
        explain.append(say("Royals owned: {cards} (AR-7)", cards=" ".join(royals)))
    else:
        explain.append(say("No Royal of {house} owned: none in your Spoils or married in your ally's (AR-7)",
                           house=name))
    return verdict(house, owned, royals, spoils, meld, hand, battle_won, explain,
                   say("in your Spoils, or married in your ally's Spoils"))


def verdict(house: str, owned: Counter, royals: list[str], spoils: Sequence[Card], meld: Sequence[Card],
            hand: Sequence[Card], battle_won: object, explain: list[Text], owned_where: str) -> dict[str, Any]:
    """AR-15 once the Royals a player owns are known: the answer the privileges referee gives.

    The Royals games share it: ``owned_where`` says where a Royal may be owned (own Spoils and an
    ally's in Alliance Royals, a spouse's in Marriage Royals, own Spoils alone in Battle Royals).
    """
    name = HOUSE_NAMES[house]
    in_meld = [c for c in meld if c.suit == house and c.rank in ROYAL_RANKS]
    if in_meld:
        explain.append(say("Royals in Meld do not count: {cards} (AR-7, AR-13)", cards=format_cards(in_meld)))

    may_meld = bool(royals)
    explain.append(say("May meld: that needs a Royal owned (AR-15)") if may_meld
                   else say("May not meld: that needs a Royal owned (AR-15)"))
    ranks = [rank for rank in ROYAL_RANKS if owned[rank]]
    may_bundle = len(ranks) >= 2
    explain.append(say("May draw a bundle from the Discard Pile: that needs two Royals of different ranks ({ranks}) "
                       "(AR-15)", ranks=both(ranks)) if may_bundle
                   else say("May not draw a bundle from the Discard Pile: that needs two Royals of different ranks "
                            "(AR-15)"))

    needs: list[Text] = []
    if not royals:
        needs.append(say("a Royal of {house} owned ({where})", house=name, where=owned_where))
    faces = [c for c in hand if c.is_face]
    if faces:
        needs.append(say("no K, Q or J left in hand (it holds {cards})", cards=format_cards(faces)))
    # AR-15: the user confirms the Battle was won; left out, it is not yet won.
    if battle_won is None:
        needs.append(say("winning the Battle (say battle_won: true once it is won)"))
    elif battle_won is not True:
        needs.append(say("winning the Battle"))
    may_end = not needs
    explain.append(say("May end the round (AR-15)") if may_end
                   else say("May not end the round yet; it still needs: {needs} (AR-15)", needs=joined(needs, "; ")))

    assassins = [{"card": str(c), "strikes": c.suit} for c in spoils if c.rank == "A"]
    for a in assassins:
        explain.append(say("Assassin {card} may strike one {house} card in another player's Spoils or Meld, never "
                           "your own (AR-15)", card=a["card"], house=HOUSE_NAMES[a["strikes"]]))
    held = Counter(spoils + meld + hand)
    change = [{"card": str(c), "house": c.suit} for c in dict.fromkeys(spoils + meld + hand) if held[c] >= 3]
    for c in change:
        explain.append(say("Three {card} in Spoils, Meld and Hand: may change House to {house} (AR-15)",
                           card=c["card"], house=HOUSE_NAMES[c["house"]]))
    return {
        "may_meld": may_meld,
        "may_take_discard_bundle": may_bundle,
        "may_end_round": may_end,
        "end_round_needs": needs,
        "assassins": assassins,
        "may_change_house": change,
        "royals": royals,
        "explain": explain,
    }


__all__ = ["InputError", "battle", "battle_winner", "privileges", "verdict"]
