"""Time Palatrix (Taiki Shinzawa, 2019), 3 or 4 players.

A trick-taking game in which every player has a board of 3 locations (4 on
the back side) and places cards one at a time, clockwise, onto empty
locations of their own board; a location's tricks are resolved only when
every board is full.

The game, declared once; each layer is a module of this package:
:mod:`.cards` (the names, the cards and the moves), :mod:`.rules` (the state,
the deal, legal moves, placing and resolving, the score, views),
:mod:`.notation` (reading and writing moves), :mod:`.text` (the table as
text), :mod:`.narration` (what a move did), :mod:`.picture` (the table as
SVG) and :mod:`.fast` (the unchecked paths, for speed). The notation and
every ruling are in ``notation/time-palatrix.md``.
"""

from __future__ import annotations

from ...engine import GameSpec
from . import cards, narration, notation, rules, text

GAME = GameSpec(
    id=cards.ID,
    title=cards.TITLE,
    players=cards.PLAYERS,
    params=cards.PARAMS,
    rules_version=1,
    turn_clause=cards.TURN_CLAUSE,
    end_clause=cards.END_CLAUSE,
    notation_doc=cards.NOTATION,
    rules=rules,
    notation=notation,
    text=text,
    narration=narration,
    picture_module=f"{__name__}.picture",
    fast_module=f"{__name__}.fast",
    bot_plies=100_000,
)
