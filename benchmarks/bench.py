"""Throughput of every registered game: validation and self-play, in moves/s.

    python benchmarks/bench.py [--games N] [--repeat R] [--game ID]

For each game and each player count, N self-played games are generated
(their time is the self-play figure: choosing uniformly among all legal moves
and applying it), then their encoded logs are decoded and validated R times
(the validation figure: JSON decoding, header checks, turn order, parsing,
legality, canonical notation and the result). One core, wall-clock time; the
best of R runs is reported for validation.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator import games, log as logmod, match  # noqa: E402

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay")


def bench(game_id: str, players: int, n_games: int, repeat: int) -> dict:
    t0 = time.perf_counter()
    logs = [match.simulate(game_id, NAMES[:players], f"bench-{i}") for i in range(n_games)]
    play_time = time.perf_counter() - t0
    moves = sum(len(log.moves) for log in logs)
    blobs = [logmod.encode(log) for log in logs]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for blob in blobs:
            match.validate(logmod.decode(blob))
        best = min(best, time.perf_counter() - t0)
    return {
        "game": game_id,
        "players": players,
        "games": n_games,
        "moves": moves,
        "selfplay_moves_per_s": moves / play_time,
        "validate_moves_per_s": moves / best,
        "validate_games_per_s": n_games / best,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="self-played games per player count")
    ap.add_argument("--repeat", type=int, default=5, help="validation runs; the best is kept")
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    args = ap.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, one process")
    print(f"{'game':<16}{'players':>8}{'moves':>9}{'self-play moves/s':>19}{'validate moves/s':>18}{'games/s':>9}")
    for game_id, game in games.GAMES.items():
        if args.game and game_id not in args.game:
            continue
        for n in game.PLAYERS:
            r = bench(game_id, n, args.games, args.repeat)
            print(
                f"{game_id:<16}{n:>8}{r['moves']:>9}{r['selfplay_moves_per_s']:>19,.0f}"
                f"{r['validate_moves_per_s']:>18,.0f}{r['validate_games_per_s']:>9,.0f}"
            )


if __name__ == "__main__":
    main()
