"""15 Days (Francesco Testini, ThunderGryph Games, 2020), 2-4 players.

The game on the engine contract (:class:`adjudicator.engine.GameSpec`):
:mod:`.rules` (the state, the legal moves, applying them, the score and the
views), :mod:`.notation` (reading and writing moves), :mod:`.text` (a view
as text), :mod:`.narration` (a move as one viewer saw it), :mod:`.picture`
(a view as SVG) and :mod:`.fast` (the unchecked paths, for speed). The
notation and every ruling are in ``notation/fifteen-days.md``.
"""

from __future__ import annotations

from ...engine import GameSpec
from . import narration, notation, rules, text

GAME = GameSpec(
    id=rules.ID,
    title=rules.TITLE,
    players=rules.PLAYERS,
    params=rules.PARAMS,
    rules_version=rules.RULES,
    turn_clause=rules.TURN_CLAUSE,
    end_clause=rules.END_CLAUSE,
    notation_doc=rules.NOTATION,
    rules=rules,
    notation=notation,
    text=text,
    narration=narration,
    picture_module=f"{__name__}.picture",
    fast_module=f"{__name__}.fast",
    bot_plies=75_000,
)
