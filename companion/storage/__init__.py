"""Storage behind one interface, a SQLite file or PostgreSQL (:mod:`.db`): the append-only log of each
table and the tables scored once per version (:mod:`.tables`), the schema and its steps
(:mod:`.migrations`), the history in words (:mod:`.history`), copying a venue's database between the
two (:mod:`.copydb`) and the creation limit counted in the database (:mod:`.ratelimit`).

It may import the rules (games) and the core, never the web, paper, clubs or tournaments: whoever keeps
records of a saved table hears of it through :data:`.tables.saved`.
"""
