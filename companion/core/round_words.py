"""The sentences Courtier says about a game's rounds, one message for each name a game gives them.

Each game names its rounds its own way (``ROUND_NAME``: a round, a hand, a turn, a deal), and a
language does not just put the word in a sentence: French says « la donne 3 » but « le tour 3 », Hindi
bends its verbs to the word's gender. So every sentence is a message of its own for each name, and
:func:`round_text` picks the one of the table's game. English reads as it always did.
"""

from __future__ import annotations

from typing import Any

from .messages import Text, say

#: The names the games give their rounds, in the order of each row below.
NAMES = ("round", "hand", "turn", "deal")

_SAYINGS: dict[str, tuple[Text, ...]] = {
    "noun": (say("Round"), say("Hand"), say("Turn"), say("Deal")),
    "word": (say("round"), say("hand"), say("turn"), say("deal")),  # inside a sentence
    "enter": (say("Enter round {number}"), say("Enter hand {number}"), say("Enter turn {number}"),
              say("Enter deal {number}")),
    "correct": (say("Correct round {number}"), say("Correct hand {number}"), say("Correct turn {number}"),
                say("Correct deal {number}")),
    "save": (say("Save round {number}"), say("Save hand {number}"), say("Save turn {number}"),
             say("Save deal {number}")),
    "saved": (say("Round saved."), say("Hand saved."), say("Turn saved."), say("Deal saved.")),
    "corrected": (say("Round corrected."), say("Hand corrected."), say("Turn corrected."),
                  say("Deal corrected.")),
    "already": (say("This round was already saved."), say("This hand was already saved."),
                say("This turn was already saved."), say("This deal was already saved.")),
    "unscorable": (say("This round cannot be scored as entered."), say("This hand cannot be scored as entered."),
                   say("This turn cannot be scored as entered."), say("This deal cannot be scored as entered.")),
    "gone": (say("That round is no longer in play (it was deleted or undone)."),
             say("That hand is no longer in play (it was deleted or undone)."),
             say("That turn is no longer in play (it was deleted or undone)."),
             say("That deal is no longer in play (it was deleted or undone).")),
    "over": (say("The game is over. Correct an earlier round to carry on."),
             say("The game is over. Correct an earlier hand to carry on."),
             say("The game is over. Correct an earlier turn to carry on."),
             say("The game is over. Correct an earlier deal to carry on.")),
    "after_time": (say("Saved after time was called: this round does not count in the tournament."),
                   say("Saved after time was called: this hand does not count in the tournament."),
                   say("Saved after time was called: this turn does not count in the tournament."),
                   say("Saved after time was called: this deal does not count in the tournament.")),
    "will_not_count": (
        say("Time was called on round {round} of {title}: this round will not count in the tournament's "
            "standings. Your entry is kept below; tap the save button again to save it on this table anyway, "
            "or go back to the scores."),
        say("Time was called on round {round} of {title}: this hand will not count in the tournament's "
            "standings. Your entry is kept below; tap the save button again to save it on this table anyway, "
            "or go back to the scores."),
        say("Time was called on round {round} of {title}: this turn will not count in the tournament's "
            "standings. Your entry is kept below; tap the save button again to save it on this table anyway, "
            "or go back to the scores."),
        say("Time was called on round {round} of {title}: this deal will not count in the tournament's "
            "standings. Your entry is kept below; tap the save button again to save it on this table anyway, "
            "or go back to the scores.")),
    "joins": (say("{name} joins the table and plays from round {number}."),
              say("{name} joins the table and plays from hand {number}."),
              say("{name} joins the table and plays from turn {number}."),
              say("{name} joins the table and plays from deal {number}.")),
    "numbered": (
        say("Every change ever made to this table, newest first, numbered as the scores number the rounds. "
            "Nothing is overwritten: a correction or an undo is a new line."),
        say("Every change ever made to this table, newest first, numbered as the scores number the hands. "
            "Nothing is overwritten: a correction or an undo is a new line."),
        say("Every change ever made to this table, newest first, numbered as the scores number the turns. "
            "Nothing is overwritten: a correction or an undo is a new line."),
        say("Every change ever made to this table, newest first, numbered as the scores number the deals. "
            "Nothing is overwritten: a correction or an undo is a new line.")),
    "names_follow": (
        say("Correct a name at any time: the scores, the options and every round follow, and the history "
            "keeps the old name."),
        say("Correct a name at any time: the scores, the options and every hand follow, and the history "
            "keeps the old name."),
        say("Correct a name at any time: the scores, the options and every turn follow, and the history "
            "keeps the old name."),
        say("Correct a name at any time: the scores, the options and every deal follow, and the history "
            "keeps the old name.")),
    "late": (say("They take the next seat after {player} and play from round {number}."),
             say("They take the next seat after {player} and play from hand {number}."),
             say("They take the next seat after {player} and play from turn {number}."),
             say("They take the next seat after {player} and play from deal {number}.")),
    "seat_from": (say("Seat them from round {number}"), say("Seat them from hand {number}"),
                  say("Seat them from turn {number}"), say("Seat them from deal {number}")),
    "called_table": (
        say("Time was called on round {round} of {title} at {time}. The tournament counts this table as it "
            "stood then: rounds saved now do not count in its standings."),
        say("Time was called on round {round} of {title} at {time}. The tournament counts this table as it "
            "stood then: hands saved now do not count in its standings."),
        say("Time was called on round {round} of {title} at {time}. The tournament counts this table as it "
            "stood then: turns saved now do not count in its standings."),
        say("Time was called on round {round} of {title} at {time}. The tournament counts this table as it "
            "stood then: deals saved now do not count in its standings.")),
    "called_form": (
        say("Time was called on round {round} of {title} at {time}: a round saved now does not count in the "
            "tournament's standings."),
        say("Time was called on round {round} of {title} at {time}: a hand saved now does not count in the "
            "tournament's standings."),
        say("Time was called on round {round} of {title} at {time}: a turn saved now does not count in the "
            "tournament's standings."),
        say("Time was called on round {round} of {title} at {time}: a deal saved now does not count in the "
            "tournament's standings.")),
    "pad_caption": (say("Each round: its points, and below them the running total"),
                    say("Each hand: its points, and below them the running total"),
                    say("Each turn: its points, and below them the running total"),
                    say("Each deal: its points, and below them the running total")),
    "delete": (say("Delete round {number}? Undo can bring it back."),
               say("Delete hand {number}? Undo can bring it back."),
               say("Delete turn {number}? Undo can bring it back."),
               say("Delete deal {number}? Undo can bring it back.")),
    "show_how": (say("Show how round {number} was scored"), say("Show how hand {number} was scored"),
                 say("Show how turn {number} was scored"), say("Show how deal {number} was scored")),
    "deleted": (say("Round deleted. Undo brings it back."), say("Hand deleted. Undo brings it back."),
                say("Turn deleted. Undo brings it back."), say("Deal deleted. Undo brings it back.")),
    "no_longer": (say("Round {number} would no longer add up: {problem}"),
                  say("Hand {number} would no longer add up: {problem}"),
                  say("Turn {number} would no longer add up: {problem}"),
                  say("Deal {number} would no longer add up: {problem}")),
    "none_yet": (say("No rounds yet."), say("No hands yet."), say("No turns yet."), say("No deals yet.")),
    "tap_first": (say("Tap “Enter round 1” when the first round ends."),
                  say("Tap “Enter hand 1” when the first hand ends."),
                  say("Tap “Enter turn 1” when the first turn ends."),
                  say("Tap “Enter deal 1” when the first deal ends.")),
}

_SAYINGS.update({
    "same_players": (
        say("{game} is played by the same players from the first round to the last: nobody can join during the game"),
        say("{game} is played by the same players from the first hand to the last: nobody can join during the game"),
        say("{game} is played by the same players from the first turn to the last: nobody can join during the game"),
        say("{game} is played by the same players from the first deal to the last: nobody can join during the game")),
    "joined_object": (say("give the late players as an object: each name with the first round they play"),
                      say("give the late players as an object: each name with the first hand they play"),
                      say("give the late players as an object: each name with the first turn they play"),
                      say("give the late players as an object: each name with the first deal they play")),
    "first_number": (say("give the number of the first round {name} plays: 1, 2, 3 ..."),
                     say("give the number of the first hand {name} plays: 1, 2, 3 ..."),
                     say("give the number of the first turn {name} plays: 1, 2, 3 ..."),
                     say("give the number of the first deal {name} plays: 1, 2, 3 ...")),
    "too_late": (
        say("{name} cannot join at round {first}: only {count} rounds have been entered, so the latest they can "
            "join is round {latest}"),
        say("{name} cannot join at hand {first}: only {count} hands have been entered, so the latest they can "
            "join is hand {latest}"),
        say("{name} cannot join at turn {first}: only {count} turns have been entered, so the latest they can "
            "join is turn {latest}"),
        say("{name} cannot join at deal {first}: only {count} deals have been entered, so the latest they can "
            "join is deal {latest}")),
    "needs_from_first": (
        say("{game} needs {count} players from the first round; only the late players would be left"),
        say("{game} needs {count} players from the first hand; only the late players would be left"),
        say("{game} needs {count} players from the first turn; only the late players would be left"),
        say("{game} needs {count} players from the first deal; only the late players would be left")),
})


_SAYINGS.update({
    "entered": (say("Round {number} entered"), say("Hand {number} entered"), say("Turn {number} entered"),
                say("Deal {number} entered")),
    "edited": (say("Round {number} edited"), say("Hand {number} edited"), say("Turn {number} edited"),
               say("Deal {number} edited")),
    "edited_nothing": (say("Round {number} edited (nothing changed)"), say("Hand {number} edited (nothing changed)"),
                       say("Turn {number} edited (nothing changed)"), say("Deal {number} edited (nothing changed)")),
    "deleted_line": (say("Round {number} deleted"), say("Hand {number} deleted"), say("Turn {number} deleted"),
                     say("Deal {number} deleted")),
    "seated_late": (say("{name} seated late, playing from round {number}"),
                    say("{name} seated late, playing from hand {number}"),
                    say("{name} seated late, playing from turn {number}"),
                    say("{name} seated late, playing from deal {number}")),
    "taken_back": (say("Round {number} taken back"), say("Hand {number} taken back"), say("Turn {number} taken back"),
                   say("Deal {number} taken back")),
    "edit_taken_back": (say("Round {number}'s edit taken back"), say("Hand {number}'s edit taken back"),
                        say("Turn {number}'s edit taken back"), say("Deal {number}'s edit taken back")),
    "brought_back": (say("Round {number} brought back"), say("Hand {number} brought back"),
                     say("Turn {number} brought back"), say("Deal {number} brought back")),
    "put_back": (say("Round {number} put back"), say("Hand {number} put back"), say("Turn {number} put back"),
                 say("Deal {number} put back")),
    "edit_put_back": (say("Round {number}'s edit put back"), say("Hand {number}'s edit put back"),
                      say("Turn {number}'s edit put back"), say("Deal {number}'s edit put back")),
    "deleted_again": (say("Round {number} deleted again"), say("Hand {number} deleted again"),
                      say("Turn {number} deleted again"), say("Deal {number} deleted again")),
})

# The printed sheets' words (paper/sheets.py).
_SAYINGS.update({
    "by": (say("Round by round"), say("Hand by hand"), say("Turn by turn"), say("Deal by deal")),
    "none": (say("No rounds played yet."), say("No hands played yet."), say("No turns played yet."),
             say("No deals played yet.")),
    "each": (say("Write each round's points and the running total. Courtier scores the same game, with the why "
                 "of every number, at the table's link."),
             say("Write each hand's points and the running total. Courtier scores the same game, with the why "
                 "of every number, at the table's link."),
             say("Write each turn's points and the running total. Courtier scores the same game, with the why "
                 "of every number, at the table's link."),
             say("Write each deal's points and the running total. Courtier scores the same game, with the why "
                 "of every number, at the table's link.")),
    "heading": (say("Round {number}"), say("Hand {number}"), say("Turn {number}"), say("Deal {number}")),
    "played_in": (say("the number after each word is the round it was played in"),
                  say("the number after each word is the hand it was played in"),
                  say("the number after each word is the turn it was played in"),
                  say("the number after each word is the deal it was played in")),
})


def round_text(kind: str, noun: str, **values: Any) -> Text:
    """The sentence ``kind`` about a game whose rounds are called ``noun``, as a :class:`Text` (a noun no
    game uses is said as a round)."""
    return Text(_SAYINGS[kind][NAMES.index(noun) if noun in NAMES else 0].template, values)


def round_template(kind: str, noun: str) -> Text:
    """The sentence ``kind`` for ``noun``, its fields not filled in (a page fills them with markup)."""
    return _SAYINGS[kind][NAMES.index(noun) if noun in NAMES else 0]
