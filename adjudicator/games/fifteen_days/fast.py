"""15 Days: the unchecked paths, for speed only (the engine's Accelerator).

A finite game of moves: every canonical spelling there is (as
:func:`.notation.format_move` writes it) is listed once, with its move and
the rule that applies it, so validation needs no parsing, no format round
trip and no cache to bound. tests/test_fifteen_days_fast.py holds every
function here to the checked path (parse, apply, format) move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ...engine import Value
from ...errors import MoveError
from .notation import parse_move
from .rules import CARDS, HANDLERS, SOURCES, Move, State

Rule = Callable[[State, Move], State | None]


def apply_sided(state: State, move: Move) -> State | None:
    """A play or a wild's place with its side written: canonical only when the
    side is a choice (the season new to the board, a free corner on both sides)."""
    board = state.boards[state.seat]
    season = move.card // 6
    if (board[0][0] == season or board[1][0] == season or board[2][0] == season
            or board[3][0] == season):
        return None
    if (board[0][0] < 0 or board[2][0] < 0) and (board[1][0] < 0 or board[3][0] < 0):
        return HANDLERS[move.op](state, move)
    return None


def _spellings() -> list[str]:
    """Every canonical spelling of every move, whatever the position."""
    out = ["D1", "D2", "FD1", "FD2", "R1", "R2", "W", "E", "FO"]
    out += [f"{f}T{s}" for f in ("", "F") for s in SOURCES]
    for name in CARDS:
        out += [f"{f}P{name}{side}" for f in ("", "F") for side in ("", "L", "R")]
        out += [f"X{name}"] + [f"W{name}{side}" for side in ("", "L", "R")]
    return out


def _canonical() -> dict[str, tuple[Rule, Move]]:
    table: dict[str, tuple[Rule, Move]] = {}
    for text in _spellings():
        move = parse_move(None, text)
        table[text] = (apply_sided if move.side >= 0 else HANDLERS[move.op], move)
    return table


#: Canonical text -> (the rule that applies it, its move).
CANONICAL = _canonical()
#: Move -> (its canonical text where the position allows the move, the rule).
STEPS = {move: (text, rule) for text, (rule, move) in CANONICAL.items()}


def fast_apply(state: State, text: str) -> State | None:
    """The state after the move written ``text`` if it is the canonical notation
    of a legal move, else ``None`` (the checked path then says what is wrong).

    >>> from .rules import apply, setup
    >>> s = setup({"first-player": "seat-0", "feathers": "one-per-turn", "wild": "any"},
    ...           ("a", "b"), "1")
    >>> fast_apply(s, "D1") == apply(s, Move("D", arg=0))
    True
    >>> fast_apply(s, "d1") is None
    True
    """
    try:
        rule, move = CANONICAL[text]  # once the game is over every rule refuses
        return rule(state, move)
    except (KeyError, MoveError):  # not canonical notation, or not legal here
        return None


def fast_play(state: State, texts: Sequence[str]) -> tuple[list[int], State]:
    """:func:`fast_apply` over a whole log at once: ``texts`` played in turn
    from ``state`` for as long as each is the canonical notation of a legal
    move. The seats that played them, one per text played, and the state
    after the last; fewer seats than texts when ``texts[len(seats)]`` is
    refused (the checked path then says why). The states are exactly
    :func:`fast_apply`'s; whether each text was written by the player whose
    seat it lists is for the caller to check.

    >>> from .rules import setup
    >>> s = setup({"first-player": "seat-0", "feathers": "one-per-turn", "wild": "any"},
    ...           ("a", "b"), "1")
    >>> seats, after = fast_play(s, ["D1", "D2", "d1"])
    >>> seats, after == fast_apply(fast_apply(s, "D1"), "D2")
    ([0, 0], True)
    """
    seats: list[int] = []
    record = seats.append
    table = CANONICAL
    try:
        for text in texts:
            seat = state.seat
            if seat < 0:
                break  # the game is over: every rule refuses
            rule, move = table[text]
            after = rule(state, move)
            if after is None:
                break  # a side written where it is no choice
            state = after
            record(seat)
    except (KeyError, MoveError):  # not canonical notation, or not legal here
        pass
    return seats, state


def fast_setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State | None:
    """None: the rules' setup is the only one (validation and self-play
    take it as it is)."""
    return None


def fast_step(state: State, move: Move) -> tuple[str, State] | None:
    """``(format_move(state, move), apply(state, move))`` for a legal move, by
    one look-up: a listed move writes its side exactly when it is a choice,
    so its text is the one of its table row. ``None`` for a move the rules
    refuse or one whose side is no choice (the checked path then)."""
    step = STEPS.get(move)
    if step is None or state.seat < 0:
        return None
    text, rule = step
    try:
        after = rule(state, move)
    except MoveError:
        return None
    return None if after is None else (text, after)


def fast_game(
    state: State, pick: Callable[[int], int], limit: int | None = None
) -> tuple[list[str], list[int], State] | None:
    """None: self-play plays move by move (:func:`fast_step`)."""
    return None
