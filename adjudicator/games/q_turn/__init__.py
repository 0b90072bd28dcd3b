"""Q-Turn (Andrew Looney, Looney Labs), 2-4 players.

The game as the engine contract sees it (:class:`adjudicator.engine.Game`):
the rules in :mod:`.rules`, the notation in :mod:`.notation`, the board as
text in :mod:`.text` and as a picture in :mod:`.picture`. The notation and
every ruling are in ``notation/q-turn.md``.
"""

from .mail import narrate, read_listed
from .notation import format_move, parse_move
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
    "standing", "view", "render", "draw", "redeal", "fast_apply", "narrate", "read_listed",
    "PASS",  # tests/test_q_turn.py: a pass is never legal
]  # fmt: skip


def draw(view, scene):  # type: ignore[no-untyped-def]
    """The board of a view as an SVG document (see :mod:`.picture`)."""
    # Imported when first drawn: commands that draw nothing start faster.
    from .picture import draw as picture

    return picture(view, scene)
