"""Turn of Time examples (see make.py)."""

from __future__ import annotations

from make import first, tied

from adjudicator import match
from adjudicator.log import Log

# The sample game of notation/turn-of-time.md.
SAMPLE = (
    "SuWi-d4 WiSp-e4 SuSu-d5 FaSp-e5:sw WiWi-d3 FaSp-f4 SuFa-d6 SuFa-e3:nw "
    "WiSp-c3 SpSu-e6:ws SpSu-f3:nw FaWi-c6 FaWi-f5:sw SpSp-f6 WiSu-c5:ne FaFa-c4"
).split()


def won(log: Log) -> bool:
    return bool(log.result and log.result.winners)


def examples() -> dict[str, Log]:
    tot, sim = "turn-of-time", match.simulate
    return {
        f"{tot}/4-players.json": match.extend(
            match.new_log(tot, ["ann", "bob", "cy", "dee"], "0"), SAMPLE
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
            lambda k: sim(tot, ["sol"], "solo", {"goal": "dominance"}, play_seed=k), won
        ),
        f"{tot}/solo-balance.json": first(
            lambda k: sim(tot, ["sol"], "solo", {"goal": "balance"}, play_seed=k), won
        ),
        f"{tot}/solo-balance-missed.json": sim(tot, ["sol"], "solo", {"goal": "balance"}),
    }
