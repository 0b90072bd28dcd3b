"""Recording: moves and events appended to a log, all or nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from . import events
from .chain import sealed
from .clock import act_parts
from .engine import Outcome
from .errors import BadLogError, IllegalMoveError, MoveError, ParameterError, UsageError
from .log import Log, MoveEntry
from .played import Replay
from .replaying import out_of_turn, replay, validate
from .signing import sign_own


def extend(
    log: Log,
    texts: Iterable[str],
    *,
    as_player: str | None = None,
    comment: str | None = None,
    player_key: str | None = None,
    sign: bool = True,
    at: str | None = None,
) -> Log:
    """``log`` with the moves ``texts`` appended, all or nothing (see :func:`record`)."""
    return record(log, texts, as_player=as_player, comment=comment, player_key=player_key,
                  sign=sign, at=at).log


def record(
    log: Log,
    texts: Iterable[str],
    *,
    as_player: str | None = None,
    comment: str | None = None,
    player_key: str | None = None,
    sign: bool = True,
    at: str | None = None,
    replayed: Replay | None = None,
) -> Replay:
    """The replay of ``log`` with the moves ``texts`` appended, all or nothing.

    Moves are read tolerantly and recorded in canonical notation; with
    ``as_player`` every move must be that player's. A text starting with
    ``@`` is an event (:mod:`adjudicator.events`), recorded on its own for
    ``as_player``. In a log with a clock, entries are stamped ``at`` (default:
    now). A player whose key is in
    the header signs their moves with ``player_key`` (their private key).
    The result is written once the game is over. A refereed log must then
    be signed again by its referee (:func:`sign`).

    ``replayed`` is :func:`validate`'s replay of ``log`` where the caller has
    it (then the log is not replayed again); the replay returned keeps every
    state when that one did.
    """
    if replayed is not None and replayed.log is log:
        rep = replayed
    else:
        try:
            rep = validate(log)
        except (BadLogError, MoveError) as e:
            raise BadLogError(f"cannot extend an invalid log: {e}") from None
    game, state, players = rep.game, rep.state, log.players
    if as_player is not None and as_player not in players and not (
            as_player == events.REFEREE and log.refereed):
        raise UsageError(
            f"--as {as_player!r}: no such player (players: {', '.join(players)})"
        )
    added: list[tuple[str, str, str | None]] = []
    states: list[Any] = []
    texts = list(texts)
    if not texts:
        raise UsageError("no move given")
    if any(t.strip().startswith("@") for t in texts):
        new = _event(log, texts, as_player, comment, player_key, sign, at)
        return replay(new, keep=bool(rep.states))
    if rep.ended is not None:
        raise IllegalMoveError("the game is already over", events.CLAUSE).at(
            len(log.moves) + 1, as_player, texts[0])
    for text in texts:
        number = len(log.moves) + len(added) + 1
        seat = game.to_move(state)
        if seat is None:
            raise IllegalMoveError("the game is already over", game.end_clause).at(
                number, as_player, text
            )
        by = as_player if as_player is not None else players[seat]
        problem = out_of_turn(game, players, seat, by)
        if problem is not None:
            raise problem.at(number, by, text)
        try:
            move = game.parse_move(state, text)
            after = game.apply(state, move)
            canonical = game.format_move(state, move)
        except MoveError as e:
            raise e.at(number, by, text) from None
        added.append((by, canonical, None))
        state = after
        states.append(state)
    if comment is not None:
        added[-1] = (added[-1][0], added[-1][1], comment)
    entries = list(sealed(log, added, at))
    for i in range(len(log.moves), len(entries) if sign else 0):
        entries[i] = sign_own(log, entries[i], player_key)
    # Playing on drops a proposal waiting for answers, as the replay does.
    return Replay(_with(log, entries, game.outcome(state)), game, state,
                  (*rep.states, *states) if rep.states else ())

def act(log: Log, text: str, *, at: str, then: str | None = None,
        comment: str | None = None) -> Replay:
    """The replay of ``log`` with the referee's act of the clock ``text``
    appended (:mod:`adjudicator.clock`), stamped ``at``; after ``@stand-in
    P``, ``then`` is the stand-in's move, recorded as P's with ``comment``.
    The log must be unlocked (the referee's); each entry is checked by the
    replay, the act against the clock the log itself keeps."""
    entries: list[tuple[str, str, str | None]] = [(events.REFEREE, text, None)]
    if then is not None:
        entries.append((act_parts(text)[1][0], then, comment))
    candidate = _with(log, sealed(log, entries, at), None)
    rep = replay(candidate, keep=True)
    return Replay(_with(log, candidate.moves, rep.outcome), rep.game, rep.state, rep.states,
                  rep.ended, rep.pending)


def _event(log: Log, texts: list[str], by: str | None, comment: str | None,
           player_key: str | None, sign: bool, at: str | None) -> Log:
    """``log`` with one event appended (:mod:`adjudicator.events`)."""
    number = len(log.moves) + 1
    if len(texts) != 1:
        raise ParameterError("an event (@...) is recorded on its own, not with moves")
    text = "@" + " ".join(texts[0].strip()[1:].lower().split())
    if by is None:
        raise UsageError(f"say who records {text} (--as PLAYER)")
    try:
        events.parse(text)
    except MoveError as e:
        raise e.at(number, by, texts[0]) from None
    entries = list(sealed(log, [(by, text, comment)], at))
    if sign and by in log.players:
        entries[-1] = sign_own(log, entries[-1], player_key)
    candidate = _with(log, entries, None)
    rep = replay(candidate)
    return _with(log, entries, rep.outcome)

def _with(log: Log, entries: Sequence[MoveEntry], result: Outcome | None) -> Log:
    # A new chain head: any earlier referee signature no longer applies.
    return msgspec.structs.replace(log, moves=tuple(entries), result=result, signature=None)
