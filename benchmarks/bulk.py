"""Validating a club's archive of logs: throughput and peak memory by size.

    python benchmarks/bulk.py [--large] [--sizes N,N...] [--formats zip,tar.gz] [--jobs N] [--json]

Builds, in a temporary directory, archives of 10,000 small logs (with
``--large`` also 100,000): a few distinct self-played games
(adjudicator.selfplay.simulate, fixed seeds: Atlas and Turn of Time, 3-5 KB
each) repeated under different member names, as ``logs/000001.json`` and
on. Each archive is then validated by ``adjudicator validate ARCHIVE`` on
every core (``--jobs``: default one per core), run in a fresh process
(this script with ``--run``) that calls the command line as the console
script does, its output to /dev/null, and reports

- logs/s: logs validated per second of wall-clock time;
- peak memory (ru_maxrss), in MiB: of the main process (``RUSAGE_SELF``:
  reading the archive, ordering and printing the results) and of the
  largest worker process (``RUSAGE_CHILDREN``).

A first row validates a single log the same way (in one process): the
memory any run of the command takes, for comparison. Bounded memory shows as
peaks that do not grow with the number of logs. Two things to read them by:
Linux counts a parent's peak at the time it starts a process as the new
process's own (ru_maxrss survives fork and exec), so a worker's figure
includes the main process as it was when the worker was forked (before the
archive is opened: those pages are shared, not copied); and zipfile reads a zip's whole directory of names
when it opens it (about 650 bytes a member), while a tar archive is read as
a stream. This script itself imports nothing of adjudicator and builds the
archives in another process, so that it adds little to the figures.

The figures are printed, never asserted: the exit status is 0 whatever they
are (1 if a run does not exit 0, as every log here is valid).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

SIZES = (10_000,)
LARGE = (10_000, 100_000)
FORMATS = ("tar.gz", "zip")
NAMES = ("ann", "bob", "cy", "dee")


def distinct_logs() -> list[bytes]:
    """A few small, valid, finished logs (fixed seeds)."""
    sys.path.insert(0, str(ROOT))
    from adjudicator import log as logmod, match

    logs = []
    for seed in range(4):
        for game, players in (("atlas", 2), ("atlas", 3), ("turn-of-time", 3), ("turn-of-time", 4)):
            log = match.simulate(game, NAMES[:players], f"bulk-{seed}")
            logs.append(logmod.encode(log))
    return logs


def build(path: Path, count: int, logs: list[bytes]) -> None:
    """An archive of ``count`` members named logs/NNNNNN.json, cycling
    through ``logs``; or, for a .json path, the first log alone."""
    import tarfile
    import zipfile

    if path.name.endswith(".json"):
        path.write_bytes(logs[0])
        return
    names = (f"logs/{i:06}.json" for i in range(1, count + 1))
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for i, name in enumerate(names):
                z.writestr(name, logs[i % len(logs)])
        return
    with tarfile.open(path, "w:gz") as t:
        for i, name in enumerate(names):
            data = logs[i % len(logs)]
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1_700_000_000
            t.addfile(info, io.BytesIO(data))


def run_cli(argv: list[str], stderr: int | None = None) -> tuple[int, float, float]:
    """``adjudicator ARGV`` in this process, as the console script runs it:
    standard output to /dev/null, standard error to the file descriptor
    ``stderr`` (default /dev/null). Its exit status, when it started
    (time.perf_counter) and the wall-clock seconds it took."""
    sys.path.insert(0, str(ROOT))
    from adjudicator.cli import main

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull if stderr is None else stderr, 2)
    sys.argv = ["adjudicator", *argv]
    start = time.perf_counter()
    try:
        main()
        status = 0
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else 1
    return status, start, time.perf_counter() - start


def run(archive: str, jobs: int | None, report: str) -> None:
    """(``--run``) ``adjudicator validate ARCHIVE`` in this process, its
    output to /dev/null; the time and peak memory written to ``report``."""
    status, _, seconds = run_cli(["validate", archive, *([] if jobs is None else ["--jobs", str(jobs)])])
    self_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    Path(report).write_text(json.dumps({"seconds": seconds, "status": status,
                                        "self_kib": self_kib, "workers_kib": workers_kib}))


def child(*args: str) -> None:
    """This script run with ``args`` in a new process. Linux counts the
    peak memory of a parent at the time it starts a process as that
    process's own (ru_maxrss is kept across fork and exec): so this process
    imports nothing of adjudicator and builds nothing itself, staying small."""
    subprocess.run([sys.executable, str(Path(__file__).resolve()), *args], check=True)


def measure(archive: Path, jobs: int | None, where: Path) -> dict:
    report = where / "report.json"
    child("--run", str(archive), "--report", str(report), *([] if jobs is None else ["--jobs", str(jobs)]))
    return json.loads(report.read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", action="store_true", help="also 100,000 logs (about 3 minutes on 2 cores)")
    parser.add_argument("--sizes", help="comma-separated numbers of logs (instead of the defaults)")
    parser.add_argument("--formats", default=",".join(FORMATS), help="zip, tar.gz or both")
    parser.add_argument("--jobs", type=int, help="worker processes (default: one per core)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--run", help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    parser.add_argument("--build", nargs=2, metavar=("ARCHIVE", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        run(args.run, args.jobs, args.report)
        return 0
    if args.build:
        build(Path(args.build[0]), int(args.build[1]), distinct_logs())
        return 0
    sizes = ([int(s) for s in args.sizes.split(",")] if args.sizes
             else list(LARGE if args.large else SIZES))
    formats = args.formats.split(",")
    rows = []
    with tempfile.TemporaryDirectory(prefix="adjudicator-bulk-") as tmp:
        where = Path(tmp)
        one = where / "one.json"
        child("--build", str(one), "1")
        cases = [("1 log (baseline)", one, 1)]
        for count in sizes:
            for fmt in formats:
                archive = where / f"logs-{count}.{fmt}"
                child("--build", str(archive), str(count))
                cases.append((f"{count:,} logs, {fmt}", archive, count))
        for name, path, count in cases:
            got = measure(path, args.jobs, where)
            rows.append({"case": name, "logs": count, "seconds": round(got["seconds"], 2),
                         "logs_per_s": round(count / got["seconds"]),
                         "main_mib": round(got["self_kib"] / 1024, 1),
                         "workers_mib": round(got["workers_kib"] / 1024, 1),
                         "status": got["status"],
                         "archive_mib": round(path.stat().st_size / 2**20, 1)})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        jobs = args.jobs or os.cpu_count()
        print(f"adjudicator validate ARCHIVE --jobs {jobs} ({platform.python_implementation()} "
              f"{platform.python_version()}, {os.cpu_count()} cores)")
        print("| case | archive | seconds | logs/s | peak main | peak worker |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in rows:
            failed = "" if r["status"] == 0 else f" (exit {r['status']})"
            rate = f"{r['logs_per_s']:,}" if r["logs"] > 1 else "-"
            print(f"| {r['case']}{failed} | {r['archive_mib']} MiB | {r['seconds']} | "
                  f"{rate} | {r['main_mib']} MiB | {r['workers_mib']} MiB |")
    return 0 if all(r["status"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
