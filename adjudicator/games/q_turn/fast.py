"""Q-Turn's unchecked paths, for speed only (the engine's Accelerator).

The rules of :mod:`.rules` without their messages, building each State
directly: :func:`fast_apply` takes exactly the legal moves, written in their
canonical notation, and gives exactly the state :func:`.rules.apply` gives
(tests/test_q_turn_fast.py compares the two move by move over many random
games); anything else is None, and the checked path says what is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ...engine import Value
from .rules import AXES, CORNERS, D, DIRS, O, OPEN, Q, SQUARES, TURNED, Move, State

_CORNER_SET = frozenset(CORNERS)


def _rotated(kinds: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...]:
    """The Q-Turner: every revealed disk a quarter turn counter-clockwise."""
    return tuple([-1 if f < 0 else TURNED[k][f] for k, f in zip(kinds, faces)])


def _acted(kinds: tuple[int, ...], faces: tuple[int, ...], own: int, turn: int) -> tuple[int, ...] | None:
    """The disks after the special action of the revealed disk on ``own``;
    None if ``turn`` (-1: none) is not a disk it turns to some effect."""
    kind = kinds[own]
    if kind == D:
        if turn < 0:
            return faces
        if turn == own or faces[turn] < 0 or kinds[turn] == Q:
            return None
        return faces[:turn] + (TURNED[kinds[turn]][faces[turn]],) + faces[turn + 1 :]
    if turn >= 0:
        return None
    return _rotated(kinds, faces) if kind == Q else faces


def _next_turn(
    state: State,
    seat: int,
    tokens: tuple[int, ...],
    faces: tuple[int, ...],
    homes: tuple[int, ...],
    reached: tuple[bool, ...],
) -> State:
    n = len(state.players)
    turns = state.turns + 1
    if turns >= state.round_limit * n:
        seat = -1
    else:
        seat = seat + 1 if seat + 1 < n else 0
    return State(
        state.players, state.round_limit, state.kinds, faces, tokens, homes, reached,
        seat, False, turns, state.winner,
    )  # fmt: skip


def _go(state: State, target: int, turn: int) -> State | None:
    """Entering on a corner, or moving one space along an arrow."""
    seat = state.seat
    if seat < 0 or state.orienting:
        return None
    tokens, homes = state.tokens, state.homes
    pos = tokens[seat]
    if pos < 0:
        if target not in _CORNER_SET or target in homes or target in tokens:
            return None
        homes = homes[:seat] + (target,) + homes[seat + 1 :]
    elif target not in OPEN[pos][state.kinds[pos]][state.faces[pos]] or target in tokens:
        return None
    tokens = tokens[:seat] + (target,) + tokens[seat + 1 :]
    kinds, faces = state.kinds, state.faces
    home = homes[seat]
    reached = state.reached
    if reached[seat]:
        if target == home:  # home again: the game ends at once
            if turn >= 0:
                return None
            return State(
                state.players, state.round_limit, kinds, faces, tokens, homes, reached,
                -1, False, state.turns + 1, seat,
            )  # fmt: skip
    elif target == 15 - home:  # the far corner
        reached = reached[:seat] + (True,) + reached[seat + 1 :]
    if faces[target] < 0:
        if turn >= 0:
            return None
        faces = faces[:target] + (0,) + faces[target + 1 :]
        if kinds[target] != Q:
            # Revealed; the same player orients it next.
            return State(
                state.players, state.round_limit, kinds, faces, tokens, homes, reached,
                seat, True, state.turns, state.winner,
            )  # fmt: skip
        faces = _rotated(kinds, faces)
    else:
        acted = _acted(kinds, faces, target, turn)
        if acted is None:
            return None
        faces = acted
    return _next_turn(state, seat, tokens, faces, homes, reached)


def _bounce(state: State, off: int, turn: int) -> State | None:
    """Bouncing, written without the token bounced off (which changes nothing)."""
    seat = state.seat
    if seat < 0 or state.orienting or off >= 0:
        return None
    tokens, kinds, faces = state.tokens, state.kinds, state.faces
    pos = tokens[seat]
    if pos < 0:
        return None
    for t in OPEN[pos][kinds[pos]][faces[pos]]:
        if t in tokens:
            break
    else:
        return None
    acted = _acted(kinds, faces, pos, turn)
    if acted is None:
        return None
    return _next_turn(state, seat, tokens, acted, state.homes, state.reached)


def _orient(state: State, arg: int, turn: int) -> State | None:
    """Orienting the disk just revealed, or re-orienting a One-Way Arrow."""
    seat = state.seat
    if seat < 0:
        return None
    kinds, faces = state.kinds, state.faces
    pos = state.tokens[seat]
    if state.orienting:
        # A One-Way Arrow points any way; a Double Arrow lies NS or EW and
        # may turn another revealed disk.
        if kinds[pos] == O:
            if arg >= 4 or turn >= 0:
                return None
            faces = faces[:pos] + (arg,) + faces[pos + 1 :]
        else:
            if arg < 4:
                return None
            faces = faces[:pos] + (arg - 4,) + faces[pos + 1 :]
            if turn >= 0:
                if turn == pos or faces[turn] < 0 or kinds[turn] == Q:
                    return None
                faces = faces[:turn] + (TURNED[kinds[turn]][faces[turn]],) + faces[turn + 1 :]
    elif pos < 0 or kinds[pos] != O or arg >= 4 or arg == faces[pos] or turn >= 0:
        return None
    else:
        faces = faces[:pos] + (arg,) + faces[pos + 1 :]
    return _next_turn(state, seat, state.tokens, faces, state.homes, state.reached)


#: How a text is played: the state, and the square or direction and the disk it turns.
Advance = Callable[[State, int, int], State | None]


def _decoded() -> dict[str, tuple[Advance, int, int]]:
    """Every text that may be the canonical notation of a move: what it reads
    as, with the function that plays it."""
    out: dict[str, tuple[Advance, int, int]] = {"bounce": (_bounce, -1, -1)}
    for i, square in enumerate(SQUARES):
        out[square] = (_go, i, -1)
        out["bounce+" + square] = (_bounce, -1, i)
        for j, other in enumerate(SQUARES):
            out[square + "+" + other] = (_go, i, j)
    for d, letter in enumerate(DIRS):
        out[letter] = (_orient, d, -1)
    for a, axis in enumerate(AXES):
        out[axis] = (_orient, 4 + a, -1)
        for j, other in enumerate(SQUARES):
            out[axis + "+" + other] = (_orient, 4 + a, j)
    return out


#: Every text that may be the canonical notation of a move, made once: the
#: function that plays it, and its square or direction and the disk it turns.
DECODED = _decoded()


def fast_apply(state: State, text: str) -> State | None:
    """The state after ``text`` if it is the canonical notation of a legal
    move in ``state``, else None (then the checked path says why).

    >>> from adjudicator.games.q_turn.rules import setup
    >>> start = setup({"disks": "4Q,6D,6O", "round-limit": 100}, ("ann", "bob"), "75")
    >>> fast_apply(start, "d4").orienting, fast_apply(start, "D4"), fast_apply(start, "b2")
    (True, None, None)
    """
    found = DECODED.get(text)
    if found is None:
        return None
    advance, arg, turn = found
    return advance(state, arg, turn)


def fast_play(state: State, texts: Sequence[str]) -> tuple[list[int], State]:
    """:func:`fast_apply` text after text, for as long as each is the canonical
    notation of a legal move: the seats that played them, and the state after
    the last."""
    seats: list[int] = []
    decoded = DECODED.get
    for text in texts:
        found = decoded(text)
        if found is None:
            break
        advance, arg, turn = found
        after = advance(state, arg, turn)
        if after is None:
            break
        seats.append(state.seat)
        state = after
    return seats, state


def fast_setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State | None:
    """None: the rules' setup is the only one (validation and self-play
    take it as it is)."""
    return None


def fast_step(state: State, move: Move) -> tuple[str, State] | None:
    """None: self-play spells a move and plays its text with :func:`fast_apply`."""
    return None


def fast_game(
    state: State, pick: Callable[[int], int], limit: int | None = None
) -> tuple[list[str], list[int], State] | None:
    """None: self-play plays move by move (:func:`fast_step`)."""
    return None
