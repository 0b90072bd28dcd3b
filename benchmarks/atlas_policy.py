"""Atlas: a play-out policy for the bot's own seat learned from the bot (a trial, issue #23).

    python benchmarks/atlas_policy.py FIT RECORDS.jsonl WEIGHTS.json

The diagnosis (``benchmarks/results/README.md``) left one lever: a play-out
policy for the bot's own seat that plays about as well as the bot does. The
hand-written ones did not; this one imitates the bot (as a fast rollout
policy imitates a search, Silver et al., 2016): ``atlas_diagnose.py
--record FILE`` writes, at every decision of the bot, the features of each
legal move (:func:`features`) and the move chosen; ``FIT`` fits a
conditional logit (softmax over the legal moves, linear in the features) to
them; ``atlas_diagnose.py --playout learned --weights FILE`` plays the
bot's own seat in the play-outs by sampling that softmax. The features are
what the mover sees (the board, the stacks, its own hand and chips), so the
policy is a fair function of the seat's view of the state dealt.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.games.atlas.cards import PLACE, TIME  # noqa: E402
from adjudicator.games.atlas.playout import flipped, lines, sample  # noqa: E402
from adjudicator.games.atlas.rules import State, completes  # noqa: E402

#: The features' names, in the order of :func:`features`.
NAMES = (
    "complete", "mine_kept", "mine_lost", "opp_kept", "opp_lost",
    "alone",
    "time", "time_chips", "time_row_up", "time_row_down", "time_stretch_up",
    "place", "place_chips", "place_col_on", "place_col_down",
    "stake_late", "chips_late", "stake_poor",
)


def card_features(state: State, card: int) -> tuple[list[float] | None, list[float]]:
    """For one card of the mover's hand: the features of playing it when it
    completes something (its one move), else ``None``; and the statistics
    its stakes need (face-up and face-down cards of its row, face-up cards
    of its stretch, the other cards of its column on the board and face
    down). Both as the library's policy reads them
    (``adjudicator/games/atlas/playout.py``: ``flipped`` and ``lines``)."""
    time, place = completes(state.up, state.down, card)
    if time or place:
        return [1.0, *map(float, flipped(state, time, place))], []
    return None, [float(x) for x in lines(state, card)]


def features(state: State, moves: Any) -> list[list[float]]:
    """The features of each of ``moves`` (the mover's legal moves), in order."""
    me = state.seat
    late = state.played / 27.0
    poor = 1.0 - state.chips[me] / 14.0
    cache: dict[int, tuple[list[float] | None, list[float]]] = {}
    out = []
    for m in moves:
        got = cache.get(m.card)
        if got is None:
            got = cache[m.card] = card_features(state, m.card)
        done, stats = got
        f = [0.0] * len(NAMES)
        if done is not None:
            f[0:5] = done
        elif not m.side:
            f[5] = 1.0
        else:
            if m.side == TIME:
                f[6] = 1.0
                f[7] = m.chips
                f[8], f[9], f[10] = stats[0], stats[1], stats[2]
            elif m.side == PLACE:
                f[11] = 1.0
                f[12] = m.chips
                f[13], f[14] = stats[3], stats[4]
            f[15] = late
            f[16] = m.chips * late
            f[17] = poor
        out.append(f)
    return out


def choose(state: State, moves: Any, weights: list[float], rng: Any) -> Any:
    """A move of ``moves`` sampled from the softmax of the learned policy."""
    return sample(moves, [sum(w * x for w, x in zip(weights, f, strict=True))
                          for f in features(state, moves)], rng)


def fit(records: list[tuple[list[list[float]], int]], passes: int = 400,
        rate: float = 0.05, l2: float = 1e-3) -> list[float]:
    """The weights of the conditional logit that best predicts the chosen
    moves (gradient ascent with Adam on the mean log-likelihood)."""
    k = len(NAMES)
    # Scale each feature to unit spread, for the steps.
    spread = [1e-9] * k
    for rows, _ in records:
        for f in rows:
            for i in range(k):
                spread[i] = max(spread[i], abs(f[i]))
    data = [([[x / s for x, s in zip(f, spread, strict=True)] for f in rows], chosen)
            for rows, chosen in records]
    w = [0.0] * k
    m1 = [0.0] * k
    m2 = [0.0] * k
    for t in range(1, passes + 1):
        grad = [0.0] * k
        ll = 0.0
        for rows, chosen in data:
            logits = [sum(a * b for a, b in zip(w, f, strict=True)) for f in rows]
            top = max(logits)
            ps = [math.exp(v - top) for v in logits]
            z = sum(ps)
            ll += logits[chosen] - top - math.log(z)
            for f, p in zip(rows, ps, strict=True):
                q = p / z
                for i in range(k):
                    grad[i] -= q * f[i]
            for i in range(k):
                grad[i] += rows[chosen][i]
        n = len(data)
        for i in range(k):
            g = grad[i] / n - l2 * w[i]
            m1[i] = 0.9 * m1[i] + 0.1 * g
            m2[i] = 0.999 * m2[i] + 0.001 * g * g
            w[i] += rate * (m1[i] / (1 - 0.9 ** t)) / (math.sqrt(m2[i] / (1 - 0.999 ** t)) + 1e-8)
        if t % 50 == 0 or t == 1:
            print(f"pass {t}: mean log-likelihood {ll / n:.4f}", file=sys.stderr)
    return [a / s for a, s in zip(w, spread, strict=True)]


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] != "FIT":
        raise SystemExit(__doc__.split("\n\n")[1])
    records = [tuple(json.loads(line)) for line in Path(sys.argv[2]).read_text().splitlines()]
    uniform = sum(math.log(len(rows)) for rows, _ in records) / len(records)
    print(f"{len(records)} decisions; a uniform choice's mean log-likelihood {-uniform:.4f}")
    weights = fit(records)  # type: ignore[arg-type]
    Path(sys.argv[3]).write_text(json.dumps(dict(zip(NAMES, weights, strict=True)), indent=1))
    for name, w in zip(NAMES, weights, strict=True):
        print(f"{name:<16}{w:+.3f}")


if __name__ == "__main__":
    main()
