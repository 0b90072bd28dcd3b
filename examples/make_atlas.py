"""Atlas examples (see make.py): the sample game of ``notation/atlas.md`` (3
players) and random self-play from fixed seeds; a tie settled by stacks and a
shared first place are searched for."""

from __future__ import annotations

from make import first

from adjudicator import match
from adjudicator.games.atlas import GAME as game
from adjudicator.log import Log

# The sample game of notation/atlas.md (seed 0).
SAMPLE = (
    "3W", "1W+2T", "3D+2P", "5W+2T", "4W+3T", "3S+3P", "6W", "3N", "2D+2T", "7W+3T", "1D+3T",
    "4D+3T", "1S+3P", "5D", "1N", "6D+3T", "7D+3T", "4S+3P", "2S+3T", "4N+3P", "2N+1T", "7S",
    "7N", "6S", "6N", "5S", "5N",
)


def tied_on_points(log: Log) -> bool:
    """The top two are level on points, so the stacks decide (or nothing does)."""
    s = log.result.standings if log.result else ()
    return len(s) > 1 and s[0].score == s[1].score and s[0].score > 0


def shared_win(log: Log) -> bool:
    return log.result is not None and len(log.result.winners) > 1 and log.result.standings[0].score > 0


def examples() -> dict[str, Log]:
    sim = match.simulate
    two, four = ["ann", "bob"], ["ann", "bob", "cy", "dee"]
    return {
        "atlas/3-players.json": match.extend(
            match.new_log(game.id, ["ann", "bob", "cy"], "0"), SAMPLE
        ),
        "atlas/2-players.json": sim(game.id, two, "2p"),
        "atlas/4-players.json": sim(game.id, four, "4p"),
        "atlas/2-players-tie-on-points.json": first(
            lambda k: sim(game.id, two, "2p-tie", play_seed=k),
            lambda log: tied_on_points(log) and not shared_win(log),
        ),
        "atlas/4-players-shared-win.json": first(
            lambda k: sim(game.id, four, "4p-shared", play_seed=k), shared_win
        ),
    }
