"""15 Days (Francesco Testini, ThunderGryph Games, 2020), 2-4 players.

The game on the engine contract (:class:`adjudicator.engine.Game`), in four
parts: :mod:`.rules` (the state, the legal moves, applying them, the score
and the views), :mod:`.notation` (reading and writing moves), :mod:`.text`
(a view as text) and :mod:`.picture` (a view as SVG). The notation and every
ruling are in ``notation/fifteen-days.md``.
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
    TITLE,
    TURN_CLAUSE,
    VIEW,
    apply,
    fast_apply,
    fast_play,
    legal_moves,
    outcome,
    redeal,
    setup,
    standing,
    to_move,
    view,
)
from .text import render
from .mail import narrate, read_listed


def draw(view, scene):  # type: ignore[no-untyped-def]
    """The table of a view as an SVG document (see :mod:`.picture`)."""
    # Imported when first needed: only pictures need ElementTree.
    from .picture import draw as picture

    return picture(view, scene)


__all__ = [
    "ID", "TITLE", "RULES", "PLAYERS", "PARAMS", "TURN_CLAUSE", "END_CLAUSE", "NOTATION", "VIEW",
    "setup", "to_move", "legal_moves", "apply", "parse_move", "format_move", "outcome",
    "standing", "view", "render", "draw", "fast_apply", "fast_play", "redeal",
    "narrate", "read_listed",
    "DECK",  # the deck's starting order, which the tests check
]  # fmt: skip
