"""Time Palatrix (Taiki Shinzawa, 2019), 3 or 4 players.

A trick-taking game in which every player has a board of 3 locations (4 on
the back side) and places cards one at a time, clockwise, onto empty
locations of their own board; a location's tricks are resolved only when
every board is full.

The engine contract (:class:`adjudicator.engine.Game`), gathered from the
files that hold each concern: :mod:`.cards` (the names, the cards and the
moves), :mod:`.rules` (the state, the deal, legal moves, placing and
resolving, the score, views), :mod:`.notation` (reading and writing moves),
:mod:`.text` (the table as text) and :mod:`.picture` (the table as SVG). The
notation and every ruling are in ``notation/time-palatrix.md``.
"""

from __future__ import annotations

from .cards import (
    BIDDING, END_CLAUSE, GAME_FLOW, ID, NEXT_HAND, NOTATION, PARAMS, PAWNS, PLACEMENT, PLAYERS,
    PREPARATION, TITLE, TURN_CLAUSE, VARIANT, Bid, Place,
)  # fmt: skip
from .mail import narrate, read_listed
from .notation import format_move, parse_move
from .rules import (
    VIEW, State, apply, fast_apply, fast_play, hand_points, legal_moves, outcome, redeal, setup, standing,
    to_move, view,
)  # fmt: skip
from .text import render

__all__ = [
    "ID", "TITLE", "PLAYERS", "PARAMS", "TURN_CLAUSE", "END_CLAUSE", "NOTATION", "VIEW",
    "setup", "to_move", "legal_moves", "apply", "parse_move", "format_move", "outcome",
    "standing", "view", "render", "draw", "fast_apply", "fast_play", "redeal", "narrate", "read_listed",
    # used by tests/test_time_palatrix.py and examples/make_time_palatrix.py
    "State", "Bid", "Place", "PAWNS", "hand_points",
    "PREPARATION", "GAME_FLOW", "BIDDING", "PLACEMENT", "NEXT_HAND", "VARIANT",
]  # fmt: skip


def draw(view, scene):  # type: ignore[no-untyped-def]
    """The board of a view as an SVG document (see :mod:`.picture`)."""
    # Imported when first drawn: commands that draw nothing start faster.
    from .picture import draw as picture

    return picture(view, scene)
