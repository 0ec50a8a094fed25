"""Club records (DESIGN.md, Club records): a club's roster, the tables that count for it, and the
ratings its finished games give each player, per game.

:mod:`.ratings` is pure (the places a finished table gives, openskill's update); :mod:`.store`
keeps them in the database beside the tables.
"""
