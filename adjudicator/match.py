"""Games as logs: start, replay, validate, extend and self-play.

This is the library behind every CLI command. It knows logs and the engine
contract, never a particular game.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import games
from .chance import Chance
from .engine import Game, Outcome, Value
from .errors import BadLogError, IllegalMoveError, MoveError, NotationError, ParameterError
from .log import FORMAT, VERSION, Log, MoveEntry

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,23}")


def check_players(game: Game, players: Sequence[str]) -> tuple[str, ...]:
    """The player names, validated for ``game``: their count, spelling, uniqueness."""
    players = tuple(players)
    if len(players) not in game.PLAYERS:
        counts = ", ".join(str(n) for n in game.PLAYERS)
        raise ParameterError(
            f"{game.ID} is played by {counts} players, not {len(players)}"
        )
    seen: set[str] = set()
    for name in players:
        if not NAME.fullmatch(name):
            raise ParameterError(
                f"player name {name!r}: use a letter then up to 23 letters, digits, '_', '.' or '-'"
            )
        if name.lower() in seen:
            raise ParameterError(f"player name {name!r} is used twice")
        seen.add(name.lower())
    return players


def resolve_params(
    game: Game, given: Mapping[str, Any], *, complete: bool = False
) -> dict[str, Value]:
    """Every parameter of ``game``, validated, in declaration order.

    With ``complete`` (a log's header) every parameter must be given; otherwise
    missing ones take their defaults.
    """
    known = {p.name: p for p in game.PARAMS}
    for name in given:
        if name not in known:
            names = ", ".join(known) or "none"
            raise ParameterError(
                f"{game.ID} has no parameter {name!r} (its parameters: {names})"
            )
    out: dict[str, Value] = {}
    for p in game.PARAMS:
        if p.name in given:
            out[p.name] = p.coerce(given[p.name])
        elif complete:
            raise ParameterError(
                f"parameter {p.name!r} is missing (the log must record every parameter; "
                f"the default is {p.default!r})"
            )
        else:
            out[p.name] = p.default
    return out


def new_log(
    game_id: str,
    players: Sequence[str],
    seed: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> Log:
    """A log of a game not yet begun; a random seed when none is given."""
    game = games.get(game_id)
    players = check_players(game, players)
    if seed is None:
        seed = secrets.token_hex(8)
    if not seed:
        raise ParameterError("the seed must not be empty")
    log = Log(
        format=FORMAT,
        version=VERSION,
        game=game.ID,
        params=resolve_params(game, params or {}),
        players=players,
        seed=seed,
        moves=(),
        result=None,
    )
    start(log)  # the game must be able to set itself up with these
    return log


def start(log: Log) -> tuple[Game, Any]:
    """The game of a log and its starting state, after checking the header."""
    game = games.get(log.game)
    try:
        check_players(game, log.players)
        params = resolve_params(game, log.params, complete=True)
        if not log.seed:
            raise ParameterError("the seed must not be empty")
    except ParameterError as e:
        raise BadLogError(f"header: {e}") from None
    return game, game.setup(params, log.players, log.seed)


@dataclass(frozen=True)
class Replay:
    """A log played through: its game, its final state and, if kept, every state."""

    log: Log
    game: Game
    state: Any
    states: tuple[Any, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.log.players

    def to_move(self, state: Any = None) -> str | None:
        seat = self.game.to_move(self.state if state is None else state)
        return None if seat is None else self.log.players[seat]


def _out_of_turn(game: Game, players: tuple[str, ...], seat: int | None, by: str) -> MoveError | None:
    if seat is None:
        return IllegalMoveError("the game is already over", game.END_CLAUSE)
    if by == players[seat]:
        return None
    if by not in players:
        return IllegalMoveError(
            f"{by!r} is not a player of this game (players: {', '.join(players)})"
        )
    return IllegalMoveError(f"it is {players[seat]}'s turn, not {by}'s", game.TURN_CLAUSE)


def replay(log: Log, *, upto: int | None = None, keep: bool = False) -> Replay:
    """Play the moves of ``log`` (the first ``upto`` of them), checking each.

    Every entry must be by the player to move, legal, and written in
    canonical notation; the first that is not raises a :class:`MoveError`
    located at that move.
    """
    game, state = start(log)
    entries = log.moves if upto is None else log.moves[:upto]
    players = log.players
    states = [state] if keep else None
    # The hot path of bulk validation: bind the contract's functions once.
    to_move, parse, fmt, apply = game.to_move, game.parse_move, game.format_move, game.apply
    for number, entry in enumerate(entries, 1):
        text = entry.move
        seat = to_move(state)
        if seat is None or entry.by != players[seat]:
            raise _out_of_turn(game, players, seat, entry.by).at(number, entry.by, text)  # type: ignore[union-attr]
        try:
            move = parse(state, text)
            after = apply(state, move)
            canonical = fmt(state, move)
        except MoveError as e:
            raise e.at(number, entry.by, text) from None
        if canonical != text:
            raise NotationError(
                f"not written in canonical notation, which is {canonical!r} "
                f"({game.NOTATION})"
            ).at(number, entry.by, text)
        state = after
        if states is not None:
            states.append(state)
    return Replay(log, game, state, tuple(states) if states is not None else ())


def describe(outcome: Outcome | None) -> str:
    """An outcome in a few words: ``ann 7, bob 5 (winner: ann)``."""
    if outcome is None:
        return "no result"
    scores = ", ".join(f"{s.player} {s.score}" for s in outcome.standings)
    winners = ", ".join(outcome.winners) or "none"
    return f"{scores} (winner: {winners})"


def check_result(rep: Replay) -> None:
    """The stored result must be exactly what the moves give."""
    actual = rep.game.outcome(rep.state)
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
    if said == given:  # the scores agree; say which line of the details does not
        pairs = zip(stored.details + ("",) * len(actual.details), actual.details + ("",) * len(stored.details))
        said, given = next((repr(a), repr(b)) for a, b in pairs if a != b)
        raise BadLogError(f"result: the log's details say {said}, but the moves give {given}")
    raise BadLogError(f"result: the log says {said}, but the moves give {given}")


def validate(log: Log, *, keep: bool = False) -> Replay:
    """Replay ``log`` and check its stored result; raise on the first problem."""
    rep = replay(log, keep=keep)
    check_result(rep)
    return rep


def extend(
    log: Log,
    texts: Iterable[str],
    *,
    as_player: str | None = None,
    comment: str | None = None,
) -> Log:
    """``log`` with the moves ``texts`` appended, all or nothing.

    Moves are read tolerantly and recorded in canonical notation; with
    ``as_player`` every move must be that player's. The result is written
    once the game is over.
    """
    try:
        rep = validate(log)
    except (BadLogError, MoveError) as e:
        raise BadLogError(f"cannot extend an invalid log: {e}") from None
    game, state, players = rep.game, rep.state, log.players
    if as_player is not None and as_player not in players:
        raise ParameterError(
            f"--as {as_player!r}: no such player (players: {', '.join(players)})"
        )
    entries = list(log.moves)
    texts = list(texts)
    if not texts:
        raise ParameterError("no move given")
    for text in texts:
        number = len(entries) + 1
        seat = game.to_move(state)
        if seat is None:
            raise IllegalMoveError("the game is already over", game.END_CLAUSE).at(
                number, as_player, text
            )
        by = as_player if as_player is not None else players[seat]
        problem = _out_of_turn(game, players, seat, by)
        if problem is not None:
            raise problem.at(number, by, text)
        try:
            move = game.parse_move(state, text)
            after = game.apply(state, move)
            canonical = game.format_move(state, move)
        except MoveError as e:
            raise e.at(number, by, text) from None
        entries.append(MoveEntry(by=by, move=canonical))
        state = after
    if comment is not None:
        entries[-1] = MoveEntry(by=entries[-1].by, move=entries[-1].move, comment=comment)
    return _with(log, entries, game.outcome(state))


def _with(log: Log, entries: Sequence[MoveEntry], result: Outcome | None) -> Log:
    return Log(
        format=log.format,
        version=log.version,
        game=log.game,
        params=log.params,
        players=log.players,
        seed=log.seed,
        moves=tuple(entries),
        result=result,
    )


def simulate(
    game_id: str,
    players: Sequence[str],
    seed: str,
    params: Mapping[str, Any] | None = None,
    *,
    play_seed: str | None = None,
    max_moves: int | None = None,
) -> Log:
    """A game of uniformly random legal moves, as a complete log.

    The moves are chosen with :class:`Chance` over ``play_seed`` (default: the
    game's seed) and the label ``"simulate"``, so the same arguments always
    give the same log.
    """
    log = new_log(game_id, players, seed, params)
    game, state = start(log)
    rng = Chance(seed if play_seed is None else play_seed, "simulate")
    entries: list[MoveEntry] = []
    while (seat := game.to_move(state)) is not None:
        if max_moves is not None and len(entries) >= max_moves:
            break
        moves = game.legal_moves(state)
        move = moves[rng.below(len(moves))]
        entries.append(MoveEntry(by=log.players[seat], move=game.format_move(state, move)))
        state = game.apply(state, move)
    return _with(log, entries, game.outcome(state))
