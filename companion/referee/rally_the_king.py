"""Rally the King referee: who wins a trick (RK-11).

>>> trick({"cards": ["T5", "KH", "F", "T1"], "no_trumps": False})["card"]
'F'
>>> trick({"cards": ["T1", "f", "t21"]})["winner"]
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import CardError
from ..core.messages import Text, say
from ..games.base import InputError, Problems
from ..games.rally_the_king import HONOURS, SUIT_NAMES, TarotCard, parse_tarot_card
from .bodies import checked_body

TRICK_FIELDS = ("cards", "no_trumps")


def trick(body: object) -> dict[str, Any]:
    """RK-11: the winner of a trick, cards given in play order (the first is the lead).

    >>> answer = trick({"cards": ["9H", "KH", "QS"]})
    >>> answer["winner"], answer["card"], answer["cards"]
    (1, 'KH', ['9H', 'KH', 'QS'])
    """
    found = Problems()
    body = checked_body(body, TRICK_FIELDS, found, " with cards (and no_trumps)", "cards and no_trumps")
    no_trumps = body.get("no_trumps", False)
    if no_trumps is None:
        no_trumps = False
    if not isinstance(no_trumps, bool):
        found.add("no_trumps", say("no_trumps must be true or false (RK-11)"))
    raw = body.get("cards")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        found.add("cards", say("give the 2 to 4 cards of the trick in the order they were played, such as "
                               "T5 KH F T1 (RK-11)"))
        found.raise_if_any()
    cards: list[TarotCard] = []
    first_seen: dict[TarotCard, int] = {}
    for i, text in enumerate(raw):
        try:
            card = parse_tarot_card(text)
        except CardError as err:
            found.add(f"cards[{i}]", err.args[0])
            continue
        if card in first_seen:
            found.add(f"cards[{i}]", say("{card} was played twice (cards[{first}] and cards[{second}]); the pack "
                                         "has one of each card (RK-1, RK-11)", card=str(card),
                                         first=f"{first_seen[card]}", second=f"{i}"))
            continue
        first_seen[card] = i
        cards.append(card)
    found.raise_if_any()
    winner, explain = trick_winner(cards, no_trumps)
    return {"winner": winner, "card": str(cards[winner]), "cards": [str(c) for c in cards], "explain": explain}


def trick_winner(cards: Sequence[TarotCard], no_trumps: bool = False) -> tuple[int, list[Text]]:
    """RK-11 on parsed cards: the index of the winning card, and why.

    >>> cards = [parse_tarot_card(c) for c in ("KS", "T1", "T21", "F")]
    >>> trick_winner(cards)[0], trick_winner(cards, no_trumps=True)[0]
    (1, 0)
    """
    lead = cards[0]
    explain: list[Text] = []
    trumps = [i for i, c in enumerate(cards) if c.is_trump]
    if lead.is_trump:
        explain.append(say("{card} leads: a trump (RK-11)", card=str(lead)))
    else:
        explain.append(say("{card} leads: {suit} (RK-11)", card=str(lead), suit=SUIT_NAMES[lead.suit]))

    # RK-11: under no-trumps a suit lead takes the trumps' power away, the Emperor trick included
    # (the Juggler is a trump); a trump lead keeps every trump clause, the Emperor trick too.
    if trumps and not (no_trumps and not lead.is_trump):
        if no_trumps:
            explain.append(say("No trumps, but a trump was led: trumps win this trick as usual (RK-11)"))
        played = " ".join(str(cards[i]) for i in trumps)
        if set(HONOURS) <= {str(c) for c in cards}:
            winner = next(i for i, c in enumerate(cards) if str(c) == "T1")
            explain.append(say("The Juggler (T1), the World (T21) and Tomfool (F) are all in the trick: the Juggler "
                               "wins it (the Emperor trick) (RK-11)"))
        else:
            winner = max(trumps, key=lambda i: cards[i].strength)
            if len(trumps) == 1:
                explain.append(say("The only trump played, {card}, wins (RK-11)", card=str(cards[winner])))
            elif str(cards[winner]) == "F":
                explain.append(say("Trumps played: {cards}; the highest, {card}, wins (Tomfool is the highest trump) "
                                   "(RK-11)", cards=played, card=str(cards[winner])))
            else:
                explain.append(say("Trumps played: {cards}; the highest, {card}, wins (RK-11)", cards=played,
                                   card=str(cards[winner])))
        others = [str(c) for c in cards if not c.is_trump]
        if others:
            explain.append(say("Suit cards cannot beat a trump: {cards} (RK-11)", cards=" ".join(others)))
    else:
        if trumps:
            powerless = " ".join(str(cards[i]) for i in trumps)
            explain.append(say("No trumps and a suit card led: the trumps played ({cards}) cannot win (RK-11)",
                               cards=powerless))
        led = [i for i, c in enumerate(cards) if c.suit == lead.suit]
        winner = max(led, key=lambda i: cards[i].strength)
        off = [str(c) for c in cards if c.suit != lead.suit and not c.is_trump]
        if off:
            explain.append(say("Off-suit, so they cannot win: {cards} (RK-11)", cards=" ".join(off)))
        if len(led) == 1:
            explain.append(say("No other card of the suit led ({suit}) was played: the lead wins (RK-11)",
                               suit=SUIT_NAMES[lead.suit]))
        else:
            explain.append(say("Highest of the suit led (K Q C V 10 9 8 7): {card} (RK-11)", card=str(cards[winner])))
    explain.append(_winning_line(winner, str(cards[winner])))
    return winner, explain


def _winning_line(winner: int, card: str) -> Text:
    """RK-11: which card won, by its place in the trick."""
    if winner == 0:
        return say("The first card played, {card}, wins the trick (RK-11)", card=card)
    if winner == 1:
        return say("The second card played, {card}, wins the trick (RK-11)", card=card)
    if winner == 2:
        return say("The third card played, {card}, wins the trick (RK-11)", card=card)
    return say("The fourth card played, {card}, wins the trick (RK-11)", card=card)


__all__ = ["InputError", "trick", "trick_winner"]
