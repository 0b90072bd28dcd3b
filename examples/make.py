"""Rebuild the example logs: ``python examples/make.py [GAME ...]``.

Every example is made by the tool itself: random self-play from a fixed seed,
or the moves of a sample game in a notation document. Each game's examples
are listed by ``examples()`` in ``make_<module>.py`` beside this file. Where an
example must show something (a solo goal met, a tie), the first play seed that
shows it is used, so the files depend only on the rules and the chance
derivation. Run it after a change that alters canonical notation or random
play, then review the diff.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from adjudicator import games, log as logmod, match  # noqa: E402
from adjudicator.log import Log  # noqa: E402


def first(make: Callable[[str], Log], wanted: Callable[[Log], bool]) -> Log:
    """The first of ``make("0")``, ``make("1")``, ... that is ``wanted``."""
    for k in range(10_000):
        log = make(str(k))
        if wanted(log):
            return log
    raise SystemExit("no play seed found")


def tied(log: Log) -> bool:
    """The top two players have the same score."""
    s = log.result.standings if log.result else ()
    return len(s) > 1 and s[0].score == s[1].score


def main(only: list[str]) -> None:
    for game_id in only or list(games.GAMES):
        builder = importlib.import_module("make_" + game_id.replace("-", "_"))
        for name, log in builder.examples().items():
            path = HERE / name
            path.parent.mkdir(parents=True, exist_ok=True)
            match.validate(log)
            path.write_bytes(logmod.encode(log))
            print(f"{name}: {len(log.moves)} moves, {match.describe(log.result)}")


if __name__ == "__main__":
    main(sys.argv[1:])
