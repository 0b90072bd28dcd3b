"""Ratings of each game's players with openskill (Plackett-Luce, its defaults:
mu 25, sigma 25/3), one counted game after another in the order of the
rounds and tables. Everything it reads is in the archive (the counted games'
places), so the history rebuilt from the archive is the same, number for
number. Each game (atlas, fifteen-days, ...) is rated on its own: pass the
history so far as ``start`` to carry ratings from one event to the next.
"""

from __future__ import annotations

from collections.abc import Sequence

from .report import Played, Rated


def rate(played: Sequence[Played], start: Sequence[Rated] = ()) -> tuple[Rated, ...]:
    """The rating history after the counted games of ``played`` (all of one game)
    (in round and table order), from the ratings of ``start``."""
    from openskill.models import PlackettLuce  # only where ratings are asked for

    model = PlackettLuce()
    current = {r.player: model.rating(mu=r.mu, sigma=r.sigma, name=r.player) for r in start}
    out = list(start)
    for g in sorted(played, key=lambda g: (g.round, g.table, g.name)):
        if g.status != "counted":
            continue
        teams = [[current.get(p) or model.rating(name=p)] for p in g.players]
        new = model.rate(teams, ranks=[float(g.places[p]) for p in g.players])
        for p, (r,) in zip(g.players, new):
            current[p] = r
            out.append(Rated(game=g.name, player=p, mu=round(r.mu, 6), sigma=round(r.sigma, 6),
                             ordinal=round(r.ordinal(), 6)))
    return tuple(out)


def latest(history: Sequence[Rated]) -> dict[str, Rated]:
    """Each player's newest rating."""
    return {r.player: r for r in history}
