"""The registry: every game the tool knows, listed explicitly.

Each game is a package whose ``__init__`` declares ``GAME``, a
:class:`adjudicator.engine.GameSpec`. To add a game, write its package (the
README's "Adding a game" lists the files) and add one line to ``PACKAGES``;
nothing else in the project names a game.

A game is imported the first time it is asked for, so a command that reads
one log loads one game: start-up stays short however many games there are.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from ..engine import GameSpec
from ..errors import BadLogError

#: Game id (as in logs and on the command line) -> its package in this folder.
PACKAGES: dict[str, str] = {
    "turn-of-time": "turn_of_time",
    "q-turn": "q_turn",
    "atlas": "atlas",
    "time-palatrix": "time_palatrix",
    "fifteen-days": "fifteen_days",
}


class _Registry(Mapping[str, GameSpec]):
    """A read-only mapping id -> game that imports each game when first used."""

    def __init__(self) -> None:
        self._loaded: dict[str, GameSpec] = {}

    def __getitem__(self, game_id: str) -> GameSpec:
        game = self._loaded.get(game_id)
        if game is None:
            module = importlib.import_module(f"{__name__}.{PACKAGES[game_id]}")
            game = self._loaded[game_id] = module.GAME
        return game

    def __iter__(self) -> Iterator[str]:
        return iter(PACKAGES)

    def __len__(self) -> int:
        return len(PACKAGES)

    def __contains__(self, game_id: object) -> bool:
        return game_id in PACKAGES


GAMES: Mapping[str, GameSpec] = _Registry()


def get(game_id: str) -> GameSpec:
    """The game with this id; raises :class:`BadLogError` naming the known ones."""
    if not isinstance(game_id, str) or game_id not in PACKAGES:
        known = ", ".join(PACKAGES)
        raise BadLogError(f"unknown game {game_id!r} (known: {known})")
    return GAMES[game_id]
