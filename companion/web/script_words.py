"""The words the page's scripts write (static/js), from the same catalogs as the pages.

A page in another language than English carries them as data, the JSON of a hidden element's attribute
(``<div hidden id="courtier-words" data-words='…'>``: no script for the strict CSP to refuse, and kept by
htmx's swap of a boosted page's body, which drops script elements):
each message id, the English sentence its script writes with ``{name}`` fields, said in the page's
language. A script looks a sentence up by its English words and says them as they are when the page
has no block: an English page carries none, and reads as it always did. A sentence that depends on a
number is said for 0, 1 and 2 (the forms the languages Courtier speaks choose between), the script
taking the first for 0, the second for 1 and the last for any other count.
"""

from __future__ import annotations

from ..core.messages import Text, render, say, say_n

#: Every sentence the scripts write, as they write it in English (the key they look it up by).
SENTENCES: tuple[Text, ...] = (
    # app.js
    say("Copied"),
    say("no cards yet"),
    # card-grid.js
    say("{who} has {size} cards already: take one back with ⌫ before adding another."),
    say("This hand has {size} cards already: take one back with ⌫ before adding another."),
    say("{who}: {said}"),
    say("{count} cards, but a hand has {size}: take {over} back."),
    say("{count} cards chosen."),
    say("{count} of {size} cards"),
    say("{card}, none left"),
    say("Next"),
    # forms.js
    say("Worth {total} points"),
    say("{card} and {other}"),
    say("{who} held K♥ and Q♥: both ticked with the Marriage (RM-4)."),
    say("The Marriage stays {who}'s: {who} held K♥ and Q♥ (RM-4). To take it back, untick K♥ or Q♥."),
    say("Marriage unticked for {who}, and {cards} with it."),
    say("Marriage unticked for {who}, and {cards} with it; {card} stays ticked."),
    say("{card} stays ticked for {who}: the Marriage ticked it. Tap it again to untick it."),
    say("{who} held K♥ and Q♥: the Marriage is {who}'s too (RM-4)."),
    say("{who} no longer holds both K♥ and Q♥: the Marriage is unticked (RM-4)."),
    say("{who} no longer holds both K♥ and Q♥: the Marriage is unticked; {card} stays ticked (RM-4)."),
    say("{points} card points — target reached"),
    say("{points} card points — short of {target}"),
    say("a Knave"),
    say("{letter}, Knave"),
    say("{letter}, black"),
    say("{letter}, red"),
    # offline.js
    say("another phone saved first"),
    say("it needs a correction"),
    say("its form expired"),
    say("this link can no longer enter scores"),
    say("the table or the hand is no longer there"),
    say("time was called on this round: it will not count in the tournament"),
    say("it could not be saved"),
    say("An entry"),
    say("{what} (correction)"),
    say("On this phone, not sent yet"),
    say("{label} needs a look: {reason}. Your entry is kept."),
    say("{label}: waiting to send (saved {time})."),
    say("Open it"),
    say("Edit"),
    say("Cancel"),
    say("No signal: {label} stays on this phone. Open it when the signal is back."),
    say("Cancel {label}? It was never sent; it is deleted from this phone."),
    say("waiting to send"),
    say("Next: {dealer} {verb}"),
    say("Offline since {time}."),
    say("Scores as of the last change this phone knows, at {time}."),
    say("Saves wait on this phone and are sent when the signal is back."),
    # pad.js
    say("Sheet ready: {file}"),
    say("The sheet could not be made just now. Try again in a moment."),
)

#: Sentences that depend on a number: (singular, plural) as the scripts write them.
COUNTED: tuple[Text, ...] = (
    say_n("{count} left", "{count} left", 0),
    say_n("{count} waiting on this phone, not sent yet.", "{count} waiting on this phone, not sent yet.", 0),
)


def words(page: dict | None = None) -> dict:
    """The scripts' sentences in the reader's language, by their English words; ``page`` adds what a
    page's script needs of its own (an entry form's round, for the phone's list of saves waiting)."""
    said: dict = {sentence.template: render(sentence) for sentence in SENTENCES}
    for counted in COUNTED:
        said[counted.template] = [render(Text(counted.template, {}, counted.plural, n)) for n in (0, 1, 2)]
    if page:
        said["page"] = page
    return said
