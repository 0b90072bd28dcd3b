"""Standings from audited results only.

A game counts when it is over and its log passes :func:`adjudicator.auditing.audit`
(the seed revealed and matching its commitment, the digest chain, the
referee's signature under the event's key, every move, the result). One
that fails is listed as disputed with the audit's first finding, and counts
for nobody until the organiser settles it.

Points go by place (the tournament file's ``[points]``, else 6 for first, 0
for last, evenly between, at any table size); players tied at a table share
the better place and its points. A bye is worth the file's ``bye`` points.
Ties in points are broken in the file's ``tiebreaks`` order:

* ``wins``: games won (first place, shared or not);
* ``opponents``: the points of every opponent met in a counted game, summed
  (Buchholz: who played the stronger field);
* ``score``: the game's own scores, summed;
* ``first-seats``: fewer games played from the first seat ranks higher.

Players no tie-break separates share a place.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import clock
from ..log import Log
from .event import Tournament
from .report import Played, Rated, Row, Standings

TAGS = ("event", "round", "table")


def judge(t: Tournament, name: str, round_: int, table: int, log: Log) -> Played:
    """What one game of the event counts for."""
    from .. import auditing

    notes = tuple(_notes(log))
    base = dict(name=name, round=round_, table=table, players=log.players, notes=notes,
                moves=len(log.moves))
    finding = _foreign(t, log)
    if finding is None:
        report = auditing.audit(log)
        failed = [i for i in report.items if i.status == "failed"]
        if failed:
            finding = f"{failed[0].what}: {failed[0].text}"
        elif log.result is None:
            return Played(status="playing", **base)  # type: ignore[arg-type]
        elif report.status == "pending":
            return Played(status="pending", finding="over, but the seed is not revealed yet",
                          **base)  # type: ignore[arg-type]
    if finding is not None:
        return Played(status="disputed", finding=finding, **base)  # type: ignore[arg-type]
    assert log.result is not None
    size = len(log.players)
    places = {s.player: s.place for s in log.result.standings}
    return Played(status="counted", places=places,
                  points={p: t.points_for(size, places[p]) for p in log.players},
                  scores={s.player: s.score for s in log.result.standings},
                  **base)  # type: ignore[arg-type]


def _foreign(t: Tournament, log: Log) -> str | None:
    """Why a log is not a game of this event as its referee started it, if it is not."""
    if log.game != t.game:
        return f"header: a game of {log.game}, not {t.game}"
    if log.tags.get("event") != t.name:
        return f"header: its event tag is {log.tags.get('event')!r}, not {t.name!r}"
    if t.key and log.referee != t.key:
        return "signatures: not refereed under the event's referee key"
    stray = [p for p in log.players if p not in t.players]
    if stray:
        return f"header: {', '.join(stray)} not a player of the event"
    return None


def _notes(log: Log) -> list[str]:
    """Resignations, forfeits on time, stand-ins and ejections, in words."""
    out = []
    stood: dict[str, int] = {}
    for entry in log.moves:
        word, _, who = entry.move.partition(" ")
        if word in ("@forfeit", "@eject", "@stand-in"):
            who = (clock.act_parts(entry.move)[1] or [who])[0]  # a name with a space: quoted
        if entry.move == "@resign":
            out.append(f"{entry.by} resigned")
        elif word == "@forfeit":
            out.append(f"{who} forfeited on time")
        elif word == "@eject":
            out.append(f"{who} was put out by the organiser")
        elif word == "@stand-in":
            stood[who] = stood.get(who, 0) + 1
    out += [f"a stand-in moved {n} time{'s' * (n != 1)} for {who}" for who, n in stood.items()]
    return out


def stand_ins(played: Played, player: str) -> int:
    for n in played.notes:
        if n.startswith("a stand-in moved ") and n.endswith(f" for {player}"):
            return int(n.split()[3])
    return 0


def standings(t: Tournament, played: Sequence[Played], seated: int,
              byes: dict[int, tuple[str, ...]], ratings: Sequence[Rated] = ()) -> Standings:
    """The standings after the games ``played`` (every game of the ``seated`` rounds)."""
    counted = [g for g in played if g.status == "counted"]
    points = {p: 0 for p in t.players}
    games = dict.fromkeys(t.players, 0)
    wins = dict.fromkeys(t.players, 0)
    score = dict.fromkeys(t.players, 0)
    firsts = dict.fromkeys(t.players, 0)
    had_byes = dict.fromkeys(t.players, 0)
    for players in byes.values():
        for p in players:
            if p in points:
                points[p] += t.bye
                had_byes[p] += 1
    for g in counted:
        for p in g.players:
            points[p] += g.points[p]
            games[p] += 1
            wins[p] += g.places[p] == 1
            score[p] += g.scores.get(p, 0)
        firsts[g.players[0]] += 1
    opponents = dict.fromkeys(t.players, 0)
    for g in counted:
        for p in g.players:
            opponents[p] += sum(points[q] for q in g.players if q != p)
    values = {"wins": wins, "opponents": opponents, "score": score, "first-seats": firsts}
    sign = {"first-seats": -1}

    def key(p: str) -> tuple[int, ...]:
        return (-points[p], *(-sign.get(b, 1) * values[b][p] for b in t.tiebreaks))

    order = sorted(t.players, key=lambda p: (key(p), p))
    rows: list[Row] = []
    rating = {r.player: r.ordinal for r in ratings}
    resigned = dict.fromkeys(t.players, 0)
    forfeits = dict.fromkeys(t.players, 0)
    stood = dict.fromkeys(t.players, 0)
    for g in played:
        for p in g.players:
            resigned[p] += f"{p} resigned" in g.notes
            forfeits[p] += f"{p} forfeited on time" in g.notes
            stood[p] += stand_ins(g, p)
    for i, p in enumerate(order):
        place = rows[-1].place if rows and key(order[i - 1]) == key(p) else i + 1
        rows.append(Row(place=place, player=p, points=points[p], games=games[p], wins=wins[p],
                        byes=had_byes[p], tiebreaks={b: values[b][p] for b in t.tiebreaks},
                        resigned=resigned[p], forfeits=forfeits[p], stand_ins=stood[p],
                        rating=rating.get(p)))
    rounds_over = {g.round for g in played} - {g.round for g in played if g.status == "playing"}
    return Standings(event=t.name, id=t.id, game=t.game, rounds=t.rounds, seated=seated,
                     finished=len(rounds_over), rows=tuple(rows), games=tuple(played),
                     byes={str(r): b for r, b in sorted(byes.items()) if b},
                     tiebreaks=t.tiebreaks, ratings=tuple(ratings))
