"""Re-checking a club's tournament archive: validate and audit of 10,000 games.

    python benchmarks/archive.py [--games N] [--jobs N] [--cache DIR] [--json]

Builds (once: kept in ``--cache``, by default ``adjudicator-archive-bench``
under the system's temporary directory) a zip of ``--games`` refereed games
(10,000 by default) as ``tournament archive`` writes them: Atlas at tables
of 3, events of 9 players over 3 rounds, each game under its event's
referee key, tagged with the event, the round and the table, played to the
end by random legal moves, its seed revealed and the referee's signature
over the whole log (``games/ev0001-r1-t1.json`` and on, a few kilobytes
each, plus one event's ``tournament.toml``). Building takes a few minutes on
two cores (on ``--jobs`` processes), then nothing.

Then ``adjudicator validate --jobs N ARCHIVE`` and ``adjudicator audit
--jobs N ARCHIVE`` (default 2) each run in a fresh process, as the console
script runs them, with standard error on a pseudo-terminal so that the
progress bar is drawn as a user sees it (standard output to /dev/null),
on the first tenth of the archive and on all of it. Printed for each:

- games/s: games checked per second of wall-clock time, and the seconds;
- the CPU seconds of the command's process (reading the archive, ordering
  and printing the results, drawing the bar) and of its workers (checking):
  a main process near the wall-clock time would be the bottleneck;
- peak memory (ru_maxrss) of the command's process and of its largest
  worker, in MiB (Linux counts a parent's peak at the moment it forks as
  the child's own: see benchmarks/bulk.py), so growth with the archive's
  size shows as a larger peak for the whole archive than for its tenth;
- the progress bar: how many times it was drawn, and the longest time
  between two draws (a bar that stops moving shows here).

The figures are printed, never asserted; the exit status is 1 if a command
does not exit 0 (every game here is valid).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: Raised when what is built changes, so that an old cache is not measured.
VERSION = 1
PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy")
# An event's 3 rounds of 3 tables: the round robin of 9 players at tables of 3.
TABLES = (((0, 1, 2), (3, 4, 5), (6, 7, 8)), ((0, 3, 6), (1, 4, 7), (2, 5, 8)),
          ((0, 4, 8), (1, 5, 6), (2, 3, 7)))


def games_of_event(number: int) -> list[tuple[str, bytes]]:
    """The 9 finished games of event ``number``: (member name, log)."""
    sys.path.insert(0, str(ROOT))
    import random

    from adjudicator import log as logmod, match, referee, seal, starting

    key = seal.new_signing_key()  # the event's referee key
    out = []
    for r, tables in enumerate(TABLES, 1):
        for k, seats in enumerate(tables, 1):
            name = f"ev{number:04}-r{r}-t{k}"
            players = [PLAYERS[i] for i in seats[r - 1:] + seats[:r - 1]]
            log, secret = starting.new_refereed(
                "atlas", players, seed=f"{name}-{seal.new_salt()}", signing_key=key,
                tags={"event": f"Club Atlas {number}", "round": str(r), "table": str(k)})
            rep = match.validate(match.unlock(log, secret))
            game, state, rng, moves = rep.game, rep.state, random.Random(name), []
            while game.to_move(state) is not None:
                move = rng.choice(game.legal_moves(state))
                moves.append(game.format_move(state, move))
                state = game.apply(state, move)
            rep = match.record(rep.log, moves, sign=False, replayed=rep)
            final = referee.signed(match.reveal(match.publish(rep.log, log), secret), secret)
            out.append((f"games/{name}.json", logmod.encode(final)))
    return out


def build(path: Path, count: int, jobs: int) -> None:
    """(``--build``) The archive of ``count`` games at ``path``, the events
    played on ``jobs`` processes; written to a temporary name, then renamed."""
    import zipfile
    from concurrent.futures import ProcessPoolExecutor

    events = -(-count // 9)
    part = path.with_name(path.name + ".part")
    written = 0
    with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z, \
            ProcessPoolExecutor(jobs) as pool:
        z.writestr("tournament.toml", 'name = "Club Atlas 1"\nid = "ev0001"\ngame = "atlas"\n'
                   'seed = "bench"\nrounds = 3\ntables = [3]\n\n[players]\n' +
                   "".join(f'{p} = "{p}@example.org"\n' for p in PLAYERS))
        for games in pool.map(games_of_event, range(1, events + 1), chunksize=8):
            for name, data in games:
                if written < count:
                    z.writestr(name, data)
                    written += 1
    part.rename(path)


def run(command: str, archive: str, jobs: int, report: str) -> None:
    """(``--run``) ``adjudicator COMMAND --jobs JOBS ARCHIVE`` in this
    process, as the console script runs it: standard output to /dev/null,
    standard error on a pseudo-terminal read by a thread that notes when
    each draw of the progress bar comes. The figures go to ``report``."""
    import pty

    from bulk import run_cli  # this folder is first on sys.path: run as a script

    master, slave = pty.openpty()
    draws: list[float] = []

    def read() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            draws.extend(time.perf_counter() for _ in range(data.count(b"\r")))

    threading.Thread(target=read, daemon=True).start()
    status, start, seconds = run_cli([command, "--jobs", str(jobs), archive], stderr=slave)
    time.sleep(0.2)  # the last draws read
    times = [start, *draws]
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    Path(report).write_text(json.dumps({
        "seconds": seconds, "status": status,
        "self_kib": me.ru_maxrss, "workers_kib": workers.ru_maxrss,
        "self_cpu": me.ru_utime + me.ru_stime, "workers_cpu": workers.ru_utime + workers.ru_stime,
        "draws": len(draws),
        "longest_gap": max((b - a for a, b in zip(times, times[1:])), default=seconds)}))


def child(*args: str) -> None:
    """This script run with ``args`` in a new process (which imports what
    it needs itself: this one stays small, see benchmarks/bulk.py)."""
    subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], check=True)


def tenth(path: Path, into: Path) -> int:
    """The first tenth of the games of ``path``, as an archive at ``into``."""
    import zipfile

    with zipfile.ZipFile(path) as z:
        names = [n for n in z.namelist() if n.startswith("games/")]
        keep = names[:max(1, len(names) // 10)]
        with zipfile.ZipFile(into, "w", zipfile.ZIP_DEFLATED) as out:
            out.writestr("tournament.toml", z.read("tournament.toml"))
            for name in keep:
                out.writestr(name, z.read(name))
    return len(keep)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the archive (10,000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--cache", help="where the archive is kept between runs")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--run", nargs=2, metavar=("COMMAND", "ARCHIVE"), help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    parser.add_argument("--build", metavar="ARCHIVE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run(args.run[0], args.run[1], args.jobs, args.report)
        return 0
    if args.build:
        build(Path(args.build), args.games, args.jobs)
        return 0
    cache = Path(args.cache or Path(tempfile.gettempdir()) / "adjudicator-archive-bench")
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"atlas-{args.games}-v{VERSION}.zip"
    if not archive.exists():
        began = time.perf_counter()
        print(f"building {archive} ({args.games:,} games, {args.jobs} processes)...",
              file=sys.stderr)
        child("--build", str(archive), "--games", str(args.games), "--jobs", str(args.jobs))
        print(f"built in {time.perf_counter() - began:.0f} s", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory(prefix="adjudicator-archive-") as tmp:
        small = Path(tmp) / "tenth.zip"
        cases = [(small, tenth(archive, small)), (archive, args.games)]
        for command in ("validate", "audit"):
            for path, count in cases:
                report = Path(tmp) / "report.json"
                child("--run", command, str(path), "--jobs", str(args.jobs), "--report", str(report))
                got = json.loads(report.read_text())
                rows.append({"command": command, "games": count,
                             "seconds": round(got["seconds"], 1),
                             "games_per_s": round(count / got["seconds"]),
                             "main_cpu": round(got["self_cpu"], 1),
                             "workers_cpu": round(got["workers_cpu"], 1),
                             "main_mib": round(got["self_kib"] / 1024, 1),
                             "workers_mib": round(got["workers_kib"] / 1024, 1),
                             "draws": got["draws"], "longest_gap": round(got["longest_gap"], 2),
                             "status": got["status"]})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"adjudicator validate|audit --jobs {args.jobs} ARCHIVE "
              f"({platform.python_implementation()} {platform.python_version()}, "
              f"{os.cpu_count()} cores; archive {archive.stat().st_size / 2**20:.1f} MiB)")
        print("| command | games | seconds | games/s | CPU s main | CPU s workers | peak main "
              "| peak worker | bar drawn | longest gap |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            failed = "" if r["status"] == 0 else f" (exit {r['status']})"
            print(f"| {r['command']}{failed} | {r['games']:,} | {r['seconds']} | "
                  f"{r['games_per_s']:,} | {r['main_cpu']} | {r['workers_cpu']} | "
                  f"{r['main_mib']} MiB | {r['workers_mib']} MiB | "
                  f"{r['draws']:,} | {r['longest_gap']} s |")
    return 0 if all(r["status"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
