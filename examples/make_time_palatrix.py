"""Time Palatrix examples (see make.py).

Every example is a complete game made by the tool itself. The cards are
placed by random legal play (the stream of the play seed, label
``examples/place``). Uniformly random bids would almost never be met, so the
bids are made with hindsight, to show every case of the score calculation:
each hand is first played out with the same placements (which do not depend
on the bids), then each player's bid is drawn from the tricks they went on to
take (label ``examples/bid/<hand>``): exact, the spare chip on the bid, the
spare chip on the bid + 1, or (one time in six) a miss. The last move of every round carries a
comment saying who won each trick. The 3-player game begins with the sample
hand of ``notation/time-palatrix.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import msgspec
from make import first

from adjudicator import match
from adjudicator.chance import Chance
from adjudicator.games.time_palatrix import GAME, cards
from adjudicator.log import Log

HERE = Path(__file__).resolve().parent
NOTATION = HERE.parent / "notation" / "time-palatrix.md"


def sample_hand() -> list[str]:
    """The moves played in the first ```moves block of the notation document."""
    text = NOTATION.read_text(encoding="utf-8")
    body = re.search(r"^```moves\n(.*?)^```", text, re.S | re.M)[1]  # type: ignore[index]
    moves = []
    for raw in body.splitlines()[1:]:
        line = raw.split("#", 1)[0].strip()
        if line and not (line[0] in "x?=" and line[1:2] == " "):
            moves.append(line.partition("->")[2].strip() or line)
    return moves


def _bid(tricks: int, draw: int) -> str:
    """A bid for a player who will take ``tricks``, from a draw below 6: exact
    (0, 1), the spare chip on the bid (2), on the bid + 1 (3, 4), a miss (5)."""
    if draw <= 1 or (draw in (3, 4) and tricks == 0):
        return str(tricks)
    if draw == 2:
        return f"{tricks}+"
    if draw in (3, 4):
        return f"{tricks - 1}+"
    return str(tricks + 1 if tricks < 3 else tricks - 2)


def _placements(state, rng: Chance) -> tuple[list[str], tuple[int, ...]]:
    """A hand's placements by random legal play from the start of its placement,
    and the tricks each player takes."""
    hand_no = state.hand_no
    texts = []
    while state.hand_no == hand_no and state.seat >= 0:
        legal = GAME.legal_moves(state)
        move = legal[rng.below(len(legal))]
        texts.append(GAME.format_move(state, move))
        state = GAME.apply(state, move)
    taken = tuple(row[4] for row in state.results if row[0] == hand_no)
    return texts, taken


def play_out(log: Log, play_seed: str) -> Log:
    """``log`` played to the end: hindsight bids, random placements."""
    rep = match.validate(log)
    state, moves = rep.state, [e.move for e in log.moves]
    place = Chance(play_seed, "examples/place")
    while state.seat >= 0:
        n = len(state.players)
        if state.bidding and state.bids[state.seat] < 0 and state.seat == state.start:
            # Play the hand out with stand-in bids, then bid from what happened.
            trial = state
            for _ in range(n):
                trial = GAME.apply(trial, cards.Bid(0))
            texts, taken = _placements(trial, Chance(play_seed, f"examples/place/{state.hand_no}"))
            draws = Chance(play_seed, f"examples/bid/{state.hand_no + 1}")
            bids = {p: _bid(taken[p], draws.below(6)) for p in range(n)}
            hand = [bids[(state.start + k) % n] for k in range(n)] + texts
        elif state.bidding:
            raise SystemExit("a log handed to play_out must not stop in the middle of the bids")
        else:
            hand, _ = _placements(state, place)
        for text in hand:
            state = GAME.apply(state, GAME.parse_move(state, text))
        moves += hand
    done = match.extend(msgspec.structs.replace(log, moves=()), moves)
    return comment_rounds(done)


def comment_rounds(log: Log) -> Log:
    """The last move of every round annotated with its tricks, and of every hand
    with its scores."""
    rep = match.validate(log, keep=True)
    entries = []
    for k, entry in enumerate(log.moves):
        before, after = rep.states[k], rep.states[k + 1]
        notes = []
        if len(after.record) > len(before.record):
            won = [
                f"{row[2] + 1} {cards.PAWNS[row[2]]} {after.players[row[4]]}"
                for row in after.record[len(before.record):]
            ]
            notes.append("tricks: " + ", ".join(won))
        if len(after.results) > len(before.results):
            scored = ", ".join(
                f"{after.players[row[1]]} {row[5]}" for row in after.results[len(before.results):]
            )
            notes.append(f"hand {after.hand_no} scores {scored}")
        if notes and after.seat >= 0:
            notes.append(f"{after.players[after.start]} starts")
        entries.append((entry.by, entry.move, "; ".join(notes) if notes else None))
    bare = msgspec.structs.replace(log, moves=())
    return msgspec.structs.replace(log, moves=match.sealed(bare, entries))


def shared_first_place(log: Log) -> bool:
    s = log.result.standings if log.result else ()
    return len(s) > 1 and s[0].score == s[1].score > 0


def game(players: Sequence[str], seed: str, locations: int = 3, play_seed: str | None = None,
         opening: Sequence[str] = ()) -> Log:
    log = match.new_log(GAME.id, players, seed, {"locations": locations})
    if opening:
        log = match.extend(log, opening)
    return play_out(log, seed if play_seed is None else play_seed)


def examples() -> dict[str, Log]:
    three, four = ["ann", "bob", "cy"], ["ann", "bob", "cy", "dee"]
    return {
        "time-palatrix/3-players.json": game(three, "105", opening=sample_hand()),
        "time-palatrix/4-players.json": game(four, "4p"),
        "time-palatrix/4-players-4-locations.json": game(four, "4p-back", 4),
        "time-palatrix/3-players-4-locations.json": game(three, "3p-back", 4),
        "time-palatrix/4-players-tie.json": first(
            lambda k: game(four, "4p-tie", play_seed=k), shared_first_place
        ),
        "time-palatrix/4-players-random.json": match.simulate(GAME.id, four, "random"),
    }
