"""The HTML replay page against ``show``: CPU time, side by side in one run.

    python benchmarks/replay_page.py [--rounds N] [--game ID] [--json]

For each game, its longest example log (``examples/<game>/``, by number of
moves) is given to ``adjudicator show LOG`` and to ``adjudicator replay LOG
--html -o PAGE``, each in a fresh process (``python -m adjudicator``, output
to /dev/null), alternately, ``--rounds`` times. The CPU time of each run
(user + system, ``RUSAGE_CHILDREN``) is measured; the table gives the
median of each and the median of the per-round ratios (replay / show), so
that a busy machine slows both sides of a ratio alike. The target (issue
#28): a ratio of at most 5.

The figures are printed, never asserted: the exit status is 0 whatever they
are (1 if a run does not exit 0).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGET = 5.0


def longest(game_dir: Path) -> Path:
    """The example log of a game with the most moves."""
    def moves(path: Path) -> int:
        return len(json.loads(path.read_bytes())["moves"])
    return max(sorted(game_dir.glob("*.json")), key=moves)


def cpu(argv: list[str]) -> float:
    """The CPU time (user + system) of one run of the command line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "adjudicator", *argv], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        sys.exit(f"adjudicator {' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(path: Path, rounds: int, page: Path) -> dict[str, float | int | str]:
    shows, pages, ratios = [], [], []
    for _ in range(rounds):
        s = cpu(["show", str(path)])
        p = cpu(["replay", str(path), "--html", "-o", str(page), "--force"])
        shows.append(s)
        pages.append(p)
        ratios.append(p / s)
    return {
        "log": str(path.relative_to(ROOT)),
        "moves": len(json.loads(path.read_bytes())["moves"]),
        "show_s": statistics.median(shows),
        "replay_html_s": statistics.median(pages),
        "ratio": statistics.median(ratios),
        "page_bytes": page.stat().st_size,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rounds", type=int, default=3, help="runs of each command per game (default 3)")
    ap.add_argument("--game", action="append", help="only this game (repeat for several)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    dirs = sorted(d for d in (ROOT / "examples").iterdir() if d.is_dir())
    if args.game:
        dirs = [d for d in dirs if d.name in args.game]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in dirs:
            rows.append({"game": d.name, **measure(longest(d), args.rounds, Path(tmp) / "page.html")})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"CPU time, median of {args.rounds} rounds; Python {platform.python_version()}, "
          f"{os.cpu_count()} cores; target: replay --html <= {TARGET:g}x show")
    print()
    print("| game | log (longest example) | moves | show | replay --html | ratio | page |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['game']} | `{Path(str(r['log'])).name}` | {r['moves']} | {r['show_s']:.2f} s "
              f"| {r['replay_html_s']:.2f} s | {r['ratio']:.1f}x | {int(r['page_bytes']) // 1024} KiB |")


if __name__ == "__main__":
    main()
