"""Q-Turn examples (see make.py).

Every example is made by the tool itself: the sample game of
``notation/q-turn.md`` (its moves, through ``match.extend``), or random
self-play (``match.simulate``). Random games often run into the round limit
(ruling R15), so where an example must end with a winner the first play seed
that gives one is used; the files depend only on the rules and the chance
derivation. Run it after a change that alters canonical notation or random
play, then review the diff.
"""

from __future__ import annotations

from make import first

from adjudicator import match
from adjudicator.games.q_turn import GAME as game
from adjudicator.log import Log

# The sample game of notation/q-turn.md (seed 75): ann wins at move 37.
SAMPLE = (
    "d4", "EW", "a1", "EW", "c4", "W", "b1", "N", "b4", "S", "b2", "NS+c4", "b3", "W", "bounce",
    "a3", "c2", "a2", "S", "c3", "NS+b1", "a1", "c4", "b1", "E", "c1", "NS+c4", "E", "c2", "E",
    "c3+d4", "d4+c1", "d3", "bounce+c1", "bounce", "c4", "d4",
)


def won(log: Log) -> bool:
    return log.result is not None and bool(log.result.winners)


def examples() -> dict[str, Log]:
    q = game.id
    sim = match.simulate
    names = ["ann", "bob", "cy", "dee"]
    return {
        f"{q}/2-players-sample.json": match.extend(match.new_log(q, names[:2], "75"), SAMPLE),
        f"{q}/2-players.json": first(lambda k: sim(q, names[:2], "2p", play_seed=k), won),
        f"{q}/3-players.json": first(lambda k: sim(q, names[:3], "3p", play_seed=k), won),
        f"{q}/4-players.json": first(lambda k: sim(q, names, "4p", play_seed=k), won),
        f"{q}/4-players-8Q4D4O.json": first(
            lambda k: sim(q, names, "4p-mix", {"disks": "8Q,4D,4O"}, play_seed=k), won
        ),
        f"{q}/3-players-round-limit.json": sim(q, names[:3], "3p-limit", {"round-limit": 10}),
    }
