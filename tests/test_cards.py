"""Card notation (API.md): any spelling a player types reads as one canonical card."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.cards import RANKS, SUITS, Card, CardError, format_card, parse_card, parse_suit

SYMBOLS = {"S": ["♠", "♤"], "H": ["♥", "♡", "♥️"], "D": ["♦", "♢"], "C": ["♣", "♧"]}
PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, database=None)

cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(SUITS))


@st.composite
def spellings(draw) -> tuple[Card, str]:
    """A card and one way a player might type it: any case, a suit symbol, stray spaces."""
    card = draw(cards)
    rank = "".join(ch.lower() if draw(st.booleans()) else ch for ch in card.rank)
    suit = draw(st.sampled_from([card.suit, card.suit.lower(), *SYMBOLS[card.suit]]))
    spaces = st.sampled_from(["", " ", "  ", "\t"])
    return card, draw(spaces) + rank + draw(spaces) + suit + draw(spaces)


def test_the_ranks_are_in_battle_order_and_the_pack_has_four_suits():
    assert RANKS == ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    assert SUITS == ("S", "H", "D", "C")


@PROPERTY_SETTINGS
@given(cards)
def test_a_formatted_card_reads_back_as_itself(card):
    assert parse_card(format_card(card)) == card
    assert format_card(card) == str(card) == card.rank + card.suit


@PROPERTY_SETTINGS
@given(spellings())
def test_every_spelling_reads_as_the_canonical_card(spelled):
    card, text = spelled
    parsed = parse_card(text)
    assert parsed == card
    assert format_card(parsed) == card.rank + card.suit
    assert format_card(parsed).upper() == format_card(parsed)


@PROPERTY_SETTINGS
@given(st.text(max_size=6))
def test_any_text_is_a_card_or_a_card_error(text):
    try:
        card = parse_card(text)
    except CardError as err:
        assert "card" in str(err)
    else:
        assert card.rank in RANKS and card.suit in SUITS


@pytest.mark.parametrize("text", ["1S", "11H", "KX", "K", "S", "", "   ", "10", "AA", "JKS", "QSS", "♠K", "ZZ"])
def test_bad_strings_are_card_errors(text):
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert "is not a card" in str(caught.value)


def test_the_error_message_says_what_a_card_looks_like():
    with pytest.raises(CardError, match=r"^1S is not a card: use a rank 2-10, J, Q, K or A and a suit S, H, D or C$"):
        parse_card("1S")


@pytest.mark.parametrize("value", [None, 12, ["KS"], {"rank": "K"}])
def test_non_text_is_a_card_error_not_a_crash(value):
    with pytest.raises(CardError, match="give a card as text"):
        parse_card(value)


def test_the_printed_joker_only_where_a_game_allows_it():
    assert parse_card("JK", allow_joker=True) == Card("JK", "")
    assert str(parse_card(" jk ", allow_joker=True)) == "JK"
    assert parse_card("JK", allow_joker=True).is_joker
    with pytest.raises(CardError, match="no jokers"):
        parse_card("JK")
    assert parse_card("JS", allow_joker=True) == Card("J", "S")


def test_suits_read_like_the_suit_of_a_card():
    for suit, symbols in SYMBOLS.items():
        assert parse_suit(suit.lower()) == suit
        for symbol in symbols:
            assert parse_suit(symbol) == suit
    with pytest.raises(CardError, match="is not a suit"):
        parse_suit("Spades")
    with pytest.raises(CardError):
        parse_suit(None)


def test_battle_strength_follows_the_ranks():
    assert [Card(r, "S").strength for r in RANKS] == list(range(13))
    assert Card("Q", "H").is_face and not Card("10", "H").is_face
