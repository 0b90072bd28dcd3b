"""Throughput and start-up of every registered game, side by side with fixed anchors.

    python benchmarks/bench.py [--quick] [--game ID ...] [--rounds N] [--json]

Three measurements, all in CPU time, each printed as a ratio to its target:

validate / python-chess (target >= 3x)
    The anchor is python-chess (``pip install -e '.[bench]'``): ``board.push_san``
    replay of random 80-ply chess games, whose SAN lists are made beforehand
    from a fixed seed (random.Random, untimed). Each round, for every game and
    player count, this process self-plays fresh logs (seeds unique to the
    round) and hands them, encoded, to a fresh worker process
    (benchmarks/validate_worker.py) that has never simulated or validated
    them: the games' memo caches are as cold there as for a user validating
    new logs (validating the logs a process has just played would inflate the
    figure). The worker imports, replays a few chess games and validates one
    other small log untimed, then times chess replay (half the anchor games),
    decode + match.validate of the fresh logs once, chess replay (the other
    half). The figure is the median over rounds of (game moves/s) / (chess
    plies/s).

self-play moves/s (target >= 50,000)
    match.simulate (legal-move generation, a uniformly random choice, apply,
    plus the notation and digest of each log entry) of those fresh logs, timed
    in this process; the median over rounds.

show / hello-world (target <= 1.2x)
    CPU time of the child process (os.wait4) of ``python -m adjudicator show
    LOG`` (the largest log of examples/<game>/) against a hello-world Typer app
    (benchmarks/hello_typer.py, one command printing a line), both run by
    this interpreter with ``-m`` from their folder, bytecode cached (each run
    once untimed first; the cache is a private PYTHONPYCACHEPREFIX, written
    even under PYTHONDONTWRITEBYTECODE, so no __pycache__ lands in the tree),
    output to /dev/null. Each round runs hello, show of
    game 1, hello, show of game 2, ..., hello; each show is divided by the mean
    of the two hello runs around it; the median over rounds.

Inputs are deterministic (fixed seeds); the figures are not asserted: the exit
status is 0 whatever they are (a failing measurement is reported as an error
in its row). "below" marks a figure that misses its target.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from adjudicator import games, log as logmod, match  # noqa: E402

WORKER = HERE / "validate_worker.py"
HELLO = "hello_typer"  # run as python -m hello_typer from HERE

TARGET_VALIDATE = 3.0  # x python-chess push_san replay
TARGET_SELFPLAY = 50_000.0  # moves per CPU second
TARGET_SHOW = 1.2  # x hello-world Typer app (issue #22: one parser, lazy commands)
CHESS_PLIES = 80
CHESS_SEED = 20260101
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")

# The environment of every child process: bytecode is written and read in a
# private cache (PYTHONPYCACHEPREFIX, set in main), whatever PYTHONDONTWRITEBYTECODE
# says, so start-up is measured bytecode cached without writing __pycache__
# folders into the source tree.
CHILD_ENV: dict[str, str] = dict(os.environ)


@dataclass
class Sizes:
    rounds: int = 5
    moves: int = 5000  # at least this many moves of fresh logs per game, player count and round
    anchor_games: int = 48  # chess games per worker, two timed halves
    cli_rounds: int = 15


QUICK = Sizes(rounds=1, moves=300, anchor_games=12, cli_rounds=2)


# --- inputs ----------------------------------------------------------------------------------


def chess_games(count: int, seed: int) -> list[list[str]]:
    """``count`` random chess games of exactly CHESS_PLIES plies, as SAN lists.

    Uniform random legal moves from random.Random(seed); a game that ends
    before CHESS_PLIES is dropped (the stream goes on).
    """
    import chess

    rng = random.Random(seed)
    out: list[list[str]] = []
    while len(out) < count:
        board = chess.Board()
        sans: list[str] = []
        while len(sans) < CHESS_PLIES and not board.is_game_over(claim_draw=False):
            move = rng.choice(list(board.legal_moves))
            sans.append(board.san(move))
            board.push(move)
        if len(sans) == CHESS_PLIES:
            out.append(sans)
    return out


def self_play(game_id: str, players: int, tag: str, min_moves: int) -> tuple[list[bytes], int, float]:
    """Fresh logs of ``game_id`` (seeds ``tag/0``, ``tag/1``, ...) until they hold
    ``min_moves`` moves: (encoded logs, moves, CPU seconds of match.simulate)."""
    names = NAMES[:players]
    logs = []
    moves = 0
    i = 0
    t0 = time.process_time()
    while moves < min_moves:
        log = match.simulate(game_id, names, f"{tag}/{i}")
        logs.append(log)
        moves += len(log.moves)
        i += 1
    cpu = time.process_time() - t0
    return [logmod.encode(log) for log in logs], moves, cpu


# --- measurements ----------------------------------------------------------------------------


def run_worker(payload: dict[str, Any]) -> dict[str, Any]:
    """One fresh validation worker; its JSON result (raises RuntimeError on failure)."""
    proc = subprocess.run(
        [sys.executable, str(WORKER)],
        input=msgspec.msgpack.encode(payload),
        capture_output=True,
        cwd=ROOT,
        env=CHILD_ENV,
        timeout=900,
    )
    if proc.returncode != 0:
        lines = proc.stderr.decode(errors="replace").strip().splitlines() or ["no output"]
        raise RuntimeError(f"validation worker failed: {lines[-1]}")
    return json.loads(proc.stdout)


def child_cpu(argv: list[str], cwd: Path) -> tuple[float, int]:
    """CPU seconds (user + system) of one child process, and its exit status."""
    proc = subprocess.Popen(
        argv, cwd=cwd, env=CHILD_ENV,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, proc.returncode


def example_log(game_id: str) -> Path | None:
    """The largest example log of a game (the longest replay ``show`` does)."""
    found = sorted((ROOT / "examples" / game_id).glob("*.json"), key=lambda p: (-p.stat().st_size, p.name))
    return found[0] if found else None


@dataclass
class Cell:
    game: str
    players: int
    ratios: list[float] = field(default_factory=list)
    validate_rates: list[float] = field(default_factory=list)
    chess_rates: list[float] = field(default_factory=list)
    selfplay_rates: list[float] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def measure_validation(cells: list[Cell], sizes: Sizes, say) -> list[float]:
    """Rounds of self-play and fresh-log validation against the chess anchor."""
    anchor_warm = chess_games(2, CHESS_SEED + 1)
    anchor = chess_games(sizes.anchor_games, CHESS_SEED)
    warm: dict[tuple[str, int], list[bytes]] = {}
    for r in range(sizes.rounds):
        t_round = time.monotonic()
        for cell in cells:
            key = (cell.game, cell.players)
            try:
                if key not in warm:  # one other small log, never measured
                    log = match.simulate(cell.game, NAMES[: cell.players], f"bench/{cell.game}/{cell.players}/warm-up")
                    warm[key] = [logmod.encode(log)]
                blobs, moves, cpu = self_play(
                    cell.game, cell.players, f"bench/{cell.game}/{cell.players}/round-{r}", sizes.moves
                )
                cell.selfplay_rates.append(moves / cpu)
                res = run_worker({"anchor_warm": anchor_warm, "anchor": anchor, "warm": warm[key], "logs": blobs})
                if res["moves"] != moves:
                    raise RuntimeError(f"the worker validated {res['moves']} moves, not {moves}")
                v_rate = res["moves"] / res["validate_cpu"]
                c_rate = res["plies"] / res["chess_cpu"]
                cell.validate_rates.append(v_rate)
                cell.chess_rates.append(c_rate)
                cell.ratios.append(v_rate / c_rate)
                cell.rounds.append(
                    {"round": r, "logs": len(blobs), "moves": moves, "selfplay_cpu": cpu,
                     "validate_cpu": res["validate_cpu"], "chess_plies": res["plies"],
                     "chess_cpu": res["chess_cpu"]}
                )
            except Exception as e:  # a measurement, not a test: report and go on
                cell.errors.append(f"round {r}: {type(e).__name__}: {e}")
        say(f"validation round {r + 1}/{sizes.rounds} done in {time.monotonic() - t_round:.1f} s")
    return [rate for cell in cells for rate in cell.chess_rates]


def measure_cli(game_ids: list[str], rounds: int, say) -> dict[str, Any]:
    """Interleaved start-up runs: hello, show game 1, hello, show game 2, ..., hello."""
    hello = [sys.executable, "-m", HELLO]
    shows: dict[str, list[str]] = {}
    out: dict[str, Any] = {"hello_cpu": [], "games": {}}
    for gid in game_ids:
        path = example_log(gid)
        entry: dict[str, Any] = {"log": None, "show_cpu": [], "ratios": [], "error": None}
        out["games"][gid] = entry
        if path is None:
            entry["error"] = f"no example log in examples/{gid}/"
            continue
        entry["log"] = str(path.relative_to(ROOT))
        argv = [sys.executable, "-m", "adjudicator", "show", str(path.relative_to(ROOT))]
        _, rc = child_cpu(argv, ROOT)  # untimed: writes and then uses the bytecode cache
        if rc != 0:
            err = subprocess.run(argv, cwd=ROOT, env=CHILD_ENV, capture_output=True, text=True).stderr.strip().splitlines()
            entry["error"] = f"show exited {rc}: {err[-1] if err else 'no message'}"
            continue
        shows[gid] = argv
    _, rc = child_cpu(hello, HERE)
    if rc != 0:
        out["error"] = f"hello-world app exited {rc}"
        return out
    if not shows:
        return out
    for r in range(rounds):
        before, _ = child_cpu(hello, HERE)
        out["hello_cpu"].append(before)
        for gid, argv in shows.items():
            cpu, rc = child_cpu(argv, ROOT)
            after, _ = child_cpu(hello, HERE)
            out["hello_cpu"].append(after)
            entry = out["games"][gid]
            if rc != 0:
                entry["error"] = f"show exited {rc} in round {r}"
            else:
                entry["show_cpu"].append(cpu)
                entry["ratios"].append(cpu / ((before + after) / 2))
            before = after
        say(f"CLI round {r + 1}/{rounds} done")
    return out


# --- report ----------------------------------------------------------------------------------


def med(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def verdict(value: float | None, target: float, higher_is_better: bool = True) -> str:
    if value is None:
        return "error"
    ok = value >= target if higher_is_better else value <= target
    return "ok" if ok else "below"


def summary(cells: list[Cell], chess_rates: list[float], cli: dict[str, Any], sizes: Sizes, game_ids: list[str]) -> dict[str, Any]:
    cli_games = {}
    for gid in game_ids:
        e = cli["games"].get(gid, {})
        ratio = med(e.get("ratios", []))
        cli_games[gid] = {
            "log": e.get("log"),
            "show_cpu_s": med(e.get("show_cpu", [])),
            "ratio": ratio,
            "verdict": verdict(ratio, TARGET_SHOW, higher_is_better=False),
            "per_round": e.get("ratios", []),
            "error": e.get("error") or cli.get("error"),
        }
    return {
        "python": platform.python_version(),
        "python_chess": _chess_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
        "sizes": vars(sizes),
        "targets": {"validate_over_chess": TARGET_VALIDATE, "selfplay_moves_per_s": TARGET_SELFPLAY,
                    "show_over_hello": TARGET_SHOW},
        "chess_plies_per_s": med(chess_rates),
        "cells": [
            {
                "game": c.game,
                "players": c.players,
                "validate_over_chess": med(c.ratios),
                "validate_verdict": verdict(med(c.ratios), TARGET_VALIDATE),
                "validate_moves_per_s": med(c.validate_rates),
                "chess_plies_per_s": med(c.chess_rates),
                "selfplay_moves_per_s": med(c.selfplay_rates),
                "selfplay_verdict": verdict(med(c.selfplay_rates), TARGET_SELFPLAY),
                "rounds": c.rounds,
                "errors": c.errors,
            }
            for c in cells
        ],
        "cli": {"hello_cpu_s": med(cli["hello_cpu"]), "games": cli_games},
    }


def _chess_version() -> str:
    import chess

    return chess.__version__


def _fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def print_table(s: dict[str, Any]) -> None:
    sz = s["sizes"]
    print(
        f"python {s['python']} ({s['machine']}, {s['cpus']} CPUs, load {s['load_average'][0]:.1f} at start), "
        f"python-chess {s['python_chess']}; CPU time; {sz['rounds']} round(s) of >= {sz['moves']} fresh moves "
        f"per row, {sz['cli_rounds']} CLI round(s) (bytecode cached); medians of per-round ratios; "
        "'below' = misses the target"
    )
    print()
    head = (f"{'game':<14}{'pl':>3}  {'validate/chess':<16}{'self-play moves/s':<21}{'show/hello':<13}"
            f"{'validate moves/s':>17}{'chess plies/s':>15}")
    print(head)
    print(f"{'':<14}{'':>3}  {f'(target {TARGET_VALIDATE:g}x)':<16}"
          f"{f'(target {TARGET_SELFPLAY / 1000:g}k)':<21}{f'(target {TARGET_SHOW:g}x)':<13}")
    print("-" * len(head))
    shown: set[str] = set()
    for c in s["cells"]:
        v = c["validate_over_chess"]
        sp = c["selfplay_moves_per_s"]
        col_v = f"{_fmt(v, '.2f', 'x')} {c['validate_verdict']}"
        col_sp = f"{_fmt(sp, ',.0f')} {c['selfplay_verdict']}"
        col_show = ""
        if c["game"] not in shown:
            shown.add(c["game"])
            g = s["cli"]["games"].get(c["game"])
            if g is not None:
                col_show = f"{_fmt(g['ratio'], '.2f', 'x')} {g['verdict']}"
        print(f"{c['game']:<14}{c['players']:>3}  {col_v:<16}{col_sp:<21}{col_show:<13}"
              f"{_fmt(c['validate_moves_per_s'], ',.0f'):>17}{_fmt(c['chess_plies_per_s'], ',.0f'):>15}")
    print()
    print(f"anchor: python-chess push_san replay of random {CHESS_PLIES}-ply games, "
          f"{_fmt(s['chess_plies_per_s'], ',.0f')} plies per CPU second (median over the workers); "
          f"3x = {_fmt(None if s['chess_plies_per_s'] is None else 3 * s['chess_plies_per_s'], ',.0f')} moves/s")
    hello = s["cli"]["hello_cpu_s"]
    parts = [f"hello-world Typer app {_fmt(None if hello is None else hello * 1000, '.0f', ' ms')}"]
    for g in s["cli"]["games"].values():
        if g["show_cpu_s"] is not None:
            parts.append(f"show {g['log']} {g['show_cpu_s'] * 1000:.0f} ms")
    print("start-up CPU (median): " + "; ".join(parts))
    errors = [f"{c['game']} {c['players']} players: {e}" for c in s["cells"] for e in c["errors"]]
    errors += [f"{gid} show: {g['error']}" for gid, g in s["cli"]["games"].items() if g["error"]]
    if errors:
        print()
        print("errors:")
        for e in errors:
            print(f"  {e}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run of well under 30 s")
    ap.add_argument("--game", action="append", metavar="ID", help="only this game (repeatable)")
    ap.add_argument("--rounds", type=int, metavar="N", help="validation and self-play rounds (default 5, quick 1)")
    ap.add_argument("--cli-rounds", type=int, metavar="N", help="CLI start-up rounds (default 15, quick 2)")
    ap.add_argument("--moves", type=int, metavar="N",
                    help="fresh moves per game, player count and round, at least (default 5000, quick 300)")
    ap.add_argument("--json", action="store_true", help="print JSON for programs instead of the table")
    args = ap.parse_args()

    sizes = Sizes(**vars(QUICK)) if args.quick else Sizes()
    for name in ("rounds", "cli_rounds", "moves"):
        value = getattr(args, name)
        if value is not None:
            if value < 1:
                ap.error(f"--{name.replace('_', '-')} must be at least 1")
            setattr(sizes, name, value)
    game_ids = list(games.GAMES)
    if args.game:
        unknown = [g for g in args.game if g not in games.GAMES]
        if unknown:
            ap.error(f"unknown game {unknown[0]!r} (known: {', '.join(games.GAMES)})")
        game_ids = [g for g in game_ids if g in args.game]
    if importlib.util.find_spec("chess") is None:
        ap.error("python-chess is needed for the anchor: pip install -e '.[bench]'")

    def say(text: str) -> None:
        print(f"[bench] {text}", file=sys.stderr, flush=True)

    load = os.getloadavg()
    cells = [Cell(gid, n) for gid in game_ids for n in games.GAMES[gid].players]
    with tempfile.TemporaryDirectory(prefix="adjudicator-bench-pyc-") as pyc:
        CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        CHILD_ENV["PYTHONPYCACHEPREFIX"] = pyc
        chess_rates = measure_validation(cells, sizes, say)
        cli = measure_cli(game_ids, sizes.cli_rounds, say)
    s = summary(cells, chess_rates, cli, sizes, game_ids)
    s["load_average"] = load
    if args.json:
        print(json.dumps(s, indent=2))
    else:
        print_table(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
