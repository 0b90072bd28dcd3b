"""Rebuild the example logs: ``python examples/make.py``.

Every example is made by the tool itself (random self-play, or the moves of
a sample game in a notation document). Where an example must show something
(a solo goal met, a tie), the first play seed that shows it is searched for,
so the files depend only on the rules and the chance derivation. Run it after
a change that alters canonical notation or random play, then review the diff.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from adjudicator import log as logmod, match  # noqa: E402
from adjudicator.log import Log  # noqa: E402

# The sample game of notation/turn-of-time.md.
TOT_SAMPLE = (
    "SuWi-d4 WiSp-e4 SuSu-d5 FaSp-e5:sw WiWi-d3 FaSp-f4 SuFa-d6 SuFa-e3:nw "
    "WiSp-c3 SpSu-e6:ws SpSu-f3:nw FaWi-c6 FaWi-f5:sw SpSp-f6 WiSu-c5:ne FaFa-c4"
).split()


def first(make: Callable[[str], Log], wanted: Callable[[Log], bool]) -> Log:
    for k in range(10_000):
        log = make(str(k))
        if wanted(log):
            return log
    raise SystemExit("no play seed found")


def tied(log: Log) -> bool:
    return log.result is not None and log.result.standings[0].score == log.result.standings[1].score


def examples() -> dict[str, Log]:
    tot = "turn-of-time"
    sim = match.simulate
    return {
        f"{tot}/4-players.json": match.extend(
            match.new_log(tot, ["ann", "bob", "cy", "dee"], "0"), TOT_SAMPLE
        ),
        f"{tot}/3-players.json": sim(tot, ["ann", "bob", "cy"], "3p"),
        f"{tot}/3-players-example-deal.json": sim(
            tot, ["ann", "bob", "cy"], "3p", {"absent-doubles": "example"}
        ),
        f"{tot}/2-players.json": sim(tot, ["ann", "bob"], "2p"),
        f"{tot}/2-players-tie.json": first(
            lambda k: sim(tot, ["ann", "bob"], "2p-tie", play_seed=k), tied
        ),
        f"{tot}/solo-dominance.json": first(
            lambda k: sim(tot, ["sol"], "solo", {"goal": "dominance"}, play_seed=k),
            lambda log: bool(log.result and log.result.winners),
        ),
        f"{tot}/solo-balance.json": first(
            lambda k: sim(tot, ["sol"], "solo", {"goal": "balance"}, play_seed=k),
            lambda log: bool(log.result and log.result.winners),
        ),
        f"{tot}/solo-balance-missed.json": sim(tot, ["sol"], "solo", {"goal": "balance"}),
    }


def main() -> None:
    for name, log in examples().items():
        path = HERE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        match.validate(log)
        path.write_bytes(logmod.encode(log))
        print(f"{name}: {len(log.moves)} moves, {match.describe(log.result)}")


if __name__ == "__main__":
    main()
