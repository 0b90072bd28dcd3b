"""A log played through: the value replay and validation give."""

from __future__ import annotations

from typing import Any

import msgspec

from . import events
from .engine import GameSpec, Outcome
from .log import Log


class Replay(msgspec.Struct, frozen=True):
    """A log played through: its game, its final state and, if kept, every state.

    ``ended`` is the result when an event ended the game (a resignation, an
    abandonment); ``pending`` a proposal waiting for answers.
    """

    log: Log
    game: GameSpec
    state: Any
    states: tuple[Any, ...] = ()
    ended: Outcome | None = None
    pending: events.Pending | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.log.players

    def seat(self) -> int | None:
        """The seat to move now, or None once the game is over."""
        return None if self.ended is not None else self.game.to_move(self.state)

    def to_move(self, state: Any = None) -> str | None:
        if state is None:
            seat = self.seat()
        else:
            seat = self.game.to_move(state)
        return None if seat is None else self.log.players[seat]

    @property
    def outcome(self) -> Outcome | None:
        """The final result, however the game ended."""
        return self.ended if self.ended is not None else self.game.outcome(self.state)

    def legal(self) -> tuple[str, ...]:
        """The legal moves of the player to move, in canonical notation."""
        if self.seat() is None:
            return ()
        return tuple(self.game.format_move(self.state, m) for m in self.game.legal_moves(self.state))
