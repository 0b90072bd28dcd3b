"""Atlas's families of moves (the engine's Families layer, issue #23): the
bots' search chooses a card and a side first, then the chips. The families
must split the legal moves by card and side only, the search must still
answer a legal move, the same one for the same seed, and group moves for
Atlas and for no other game. (That the choice does not depend on what the
seat cannot see is the fairness test of ``tests/test_bots.py``, which runs
the search, and so the grouping, on Atlas at every player count.)
"""

from __future__ import annotations

import random

import pytest

from adjudicator import bots, games
from adjudicator.bots.search import Search
from adjudicator.games.atlas import families
from adjudicator.games.atlas.cards import NONE

NAMES = ("ann", "bob", "cy", "dee")
GAME = games.get("atlas")


def positions(n: int, seed: str, count: int = 4) -> list:
    """``count`` states of a random game of ``n`` players."""
    state = GAME.setup({}, NAMES[:n], seed)
    rng = random.Random(seed)
    out = []
    while GAME.to_move(state) is not None:
        out.append(state)
        moves = GAME.legal_moves(state)
        state = GAME.apply(state, moves[rng.randrange(len(moves))])
    return out[:: max(1, len(out) // count)][:count]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_family_is_a_card_and_a_side(n: int) -> None:
    for state in positions(n, f"fam-{n}", count=8):
        moves = GAME.legal_moves(state)
        grouped: dict = {}
        for move in moves:
            grouped.setdefault(families.family(move), []).append(move)
        for (card, side), members in grouped.items():
            assert {(m.card, m.side) for m in members} == {(card, side)}
            # A card alone is a family of one; a side, of its stakes.
            assert len(members) == 1 if side == NONE else [m.chips for m in members] == list(
                range(1, len(members) + 1))
        assert len(grouped) <= 3 * 7


def test_only_atlas_groups_its_moves() -> None:
    assert GAME.families is families
    assert [g for g in games.GAMES if games.get(g).families is not None] == ["atlas"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_search_plays_the_most_visited_move_of_the_most_visited_family(n: int) -> None:
    state = positions(n, f"search-{n}")[1]
    seat = GAME.to_move(state)
    legal = tuple(GAME.format_move(state, m) for m in GAME.legal_moves(state))
    position = bots.Position(GAME, {}, NAMES[:n], seat, GAME.view(state, seat), legal, "f")
    decision = Search(iterations=300)(position)
    assert decision == Search(iterations=300)(position)  # the same seed, the same decision
    assert decision.move in legal and {r.move for r in decision.ranked} == set(legal)
    assert sum(r.visits for r in decision.ranked) == decision.iterations == 300
    # The visits of each family, and the move played is the best of the best.
    visits: dict[str, int] = {}
    for r in decision.ranked:
        visits[family_of(r.move)] = visits.get(family_of(r.move), 0) + r.visits
    chosen = family_of(decision.move)
    assert visits[chosen] == max(visits.values())
    assert decision.ranked[0].move == decision.move
    assert decision.ranked[0].visits == max(r.visits for r in decision.ranked
                                            if family_of(r.move) == chosen)


def family_of(text: str) -> str:
    """A move's family read from its text: ``3W+2T`` -> ``3WT``, ``3W`` -> ``3W``."""
    card, _, stake = text.partition("+")
    return card + stake[-1:]
