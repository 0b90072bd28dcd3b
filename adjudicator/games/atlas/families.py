"""How the bots' search groups Atlas's moves: the engine's Families layer.

A player may have 77 moves (7 cards, each alone or with 1 to 5 chips on
Time or on Place), but only a few choices: which card, and whether to
predict, and which side. The chips are a variation of that choice. So the
search (:mod:`adjudicator.bots.search`) chooses a card and a side first,
judged on every play-out of any of its stakes, then the stake: at 3 players
against ``random`` this won 82% of the same 144 deals where choosing among
all 77 moves at once won 79% (``benchmarks/results/``).
"""

from __future__ import annotations

from .cards import Move


def family(move: Move) -> tuple[int, int]:
    """The card played and the side predicted (NONE, TIME or PLACE).

    >>> from adjudicator.games.atlas.cards import TIME
    >>> family(Move(9, TIME, 3)) == family(Move(9, TIME, 1)) != family(Move(9))
    True
    """
    return move.card, move.side
