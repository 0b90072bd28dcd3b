"""A game at one table between people and bots: the library under ``adjudicator play``.

A :class:`Table` holds an open log and its replay; each move, whoever
makes it, is recorded through :func:`adjudicator.recording.record`, so the
log it writes is a normal log that ``validate`` and ``audit`` check like
any other. A bot seat is asked for its move with its own view only
(:func:`adjudicator.bots.move_for`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from ..log import Log
from ..names import clean
from ..played import Replay
from ..recording import record
from ..replaying import replay
from ..starting import new_log
from . import Bot, get, move_for

#: How a bot seat is written in a list of players: ``bot`` (the standard
#: level) or ``bot:LEVEL``.
BOT = "bot"


@dataclass(frozen=True)
class Seat:
    """One seat: a person's name, or a bot with its level (and the name it plays under)."""

    name: str
    level: str | None = None  # None: a person

    @property
    def is_bot(self) -> bool:
        return self.level is not None


def seats_of(entries: Sequence[str]) -> list[Seat]:
    """The seats of ``--players``: names, ``bot`` or ``bot:LEVEL``; the bots
    are named ``bot1``, ``bot2``... in seat order.

    >>> [(s.name, s.level) for s in seats_of(["ann", "bot", "bot:greedy"])]
    [('ann', None), ('bot1', 'standard'), ('bot2', 'greedy')]
    """
    seats: list[Seat] = []
    bots = 0
    for entry in entries:
        text = entry.strip()
        head, colon, level = text.partition(":")
        if head.lower() == BOT and (not colon or level):
            bots += 1
            name = f"{BOT}{bots}"
            seats.append(Seat(name, level.strip() if colon else "standard"))
            get(seats[-1].level or "")  # an unknown level is refused now, not mid-game
        else:
            seats.append(Seat(clean(text)))  # as the log will spell it
    return seats


class Table:
    """A game in progress between the ``seats``, from its log."""

    def __init__(self, log: Log, seats: Sequence[Seat], *, seed: str = "") -> None:
        if [s.name for s in seats] != list(log.players):
            raise UsageError("the seats do not match the log's players")
        self.seats = tuple(seats)
        self.seed = seed
        self.rep: Replay = replay(log)
        self._bots: dict[str, Bot] = {s.name: get(s.level) for s in seats if s.level}

    @classmethod
    def new(cls, game_id: str, seats: Sequence[Seat], seed: str,
            params: Mapping[str, Any] | None = None) -> Table:
        """A new open game between ``seats`` (the log's seed is ``seed``)."""
        log = new_log(game_id, [s.name for s in seats], seed, params)
        return cls(log, seats, seed=seed)

    @property
    def log(self) -> Log:
        return self.rep.log

    @property
    def state(self) -> Any:
        return self.rep.state

    def to_move(self) -> Seat | None:
        """The seat to move, or ``None`` once the game is over."""
        seat = self.rep.seat()
        return None if seat is None else self.seats[seat]

    def legal(self) -> list[str]:
        """The legal moves of the seat to move, in canonical notation."""
        return list(self.rep.legal())

    def play(self, text: str) -> str:
        """Record ``text``, typed by the person to move (read tolerantly);
        returns the move in canonical notation. An illegal move raises, with
        the rule, and records nothing."""
        seat = self.to_move()
        if seat is None or seat.is_bot:
            raise UsageError("it is not a person's move")
        before = len(self.log.moves)
        self.rep = record(self.log, [text], as_player=seat.name, replayed=self.rep)
        return self.log.moves[before].move

    def play_bot(self) -> str:
        """Have the bot to move play; returns its move."""
        seat = self.to_move()
        if seat is None or not seat.is_bot:
            raise UsageError("it is not a bot's move")
        game = self.rep.game
        move = move_for(game, self.state, self.log.params, self.log.players,
                        level=self._bots[seat.name],
                        seed=f"{self.seed}/{len(self.log.moves) + 1}")
        self.rep = record(self.log, [move], as_player=seat.name, replayed=self.rep)
        return move
