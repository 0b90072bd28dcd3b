"""Turn of Time (Nicholas Hjelmberg, Nova Suecia Games), solo and 2-4 players.

The engine contract of :class:`adjudicator.engine.Game`, gathered from the
package's modules: ``rules`` (state, setup, legal moves, apply, scoring,
views, the validation fast path), ``notation`` (reading and writing moves),
``text`` (the board as text) and ``picture`` (the board as SVG). The
notation and every ruling are in ``notation/turn-of-time.md``.
"""

from __future__ import annotations

from .notation import format_move, parse_move
from .rules import (
    DECK,
    END_CLAUSE,
    ID,
    NOTATION,
    PARAMS,
    PLAYERS,
    RULES,
    SQUARES,
    TITLE,
    TURN_CLAUSE,
    VIEW,
    Move,
    apply,
    fast_apply,
    fast_play,
    fast_step,
    legal_moves,
    outcome,
    redeal,
    setup,
    standing,
    to_move,
    view,
)
from .mail import narrate, read_listed
from .text import render

__all__ = [
    "ID", "TITLE", "RULES", "PLAYERS", "PARAMS", "TURN_CLAUSE", "END_CLAUSE", "NOTATION", "VIEW",
    "setup", "to_move", "legal_moves", "apply", "parse_move", "format_move", "outcome",
    "standing", "view", "render", "draw", "fast_apply", "fast_play", "fast_step", "redeal",
    "narrate", "read_listed",
    # used by the tests: the cards of the game, a move, the names of the squares
    "DECK", "Move", "SQUARES",
]  # fmt: skip


def draw(view, scene):  # type: ignore[no-untyped-def]
    """The board of a view as an SVG document (see :mod:`.picture`)."""
    # Imported when first drawn: commands that draw nothing start faster.
    from .picture import draw as picture

    return picture(view, scene)
