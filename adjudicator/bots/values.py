"""What a finished (or a scored-so-far) game is worth to each seat, for bots.

One number per seat in ``[0, 1]``: half the share of the other players it
finishes above (a tie counts half), half its share of the win. Solo, the
goal met is worth 1. Every game's :class:`Outcome` gives places and winners,
so this needs no knowledge of any game.
"""

from __future__ import annotations

from ..engine import Outcome


def values(outcome: Outcome, players: tuple[str, ...]) -> list[float]:
    """The value of ``outcome`` to each seat, in seat order.

    >>> from adjudicator.engine import Outcome, Standing
    >>> won = Outcome(standings=(Standing(player="bob", score=9, place=1),
    ...                          Standing(player="ann", score=4, place=2)),
    ...               winners=("bob",), details=())
    >>> values(won, ("ann", "bob"))
    [0.0, 1.0]
    """
    n = len(players)
    seat_of = {name: i for i, name in enumerate(players)}
    if n == 1:
        return [1.0 if outcome.winners else 0.0]
    places = [0] * n
    for line in outcome.standings:
        places[seat_of[line.player]] = line.place
    share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
    won = set(outcome.winners)
    out = []
    for i, name in enumerate(players):
        mine = places[i]
        above = sum(1.0 if p > mine else 0.5 if p == mine else 0.0
                    for j, p in enumerate(places) if j != i)
        out.append(0.5 * above / (n - 1) + (0.5 * share if name in won else 0.0))
    return out
