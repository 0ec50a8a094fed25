"""Paper: a scored game laid out as players keep it (:mod:`.scorepad`), the score sheets (:mod:`.sheets`,
HTML drawn to PDF by WeasyPrint), what a long sheet costs and how it is bounded (:mod:`.long_sheets`)
and the chart of the running totals (:mod:`.chart`).

It may import the entry screens' wording of each game, the rules and the core; never storage or the web.
"""
