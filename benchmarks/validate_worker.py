"""A fresh process for one validation measurement of benchmarks/bench.py.

Reads a msgpack payload on stdin::

    {"anchor_warm": [[san, ...], ...],   # chess games replayed untimed first
     "anchor": [[san, ...], ...],        # chess games replayed in two timed halves
     "warm": [log bytes, ...],           # one other small batch, validated untimed
     "logs": [log bytes, ...]}           # the fresh logs: decoded and validated, timed

and prints one JSON object on stdout. This process has never simulated or
validated the logs it measures (bench.py made them in another process), so
whatever the games memoise is as cold as for a user validating new logs; the
warm-up only takes the one-time costs (imports, first calls) out of the
figure. The timed order is: chess replay (first half), the fresh logs once,
chess replay (second half); CPU time (time.process_time) around each loop.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess  # noqa: E402
import msgspec  # noqa: E402

from adjudicator import log as logmod, match  # noqa: E402


def replay_chess(games: list[list[str]]) -> tuple[int, float]:
    """python-chess board.push_san replay of ``games``: (plies, CPU seconds)."""
    gc.collect()
    plies = 0
    t0 = time.process_time()
    for sans in games:
        board = chess.Board()
        push = board.push_san
        for san in sans:
            push(san)
        plies += len(sans)
    return plies, time.process_time() - t0


def validate(blobs: list[bytes]) -> tuple[int, float]:
    """Decode and validate every log: (moves, CPU seconds)."""
    gc.collect()
    moves = 0
    t0 = time.process_time()
    for blob in blobs:
        game = logmod.decode(blob)
        match.validate(game)
        moves += len(game.moves)
    return moves, time.process_time() - t0


def main() -> None:
    payload = msgspec.msgpack.decode(sys.stdin.buffer.read())
    replay_chess(payload["anchor_warm"])
    validate(payload["warm"])
    anchor = payload["anchor"]
    half = len(anchor) // 2
    plies_a, cpu_a = replay_chess(anchor[:half])
    moves, cpu_v = validate(payload["logs"])
    plies_b, cpu_b = replay_chess(anchor[half:])
    json.dump(
        {
            "logs": len(payload["logs"]),
            "moves": moves,
            "validate_cpu": cpu_v,
            "plies": plies_a + plies_b,
            "chess_cpu": cpu_a + cpu_b,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
