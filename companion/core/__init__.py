"""The game-independent core every layer may use: cards and their notation (:mod:`.cards`), counts in
words (:mod:`.wording`), the words a player reads in any language (:mod:`.messages`), the limits that
bound what a visitor may send (:mod:`.limits`), the folders and security policy (:mod:`.config`) and a
bounded cache (:mod:`.recent`).

It imports nothing of Courtier's: every other package builds on it.
"""
