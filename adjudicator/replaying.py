"""Replay and validation: a log played through, every entry checked.

:func:`replay` is the one checked loop: each entry must follow the digest
chain, be by the player to move, and be a legal move in canonical notation
(or an event the log's rules allow). :func:`validate` adds the stored result
and the signatures. Both first offer the log to :mod:`adjudicator.accelerated`,
which plays the common log at once or declines; the tests hold it to this loop.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import accelerated, clock, events, seal
from .chain import broken, check_chain, head_digest
from .engine import GameSpec, Outcome
from .errors import BadLogError, IllegalMoveError, MoveError, NotationError, counted
from .log import Log
from .played import Replay
from .signing import check_seals
from .starting import check_header, check_times, start


def out_of_turn(game: GameSpec, players: tuple[str, ...], seat: int | None, by: str) -> MoveError | None:
    """Why ``by`` may not move now (the game is over, they are no player, it
    is someone else's turn), or None when it is their move."""
    if seat is None:
        return IllegalMoveError("the game is already over", game.end_clause)
    if by == players[seat]:
        return None
    if by not in players:
        return IllegalMoveError(
            f"{by!r} is not a player of this game (players: {', '.join(players)})"
        )
    return IllegalMoveError(f"it is {players[seat]}'s turn, not {by}'s", game.turn_clause)

class _Events:
    """The state of the log's events during a replay (rarely used: kept off
    the hot path)."""

    def __init__(self, log: Log, game: GameSpec) -> None:
        self.log, self.game = log, game
        self.ended: Outcome | None = None
        self.pending: events.Pending | None = None
        self.stand_in: str | None = None  # the player whose move a stand-in plays next
        self.previous: str | None = None  # the text of the entry before
        # The clock read as far as the last act checked (each act goes on from there).
        self.clock = (clock.Running(log) if log.time is not None and log.started is not None
                      else None)

    def apply(self, state: Any, history: list[Any], by: str, text: str,
              number: int = 0, at: str | None = None) -> Any:
        """The state after the event ``text`` by ``by``; ``history`` holds the
        state before each game move still in force, and the state now."""
        game, players = self.game, self.log.players
        if self.ended is not None or game.to_move(state) is None:
            raise IllegalMoveError("the game is already over", game.end_clause)
        if self.stand_in is not None:
            raise IllegalMoveError(f"after @stand-in {self.stand_in} comes "
                                   f"{self.stand_in}'s move", clock.CLAUSE)
        act = events.act_of(text)
        if act is not None:
            if by != events.REFEREE or not self.log.refereed:
                raise IllegalMoveError("only the referee of a refereed game records an act "
                                       "of the clock", clock.CLAUSE)
            seat = game.to_move(state)
            to_move = None if seat is None else players[seat]
            clock.check_event(self.log, number, text, at, to_move, self.previous, self.clock)
            self.previous = text
            if act == "stand-in":
                self.stand_in = clock.act_parts(text)[1][0]
            elif act in ("forfeit", "eject"):
                who = clock.act_parts(text)[1][0]
                ended = events.resigned(game.standing(state), players, who)
                why = ("forfeited on time" if act == "forfeit" else
                       "was put out of the game by the organiser")
                self.ended = Outcome(standings=ended.standings, winners=ended.winners,
                                     details=(*ended.details[:-1], f"{who} {why}: ranked last"))
                self.pending = None
            return state
        self.previous = text
        kind, count = events.parse(text)
        referee = by == events.REFEREE and kind in ("accept", "reject")
        if by not in players and not referee:
            raise IllegalMoveError(
                f"{by!r} is not a player of this game (players: {', '.join(players)})")
        if kind == "resign":
            self.ended = events.resigned(game.standing(state), players, by)
            self.pending = None
            return state
        if kind in ("takeback", "abandon"):
            if self.pending is not None:
                raise IllegalMoveError(f"a proposal is waiting for answers: "
                                       f"{self.pending.words()}", events.CLAUSE)
            if kind == "takeback" and count > len(history) - 1:
                raise IllegalMoveError(
                    f"only {counted(len(history) - 1, 'move')} can be taken back", events.CLAUSE)
            self.pending = events.Pending(kind, by, count)
            done = len(players) == 1
        else:
            proposal = self.pending
            self.pending, done = events.answer(self.pending, kind, by, players,
                                               self.log.refereed)
            if done:
                self.pending = proposal
        if not done:
            return state
        proposal, self.pending = self.pending, None
        assert proposal is not None
        if proposal.kind == "abandon":
            self.ended = events.ABANDONED
            return state
        del history[len(history) - proposal.count:]
        return history[-1]

def replay(log: Log, *, upto: int | None = None, keep: bool = False) -> Replay:
    """Play the entries of ``log`` (the first ``upto`` of them), checking each.

    Every entry must follow the digest chain; a move must be by the player
    to move, legal, and written in canonical notation; an event (``@...``)
    must be one the log's rules allow (:mod:`adjudicator.events`). The first
    that is not raises a :class:`MoveError` located at that entry.
    """
    game, state = start(log)
    entries = log.moves if upto is None else log.moves[:upto]
    players = log.players
    if game.fast is not None and not keep:
        done = accelerated.replayed(log, game, state, entries, game.fast)
        if done is not None:
            return done
    states = [state] if keep else None
    history = [state]  # the state before each game move in force, then now
    # Each entry's digest worked out from its fields, in one pass: it must
    # equal the digest the entry carries, checked below in the entry's turn.
    digests = seal.chain(head_digest(log), entries)
    extra: _Events | None = None
    rules, notation = game.rules, game.notation
    to_move, parse, fmt, apply = rules.to_move, notation.parse_move, notation.format_move, rules.apply
    # A move in canonical notation played at once where the game has an
    # accelerator (held to this checked path by the tests); anything it
    # declines takes the checked path, which says what is wrong.
    fast = None if game.fast is None else game.fast.fast_apply
    record = history.append
    for number, (entry, digest) in enumerate(zip(entries, digests), 1):
        text = entry.move
        if digest.hex() != entry.digest:
            raise broken(entry, number)
        if text[:1] == "@" or extra is not None:
            if extra is None:
                extra = _Events(log, game)
            if text[:1] == "@":
                try:
                    state = extra.apply(state, history, entry.by, text, number, entry.at)
                except MoveError as e:
                    raise e.at(number, entry.by, text) from None
                if states is not None:
                    states.append(state)
                continue
            if extra.ended is not None:
                raise IllegalMoveError("the game is already over", events.CLAUSE).at(
                    number, entry.by, text)
            extra.pending = None  # playing on drops a proposal
            if extra.stand_in is not None and entry.by != extra.stand_in:
                raise IllegalMoveError(f"after @stand-in {extra.stand_in} comes "
                                       f"{extra.stand_in}'s move", clock.CLAUSE).at(
                    number, entry.by, text)
            extra.stand_in = None
            extra.previous = text
        seat = to_move(state)
        if seat is None or entry.by != players[seat]:
            raise out_of_turn(game, players, seat, entry.by).at(number, entry.by, text)  # type: ignore[union-attr]
        if fast is not None:
            after = fast(state, text)
            if after is not None:
                state = after
                record(state)
                if states is not None:
                    states.append(state)
                continue
        try:
            move = parse(state, text)
            after = apply(state, move)
            canonical = fmt(state, move)
        except MoveError as e:
            raise e.at(number, entry.by, text) from None
        if canonical != text:
            raise NotationError(
                f"not written in canonical notation, which is {canonical!r} "
                f"(adjudicator rules {game.id})"
            ).at(number, entry.by, text)
        state = after
        record(state)
        if states is not None:
            states.append(state)
    return Replay(log, game, state, tuple(states) if states is not None else (),
                  None if extra is None else extra.ended,
                  None if extra is None else extra.pending)

def describe(outcome: Outcome | None) -> str:
    """An outcome in a few words: ``ann 7, bob 5 (winner: ann)``."""
    if outcome is None:
        return "no result"
    if not outcome.standings:
        return "; ".join(outcome.details) or "no result"
    scores = ", ".join(f"{s.player} {s.score}" for s in outcome.standings)
    winners = ", ".join(outcome.winners) or "none"
    return f"{scores} (winner: {winners})"

def check_result(rep: Replay) -> None:
    """The stored result must be exactly what the moves give."""
    actual = rep.outcome
    stored = rep.log.result
    if actual == stored:
        return
    if actual is None:
        raise BadLogError("result: the log has a result but the game is not over")
    if stored is None:
        raise BadLogError(
            f"result: the game is over but the log records no result; it is {describe(actual)}"
        )
    said, given = describe(stored), describe(actual)
    if said != given:
        raise BadLogError(f"result: the log says {said}, but the moves give {given}")
    if stored.standings != actual.standings:
        places = lambda o: ", ".join(f"{s.player} {s.place}" for s in o.standings)  # noqa: E731
        raise BadLogError(
            f"result: the log's places are {places(stored)}, but the moves give {places(actual)}"
        )
    # The scores and places agree; say which line of the details does not.
    pairs = zip(
        stored.details + ("",) * len(actual.details), actual.details + ("",) * len(stored.details)
    )
    said, given = next((repr(a), repr(b)) for a, b in pairs if a != b)
    raise BadLogError(f"result: the log's details say {said}, but the moves give {given}")

def validate(log: Log, *, keep: bool = False, now: datetime | None = None) -> Replay:
    """Replay ``log`` and check its stored result and its signatures; raise
    on the first problem. A time stamp later than ``now`` (default: this
    machine's clock) is refused."""
    if not keep:
        rep = accelerated.validated(log)
        if rep is not None:
            return rep
    check_times(log, now)
    rep = replay(log, keep=keep)
    check_result(rep)
    check_seals(log)
    return rep

def check_public(log: Log) -> None:
    """Everything that can be checked without the seed: the header, the
    digest chain and every signature. For a refereed log of version 2 this
    proves that the moves and the result are the ones its referee signed."""
    check_header(log)
    check_times(log)
    check_chain(log)
    check_seals(log)
