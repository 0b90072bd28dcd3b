"""Validation at speed: the common log played in one pass, and what bulk
validation meets again and again remembered.

Nothing here decides anything the checked path does not: every function
either gives exactly what :mod:`adjudicator.replaying` and
:mod:`adjudicator.starting` would give, or declines (``None``), and then the
checked path runs and says what is wrong, in its order. ``tests/test_accelerated.py``
holds each function to its checked twin. The game's own unchecked paths are
its accelerator (``games/<game>/fast.py``, :class:`adjudicator.engine.Accelerator`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from . import seal
from .chain import head_digest
from .engine import Accelerator, GameSpec, Value
from .log import Log, MoveEntry
from .played import Replay
from .starting import (
    check_seed, chance_seed, checked_players_and_params, game_and_params, new_log_and_state,
)  # fmt: skip

#: How many entries each remembered table holds before it starts again: a
#: stream of odd logs cannot take more memory than this.
BOUND = 1000


def _remember(table: dict[Any, Any], key: Any, value: Any) -> None:
    if len(table) >= BOUND:
        table.clear()
    table[key] = value


# --- the chain over a whole log --------------------------------------------------------


def followed(previous: bytes, entries: Sequence[MoveEntry]) -> int:
    """How many of ``entries``, in order, follow the chain from ``previous``."""
    for count, (entry, digest) in enumerate(zip(entries, seal.chain(previous, entries))):
        if digest.hex() != entry.digest:
            return count
    return len(entries)


def chained_moves(previous: bytes, entries: Sequence[MoveEntry]) -> tuple[list[str], list[str]] | None:
    """The moves and the movers of ``entries`` when every one follows the
    chain from ``previous`` and none carries a time stamp or a signature;
    None otherwise."""
    moves: list[str] = []
    movers: list[str] = []
    for entry, digest in zip(entries, seal.chain(previous, entries)):
        if entry.at is not None or entry.signature is not None or digest.hex() != entry.digest:
            return None
        moves.append(entry.move)
        movers.append(entry.by)
    return moves, movers


# --- headers -------------------------------------------------------------------------


def checked_new(game_id: str, players: tuple[str, ...],
                params: Mapping[str, Any]) -> tuple[GameSpec, tuple[str, ...], dict[str, Value]]:
    """:func:`starting.checked_players_and_params`, remembered per game,
    names and parameters given (their types too, as True == 1): self-play
    starts log after log with the same few. What is refused, or cannot be a
    key, is not kept."""
    try:
        key: Any = (game_id, players, tuple(params.items()), tuple(map(type, params.values())))
        checked = _NEW_LOGS.get(key)
    except TypeError:  # a name or a parameter that is no key: checked, not kept
        key = checked = None
    if checked is None:
        checked = checked_players_and_params(game_id, players, params)
        if key is not None:
            _remember(_NEW_LOGS, key, checked)
    game, names, resolved = checked
    return game, names, dict(resolved)


_NEW_LOGS: dict[Any, tuple[GameSpec, tuple[str, ...], dict[str, Value]]] = {}


def new_open(game_id: str, players: Sequence[str], seed: str,
             params: Mapping[str, Any] | None = None) -> tuple[Log, GameSpec, Any]:
    """:func:`starting.new_log_and_state` of an open game without keys, tags
    or clock (self-play's): the first log of a game, names and parameters
    made by it and kept; the next ones are that log with their own seed,
    set up from it. Every check of the header but the seed's reads only
    what the key holds, so a new seed is all that is left to check; an
    empty one goes to the checked path, which refuses it."""
    given = {} if params is None else params
    try:
        key: Any = (game_id, tuple(players), tuple(given.items()), tuple(map(type, given.values())))
        kept = _OPEN_LOGS.get(key)
    except TypeError:  # a name or a parameter that is no key: checked, not kept
        key = kept = None
    if kept is None or not seed:
        log, game, state = new_log_and_state(game_id, players, seed, params, checked=checked_new)
        if key is not None:
            _remember(_OPEN_LOGS, key, (log, game))
        return log, game, state
    first, game = kept
    log = replace(first, seed=seed)
    return log, game, set_up(game, first.params, log.players, seed)


_OPEN_LOGS: dict[Any, tuple[Log, GameSpec]] = {}


def started(log: Log) -> tuple[GameSpec, Any, list[Any] | None]:
    """:func:`starting.start`, with the checks of the game, the rules, the
    players and the parameters remembered for a header without tags or
    start time, keyed by every field they read; and what is kept under that
    key (None: not kept): ``[game, params, parts]``, where :func:`validated`
    keeps the fields of the header as the chain hashes them (``parts``, None
    until then), which follow from the same key."""
    kept = None
    if log.started is None and not log.tags:
        key = (log.game, log.version, log.rules, log.clock, log.deadline, log.players,
               tuple(log.params.items()), tuple(map(type, log.params.values())))
        kept = _STARTS.get(key)
        if kept is None:
            game, params = game_and_params(log)
            kept = [game, params, None]
            _remember(_STARTS, key, kept)
        else:
            game, params, _ = kept
    else:
        game, params = game_and_params(log)
    check_seed(log)
    seed = chance_seed(log)
    # The game's fast setup where it gives one, the rules' otherwise (set_up, inline).
    fast = game.fast
    state = None if fast is None else fast.fast_setup(params, log.players, seed)
    if state is None:
        state = game.rules.setup(dict(params), log.players, seed)
    return game, state, kept


def set_up(game: GameSpec, params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> Any:
    """The game's setup: its accelerator's ``fast_setup`` where it gives one
    (it reads ``params`` and changes nothing), the rules' otherwise (given
    a copy of ``params``, as the checked path gives it)."""
    fast = game.fast
    state = None if fast is None else fast.fast_setup(params, players, seed)
    return game.rules.setup(dict(params), players, seed) if state is None else state


_STARTS: dict[Any, list[Any]] = {}


# --- whole logs ------------------------------------------------------------------------


def replayed(log: Log, game: GameSpec, state: Any, entries: Sequence[MoveEntry],
             fast: Accelerator) -> Replay | None:
    """The whole log through the game's ``fast_play``, or None to take the
    entry-by-entry path (an event, a broken link, a refused move, a move out
    of turn: that path finds the first and says what is wrong)."""
    texts = [e.move for e in entries]
    for text in texts:
        if text[:1] == "@":
            return None
    if followed(head_digest(log), entries) != len(entries):
        return None
    seats, after = fast.fast_play(state, texts)
    if len(seats) != len(texts):
        return None
    players = log.players
    for entry, seat in zip(entries, seats):
        if entry.by != players[seat]:
            return None
    return Replay(log, game, after)


def validated(log: Log) -> Replay | None:
    """:func:`replaying.validate` at once for the common log, or None to take
    the full path (which then finds the first problem, in its order, and says
    what it is).

    The common log is an open game without a clock, keys or signatures, of a
    game with an accelerator, and holds no event. For it every check of the
    time stamps and of the signatures comes down to fields being empty, and
    those are checked in the one loop over the entries; the digest chain, the
    moves and the result are checked as the checked path does, and any
    failure hands the log to it.
    """
    if (log.clock or log.started is not None or log.deadline is not None or log.keys
            or log.commitment is not None or log.referee is not None
            or log.signature is not None):
        return None
    try:
        game, state, kept = started(log)
    except Exception:  # a bad header: the full path says what is wrong, in its order
        return None
    fast = game.fast
    if fast is None:
        return None
    # The fields of a plain header follow from what started() keyed its
    # checks by (no tags, no start time; and checked above: no clock,
    # deadline, keys, commitment or referee); kept with them.
    parts = None if kept is None else kept[2]
    if parts is None:
        parts = seal.header_parts(log.format, log.version, log.game, log.params, log.players,
                                  True, None, {}, log.rules, log.tags, log.clock, log.deadline)
        if kept is not None:
            kept[2] = parts
    head = seal.header_digest_of(parts, log.seed or "", log.started)
    chained = chained_moves(head, log.moves)
    if chained is None:
        return None
    texts, bys = chained
    # An event (a text starting with "@") is no game's canonical move, so
    # fast_play stops there (tests/test_accelerated.py holds every game to
    # that) and the log, one seat short, is handed to the full path.
    seats, after = fast.fast_play(state, texts)
    # Every text played, each by the player to move (fast_play says which
    # seat played each).
    # (A comprehension: map over a tuple's __getitem__ costs twice as much.)
    players = log.players
    if [players[seat] for seat in seats] != bys:
        return None
    if game.rules.outcome(after) != log.result:
        return None
    return Replay(log, game, after)



def sizes() -> dict[str, int]:
    """How many entries each remembered table holds now (each at most :data:`BOUND`)."""
    return {"new logs": len(_NEW_LOGS), "open logs": len(_OPEN_LOGS), "starts": len(_STARTS)}
