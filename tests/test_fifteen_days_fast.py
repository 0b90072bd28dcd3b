"""15 Days: the validation fast path (``fast_apply``) against the checked path.

``fast_apply(state, text)`` must give exactly the state of parse_move, apply
and format_move when ``text`` is the canonical notation of a legal move, and
``None`` for anything else: an illegal move, another spelling of a legal one,
a side written where it is no choice, a move of another phase, text that is
no move at all. Random games (fixed seeds) are played move by move and every
position is checked with the move played; every few positions, with every
canonical spelling there is and a handful of others.
"""

from __future__ import annotations

import pytest

from adjudicator.chance import Chance
from adjudicator.errors import MoveError
from adjudicator.games.fifteen_days import GAME as fd, fast

NAMES = ("ann", "bob", "cy", "dee")
SEASONS = ("Sp", "Su", "Au", "Wi")
CARDS = [f"{s}{v}" for s in SEASONS for v in range(1, 7)]

#: Every canonical spelling of every move, whatever the position.
CANONICAL = (
    ["D1", "D2", "FD1", "FD2", "R1", "R2", "W", "E", "FO"]
    + [f"{f}T{s}" for f in ("", "F") for s in "abcd"]
    + [f"{f}P{c}{side}" for f in ("", "F") for c in CARDS for side in ("", "L", "R")]
    + [f"W{c}{side}" for c in CARDS for side in ("", "L", "R")]
    + [f"X{c}" for c in CARDS]
)
#: Texts that are never canonical (parse_move reads most of them).
OTHERS = ["d1", "D 1", "ta", "TA", "FW", "FE", "FR1", "FXSu1", "XSu1L", "psu4", "P Su4",
          "Wsu3", "WSu3L", "FFD1", "FO1", "O", "Tx", "T", "P", "X", "D3", "PSu7", "WSu0",
          "", " ", "E ", " E", "PFa4", "take a", "Ta\n"]


def checked(state, text: str):
    """The checked path: the state after ``text``, or None if it is refused or
    not written canonically."""
    try:
        move = fd.parse_move(state, text)
        after = fd.apply(state, move)
        if fd.format_move(state, move) != text:
            return None
        return after
    except MoveError:
        return None


def invariants(state) -> None:
    """The fields the handlers leave unwritten (rules.py, "the turn's flow") hold
    their defaults wherever the phase does not use them."""
    phase = state.phase
    assert state.column == -1 or phase == "rebuild", phase
    assert state.owe == 0 or phase in ("wild", "pay"), phase
    assert not state.displaced or phase in ("pay", "move-wild"), phase
    if phase in ("act", "limit", "bonus", "over"):
        assert not state.power and state.count == 0, phase


def test_every_canonical_text_is_in_the_table():
    assert sorted(fast.CANONICAL) == sorted(CANONICAL)
    for text, (_, move) in fast.CANONICAL.items():
        assert fd.parse_move(None, text) == move, text


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("feathers", "wild"), [("one-per-turn", "any"),
                                               ("one-per-action", "any"),
                                               ("one-per-turn", "board")])
def test_fast_apply_agrees_with_the_checked_path(players, feathers, wild):
    params = {"first-player": "drawn", "feathers": feathers, "wild": wild}
    checked_positions = 0
    for k in range(8):
        seed = f"fast/{players}/{feathers}/{k}" + ("" if wild == "any" else f"/{wild}")
        state = fd.setup(params, NAMES[:players], seed)
        rng = Chance(seed, "play")
        ply = 0
        while fd.to_move(state) is not None:
            moves = fd.legal_moves(state)
            move = moves[rng.below(len(moves))]
            text = fd.format_move(state, move)
            after = fd.apply(state, move)
            assert fast.fast_apply(state, text) == after, (seed, ply, text)
            assert fast.fast_step(state, move) == (text, after), (seed, ply, text)
            if ply % 6 == 0:
                checked_positions += 1
                legal = {fd.format_move(state, m) for m in moves}
                for other in CANONICAL + OTHERS:
                    want = checked(state, other)
                    assert (want is not None) == (other in legal), (seed, ply, other)
                    assert fast.fast_apply(state, other) == want, (seed, ply, other)
                    try:
                        read = fd.parse_move(state, other)
                    except MoveError:
                        continue
                    # fast_step: the checked path's text and state, or None for the checked path.
                    step = fast.fast_step(state, read)
                    if step is not None:
                        assert step == (fd.format_move(state, read), fd.apply(state, read))
                    else:
                        assert want is None or fd.format_move(state, read) != other, other
            state = after
            ply += 1
            invariants(state)
        # After the end nothing applies.
        for other in CANONICAL:
            assert fast.fast_apply(state, other) is None
    assert checked_positions > 40


def random_game(players: int, seed: str, feathers: str = "one-per-turn", wild: str = "any"):
    """A random game: its texts, the seat that played each, and the state before
    each text and after the last (from fast_apply)."""
    params = {"first-player": "drawn", "feathers": feathers, "wild": wild}
    state = fd.setup(params, NAMES[:players], seed)
    rng = Chance(seed, "whole")
    texts, seats, states = [], [], [state]
    while (seat := fd.to_move(state)) is not None:
        moves = fd.legal_moves(state)
        text = fd.format_move(state, moves[rng.below(len(moves))])
        state = fast.fast_apply(state, text)
        texts.append(text)
        seats.append(seat)
        states.append(state)
    return texts, seats, states


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("feathers", "wild"), [("one-per-turn", "any"),
                                               ("one-per-action", "board")])
def test_fast_play_is_fast_apply_move_after_move(players, feathers, wild):
    """fast_play of any stretch of a game gives the seats that played it and
    exactly the state fast_apply reaches, the end of the game included;
    nothing is played once the game is over."""
    for k in range(3):
        texts, seats, states = random_game(players, f"play/{players}/{k}", feathers, wild)
        for start in range(0, len(texts) + 1, 25):
            for stop in range(start, len(texts) + 1, 7):
                got = fast.fast_play(states[start], texts[start:stop])
                assert got == (seats[start:stop], states[stop]), (start, stop)
            assert fast.fast_play(states[start], texts[start:]) == (seats[start:], states[-1])
        assert fast.fast_play(states[0], texts + texts[:1]) == (seats, states[-1])
        assert states[-1].seat == -1
        assert fast.fast_play(states[-1], texts) == ([], states[-1])
        assert fast.fast_play(states[-1], CANONICAL) == ([], states[-1])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_play_stops_at_the_first_text_fast_apply_refuses(players):
    """A text that is not the canonical notation of a legal move (another
    spelling, an illegal move, a side written where it is no choice, an event)
    stops fast_play before it: the seats and the state are those of the texts
    before it. Every canonical spelling there is is tried at some positions."""
    import random

    rng = random.Random(f"stop/{players}")
    for k in range(3):
        texts, seats, states = random_game(players, f"stop/{players}/{k}")
        for at in rng.sample(range(len(texts)), 5):
            refused = [t for t in CANONICAL + OTHERS if fast.fast_apply(states[at], t) is None]
            refused += ["@resign", "garbage"]
            for bad in rng.sample(refused, 20) + refused[-3:]:
                got = fast.fast_play(states[0], texts[:at] + [bad] + texts[at:])
                assert got == (seats[:at], states[at]), (at, bad)
            for text in CANONICAL + OTHERS:
                after = fast.fast_apply(states[at], text)
                want = ([seats[at]], after) if after is not None else ([], states[at])
                assert fast.fast_play(states[at], [text]) == want, text
