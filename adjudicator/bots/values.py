"""What a finished (or a scored-so-far) game is worth to each seat, for bots.

One number per seat in ``[0, 1]``. Most of it is the result: half the share
of the other players it finishes above (a tie counts half), half its share
of the win. The rest (:data:`MARGIN`) is how far its score is above or below
the best of the others, as a share of the two: random play-outs end in a
win or a loss for many moves alike, and the margin tells those moves apart
(a win by a stack of five chips is safer than a win by one). Solo, the goal
met is worth 1. Every game's :class:`Outcome` gives places, scores and
winners, so this needs no knowledge of any game.
"""

from __future__ import annotations

from ..engine import Outcome

#: The part of a seat's value that is its score margin over the best other
#: seat (the rest is its place and its share of the win). Measured with
#: ``benchmarks/arena.py``: Atlas at 3 players against random, on the same
#: 72 deals, won 71% with none, 78% with 0.3 and 80% with 0.6 (82% over 108,
#: 79% over 228); at a quarter of the budget on 144 deals, 79% with 0.6 and
#: 74% with 0.85 (``benchmarks/results/``).
MARGIN = 0.6


def values(outcome: Outcome, players: tuple[str, ...]) -> list[float]:
    """The value of ``outcome`` to each seat, in seat order.

    >>> from adjudicator.engine import Outcome, Standing
    >>> won = Outcome(standings=(Standing(player="bob", score=9, place=1),
    ...                          Standing(player="ann", score=4, place=2)),
    ...               winners=("bob",), details=())
    >>> [round(v, 3) for v in values(won, ("ann", "bob"))]
    [0.193, 0.807]
    """
    n = len(players)
    seat_of = {name: i for i, name in enumerate(players)}
    if n == 1:
        return [1.0 if outcome.winners else 0.0]
    places = [0] * n
    scores = [0] * n
    for line in outcome.standings:
        places[seat_of[line.player]] = line.place
        scores[seat_of[line.player]] = line.score
    share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
    won = set(outcome.winners)
    out = []
    for i, name in enumerate(players):
        mine = places[i]
        above = sum(1.0 if p > mine else 0.5 if p == mine else 0.0
                    for j, p in enumerate(places) if j != i)
        result = 0.5 * above / (n - 1) + (0.5 * share if name in won else 0.0)
        best = max(s for j, s in enumerate(scores) if j != i)
        margin = (scores[i] - best) / (abs(scores[i]) + abs(best) + 1)  # in (-1, 1)
        out.append((1 - MARGIN) * result + MARGIN * (0.5 + 0.5 * margin))
    return out
