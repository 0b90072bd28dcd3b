"""Time Palatrix: the validation hot path against the checked path.

``fast_apply(state, text)`` must give exactly the state that parse_move,
apply and format_move give when ``text`` is the canonical notation of a legal
move, and None for anything else: an illegal move, a move of another phase,
a tolerant spelling, a move after the end. ``fast_play`` (a whole log's texts
at once) must give the seats and the state fast_apply gives move by move.
Random games with fixed seeds, for every player count and both sides of the
boards, compared move by move.
"""

from __future__ import annotations

import random

import pytest

from adjudicator import match
from adjudicator.errors import MoveError
from adjudicator.games.time_palatrix import GAME, cards, fast, rules
from adjudicator.games.time_palatrix.cards import CANONICAL

NAMES = ("ann", "bob", "cy", "dee")


def checked(state, text: str):
    """The state the checked path gives for ``text``, or None where it refuses
    the move or where ``text`` is not how the tool writes it."""
    try:
        move = GAME.parse_move(state, text)
        after = GAME.apply(state, move)
        canonical = GAME.format_move(state, move)
    except MoveError:
        return None
    return after if canonical == text else None


def variants(text: str) -> list[str]:
    """Other spellings of a move: every one is read by parse_move, none is canonical."""
    out = [text.lower(), f" {text}", f"{text} ", text.replace("-", " "), f"bid {text}", f"0{text}"]
    if "-" in text:
        card, loc = text.split("-")
        out += [card, f"{card}@{loc}", f"{card}-0{loc}", f"{card[0]}0{card[1:]}-{loc}"]
    else:
        out += [text.replace("+", "+1"), text.replace("+", " spare")]
    return [v for v in out if v != text]


ALL_TEXTS = sorted(CANONICAL)


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", ["f1", "f2"])
def test_fast_apply_agrees_with_the_checked_path(players, locations, seed):
    rng = random.Random(f"fast/{seed}/{players}/{locations}")
    state = GAME.setup({"locations": locations}, NAMES[:players], seed)
    while True:
        legal = {GAME.format_move(state, m): m for m in GAME.legal_moves(state)}
        for text, move in legal.items():
            assert fast.fast_apply(state, text) == GAME.apply(state, move), text
        # Every other canonical text is refused here; a sample through the
        # checked path as well, and other spellings of the legal moves.
        for text in ALL_TEXTS:
            if text not in legal:
                assert fast.fast_apply(state, text) is None, text
        sample = rng.sample(ALL_TEXTS, 12) + [v for t in rng.sample(sorted(legal) or ["3"], 1)
                                               for v in variants(t)]
        sample += ["", "G7", "13", "12+1", "P1-5", "xyz"]
        for text in sample:
            assert fast.fast_apply(state, text) == checked(state, text), text
        if not legal:
            break
        state = GAME.apply(state, legal[rng.choice(sorted(legal))])
    assert GAME.to_move(state) is None


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
def test_fast_step_is_format_move_and_apply(players, locations):
    """Self-play's step, move by move through random games: every listed move
    is spelled and played as format_move and apply do it; any other move
    (a sample of every bid and card on a location, and a card without its
    location) is left to the checked path (None) where apply refuses it."""
    rng = random.Random(f"step/{players}/{locations}")
    others = list(cards.BIDS) + [p for row in cards.PLACES.values() for p in row]
    state = GAME.setup({"locations": locations}, NAMES[:players], "step")
    while GAME.to_move(state) is not None:
        legal = GAME.legal_moves(state)
        for move in legal:
            assert fast.fast_step(state, move) == (GAME.format_move(state, move),
                                                   GAME.apply(state, move)), move
        for move in rng.sample(others, 16) + [cards.Place(rng.choice(sorted(cards.CARD_NAMES)), -1)]:
            try:
                after = GAME.apply(state, move)
            except MoveError:
                assert fast.fast_step(state, move) is None, move
                continue
            assert fast.fast_step(state, move) in (None, (GAME.format_move(state, move), after))
        state = GAME.apply(state, rng.choice(legal))
    assert fast.fast_step(state, cards.Bid(3)) is None


@pytest.mark.parametrize("players", [3, 4])
def test_replay_of_random_logs_by_the_fast_path(players):
    """Whole random logs: the fast path alone replays each to the states of the
    checked path."""
    for k in range(3):
        log = match.simulate(GAME.id, NAMES[:players], f"fast-log/{k}", {"locations": 3 + k % 2})
        _, state = match.start(log)
        for entry in log.moves:
            after = fast.fast_apply(state, entry.move)
            assert after is not None and after == checked(state, entry.move)
            state = after
        assert GAME.outcome(state) == log.result


def random_game(players: int, locations: int, seed: str):
    """A random game played by fast_apply: its texts, the seat that played
    each, and the state before each text and after the last."""
    log = match.simulate(GAME.id, NAMES[:players], seed, {"locations": locations})
    _, state = match.start(log)
    texts, seats, states = [], [], [state]
    for entry in log.moves:
        seats.append(GAME.to_move(state))
        state = fast.fast_apply(state, entry.move)
        texts.append(entry.move)
        states.append(state)
    return texts, seats, states


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
def test_fast_play_is_fast_apply_move_after_move(players, locations):
    """fast_play of any stretch of a game (across rounds and hands, to the
    end) gives the seats that played it and exactly the state fast_apply
    reaches; nothing is played once the game is over."""
    for k in range(2):
        texts, seats, states = random_game(players, locations, f"play/{k}")
        for start in range(0, len(texts) + 1, 9):
            for stop in range(start, len(texts) + 1, 4):
                got = fast.fast_play(states[start], texts[start:stop])
                assert got == (seats[start:stop], states[stop]), (start, stop)
        assert fast.fast_play(states[0], texts + texts[:1]) == (seats, states[-1])
        assert GAME.to_move(states[-1]) is None
        assert fast.fast_play(states[-1], texts) == ([], states[-1])


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
def test_fast_play_stops_at_the_first_text_fast_apply_refuses(players, locations):
    """A text that is not the canonical notation of a legal move here (an
    illegal move, another spelling, an event) stops fast_play before it: the
    seats and the state are those of the texts before it. Every canonical
    text is tried at some positions, alone."""
    rng = random.Random(f"stop/{players}/{locations}")
    texts, seats, states = random_game(players, locations, "stop")
    for at in rng.sample(range(len(texts)), 8):
        refused = [t for t in ALL_TEXTS if fast.fast_apply(states[at], t) is None]
        refused += variants(texts[at]) + ["@resign", "", "G7", "xyz"]
        for bad in rng.sample(refused, 12) + refused[-6:]:
            got = fast.fast_play(states[0], texts[:at] + [bad] + texts[at:])
            assert got == (seats[:at], states[at]), (at, bad)
        for text in ALL_TEXTS:
            after = fast.fast_apply(states[at], text)
            want = ([seats[at]], after) if after is not None else ([], states[at])
            assert fast.fast_play(states[at], [text]) == want, text


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("locations", [3, 4])
def test_the_written_out_resolution_agrees_with_trick_winner(players, locations):
    """Every trick of random games: the winner the record holds is
    rules.trick_winner's (the rule, written once), and every trick is led by
    the winner of the trick before (the next location's lead; after the last
    location, the start player of the next round or hand)."""
    for k in range(4):
        log = match.simulate(GAME.id, NAMES[:players], f"resolve/{k}", {"locations": locations})
        state = match.validate(log).state
        assert len(state.record) == players * 12
        for row in state.record:
            hand, rnd, loc, lead, winner, *cards = row
            assert len(cards) == players
            assert winner == rules.trick_winner(tuple(cards), lead)
        assert state.record[0][3] == match.start(log)[1].start
        for before, after in zip(state.record, state.record[1:]):
            assert after[3] == before[4]
