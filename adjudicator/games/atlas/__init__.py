"""Atlas: Enchanted Lands (J. Alex Kevern, Renegade Game Studios, 2017), 2-4 players.

The engine contract (:class:`adjudicator.engine.Game`), gathered from the
files that hold each concern: :mod:`.cards` (the vocabulary they share),
:mod:`.rules` (the state, the deal, legal moves, playing a card, the score,
views), :mod:`.notation` (reading and writing moves), :mod:`.text` (the
board as text) and :mod:`.picture` (the board as SVG). The notation and
every ruling are in ``notation/atlas.md``.
"""

from __future__ import annotations

from ...engine import Scene
from .cards import (
    CARD_TEXT, END_CLAUSE, ID, NOTATION, PARAMS, PLAYERS, TITLE, TURN_CLAUSE,
)  # fmt: skip
from .mail import narrate, read_listed
from .notation import format_move, parse_move
from .rules import (
    VIEW, State, apply, fast_apply, fast_play, legal_moves, outcome, redeal, setup, standing, to_move, view,
)  # fmt: skip
from .text import render


def draw(view: VIEW, scene: Scene) -> str:  # type: ignore[valid-type]
    """The board of a view as an SVG document (see :mod:`.picture`)."""
    # Imported when first drawn: commands that draw nothing start faster.
    from .picture import draw as picture

    return picture(view, scene)


__all__ = [
    "ID", "TITLE", "PLAYERS", "PARAMS", "TURN_CLAUSE", "END_CLAUSE", "NOTATION", "VIEW",
    "setup", "to_move", "legal_moves", "apply", "parse_move", "format_move", "outcome",
    "standing", "view", "render", "draw", "fast_apply", "fast_play", "redeal", "narrate", "read_listed",
    "State", "CARD_TEXT",  # tests/test_fairplay.py: the hidden cards of a state
]  # fmt: skip
