"""The registry: every game the tool knows, listed explicitly.

To add a game, write its module on the contract of
:class:`adjudicator.engine.Game` and add it to ``_MODULES``; nothing else in
the project names a game.
"""

from __future__ import annotations

from ..engine import Game
from ..errors import BadLogError
from . import atlas, fifteen_days, q_turn, time_palatrix, turn_of_time

_MODULES: tuple[Game, ...] = (turn_of_time, q_turn, atlas, time_palatrix, fifteen_days)  # type: ignore[assignment]

GAMES: dict[str, Game] = {g.ID: g for g in _MODULES}


def get(game_id: str) -> Game:
    """The game with this id; raises :class:`BadLogError` naming the known ones."""
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise BadLogError(f"unknown game {game_id!r} (known: {known})") from None
