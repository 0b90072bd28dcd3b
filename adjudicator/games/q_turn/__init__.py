"""Q-Turn (Andrew Looney, Looney Labs), 2-4 players.

The game as the engine contract sees it (:class:`adjudicator.engine.Game`):
the rules in :mod:`.rules`, the notation in :mod:`.notation`, the board as
text in :mod:`.text` and as a picture in :mod:`.picture`. The notation and
every ruling are in ``notation/q-turn.md``.
"""

from .notation import format_move, parse_move
from .picture import draw
from .rules import (
    END_CLAUSE,
    ID,
    NOTATION,
    PARAMS,
    PASS,
    PLAYERS,
    TITLE,
    TURN_CLAUSE,
    VIEW,
    apply,
    fast_apply,
    legal_moves,
    outcome,
    redeal,
    setup,
    standing,
    to_move,
    view,
)
from .text import render

__all__ = [
    "ID", "TITLE", "PLAYERS", "PARAMS", "TURN_CLAUSE", "END_CLAUSE", "NOTATION", "VIEW",
    "setup", "to_move", "legal_moves", "apply", "parse_move", "format_move", "outcome",
    "standing", "view", "render", "draw", "redeal", "fast_apply",
    "PASS",  # tests/test_q_turn.py: a pass is never legal
]  # fmt: skip
