"""Q-Turn: the fast path (:mod:`adjudicator.games.q_turn.fast`) against the
checked path (:mod:`adjudicator.games.q_turn.rules`), move by move over many
random games.

``fast_apply(state, text)`` must give the state the checked path gives
(parse, apply, and the text is the canonical notation of the move) and None
for every text that is not the canonical notation of a legal move there:
mistyped, tolerant but not canonical, or illegal in that position. The
positions come from random games of every player count and several disk
mixes, with fixed seeds; the texts from the legal list, from other positions,
from every text the fast path can read, and from tolerant spellings.
``fast_play`` (a whole log's texts at once) must give the seats and the state
that ``fast_apply`` gives text after text, and stop at the first it refuses.
"""

from __future__ import annotations

import pytest

from adjudicator.chance import Chance
from adjudicator.errors import MoveError
from adjudicator.games.q_turn import GAME as game, fast, rules
from test_q_turn import NAMES, expected_outcomes, position, snapshot

MIXES = ({}, {"disks": "8Q,4D,4O"}, {"disks": "0Q,16D,0O"}, {"disks": "0Q,0D,16O"},
         {"disks": "16Q,0D,0O", "round-limit": 5})  # fmt: skip
# Spellings that read as a move but are never canonical.
TOLERANT = ("B2", "b2 ", "to b2", "b2,c3", "b2+none", "xb3", "x", "bounce off b3", "bounce b1",
            "e", "east", "n-s", "SN", "=E", "pass", "e3", "b5", "")  # fmt: skip


def checked(state, text: str):
    """The checked path: the state after ``text`` if it is the canonical notation
    of a legal move, else None."""
    try:
        move = game.parse_move(state, text)
        after = rules.apply(state, move)
    except MoveError:
        return None
    return after if game.format_move(state, move) == text else None


def random_game(players: int, params: dict, seed: str):
    """The positions of a random game, each with the move played from it."""
    state = game.setup({**{p.name: p.default for p in game.params}, **params},
                       NAMES[:players], seed)  # fmt: skip
    rng = Chance(seed, "fast")
    while game.to_move(state) is not None:
        moves = game.legal_moves(state)
        move = moves[rng.below(len(moves))]
        yield state, move
        state = game.apply(state, move)
    yield state, None


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("params", MIXES, ids=str)
def test_fast_apply_is_the_checked_path(players, params):
    every = sorted(fast.DECODED)
    rng = Chance(f"{players}{params}", "texts")
    for seed in ("0", "1", "2"):
        pool: list[str] = []
        for state, move in random_game(players, params, f"fast-{seed}"):
            listed = [game.format_move(state, m) for m in game.legal_moves(state)]
            sample = [every[rng.below(len(every))] for _ in range(12)]
            for text in {*listed, *pool, *sample, *TOLERANT}:
                after = fast.fast_apply(state, text)
                assert after == checked(state, text), (text, state)
                assert (after is not None) == (text in listed), (text, state)
            for m in game.legal_moves(state):
                # Every listed move, as the fast path plays its text: the same state.
                assert fast.fast_apply(state, game.format_move(state, m)) == rules.apply(state, m)
                assert fast.fast_step(state, m) is None  # self-play takes fast_apply
            if move is not None:
                text = game.format_move(state, move)
                assert fast.fast_apply(state, text) == game.apply(state, move)
            pool = (pool + listed[::3])[-40:]


def test_fast_apply_agrees_with_the_rules_oracle():
    """Every position fast_apply reaches is one the rule text allows
    (tests/test_q_turn.py's oracle, which shares no code with the engine)."""
    for players in (2, 3, 4):
        for state, _ in random_game(players, {}, "oracle"):
            if game.to_move(state) is None:
                assert all(fast.fast_apply(state, t) is None for t in ("a1", "bounce", "N", "NS"))
                break
            allowed = expected_outcomes(state)
            for m in game.legal_moves(state):
                after = fast.fast_apply(state, game.format_move(state, m))
                assert after is not None and snapshot(after) in allowed


def test_fast_apply_refuses_non_canonical_and_illegal_texts():
    """Scenario checks: the canonical spelling only, and only where legal."""
    # Landing on a Double Arrow beside a Q-Turner: turning the Q-Turner is no turn.
    state = position({"a1": "O:E", "b1": "D:NS", "c1": "Q", "a4": "O:S"},
                     {"ann": "a1", "bob": "a4"})  # fmt: skip
    assert fast.fast_apply(state, "b1") == game.apply(state, game.parse_move(state, "b1"))
    assert fast.fast_apply(state, "b1+c1") is None  # written b1
    assert fast.fast_apply(state, "b1+a4") is not None
    assert fast.fast_apply(state, "b1+b1") is None  # not its own disk
    assert fast.fast_apply(state, "b1+d1") is None  # d1 is face down
    assert fast.fast_apply(state, "B1") is None
    assert fast.fast_apply(state, "a2") is None  # the One-Way points east
    # Orienting a revealed Double Arrow: an axis, never a direction.
    state = position({"b2": "?D", "a4": "O:S"}, {"ann": "b2", "bob": "a4"}, orienting=True)
    assert fast.fast_apply(state, "NS") is not None
    assert fast.fast_apply(state, "N") is None
    assert fast.fast_apply(state, "NS+a4") is not None
    # A bounce names no token; never off the edge.
    state = position({"a1": "O:E", "b1": "O:N"}, {"ann": "a1", "bob": "b1"})
    assert fast.fast_apply(state, "bounce") is not None
    assert fast.fast_apply(state, "xb1") is None
    state = position({"a1": "O:S"}, {"ann": "a1", "bob": "d4"})
    assert fast.fast_apply(state, "bounce") is None
    assert fast.fast_apply(state, "S") is None  # points south already
    assert fast.fast_apply(state, "E") is not None


def whole_game(players: int, params: dict, seed: str):
    """A random game: its texts, the seat that played each, and the state
    before each text and after the last (from fast_apply)."""
    texts, seats, states = [], [], []
    for state, move in random_game(players, params, seed):
        states.append(state)
        if move is not None:
            texts.append(game.format_move(state, move))
            seats.append(game.to_move(state))
    return texts, seats, states


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_play_is_fast_apply_text_after_text(players):
    """fast_play of stretches of a game gives the seats that played them and
    the state fast_apply reaches; it stops before the first text fast_apply
    refuses (another spelling, an illegal move, an event), and plays nothing
    once the game is over."""
    rng = Chance(f"play/{players}", "texts")
    for k, params in enumerate(MIXES):
        texts, seats, states = whole_game(players, params, f"play-{k}")
        for start in range(0, len(texts) + 1, 7):
            stop = min(len(texts), start + rng.below(30))
            assert fast.fast_play(states[start], texts[start:stop]) == (
                seats[start:stop], states[stop]), (start, stop)
        assert fast.fast_play(states[0], texts + texts[:1]) == (seats, states[-1])
        assert fast.fast_play(states[-1], texts) == ([], states[-1])
        for at in range(0, len(texts), 5):
            for bad in ("@resign", "", *TOLERANT):
                if fast.fast_apply(states[at], bad) is None:
                    assert fast.fast_play(states[0], texts[:at] + [bad] + texts[at:]) == (
                        seats[:at], states[at]), (at, bad)
