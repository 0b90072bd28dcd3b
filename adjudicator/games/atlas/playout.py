"""Atlas: how the bot plays its own seat in its play-outs, at 3 players (issue #23).

The search (:mod:`adjudicator.bots.search`) judges a move by playing the
game out from it many times on guesses of the hidden cards. With every seat
playing uniformly random moves in those play-outs, the bot's own later turns
are played far worse than it plays them: a random player stakes chips on
sides that will not happen and leaves completions it could score. At 3
players against ``random`` that held the standard bot to 79% of 228 games,
under its 83% target. So in the play-outs the bot's own seat plays like the
bot (as a fast roll-out policy imitates a search, Silver et al., 2016): a
move is drawn from a softmax over the legal moves, linear in what the mover
sees of each, its weights fitted to the standard bot's own choices
(``benchmarks/atlas_policy.py``). The other seats stay uniformly random.

What the policy weighs, for each card of the mover's hand:

* a card that completes a Time or a Place (Scoring) has one move, the card
  alone; it is worth a constant plus, for each stack it will flip, the
  stack's chips plus one, weighed by whether the stack is the mover's or
  another's and whether it is kept (a correct prediction) or lost;
* a card alone that completes nothing is worth a constant;
* a prediction of Time with k chips weighs k, the face-up and face-down
  cards already in the card's row and the face-up cards of the stretch of
  the row through it (what a Time needs: four face up in a stretch);
* a prediction of Place with k chips weighs k and the other cards of the
  column on the board and face down (a Place: the full column, at most one
  face down);
* every prediction weighs how late the game is (cards played over 27), k
  chips that late, and how few chips the mover has left (over 14).

The policy sees the state drawn from the bot's view, so it knows no more
than the bot's guess. Measured at 3 players only
(``benchmarks/results/README.md``: 85.9% of 216 standard-budget games
against ``random``); with 2 and 4 the search keeps uniformly random
play-outs, which met their targets.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from .cards import PLACE, TIME, Move
from .rules import GEOMETRY, State, completes, stretch

#: The fitted weights (``benchmarks/results/atlas-3p-policy-weights.json``,
#: fitted by ``benchmarks/atlas_policy.py FIT`` to 3-player games of the
#: standard bot against ``random``).
#: A card that completes a Time or a Place: a constant, and per stack it
#: flips, its chips plus one, by whose stack it is and whether it is kept.
COMPLETE = 0.07841400508721254
MINE_KEPT = 0.32251166710390194
MINE_LOST = -0.19887238378871264
OTHERS_KEPT = -0.12028962185852479
OTHERS_LOST = 0.16818797710759473
#: A card alone that completes nothing.
ALONE = -0.5479468559666753
#: A prediction of Time: a constant, per chip staked, per face-up and per
#: face-down card of the row, per face-up card of the row's stretch through it.
PREDICT_TIME = 0.18681618654482396
TIME_CHIPS = 0.038562304448912045
ROW_UP = 0.09659581174096121
ROW_DOWN = -0.22436772555558904
STRETCH_UP = 0.41352413705746205
#: A prediction of Place: a constant, per chip staked, per other card of the
#: column on the board, per other card of the column face down.
PREDICT_PLACE = 0.31596074692359516
PLACE_CHIPS = -0.09143679412499037
COLUMN_ON = 0.39295419025405076
COLUMN_DOWN = -0.766572965882138
#: Every prediction: how late (cards played over 27), chips staked that
#: late, and how poor (1 less the mover's chips over 14).
LATE = 1.4259802296966353
CHIPS_LATE = 0.09553990959263364
POOR = -1.612834638718515

#: The scales of lateness and poverty at 3 players: the cards a game plays
#: and the chips a player starts with (Game Set Up 2).
PLAYED = 27.0
CHIPS = 14.0

Policy = Callable[[State, tuple[Move, ...], random.Random], Move]


def policy(players: int) -> Policy | None:
    """The play-out policy of the bot's own seat: :func:`choose` at 3
    players, none (uniformly random) at 2 and 4."""
    return choose if players == 3 else None


def flipped(state: State, time: int, place: int) -> tuple[int, int, int, int]:
    """What a completion of the Time ``time`` and the Place ``place`` (masks,
    as :func:`~.rules.completes` gives them) flips: the points (chips plus
    one) of the mover's stacks kept and lost, then of the others' kept and
    lost (Scoring: a stack is kept when it predicted what was completed)."""
    flips = time | place
    lost = state.on_time & place | state.on_place & time
    me = state.seat
    mine_kept = mine_lost = others_kept = others_lost = 0
    for stack in state.stacks:
        if flips >> stack.card & 1:
            points = stack.chips + 1
            if stack.seat == me:
                if lost >> stack.card & 1:
                    mine_lost += points
                else:
                    mine_kept += points
            elif lost >> stack.card & 1:
                others_lost += points
            else:
                others_kept += points
    return mine_kept, mine_lost, others_kept, others_lost


def lines(state: State, card: int) -> tuple[int, int, int, int, int]:
    """The card's row and column as a prediction on it sees them: the row's
    face-up and face-down cards, the face-up cards of the row's stretch
    through the card (:func:`~.rules.stretch`), the other cards of the
    column on the board and those of them face down."""
    up, down = state.up, state.down
    _, row, _, others = GEOMETRY[card]
    return ((up & row).bit_count(), (down & row).bit_count(),
            (up & stretch(up, down, card)).bit_count(),
            ((up | down) & others).bit_count(), (down & others).bit_count())


def worth(state: State, card: int) -> tuple[float, float, float, float, float]:
    """What playing ``card`` (in the mover's hand) is worth to the policy:
    the card alone, then a Time prediction's worth before its chips and per
    chip, then a Place prediction's the same. A card that completes
    something has only its move alone (Play a Card A): that one is worth
    what it flips, and the predictions' entries are never read."""
    time, place = completes(state.up, state.down, card)
    if time or place:
        mine_kept, mine_lost, others_kept, others_lost = flipped(state, time, place)
        return (COMPLETE + MINE_KEPT * mine_kept + MINE_LOST * mine_lost
                + OTHERS_KEPT * others_kept + OTHERS_LOST * others_lost, 0.0, 0.0, 0.0, 0.0)
    row_up, row_down, stretch_up, column_on, column_down = lines(state, card)
    late = state.played / PLAYED
    common = LATE * late + POOR * (1.0 - state.chips[state.seat] / CHIPS)
    per_chip = CHIPS_LATE * late
    return (
        ALONE,
        PREDICT_TIME + ROW_UP * row_up + ROW_DOWN * row_down + STRETCH_UP * stretch_up + common,
        TIME_CHIPS + per_chip,
        PREDICT_PLACE + COLUMN_ON * column_on + COLUMN_DOWN * column_down + common,
        PLACE_CHIPS + per_chip,
    )


def logits(state: State, moves: tuple[Move, ...]) -> list[float]:
    """The worth of each of ``moves`` (the mover's legal moves), in order."""
    cards: dict[int, tuple[float, float, float, float, float]] = {}
    out = []
    for move in moves:
        card = move.card
        got = cards.get(card)
        if got is None:
            got = cards[card] = worth(state, card)
        if move.side == TIME:
            out.append(got[1] + got[2] * move.chips)
        elif move.side == PLACE:
            out.append(got[3] + got[4] * move.chips)
        else:
            out.append(got[0])
    return out


def choose(state: State, moves: tuple[Move, ...], rng: random.Random) -> Move:
    """One of ``moves`` (the mover's legal moves), drawn from the softmax of
    their worths (:func:`logits`), with one draw of ``rng``."""
    return sample(moves, logits(state, moves), rng)


def sample(moves: Sequence[Any], worths: list[float], rng: random.Random) -> Any:
    """One of ``moves`` drawn with odds ``exp(worth)``, with one draw of ``rng``."""
    top = max(worths)
    weights = [math.exp(v - top) for v in worths]
    r = rng.random() * sum(weights)
    for move, w in zip(moves, weights, strict=True):
        r -= w
        if r <= 0:
            return move
    return moves[-1]
