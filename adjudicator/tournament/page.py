"""The standings as one self-contained HTML page: the table, the crosstable,
every game with a link to its replay page (:func:`adjudicator.html.page`,
written beside it in ``replays/``), the byes and the rating history.

No script and nothing fetched: one file with its style inline, under a
content security policy that allows nothing else.
"""

from __future__ import annotations

import html
from pathlib import Path

from .. import files
from ..log import Log
from .report import Standings

POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
STYLE = """
body { margin: 0 auto; padding: 8px 12px 24px; max-width: 1100px; color: #222;
  background: #fafafa; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.4em; }
table { border-collapse: collapse; background: #fff; margin: 4px 0; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
th:nth-child(2), td:nth-child(2) { text-align: left; }
.cross td { text-align: center; min-width: 2.2em; }
.disputed { color: #b00020; } .note { color: #666; }
.scroll { overflow-x: auto; }
"""


def crosstable(s: Standings) -> dict[tuple[str, str], tuple[int, int]]:
    """For each two players who met in a counted game: how often the first
    finished ahead of the second, and behind."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for g in s.games:
        if g.status != "counted":
            continue
        for a in g.players:
            for b in g.players:
                if a == b:
                    continue
                ahead, behind = out.get((a, b), (0, 0))
                out[(a, b)] = (ahead + (g.places[a] < g.places[b]),
                               behind + (g.places[a] > g.places[b]))
    return out


def page(s: Standings) -> str:
    """The page's HTML (the replays it links are :func:`write`'s)."""
    esc = html.escape
    breaks = list(s.tiebreaks)
    head = "".join(f"<th>{esc(b)}</th>" for b in breaks)
    rows = []
    for r in s.rows:
        notes = [f"{r.byes} bye"] * bool(r.byes) + [f"{r.resigned} resigned"] * bool(r.resigned) \
            + [f"{r.forfeits} forfeit on time"] * bool(r.forfeits) \
            + [f"{r.stand_ins} moves by a stand-in"] * bool(r.stand_ins)
        rating = f"{r.rating:.1f}" if r.rating is not None else ""
        rows.append(f"<tr><td>{r.place}</td><td>{esc(r.player)}</td><td>{r.points}</td>"
                    f"<td>{r.games}</td>" + "".join(f"<td>{r.tiebreaks.get(b, 0)}</td>" for b in breaks)
                    + f"<td>{rating}</td><td class=\"note\">{esc(', '.join(notes))}</td></tr>")
    players = [r.player for r in s.rows]
    cross = crosstable(s)
    cross_rows = []
    for a in players:
        cells = []
        for b in players:
            if a == b:
                cells.append("<td>&#x2014;</td>")
            elif (a, b) in cross:
                ahead, behind = cross[(a, b)]
                cells.append(f"<td title=\"{esc(a)} ahead of {esc(b)} {ahead}, behind {behind}\">"
                             f"{ahead}-{behind}</td>")
            else:
                cells.append("<td></td>")
        cross_rows.append(f"<tr><th>{esc(a)}</th>{''.join(cells)}</tr>")
    games = []
    for g in s.games:
        who = ", ".join(f"{p} {g.places[p]}." if p in g.places else p for p in g.players)
        status = esc(g.status) if g.finding is None else f"{esc(g.status)}: {esc(g.finding)}"
        cls = ' class="disputed"' if g.status == "disputed" else ""
        note = f' <span class="note">({esc("; ".join(g.notes))})</span>' if g.notes else ""
        games.append(f"<tr{cls}><td>{g.round}</td><td><a href=\"replays/{esc(g.name)}.html\">"
                     f"{esc(g.name)}</a></td><td>{esc(who)}</td><td>{g.moves}</td>"
                     f"<td>{status}{note}</td></tr>")
    byes = "".join(f"<li>Round {esc(r)}: {esc(', '.join(ps))}</li>" for r, ps in s.byes.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{esc(POLICY)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(s.event)}: standings</title><style>{STYLE}</style></head>
<body><h1>{esc(s.event)}</h1>
<p>{esc(s.game)}: round {s.seated} of {s.rounds} seated, {s.finished} over. Only games whose
logs pass audit count.</p>
<h2>Standings</h2><div class="scroll"><table id="standings"><thead><tr><th>#</th><th>Player</th>
<th>Points</th><th>Games</th>{head}<th>Rating</th><th>Notes</th></tr></thead>
<tbody>{''.join(rows)}</tbody></table></div>
<h2>Crosstable</h2><p class="note">Row ahead-behind column, in counted games.</p>
<div class="scroll"><table id="crosstable" class="cross"><thead><tr><th></th>
{''.join(f'<th>{esc(p)}</th>' for p in players)}</tr></thead>
<tbody>{''.join(cross_rows)}</tbody></table></div>
<h2>Games</h2><div class="scroll"><table id="games"><thead><tr><th>Round</th><th>Game</th>
<th>Players, places</th><th>Moves</th><th>Status</th></tr></thead>
<tbody>{''.join(games)}</tbody></table></div>
{f'<h2>Byes</h2><ul id="byes">{byes}</ul>' if byes else ''}
</body></html>
"""


def replay_page(log: Log) -> str:
    """A game's replay page, as anyone may see it: the public view (the
    board once the seed is revealed). Each seat's own view is the player's
    ``replay --html`` (four views cost four times the public one's time,
    for every game of an event)."""
    from .. import html as html_, match
    from ..errors import AdjudicatorError

    title = f"{log.tags.get('event', '')} {log.tags.get('round', '')}.{log.tags.get('table', '')}"
    subtitle = f"{len(log.moves)} moves; {match.describe(log.result)}"
    try:
        rep = match.validate(log, keep=True)
        viewers = html_.views(rep, [None])
    except AdjudicatorError:  # secret, or a log that fails: what all may see
        from .. import games

        game = games.get(log.game)
        viewers = [("public view", html_.unseen_frames(game, log))]
    return html_.page(f"{title.strip()}: {', '.join(log.players)}", viewers, subtitle=subtitle)


def write(s: Standings, logs: list[tuple[str, int, int, Log]], out: Path) -> int:
    """Write the page to ``out`` and each game's replay to ``replays/`` beside
    it; returns the number of replay pages."""
    folder = out.parent / "replays"
    folder.mkdir(parents=True, exist_ok=True)
    for name, _, _, log in logs:
        files.write(str(folder / f"{name}.html"), replay_page(log).encode("utf-8"))
    files.write(str(out), page(s).encode("utf-8"))
    return len(logs)
