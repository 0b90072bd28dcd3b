"""The archive of an event: every game's final log, the tournament file and
the standings, in one zip anyone can check again.

Inside: ``tournament.toml``, ``games/NAME.json`` (the public logs, seeds
revealed; never a secret) and ``ID.standings.json``. ``adjudicator validate``
and ``audit`` read the zip as they read a directory (the standings file is
not taken for a log); :func:`rebuild` recomputes the standings and the rating
history from the logs alone, to compare with the stored ones.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from .. import log as logmod
from ..log import Log
from .event import FILE, Tournament, TournamentError, parse
from .report import Rated, Standings, decode, encode

#: Every entry is dated so: the same event gives the same bytes.
STAMP = (2000, 1, 1, 0, 0, 0)


def standings_name(t: Tournament) -> str:
    return f"{t.id}.standings.json"


def pack(t: Tournament, text: str, logs: list[tuple[str, int, int, Log]], standings: Standings,
         out: Path) -> int:
    """Write the archive to ``out``; refused while a game is still being
    played. Returns the number of logs in it."""
    going = [name for name, _, _, log in logs if log.result is None]
    if going:
        raise TournamentError(f"{len(going)} games still being played ({', '.join(going[:3])}"
                              f"{', ...' if len(going) > 3 else ''}): archive the event when "
                              "they are over")
    if any(log.seed is None for _, _, _, log in logs):
        raise TournamentError("a game's seed is still secret: the referee reveals it at the end")
    entries = [(FILE, text.encode("utf-8"))]
    entries += [(f"games/{name}.json", logmod.encode(log)) for name, _, _, log in logs]
    entries.append((standings_name(t), encode(standings)))
    tmp = out.with_name(out.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    tmp.replace(out)
    return len(logs)


def read(path: Path) -> tuple[Tournament, list[tuple[str, int, int, Log]], Standings]:
    """The tournament, its games and the stored standings of an archive."""
    from .rounds import event_logs_of

    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if FILE not in names:
                raise TournamentError(f"{path}: no {FILE} in it: not an event's archive")
            t = parse(z.read(FILE).decode("utf-8"), f"{path}:{FILE}")
            if standings_name(t) not in names:
                raise TournamentError(f"{path}: no {standings_name(t)} in it")
            stored = decode(z.read(standings_name(t)), f"{path}:{standings_name(t)}")
            found = {n.removeprefix("games/").removesuffix(".json"): z.read(n)
                     for n in names if n.startswith("games/") and n.endswith(".json")}
    except (OSError, zipfile.BadZipFile, UnicodeDecodeError) as e:
        raise TournamentError(f"{path}: {e}") from None
    return t, event_logs_of(t, found), stored


def rebuild(path: Path) -> tuple[Standings, Standings]:
    """The standings recomputed from the archive's logs, and the stored ones."""
    from .rounds import current

    t, logs, stored = read(path)
    return current(t, logs), stored



def ratings_across(paths: list[Path]) -> dict[str, tuple[Rated, ...]]:
    """The rating history of each game over several events' archives, in
    the order given: each event's games rated from the ratings the events
    before it left (per game: Atlas ratings never meet 15 Days ones)."""
    from . import ratings
    from .rounds import judged

    out: dict[str, tuple[Rated, ...]] = {}
    for path in paths:
        t, logs, _ = read(path)
        out[t.game] = ratings.rate(judged(t, logs), out.get(t.game, ()))
    return out
