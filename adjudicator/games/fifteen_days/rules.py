"""15 Days: the rules. State, set-up, legal moves, applying them, the score
and what each player may see.

Rule clauses are cited by the rule text's section headings ("15 Days: Play
cards"); the notation and every ruling are in ``notation/fifteen-days.md``.

Representation. A season is 0-3: Spring, Summer, Autumn, Winter. A card's
*kind* is ``season * 6 + value - 1`` (0-23, ``Su4`` is 9); a card as dealt
is ``back * 24 + kind`` with back 1-3 (Summer, Autumn, Winter: there are no
Spring backs). The back only matters while the card is in a draw pile, but
cards keep it so that a re-deal can put them back into a pile.

A board is four corners in the order top-left, top-right, bottom-left,
bottom-right; right corners (odd index) ascend, left corners descend. A
corner is ``(season, mask, wild)``: season -1 when empty, ``mask`` the values
of its real cards (bit ``v - 1`` for value ``v``), ``wild`` the bit of the
value its wild card stands for (0: none).

A turn is several moves by the same player: the state's ``phase`` says which
decision is due (see ``_EXPECTED``).
"""

from __future__ import annotations

import re
from bisect import insort
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ...chance import Chance
from ...engine import Outcome, Param, Standing, Value
from ...errors import AmbiguousMoveError, BadLogError, IllegalMoveError, NotationError

ID = "fifteen-days"
TITLE = "15 Days"
PLAYERS = (2, 3, 4)
NOTATION = "notation/fifteen-days.md"

PARAMS = (
    Param(
        "first-player",
        "drawn",
        "who takes the first turn. drawn: a seat drawn from the seed (the rules: "
        "the starting player is random), then play goes on in seat order; seat-0: "
        "the first player listed",
        choices=("drawn", "seat-0"),
    ),
    Param(
        "feathers",
        "one-per-turn",
        "how many Feather tokens a player may spend in a turn. one-per-turn: one "
        "(the text: 'on a turn, a player may discard a Feather token'); "
        "one-per-action: one before each action, and one more on the Otter at the "
        "hand limit",
        choices=("one-per-turn", "one-per-action"),
    ),
    Param(
        "wild",
        "any",
        "where a wild card may be placed. any: a missing value of any Season (the "
        "text: 'place that wild card in any Season'), a Season not yet on the board "
        "opening a free corner with the wild; board: only a Season already on the "
        "board (rules version 1)",
        choices=("any", "board"),
        since=2,
        legacy="board",
    ),
)

#: The rules version: 2 brought the parameter ``wild`` (logs pinned to
#: version 1 omit it and are played with ``wild=board``).
RULES = 2

# The rule text's section headings, cited by every refusal.
C_GAMEPLAY = "Gameplay"
C_ACTIONS = "Actions"
C_DRAW = "Take 2 face-down Season cards"
C_TAKE = "Take 1 face-up Season card"
C_WILD = "Take 1 wild card"
C_PLAY = "Play cards"
C_FEATHERS = "Feather Tokens"
C_LIMIT = "End of turn"
C_END = "End game and Scoring"

TURN_CLAUSE = f"{TITLE}: {C_GAMEPLAY}"
END_CLAUSE = f"{TITLE}: {C_END}"

SEASONS = ("Sp", "Su", "Au", "Wi")
SEASON_NAMES = ("Spring", "Summer", "Autumn", "Winter")
SP, SU, AU, WI = range(4)
ANIMALS = ("Otter", "Frog", "Squirrel", "Rabbit")  # the token of each season
OTTER, FROG, SQUIRREL, RABBIT = range(4)
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
SIDES = "LR"  # left corners descend, right corners ascend
SOURCES = "abcd"  # the three market columns, then the discard pile
FULL = 0b111111  # all six values
CARDS = tuple(f"{SEASONS[k // 6]}{k % 6 + 1}" for k in range(24))

HAND_LIMIT, OTTER_LIMIT = 5, 8
START_HAND = 2
WILDS = 8
FEATHERS = 5
MARKET_DEPTH = 3

# The 90 cards in the starting order of the shuffle (notation: "Chance"): for
# each back, Summer, Autumn and Winter, its own season 1-6 four times over,
# then Spring 1-6.
DECK = tuple(
    back * 24 + season * 6 + v
    for back in (SU, AU, WI)
    for season, copies in ((back, 4), (SP, 1))
    for _ in range(copies)
    for v in range(6)
)


def _run(mask: int) -> int:
    best = cur = 0
    for v in range(6):
        cur = cur + 1 if mask >> v & 1 else 0
        best = max(best, cur)
    return best


RUN = tuple(_run(m) for m in range(64))  # longest run of consecutive values
POPCOUNT = tuple(bin(m).count("1") for m in range(64))
_VALUES = tuple(tuple(v for v in range(6) if m >> v & 1) for m in range(64))


class Move(msgspec.Struct, frozen=True, order=True, gc=False):
    """One decision. ``op`` is the notation's letter:

    ``D`` draw from pile ``arg`` (0, 1); ``T`` take from source ``arg`` (0-2 a
    column, 3 the discard pile); ``W`` take a wild (``card`` -1) or place a
    wild as ``card``; ``P`` play ``card`` (``side`` 0 left, 1 right, -1 not
    said); ``X`` discard ``card``; ``R`` rebuild from pile ``arg``; ``E`` end
    the action; ``O`` spend a feather on the Otter. ``feather``: a feather is
    spent on the power of the action this move begins.

    A frozen Struct rather than a NamedTuple: the handlers read its fields on
    every move validated, and a Struct's fields read several times faster.
    """

    op: str
    arg: int = -1
    card: int = -1
    side: int = -1
    feather: bool = False


class State(msgspec.Struct, frozen=True, gc=False):
    # gc=False: a state holds tuples of numbers and strings, never a cycle, so
    # the collector need not track the many states a replay makes.
    # The fields most often changed come first: structs.replace finds each
    # keyword by a scan of the fields from the first.
    phase: str  # the decision due; see _EXPECTED
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted
    power: bool  # the action under way has its animal's power
    count: int  # cards drawn or taken so far in the action under way
    seat: int  # the player whose turn it is, -1 once the game is over
    actions: int  # actions finished this turn
    feathers_used: int  # this turn
    otter: bool  # a feather was spent on the Otter this turn
    column: int  # the market column being rebuilt
    owe: int  # cards still to discard (for a wild, or to pay for a placement)
    displaced: bool  # a wild replaced by a real card must move once the card is paid
    discard: tuple[int, ...]  # bottom to top
    piles: tuple[tuple[int, ...], ...]  # two draw piles, bottom to top
    market: tuple[tuple[int, ...], ...]  # three columns, bottom to top
    trigger: int  # the seat whose turn emptied a draw pile, -1 before
    boards: tuple[tuple[tuple[int, int, int], ...], ...]  # per seat, four corners
    animals: tuple[int, ...]  # season -> seat holding its token, -1: the supply
    feathers: tuple[int, ...]
    feather_supply: int
    wild_supply: int
    turns_left: int  # turns still to play once the trigger turn is over, -1 before
    ended: str  # "sets" or "pile" once over
    players: tuple[str, ...]
    feather_rule: str
    wild_rule: str  # the parameter wild: "any" or "board"
    first: int  # the seat that took the first turn
    removed: tuple[int, ...]  # 2 players: the 15 cards set aside unseen


# --- setup -----------------------------------------------------------------------


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    deck = Chance(seed, "deck").shuffle(DECK)
    removed: list[int] = []
    if n == 2:
        # Gameplay (2 players): 5 cards of each back are set aside unseen, the
        # first five of each back in the shuffled deck.
        left = [0, 5, 5, 5]  # per back: Summer, Autumn, Winter
        kept = []
        for c in deck:
            back = c // 24
            if left[back]:
                left[back] -= 1
                removed.append(c)
            else:
                kept.append(c)
        deck = kept
    # The first card dealt to a column is its bottom card.
    market = tuple(tuple(deck[3 * i : 3 * i + 3]) for i in range(3))
    pos = 9
    hands = [sorted(deck[pos + i : pos + START_HAND * n : n]) for i in range(n)]
    pos += START_HAND * n
    rest = deck[pos:]
    half = (len(rest) + 1) // 2
    # Stored bottom to top: the first card of each half is its top card.
    piles = (tuple(reversed(rest[:half])), tuple(reversed(rest[half:])))
    first = Chance(seed, "first").below(n) if params["first-player"] == "drawn" else 0
    return State(
        players=players,
        feather_rule=str(params["feathers"]),
        # Parameters of rules version 1 (no "wild"), as older callers give
        # them: that version's behaviour, as for a log pinned to it.
        wild_rule=str(params.get("wild", "board")),
        first=first,
        piles=piles,
        removed=tuple(removed),
        market=market,
        discard=(),
        hands=tuple(tuple(h) for h in hands),
        boards=tuple(((-1, 0, 0),) * 4 for _ in range(n)),
        feathers=(1,) * n,
        feather_supply=FEATHERS - n,
        wild_supply=WILDS,
        animals=(-1, -1, -1, -1),
        seat=first,
        phase="act",
        actions=0,
        power=False,
        count=0,
        column=-1,
        owe=0,
        displaced=False,
        feathers_used=0,
        otter=False,
        trigger=-1,
        turns_left=-1,
        ended="",
    )


def to_move(state: State) -> int | None:
    return None if state.seat < 0 else state.seat


# --- board helpers -----------------------------------------------------------------


# _CODES[kind]: the codes a card of that kind may have, lowest first (a back
# is Summer, Autumn or Winter: R1).
_CODES = tuple(tuple(back * 24 + kind for back in (SU, AU, WI)) for kind in range(24))


def corner_of(board: tuple[tuple[int, int, int], ...], season: int) -> int:
    for i in range(4):
        if board[i][0] == season:
            return i
    return -1


def free_sides(board: tuple[tuple[int, int, int], ...]) -> tuple[int, ...]:
    """The sides (0 left, 1 right) with an empty corner."""
    left = board[0][0] < 0 or board[2][0] < 0
    if board[1][0] < 0 or board[3][0] < 0:
        return (0, 1) if left else (1,)
    return (0,) if left else ()


def _cost(index: int, mask: int, wild: int, bit: int) -> int:
    """Play cards: 1 for a new highest card of an ascending (right) corner or a new
    lowest of a descending (left) one, 2 otherwise; the wild counts as its value.
    (An empty corner is handled by the caller: it always costs 1.)"""
    after = mask | wild | bit
    if index & 1:
        return 1 if after < bit << 1 else 2
    return 1 if after & (bit - 1) == 0 else 2


# _COST[side][mask | wild][value - 1]: _cost by table, for the legal-move lists.
_COST = tuple(
    tuple(tuple(_cost(side, held, 0, 1 << v) for v in range(6)) for held in range(64))
    for side in (0, 1)
)


def _complete(board: tuple[tuple[int, int, int], ...]) -> bool:
    """All four Season sets: every corner holds 1-6, a wild counting as its value."""
    for season, mask, wild in board:  # noqa: SIM110 (a loop: faster than all() here)
        if season < 0 or mask | wild != FULL:
            return False
    return True


def _wild_targets(board: tuple[tuple[int, int, int], ...], anywhere: bool) -> list[Move]:
    """Where a wild may go, as moves in card order (Take 1 wild card): a missing
    value of a season on the board whose corner has no wild yet; with
    ``anywhere`` (wild=any) also any value of a season not on the board while a
    corner is free, the side said when both sides have a free corner (R8)."""
    where, free, _ = _layout(board)
    out: list[Move] = []
    for season in range(4):
        i = where[season]
        if i >= 0:
            _, mask, wild = board[i]
            if not wild:
                out += [_PLACE[season * 6 + v] for v in _VALUES[FULL & ~mask]]
        elif anywhere and free:
            for k in range(season * 6, season * 6 + 6):
                if free == 2:
                    out += _SIDED_PLACE[k]
                else:
                    out.append(_PLACE[k])
    return out


def _any_wild_target(board: tuple[tuple[int, int, int], ...], anywhere: bool) -> bool:
    """Whether ``_wild_targets(board, anywhere)`` is not empty."""
    for season, mask, wild in board:
        if season < 0:
            if anywhere:
                return True  # a free corner: a season not on the board (R8)
        elif not wild and mask != FULL:
            return True
    return False


def _matching(board: tuple[tuple[int, int, int], ...], hand: tuple[int, ...]) -> list[int]:
    """The cards of ``hand`` whose season and value are a real card of the board."""
    present = _layout(board)[2]
    return [c for c in hand if present >> c % 24 & 1]


@lru_cache(maxsize=4096)
def _kinds(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The kinds of the cards of ``hand``, each once, in order. Cached: a hand
    is asked for in several decisions of a turn, and the cache's lookup costs a
    sixth of the sort."""
    return tuple(sorted({c % 24 for c in hand}))


@lru_cache(maxsize=4096)
def _layout(board: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, ...], int, int]:
    """Per season its corner (-1: none); the number of sides (0-2) with a free
    corner; the kinds of the board's real cards (bit ``kind``). Cached: a board
    changes only when a card or a wild goes on it."""
    where = [-1, -1, -1, -1]
    present = 0
    for i in range(4):
        season, mask, _ = board[i]
        if season >= 0:
            where[season] = i
            present |= mask << season * 6
    free = (board[0][0] < 0 or board[2][0] < 0) + (board[1][0] < 0 or board[3][0] < 0)
    return tuple(where), free, present


def _set(seq: tuple, i: int, value) -> tuple:
    out = list(seq)
    out[i] = value
    return tuple(out)


def _limit(state: State) -> int:
    if state.animals[OTTER] == state.seat or state.otter:
        return OTTER_LIMIT
    return HAND_LIMIT


# --- errors ----------------------------------------------------------------------------


def _illegal(reason: str, clause: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"{TITLE}: {clause}")


# What each phase waits for, in words (used when another move is tried).
_EXPECTED = {
    "act": "choose an action: draw (D1, D2), take face up (Ta-Td), take a wild (W) "
           "or play (P and a card)",
    "draw": "draw another face-down card (D1 or D2)",
    "draw+": "draw a third face-down card (D1 or D2) or end the action (E)",
    "take+": "take a second face-up card (Ta-Td) or end the action (E)",
    "rebuild": "rebuild column {col} from a draw pile (R1 or R2)",
    "wild": "discard {owe} more card(s) matching your board for the wild (X and a card)",
    "wild-place": "place the wild on a missing value (W and a card, e.g. WSu4)",
    "play": "play another card (P and a card) or end the action (E)",
    "pay": "pay {owe} more card(s) for the card played (X and a card)",
    "move-wild": "move the replaced wild to another missing value (W and a card)",
    "limit": "discard down to {limit} cards (X and a card)",
    "bonus": "place the bonus wild on a missing value (W and a card)",
    "over": "nothing: the game is over",  # only fast.py gets this far
}


def _expected(state: State) -> str:
    key = state.phase
    if key == "draw" and state.count == 2:
        key = "draw+"
    if key == "take":
        key = "take+"
    return _EXPECTED[key].format(
        col=SOURCES[state.column] if state.column >= 0 else "?",
        owe=state.owe,
        limit=_limit(state),
    )


def _out_of_phase(state: State, clause: str = C_ACTIONS) -> IllegalMoveError:
    return _illegal(f"not now: {_expected(state)}", clause)


# --- the turn's flow ---------------------------------------------------------------
#
# The flow functions take a state with a move's changes made and write the
# fields of the turn (seat, phase, actions, ...) in one structs.replace. In the
# common cases (no end in sight) _next_step says what they would write, so a
# handler ending an action makes its changes and the turn's in a single replace.
#
# Each replace writes only what may have changed: ``column`` is -1 outside the
# phase rebuild, ``owe`` 0 outside wild and pay, ``displaced`` False outside
# pay and move-wild (each of those phases resets its own field before the
# action can end), and ``power`` and ``count`` are False and 0 in the phases
# act, limit and bonus. tests/test_fifteen_days_fast.py checks these
# invariants in every position of its random games.


def _over(state: State, how: str, **changes) -> State:
    return _replace(state, seat=-1, phase="over", ended=how, power=False, count=0,
                    column=-1, owe=0, displaced=False, **changes)


def _next_step(state: State, hand: tuple[int, ...], board, piles, trigger: int) -> tuple | None:
    """What _finish_action would write once the action under way is over, in the
    common cases: ``(seat, phase, actions, feathers_used, otter)``, the move
    leaving the player with ``hand``, ``board``, draw ``piles`` and the end's
    ``trigger``; ``None`` when _finish_action must work it out (the end is near
    or here). The other fields of the turn go back to their defaults."""
    if trigger >= 0 or not (piles[0] or piles[1]):
        return None  # the last round, or no pile to draw from: see _finish_action
    if board[0][1] | board[0][2] == FULL and _complete(board):
        return None  # the game ends
    seat = state.seat
    if state.actions == 0:
        return seat, "act", 1, state.feathers_used, state.otter
    if len(hand) > (OTTER_LIMIT if state.otter or state.animals[OTTER] == seat else HAND_LIMIT):
        return seat, "limit", 2, state.feathers_used, state.otter
    return (seat + 1) % len(state.players), "act", 0, 0, False  # as _next_turn


def _finish_action(state: State) -> State:
    """The action under way is over: the end by a completed board, the next
    action, or the end of the turn."""
    seat = state.seat
    step = _next_step(state, state.hands[seat], state.boards[seat], state.piles, state.trigger)
    if step is not None:
        seat, phase, actions, used, otter = step
        return _replace(state, phase=phase, power=False, count=0, seat=seat, actions=actions,
                        feathers_used=used, otter=otter)
    board = state.boards[seat]
    if board[0][1] | board[0][2] == FULL and _complete(board):
        # End game: a player completing all four sets ends the game at the end
        # of that action.
        return _over(state, "sets")
    actions = state.actions + 1
    if actions < 2 and (state.piles[0] or state.piles[1]
                        or _can_act(state, seat, state.feathers_used)):
        return _replace(state, phase="act", power=False, count=0, actions=actions)
    # A player with no action left to take loses it (only possible once both
    # draw piles are empty).
    return _end_of_turn(state, actions)


def _end_of_turn(state: State, actions: int) -> State:
    """End of turn: discard down to the hand limit, then the bonus wild if this
    turn emptied a draw pile, then the next player. ``actions``: the actions
    taken, for the state's record."""
    seat = state.seat
    limit = OTTER_LIMIT if state.otter or state.animals[OTTER] == seat else HAND_LIMIT
    if len(state.hands[seat]) > limit:
        return _replace(state, phase="limit", power=False, count=0, actions=actions)
    return _after_limit(state, actions)


def _after_limit(state: State, actions: int) -> State:
    seat = state.seat
    if (state.trigger == seat and state.turns_left < 0 and state.wild_supply
            and _any_wild_target(state.boards[seat], state.wild_rule == "any")):
        return _replace(state, phase="bonus", power=False, count=0, actions=actions)
    return _next_turn(state, actions)


def _next_turn(state: State, actions: int) -> State:
    n = len(state.players)
    left = state.turns_left
    if state.trigger >= 0:
        # End game: once a pile is emptied the active player finishes the turn,
        # then every other player takes one last turn.
        left = n - 1 if left < 0 else left - 1
        if left == 0:
            return _over(state, "pile", actions=actions)
    seat = (state.seat + 1) % n
    acts = bool(state.piles[0] or state.piles[1] or _can_act(state, seat, 0))
    state = _replace(state, phase="act", power=False, count=0, seat=seat,
                     actions=0 if acts else 2, feathers_used=0, otter=False, turns_left=left)
    if acts:
        return state
    return _end_of_turn(state, 2)


# --- legal moves -------------------------------------------------------------------------

# Every move, made once: the legal-move lists hand out these.
_DRAW = tuple(Move("D", arg=p) for p in (0, 1))
_FDRAW = tuple(Move("D", arg=p, feather=True) for p in (0, 1))
_TAKE = tuple(Move("T", arg=s) for s in range(4))
_FTAKE = tuple(Move("T", arg=s, feather=True) for s in range(4))
_REBUILD = tuple(Move("R", arg=p) for p in (0, 1))
_PLAY = tuple(tuple(Move("P", card=k, side=s) for s in (-1, 0, 1)) for k in range(24))
_FPLAY = tuple(tuple(Move("P", card=k, side=s, feather=True) for s in (-1, 0, 1))
               for k in range(24))
_DISCARD = tuple(Move("X", card=k) for k in range(24))
_PLACE = tuple(Move("W", card=k) for k in range(24))
_SIDED_PLACE = tuple((Move("W", card=k, side=0), Move("W", card=k, side=1)) for k in range(24))
_WILD, _END, _OTTER = Move("W"), Move("E"), Move("O")


def _feather_ok(state: State, animal: int) -> bool:
    return (
        state.feathers[state.seat] > 0
        and state.animals[animal] != state.seat
        and (state.feather_rule == "one-per-action" or state.feathers_used == 0)
    )


def _placements(state: State, discount: int, feather: bool = False) -> list[Move]:
    """Every card of the hand that can be played now, with its side where the
    side must be said (a new season, with a free corner on both sides)."""
    seat = state.seat
    hand = state.hands[seat]
    board = state.boards[seat]
    others = len(hand) - 1
    where, free, _ = _layout(board)
    table = _FPLAY if feather else _PLAY
    out = []
    for kind in _kinds(hand):
        i = where[kind // 6]
        if i >= 0:
            _, mask, wild = board[i]
            v = kind % 6
            if not mask >> v & 1 and others >= _COST[i & 1][mask | wild][v] - discount:
                out.append(table[kind][0])
        elif others >= 1 - discount:
            if free == 2:
                out += table[kind][1:]
            elif free:
                out.append(table[kind][0])
    return out


def _playable(hand: tuple[int, ...], board: tuple[tuple[int, int, int], ...],
              discount: int) -> bool:
    """Whether ``_placements`` would list a card (without building the list)."""
    others = len(hand) - 1
    if others < 1 - discount:
        return False  # not even a card on an empty corner
    where, free, _ = _layout(board)
    for c in hand:
        kind = c % 24
        i = where[kind // 6]
        if i < 0:
            if free:
                return True
            continue
        _, mask, wild = board[i]
        v = kind % 6
        if not mask >> v & 1 and others >= _COST[i & 1][mask | wild][v] - discount:
            return True
    return False


def _wild_possible(state: State) -> bool:
    board = state.boards[state.seat]
    return (
        state.wild_supply > 0
        and len(_matching(board, state.hands[state.seat])) >= 2
        and _any_wild_target(board, state.wild_rule == "any")
    )


def _can_act(state: State, seat: int, feathers_used: int) -> bool:
    """Whether ``seat`` could begin an action (with ``feathers_used`` spent this
    turn): whether ``_action_moves`` would list a move, stopping at the first."""
    if state.piles[0] or state.piles[1] or state.discard:
        return True
    market = state.market
    if market[0] or market[1] or market[2]:
        return True
    hand, board = state.hands[seat], state.boards[seat]
    if (state.wild_supply > 0 and _any_wild_target(board, state.wild_rule == "any")
            and len(_matching(board, hand)) >= 2):
        return True
    frog = state.animals[FROG] == seat
    if _playable(hand, board, 1 if frog else 0):
        return True
    feather = (
        not frog
        and state.feathers[seat] > 0
        and (state.feather_rule == "one-per-action" or feathers_used == 0)
    )
    return feather and _playable(hand, board, 1)


# The draws and takes there are, by which piles (bit p: pile p + 1) and which
# sources (bits 0-2 the columns, bit 3 the discard pile) hold cards.
_DRAWS = tuple(tuple(_DRAW[p] for p in (0, 1) if k >> p & 1) for k in range(4))
_FDRAWS = tuple(tuple(_FDRAW[p] for p in (0, 1) if k >> p & 1) for k in range(4))
_TAKES = tuple(tuple(_TAKE[s] for s in range(4) if k >> s & 1) for k in range(16))
_FTAKES = tuple(tuple(_FTAKE[s] for s in range(4) if k >> s & 1) for k in range(16))
_REBUILDS = tuple(tuple(_REBUILD[p] for p in (0, 1) if k >> p & 1) for k in range(4))


def _action_moves(state: State) -> list[Move]:
    """The moves that begin an action."""
    piles, market = state.piles, state.market
    drawn = (1 if piles[0] else 0) | (2 if piles[1] else 0)
    taken = ((1 if market[0] else 0) | (2 if market[1] else 0) | (4 if market[2] else 0)
             | (8 if state.discard else 0))
    out = list(_DRAWS[drawn])
    if drawn and _feather_ok(state, SQUIRREL):
        out += _FDRAWS[drawn]
    out += _TAKES[taken]
    if taken and _feather_ok(state, RABBIT):
        out += _FTAKES[taken]
    if _wild_possible(state):
        out.append(_WILD)
    power = state.animals[FROG] == state.seat
    out += _placements(state, 1 if power else 0)
    if not power and _feather_ok(state, FROG):
        out += _placements(state, 1, feather=True)
    return out


def legal_moves(state: State) -> tuple[Move, ...]:
    """The moves of the decision due, in the order of the notation document."""
    phase = state.phase
    seat = state.seat
    if phase == "act":
        return tuple(_action_moves(state))
    if phase == "draw" or phase == "rebuild":
        piles = state.piles
        drawn = (1 if piles[0] else 0) | (2 if piles[1] else 0)
        if phase == "rebuild":
            return _REBUILDS[drawn]
        return _DRAWS[drawn] + (_END,) if state.count == 2 else _DRAWS[drawn]
    if phase == "take":
        market = state.market
        taken = ((1 if market[0] else 0) | (2 if market[1] else 0) | (4 if market[2] else 0)
                 | (8 if state.discard else 0))
        return _TAKES[taken] + (_END,)
    if phase == "wild":
        matching = tuple(_matching(state.boards[seat], state.hands[seat]))
        return tuple(_DISCARD[k] for k in _kinds(matching))
    if phase in ("wild-place", "move-wild", "bonus"):
        return tuple(_wild_targets(state.boards[seat], state.wild_rule == "any"))
    if phase == "play":
        return tuple(_placements(state, 0) + [_END])
    if phase == "pay":
        return tuple(_DISCARD[k] for k in _kinds(state.hands[seat]))
    if phase == "limit":
        moves = [_DISCARD[k] for k in _kinds(state.hands[seat])]
        if not state.otter and _feather_ok(state, OTTER):
            moves.append(_OTTER)
        return tuple(moves)
    return ()


# --- applying moves ------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    if state.seat < 0:
        raise _illegal("the game is over", C_END)
    handler = HANDLERS.get(move.op)
    if handler is None:  # not a Move of this game
        raise NotationError(f"not a move of {TITLE}")
    if move.feather and move.op not in "DTP":
        raise NotationError("a feather is written F before D, T or P, or FO for the Otter")
    return handler(state, move)


def _check_feather(state: State, move: Move, animal: int) -> bool:
    """Whether the action begun by ``move`` has its animal's power; spends nothing."""
    seat = state.seat
    owned = state.animals[animal] == seat
    if not move.feather:
        return owned
    if owned:
        raise _illegal(f"you hold the {ANIMALS[animal]}: its power needs no feather", C_FEATHERS)
    if state.feathers[seat] == 0:
        raise _illegal("you have no Feather token", C_FEATHERS)
    if state.feather_rule == "one-per-turn" and state.feathers_used:
        raise _illegal("you have spent a Feather token this turn already "
                       "(one per turn: parameter feathers)", C_FEATHERS)
    return True


def _spend_feather(state: State) -> State:
    """``state`` with a feather spent: back to the supply."""
    seat = state.seat
    return _replace(
        state,
        feathers=_set(state.feathers, seat, state.feathers[seat] - 1),
        feather_supply=state.feather_supply + 1,
        feathers_used=state.feathers_used + 1,
    )


def _enter(state: State, move: Move, phase: str, animal: int, clause: str) -> tuple[bool, bool]:
    """Whether ``move`` begins an action of ``phase`` (``fresh``) or goes on with the
    one under way, and whether the power of ``animal`` (or a feather) applies."""
    if state.phase == "act":
        return _check_feather(state, move, animal), True
    if state.phase == phase:
        if move.feather:
            raise _illegal("a feather is spent before an action, not during it", C_FEATHERS)
        return state.power, False
    raise _out_of_phase(state, clause)


# The handlers below are the validation hot path (see fast.py): each makes
# its changes with one structs.replace given keywords (a dict of changes passed
# with ** costs three times as much), the turn's fields included when the move
# ends an action and _next_step can say them; tuples are rebuilt through lists
# and hands kept sorted with insort, the cheapest ways in CPython.


def _apply_draw(state: State, move: Move) -> State:
    seat = state.seat
    phase = state.phase
    if phase == "draw" and not move.feather:
        power, count = state.power, state.count + 1
    elif phase == "act" and not move.feather:
        power, count = state.animals[SQUIRREL] == seat, 1
    else:
        power, fresh = _enter(state, move, "draw", SQUIRREL, C_DRAW)
        count = 1 if fresh else state.count + 1
    arg = move.arg
    piles = state.piles
    pile = piles[arg]
    if not pile:
        raise _illegal(f"draw pile {arg + 1} is empty", C_DRAW)
    if move.feather:
        state = _spend_feather(state)
    piles = (pile[:-1], piles[1]) if arg == 0 else (piles[0], pile[:-1])
    trigger = state.trigger
    if trigger < 0 and not (piles[0] and piles[1]):
        trigger = seat  # this turn emptied a pile
    held = list(state.hands[seat])
    insort(held, pile[-1])
    hand = tuple(held)
    by_seat = list(state.hands)
    by_seat[seat] = hand
    hands = tuple(by_seat)
    # Two cards, or three with the Squirrel (the third is optional); fewer only
    # if both piles run out.
    if (piles[0] or piles[1]) and (count < 2 or (count == 2 and power)):
        return _replace(state, piles=piles, hands=hands, trigger=trigger, phase="draw",
                        power=power, count=count)
    step = _next_step(state, hand, state.boards[seat], piles, trigger)
    if step is None:
        return _finish_action(_replace(state, piles=piles, hands=hands, trigger=trigger,
                                       phase="draw", power=power, count=count))
    seat, phase, actions, used, otter = step  # (and no end in sight: trigger is still -1)
    return _replace(state, phase=phase, hands=hands, power=False, count=0, seat=seat,
                    actions=actions, feathers_used=used, otter=otter, piles=piles)


def _apply_take(state: State, move: Move) -> State:
    if state.phase == "act" and not move.feather:
        power, count = state.animals[RABBIT] == state.seat, 1
    else:
        power, fresh = _enter(state, move, "take", RABBIT, C_TAKE)
        count = 1 if fresh else state.count + 1
    src = move.arg
    market, discard = state.market, state.discard
    if src == 3:
        if not discard:
            raise _illegal("the discard pile is empty", C_TAKE)
        card = discard[-1]
        discard = discard[:-1]
    else:
        column = market[src]
        if not column:
            raise _illegal(f"market column {SOURCES[src]} is empty", C_TAKE)
        card = column[-1]
        columns = list(market)
        columns[src] = column[:-1]
        market = tuple(columns)
    if move.feather:
        state = _spend_feather(state)
    seat = state.seat
    held = list(state.hands[seat])
    insort(held, card)
    hand = tuple(held)
    by_seat = list(state.hands)
    by_seat[seat] = hand
    hands = tuple(by_seat)
    piles = state.piles
    if src < 3 and not market[src] and (piles[0] or piles[1]):
        # The taker of a column's last card rebuilds it, pile by pile.
        return _replace(state, hands=hands, market=market, phase="rebuild", power=power,
                        count=count, column=src)
    # The Rabbit's optional second card.
    if (power and count == 1 and (market[0] or market[1] or market[2] or discard)) or (
            step := _next_step(state, hand, state.boards[seat], piles, state.trigger)) is None:
        state = _replace(state, hands=hands, market=market, discard=discard, phase="take",
                         power=power, count=count, column=-1)
        return _after_take(state, power, count, market, discard)
    seat, phase, actions, used, otter = step
    return _replace(state, phase=phase, hands=hands, power=False, count=0, seat=seat,
                    actions=actions, feathers_used=used, otter=otter, discard=discard,
                    market=market)


def _after_take(state: State, power: bool, count: int,
                market: tuple[tuple[int, ...], ...], discard: tuple[int, ...]) -> State:
    """After a face-up card (and any rebuild): the Rabbit's optional second card."""
    if power and count == 1 and (market[0] or market[1] or market[2] or discard):
        return state
    return _finish_action(state)


def _apply_rebuild(state: State, move: Move) -> State:
    if state.phase != "rebuild" or move.feather:
        raise _out_of_phase(state, C_TAKE)
    pile = state.piles[move.arg]
    if not pile:
        raise _illegal(f"draw pile {move.arg + 1} is empty", C_TAKE)
    col = state.column
    piles = (pile[:-1], state.piles[1]) if move.arg == 0 else (state.piles[0], pile[:-1])
    column = state.market[col] + (pile[-1],)
    columns = list(state.market)
    columns[col] = column
    market = tuple(columns)
    trigger = state.trigger
    if trigger < 0 and not (piles[0] and piles[1]):
        trigger = state.seat  # this turn emptied a pile
    if len(column) < MARKET_DEPTH and (piles[0] or piles[1]):
        return _replace(state, piles=piles, market=market, trigger=trigger)
    seat = state.seat
    if not (state.power and state.count == 1) and (step := _next_step(
            state, state.hands[seat], state.boards[seat], piles, trigger)) is not None:
        seat, phase, actions, used, otter = step  # (trigger: still -1)
        return _replace(state, phase=phase, power=False, count=0, seat=seat, actions=actions,
                        feathers_used=used, otter=otter, column=-1, piles=piles,
                        market=market)
    state = _replace(state, piles=piles, market=market, trigger=trigger, phase="take",
                     column=-1)
    return _after_take(state, state.power, state.count, market, state.discard)


def _apply_wild(state: State, move: Move) -> State:
    seat = state.seat
    board = state.boards[seat]
    if move.card < 0:
        # Take 1 wild card: begin the action.
        if state.phase != "act":
            if state.phase in ("wild-place", "move-wild", "bonus"):
                raise _illegal("say where the wild goes: W and a missing card, e.g. WSu4", C_WILD)
            raise _out_of_phase(state, C_WILD)
        if not state.wild_supply:
            raise _illegal("no wild card is left in the supply", C_WILD)
        matching = len(_matching(board, state.hands[seat]))
        if matching < 2:
            raise _illegal(
                f"you hold {matching} card{'s' * (matching != 1)} matching a card of your "
                "board; the wild costs two", C_WILD)
        if not _any_wild_target(board, state.wild_rule == "any"):
            raise _illegal("no season on your board has a missing value without a wild", C_WILD)
        return _replace(state, phase="wild", owe=2)
    # Place a wild as ``move.card``.
    phase = state.phase
    if phase not in ("wild-place", "move-wild", "bonus"):
        if phase == "act":
            raise _illegal("take the wild first: W, then discard two cards matching your board",
                           C_WILD)
        raise _out_of_phase(state, C_WILD)
    season, bit = move.card // 6, 1 << move.card % 6
    i = corner_of(board, season)
    name = CARDS[move.card]
    if i < 0:
        if state.wild_rule != "any":
            raise _illegal(f"no {SEASON_NAMES[season]} on your board: a wild replaces a missing "
                           "value of a season you have", C_WILD)
        # wild=any: the wild opens a corner for its season, as a first card would
        # (R8, R9). Four corners hold four seasons, so a season not on the
        # board always has a free corner.
        free = free_sides(board)
        side = move.side
        if side < 0:
            if len(free) == 2:
                raise AmbiguousMoveError(
                    f"{SEASON_NAMES[season]} is new to your board: say the side of the "
                    f"wild, left (descending) or right (ascending): W{name}L or W{name}R",
                    f"{TITLE}: {C_WILD}",
                    (f"W{name}L", f"W{name}R"),
                )
            side = free[0]
        elif side not in free:
            raise _illegal(f"both {'left' if side == 0 else 'right'} corners hold a season "
                           "already", C_WILD)
        i = side if board[side][0] < 0 else side + 2  # the top corner first
        mask = 0
    else:
        _, mask, wild = board[i]
        if move.side >= 0 and move.side != i & 1:
            raise _illegal(f"your {SEASON_NAMES[season]} is in the {CORNERS[i]} corner: its "
                           "wild goes there", C_WILD)
        if wild:
            raise _illegal(f"your {SEASON_NAMES[season]} already has a wild: at most one per "
                           "season", C_WILD)
        if mask & bit:
            raise _illegal(f"your board already holds {name}: a wild replaces a missing value",
                           C_WILD)
    board = _set(board, i, (season, mask, bit))
    boards = _set(state.boards, seat, board)
    if phase == "move-wild":
        if _complete(board):
            return _finish_action(_replace(state, boards=boards, displaced=False))
        return _replace(state, boards=boards, displaced=False, phase="play")
    wilds = state.wild_supply - 1
    if phase == "bonus":
        if _complete(board):
            return _over(state, "sets", boards=boards, wild_supply=wilds)
        return _next_turn(_replace(state, boards=boards, wild_supply=wilds), state.actions)
    return _finish_action(_replace(state, boards=boards, wild_supply=wilds))


def _apply_play(state: State, move: Move) -> State:
    seat = state.seat
    phase = state.phase
    if phase == "play" and not move.feather:
        power, discount = state.power, 0
    elif phase == "act" and not move.feather:
        power = state.animals[FROG] == seat
        discount = 1 if power else 0  # Frog: 1 off the action, taken on its first card
    else:
        power, fresh = _enter(state, move, "play", FROG, C_PLAY)
        discount = 1 if fresh and power else 0
    kind = move.card
    hand = state.hands[seat]
    # The first card of the kind: the lowest code (the backs of cards out of the
    # piles are never shown and change nothing).
    for card in _CODES[kind]:
        if card in hand:
            break
    else:
        raise _illegal(f"you hold no {CARDS[kind]}", C_PLAY)
    board = state.boards[seat]
    season, bit = kind // 6, 1 << kind % 6
    if board[0][0] == season:
        i = 0
    elif board[1][0] == season:
        i = 1
    elif board[2][0] == season:
        i = 2
    else:
        i = 3 if board[3][0] == season else -1
    if i >= 0:
        _, mask, wild = board[i]
        if mask & bit:
            raise _illegal(f"your {SEASON_NAMES[season]} already holds a {kind % 6 + 1}: a "
                           "season cannot hold two cards of one value", C_PLAY)
        if move.side >= 0 and move.side != i & 1:
            raise _illegal(f"your {SEASON_NAMES[season]} is in the {CORNERS[i]} corner: all its "
                           "cards go there", C_PLAY)
        cost = _COST[i & 1][mask | wild][kind % 6]
        displaced = wild == bit
        corner = (season, mask | bit, 0 if displaced else wild)
    else:
        free = free_sides(board)
        side = move.side
        name = CARDS[kind]
        if side < 0:
            if len(free) == 2:
                raise AmbiguousMoveError(
                    f"{SEASON_NAMES[season]} is new to your board: say the side, left "
                    f"(descending) or right (ascending): P{name}L or P{name}R",
                    f"{TITLE}: {C_PLAY}",
                    (f"{'F' * move.feather}P{name}L", f"{'F' * move.feather}P{name}R"),
                )
            side = free[0]
        elif side not in free:
            raise _illegal(f"both {'left' if side == 0 else 'right'} corners hold a season "
                           "already", C_PLAY)
        i = side if board[side][0] < 0 else side + 2  # the top corner first
        cost, displaced, corner = 1, False, (season, bit, 0)
    if discount:
        cost -= 1  # every cost is 1 or 2
    others = len(hand) - 1
    if others < cost:
        name = CARDS[kind]
        raise _illegal(f"playing {name} costs {cost} card{'s' * (cost != 1)} and you hold "
                       f"{others} other{'s' * (others != 1)}", C_PLAY)
    if move.feather:
        # Spent before the card is played: a player losing a token to this card
        # may take that feather from the supply.
        state = _spend_feather(state)
    held = list(hand)
    held.remove(card)
    by_seat = list(state.hands)
    by_seat[seat] = tuple(held)
    hands = tuple(by_seat)
    corners = list(board)
    corners[i] = corner
    board = tuple(corners)
    by_board = list(state.boards)
    by_board[seat] = board
    boards = tuple(by_board)
    animals = state.animals
    holder = animals[season]
    if holder != seat and (holder >= 0 or POPCOUNT[corner[1]] >= 3):  # see _award
        animals, feathers, supply = _award(animals, state.feathers, state.feather_supply,
                                           boards, seat, season, POPCOUNT[corner[1]])
        if cost:
            return _replace(state, hands=tuple(hands), boards=boards, animals=animals,
                            feathers=feathers, feather_supply=supply, phase="pay",
                            power=power, owe=cost, displaced=displaced)
        state = _replace(state, animals=animals, feathers=feathers, feather_supply=supply)
    elif cost:
        return _replace(state, hands=tuple(hands), boards=boards, phase="pay", power=power,
                        owe=cost, displaced=displaced)
    phase, displaced, wilds, done = _paid(board, displaced, state.wild_supply,
                                          state.wild_rule == "any")
    state = _replace(state, hands=tuple(hands), boards=boards, phase=phase, power=power,
                     owe=0, displaced=displaced, wild_supply=wilds)
    return _finish_action(state) if done else state


def _award(animals: tuple[int, ...], feathers: tuple[int, ...], supply: int, boards,
           seat: int, season: int, mine: int) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Animal Tokens: the player with 3 cards of a season takes its token from the
    supply; later, whoever has as many of that season's cards as the holder, or
    more, takes it from them, and the holder takes a feather if one is left.
    Only real cards count, not wilds: ``mine`` is the player's count now."""
    holder = animals[season]
    if holder == seat:
        return animals, feathers, supply
    if holder < 0:
        if mine >= 3:
            animals = _set(animals, season, seat)
        return animals, feathers, supply
    if mine >= _season_count(boards[holder], season):
        animals = _set(animals, season, seat)
        if supply:
            feathers = _set(feathers, holder, feathers[holder] + 1)
            supply -= 1
    return animals, feathers, supply


def _season_count(board, season: int) -> int:
    i = corner_of(board, season)
    return POPCOUNT[board[i][1]] if i >= 0 else 0


def _paid(board, displaced: bool, wild_supply: int,
          anywhere: bool) -> tuple[str, bool, int, bool]:
    """After a card is played and paid for, leaving ``board``: the phase, whether a
    wild still has to move, the wild supply, and whether the action is over.

    Play cards: the wild replaced by its real card moves to another missing
    value; with none anywhere it goes back to the supply. A complete board ends
    the action (nothing is left to play: the game ends)."""
    if displaced:
        if _any_wild_target(board, anywhere):
            return "move-wild", True, wild_supply, False
        displaced, wild_supply = False, wild_supply + 1
    return "play", displaced, wild_supply, _complete(board)


def _apply_discard(state: State, move: Move) -> State:
    phase = state.phase
    clause = _DISCARD_CLAUSES.get(phase)
    if clause is None:
        raise _out_of_phase(state, C_ACTIONS)
    seat = state.seat
    kind = move.card
    hand = state.hands[seat]
    for card in _CODES[kind]:  # the first card of the kind, as in _apply_play
        if card in hand:
            break
    else:
        raise _illegal(f"you hold no {CARDS[kind]}", clause)
    if phase == "wild" and not _matching(state.boards[seat], (kind,)):
        raise _illegal(f"{CARDS[kind]} is not on your board: the wild costs two cards that are",
                       C_WILD)
    held = list(hand)
    held.remove(card)
    hand = tuple(held)
    by_seat = list(state.hands)
    by_seat[seat] = hand
    hands = tuple(by_seat)
    discard = state.discard + (card,)
    if phase == "limit":
        if len(hand) > (OTTER_LIMIT if state.otter or state.animals[OTTER] == seat
                        else HAND_LIMIT):
            return _replace(state, hands=hands, discard=discard)
        piles = state.piles
        if state.trigger < 0 and (piles[0] or piles[1]):
            # The next player's turn (as _after_limit and _next_turn would say).
            return _replace(state, phase="act", hands=hands, seat=(seat + 1) % len(state.players),
                            actions=0, feathers_used=0, otter=False, discard=discard)
        return _after_limit(_replace(state, hands=hands, discard=discard), state.actions)
    owe = state.owe - 1
    if owe:
        return _replace(state, hands=hands, discard=discard, owe=owe)
    if phase == "wild":
        return _replace(state, hands=hands, discard=discard, owe=0, phase="wild-place")
    board = state.boards[seat]
    if not state.displaced:
        state = _replace(state, hands=hands, discard=discard, owe=0, phase="play")
        if board[0][1] | board[0][2] == FULL and _complete(board):
            return _finish_action(state)  # nothing is left to play: the game ends
        return state
    phase, displaced, wilds, done = _paid(board, True, state.wild_supply,
                                          state.wild_rule == "any")
    state = _replace(state, hands=hands, discard=discard, owe=0, phase=phase,
                     displaced=displaced, wild_supply=wilds)
    return _finish_action(state) if done else state


_DISCARD_CLAUSES = {"wild": C_WILD, "pay": C_PLAY, "limit": C_LIMIT}


def _apply_end(state: State, move: Move) -> State:
    phase = state.phase
    if phase == "play" or phase == "take" or (phase == "draw" and state.count == 2):
        return _finish_action(state)
    if phase == "draw":
        raise _illegal("draw two cards: the action takes two (three with the Squirrel)", C_DRAW)
    raise _out_of_phase(state, C_ACTIONS)


def _apply_otter(state: State, move: Move) -> State:
    if state.phase != "limit":
        raise _illegal("a feather is spent on the Otter at the hand limit, at the end of the "
                       "turn", C_FEATHERS)
    if state.otter:
        raise _illegal("you have spent a feather on the Otter this turn already", C_FEATHERS)
    _check_feather(state, _OTTER_FEATHER, OTTER)
    state = _replace(_spend_feather(state), otter=True)
    if len(state.hands[state.seat]) > OTTER_LIMIT:
        return state
    return _after_limit(state, state.actions)


_OTTER_FEATHER = Move("O", feather=True)

#: The rule that applies each kind of move, by its letter (apply's checks
#: of whose turn it is and of the feather's place come first).
HANDLERS = {
    "D": _apply_draw,
    "T": _apply_take,
    "R": _apply_rebuild,
    "W": _apply_wild,
    "P": _apply_play,
    "X": _apply_discard,
    "E": _apply_end,
    "O": _apply_otter,
}


# --- scoring -------------------------------------------------------------------------------


class _Score(NamedTuple):
    total: int
    runs: tuple[int, ...]  # per corner
    animals: tuple[int, ...]
    empty: int
    hand: int
    wilds: int


def _score(state: State, seat: int) -> _Score:
    board = state.boards[seat]
    runs = tuple(RUN[mask | wild] if season >= 0 else 0 for season, mask, wild in board)
    animals = tuple(a for a in range(4) if state.animals[a] == seat)
    empty = sum(1 for c in board if c[0] < 0)
    total = sum(runs) + 2 * len(animals) - 2 * empty
    wilds = sum(1 for c in board if c[2])
    return _Score(total, runs, animals, empty, len(state.hands[seat]), wilds)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def standing(state: State) -> Outcome:
    n = len(state.players)
    scores = [_score(state, p) for p in range(n)]
    # The most points; tied: the most cards in hand; still tied: the most wild
    # cards played (on the board); still tied: a shared place.
    key = [(-s.total, -s.hand, -s.wilds) for s in scores]
    order = sorted(range(n), key=lambda p: (key[p], p))
    places: dict[int, int] = {}
    for i, p in enumerate(order):
        places[p] = places[order[i - 1]] if i and key[p] == key[order[i - 1]] else i + 1
    details = []
    if state.ended == "sets":
        details.append(f"the game ended when {state.players[_completer(state)]} completed all "
                       "four Season sets")
    elif state.ended == "pile":
        details.append(f"a draw pile was emptied on {state.players[state.trigger]}'s turn; "
                       "every other player then took one last turn")
    for p in order:
        s = scores[p]
        board = state.boards[p]
        runs = ", ".join(
            f"{SEASON_NAMES[c[0]]} {r}" for c, r in zip(board, s.runs) if c[0] >= 0
        )
        parts = [f"longest runs {runs}" if runs else "no season on the board"]
        if s.animals:
            parts.append(f"{_and([ANIMALS[a] for a in s.animals])} +{2 * len(s.animals)}")
        if s.empty:
            parts.append(f"{plural(s.empty, 'empty corner')} -{2 * s.empty}")
        details.append(
            f"{state.players[p]} {s.total}: {'; '.join(parts)} "
            f"({plural(s.hand, 'card')} in hand, {plural(s.wilds, 'wild')} on the board)"
        )
    for a, b in zip(order, order[1:]):
        sa, sb = scores[a], scores[b]
        if sa.total != sb.total:
            continue
        who = f"{state.players[a]} and {state.players[b]} both have {sa.total} points"
        if sa.hand != sb.hand:
            why = f"{state.players[a]} holds more cards in hand ({sa.hand} to {sb.hand})"
        elif sa.wilds != sb.wilds:
            why = (f"both hold {plural(sa.hand, 'card')}; {state.players[a]} played more wild "
                   f"cards ({sa.wilds} to {sb.wilds})")
        else:
            why = (f"both hold {plural(sa.hand, 'card')} and played "
                   f"{plural(sa.wilds, 'wild card')}: they share {_ordinal(places[a])} place")
        details.append(f"{who}: {why} ({TITLE}: {C_END})")
    standings = tuple(
        Standing(player=state.players[p], score=scores[p].total, place=places[p]) for p in order
    )
    winners = tuple(state.players[p] for p in order if places[p] == 1)
    return Outcome(standings=standings, winners=winners, details=tuple(details))


def _completer(state: State) -> int:
    for p, board in enumerate(state.boards):
        if _complete(board):
            return p
    return -1


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views and rendering ---------------------------------------------------------------------


class CornerView(msgspec.Struct, frozen=True, kw_only=True):
    corner: str  # "top-left"
    order: str  # "descending" (left) or "ascending" (right)
    season: str | None  # "Au", None while empty
    cards: tuple[str, ...]  # in the corner's order; a wild is written with a *: "Au3*"
    run: int  # the longest run, the points it scores
    complete: bool


class PlayerView(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    hand: tuple[str, ...] | None  # the viewer's own hand only
    hand_size: int
    feathers: int
    animals: tuple[str, ...]
    corners: tuple[CornerView, ...]
    wilds: int  # wild cards on the board
    score: int


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one player (or a spectator) sees: every board, the market, the
    discard pile, the piles' sizes and the backs of their top cards, the hand
    sizes, and only the viewer's own hand."""

    viewer: str | None
    to_move: str | None
    first: str
    turn: str  # the decision due, in words
    # The turn under way, as everybody saw it: the Feather tokens spent (with
    # feathers=one-per-turn, one is all) and whether one went on the Otter (the
    # hand limit is then 8). The defaults read view files written before them.
    feathers_used: int = 0
    otter: bool = False
    players: tuple[PlayerView, ...]
    market: tuple[tuple[str, ...], ...]  # columns a, b, c, bottom to top
    discard: tuple[str, ...]  # bottom to top
    piles: tuple[int, ...]  # cards left in piles 1 and 2
    pile_backs: tuple[str | None, ...]  # the back of each pile's top card
    wild_supply: int
    feather_supply: int
    animal_supply: tuple[str, ...]
    end: str | None  # the end trigger and the last round, in words


def _corner_view(index: int, corner: tuple[int, int, int]) -> CornerView:
    season, mask, wild = corner
    values = _VALUES[mask | wild]
    if not index & 1:
        values = values[::-1]
    cards = tuple(f"{SEASONS[season]}{v + 1}{'*' if wild >> v & 1 else ''}" for v in values)
    return CornerView(
        corner=CORNERS[index],
        order="ascending" if index & 1 else "descending",
        season=SEASONS[season] if season >= 0 else None,
        cards=cards,
        run=RUN[mask | wild] if season >= 0 else 0,
        complete=season >= 0 and mask | wild == FULL,
    )


def _describe_turn(state: State) -> str:
    if state.seat < 0:
        return "the game is over"
    who = state.players[state.seat]
    action = f"action {min(state.actions + 1, 2)} of 2"
    phase = state.phase
    text = {
        "act": f"{who}: choose {action}",
        "draw": f"{who}, {action}: drawing face down ({state.count} drawn"
                + (", may draw a third)" if state.count == 2 else ")"),
        "take": f"{who}, {action}: may take a second face-up card",
        "rebuild": f"{who}, {action}: rebuilding column {SOURCES[max(state.column, 0)]}",
        "wild": f"{who}, {action}: discarding {state.owe} more for a wild",
        "wild-place": f"{who}, {action}: placing the wild",
        "play": f"{who}, {action}: playing cards",
        "pay": f"{who}, {action}: paying {state.owe} more",
        "move-wild": f"{who}, {action}: moving the replaced wild",
        "limit": f"{who}: end of turn, discarding down to {_limit(state)} cards",
        "bonus": f"{who}: end of turn, placing the bonus wild",
    }[phase]
    if state.power and phase in ("draw", "take", "rebuild", "play", "pay", "move-wild"):
        text += " with its animal's power"
    return text


def _describe_end(state: State) -> str | None:
    if state.ended == "sets":
        return f"{state.players[_completer(state)]} completed all four Season sets"
    if state.trigger < 0:
        return None
    who = state.players[state.trigger]
    if state.seat < 0:
        return f"a draw pile was emptied on {who}'s turn and the last round is over"
    if state.turns_left < 0:
        return f"a draw pile is empty: {who} finishes this turn and takes the bonus wild"
    return (f"a draw pile was emptied on {who}'s turn: last round, "
            f"{plural(state.turns_left, 'turn')} left")


def view(state: State, seat: int | None) -> View:
    n = len(state.players)
    players = []
    for p in range(n):
        s = _score(state, p)
        hand = state.hands[p]
        players.append(PlayerView(
            name=state.players[p],
            hand=tuple(CARDS[k] for k in sorted(c % 24 for c in hand)) if p == seat else None,
            hand_size=len(hand),
            feathers=state.feathers[p],
            animals=tuple(ANIMALS[a] for a in s.animals),
            corners=tuple(_corner_view(i, c) for i, c in enumerate(state.boards[p])),
            wilds=s.wilds,
            score=s.total,
        ))
    return View(
        viewer=None if seat is None else state.players[seat],
        to_move=None if state.seat < 0 else state.players[state.seat],
        first=state.players[state.first],
        turn=_describe_turn(state),
        # A game over has no turn under way (the last one's are left in the state).
        feathers_used=state.feathers_used if state.seat >= 0 else 0,
        otter=state.otter and state.seat >= 0,
        players=tuple(players),
        market=tuple(tuple(CARDS[c % 24] for c in col) for col in state.market),
        discard=tuple(CARDS[c % 24] for c in state.discard),
        piles=tuple(len(p) for p in state.piles),
        pile_backs=tuple(SEASONS[p[-1] // 24] if p else None for p in state.piles),
        wild_supply=state.wild_supply,
        feather_supply=state.feather_supply,
        animal_supply=tuple(ANIMALS[a] for a in range(4) if state.animals[a] < 0),
        end=_describe_end(state),
    )


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Everything ``seat`` cannot see shuffled together: the other hands, the draw
    piles and the cards set aside, keeping every size and the back of each
    pile's top card (which everybody sees)."""
    hidden_seats = [p for p in range(len(state.players)) if p != seat]
    pool = [c for p in hidden_seats for c in state.hands[p]]
    pool += [c for pile in state.piles for c in pile] + list(state.removed)
    pool = Chance(seed, "redeal").shuffle(pool)
    tops: list[int | None] = []
    for pile in state.piles:
        if pile:
            back = pile[-1] // 24
            k = next(i for i, c in enumerate(pool) if c // 24 == back)
            tops.append(pool.pop(k))
        else:
            tops.append(None)
    hands = list(state.hands)
    for p in hidden_seats:
        size = len(hands[p])
        hands[p] = tuple(sorted(pool[:size]))
        del pool[:size]
    piles: list[tuple[int, ...]] = []
    for pile, top in zip(state.piles, tops):
        if top is None:
            piles.append(())
            continue
        size = len(pile) - 1
        piles.append((*pool[:size], top))
        del pool[:size]
    return _replace(state, hands=tuple(hands), piles=tuple(piles), removed=tuple(pool))


# --- a state from a view ----------------------------------------------------------------------


class Turn(NamedTuple):
    """The decision due, as a view words it (``View.turn``, see _describe_turn)."""

    phase: str | None  # as State.phase; None: words no state of these rules has
    cards: int = 0  # cards drawn or taken so far in the action under way
    column: int = -1  # the column being rebuilt
    owe: int = 0  # cards still to discard
    limit: int = 0  # the hand limit being discarded down to
    actions: int = 0  # actions finished this turn
    power: bool = False  # the action under way has its animal's power


_POWER = " with its animal's power"
_INNER = (
    (re.compile(r"drawing face down \((\d+) drawn(?:, may draw a third)?\)"), "draw"),
    (re.compile(r"may take a second face-up card"), "take"),
    (re.compile(r"rebuilding column ([abc])"), "rebuild"),
    (re.compile(r"discarding (\d+) more for a wild"), "wild"),
    (re.compile(r"placing the wild"), "wild-place"),
    (re.compile(r"playing cards"), "play"),
    (re.compile(r"paying (\d+) more"), "pay"),
    (re.compile(r"moving the replaced wild"), "move-wild"),
)


def read_turn(view: View) -> Turn:
    """The decision due, read back from the words of the view's ``turn``."""
    who = view.to_move
    if who is None:
        return Turn("over")
    text = view.turn
    if not text.startswith(who):
        return Turn(None)
    rest = text[len(who):]
    power = rest.endswith(_POWER)
    rest = rest.removesuffix(_POWER)
    m = re.fullmatch(r": choose action ([12]) of 2", rest)
    if m:
        return Turn("act", actions=int(m[1]) - 1)
    m = re.fullmatch(r": end of turn, discarding down to (\d+) cards", rest)
    if m:
        return Turn("limit", limit=int(m[1]), actions=2)
    if rest == ": end of turn, placing the bonus wild":
        return Turn("bonus", actions=2)
    m = re.fullmatch(r", action ([12]) of 2: (.*)", rest)
    if m:
        actions = int(m[1]) - 1
        for pattern, phase in _INNER:
            inner = pattern.fullmatch(m[2])
            if inner is None:
                continue
            if phase == "draw":
                return Turn(phase, cards=int(inner[1]), actions=actions, power=power)
            if phase == "rebuild":
                return Turn(phase, column=SOURCES.index(inner[1]), actions=actions, power=power)
            if phase in ("wild", "pay"):
                return Turn(phase, owe=int(inner[1]), actions=actions, power=power)
            # A second face-up card is only ever the Rabbit's, after the first.
            return Turn(phase, cards=1 if phase == "take" else 0, actions=actions, power=power)
    return Turn(None)


def _read_corner(corner: CornerView) -> tuple[int, int, int]:
    mask = wild = 0
    for text in corner.cards:
        bit = 1 << int(text[2]) - 1
        if text.endswith("*"):
            wild |= bit
        else:
            mask |= bit
    return (SEASONS.index(corner.season) if corner.season else -1, mask, wild)


def _read_end(view: View, names: tuple[str, ...]) -> tuple[int, int, str]:
    """``(trigger, turns_left, ended)`` from the view's words of the end."""
    end = view.end
    if end is None:
        return -1, -1, ""
    if end.endswith(" completed all four Season sets"):
        return -1, -1, "sets"
    for p, who in enumerate(names):
        if end == f"a draw pile was emptied on {who}'s turn and the last round is over":
            return p, 0, "pile"
        if end == f"a draw pile is empty: {who} finishes this turn and takes the bonus wild":
            return p, -1, ""
        m = re.fullmatch(rf"a draw pile was emptied on {re.escape(who)}'s turn: last round, "
                         r"(\d+) turns?", end.removesuffix(" left"))
        if m:
            return p, int(m[1]), ""
    return -1, -1, ""


def consistent(view: View, params: Mapping[str, Value], seed: str) -> State:
    """A state ``view`` of a game with the parameters ``params`` could have
    been cut from: what the viewer sees as the view says, and every card they
    cannot see (the other hands, the draw piles, the cards set aside) dealt
    from what the deck has left, through ``Chance(seed, "consistent")``; the
    back of each pile's top card as shown. ``view(consistent(v, params,
    seed), seat) == v`` for the viewer's seat.

    Every public fact a refusal consults is the true one: the parameters,
    the decision due, the feathers spent this turn and the Otter's. Two
    facts of the turn are not in a view, and no refusal consults them: which
    face-up card of a Rabbit's action a rebuild follows (the first, here),
    and whether a player at the hand limit lost their second action to
    empty piles (not, here).
    """
    names = tuple(p.name for p in view.players)
    seat = names.index(view.to_move) if view.to_move in names else -1
    turn = read_turn(view)
    if turn.phase is None:
        # A view of another version's words: rather than guess the decision
        # (and refuse a move for the wrong reason), say what is not understood.
        raise BadLogError(f"the decision due, {view.turn!r}, is not one this version of "
                          "the rules knows: use a newer adjudicator")
    phase = turn.phase
    boards = tuple(tuple(_read_corner(c) for c in p.corners) for p in view.players)
    animals = [-1] * 4
    for p, pv in enumerate(view.players):
        for a in pv.animals:
            animals[ANIMALS.index(a)] = p
    trigger, turns_left, ended = _read_end(view, names)
    if seat < 0 and not ended:
        ended = "sets"
    on_boards = sum(1 for b in boards for c in b if c[2])

    viewer = names.index(view.viewer) if view.viewer in names else None
    mine = view.players[viewer].hand if viewer is not None else None
    shown = [season * 6 + v for board in boards for season, mask, _ in board
             for v in _VALUES[mask]]
    for cards in (*view.market, view.discard, mine or ()):
        shown += [CARDS.index(t) for t in cards]
    # The top card of each pile first, of the back it shows, of a kind of which
    # the deck keeps a copy for every card shown; then every card shown, as the
    # first code of its kind left (the back of a Spring card is never seen).
    left = list(DECK)
    spare = Counter(c % 24 for c in DECK)
    spare.subtract(shown)
    tops: list[int | None] = []
    for size, back in zip(view.piles, view.pile_backs):
        top = None
        if size and back is not None:
            b = SEASONS.index(back)
            top = next((c for c in Chance(seed, "tops").shuffle(left)
                        if c // 24 == b and spare[c % 24] > 0), None)
        if top is not None:
            left.remove(top)
            spare[top % 24] -= 1
        tops.append(top)

    def dealt(kinds: list[int]) -> tuple[int, ...]:
        out = []
        for kind in kinds:
            c = next((c for c in _CODES[kind] if c in left), _CODES[kind][0])
            if c in left:
                left.remove(c)
            out.append(c)
        return tuple(out)

    for board in boards:
        dealt([season * 6 + v for season, mask, _ in board for v in _VALUES[mask]])
    market = tuple(dealt([CARDS.index(t) for t in col]) for col in view.market)
    discard = dealt([CARDS.index(t) for t in view.discard])
    own = tuple(sorted(dealt([CARDS.index(t) for t in mine]))) if mine is not None else ()
    pool = Chance(seed, "consistent").shuffle(left)
    hands = []
    for p, pv in enumerate(view.players):
        if p == viewer:
            hands.append(own)
        else:
            hands.append(tuple(sorted(pool[:pv.hand_size])))
            del pool[:pv.hand_size]
    piles = []
    for size, top in zip(view.piles, tops):
        pile = tuple(pool[:max(size - 1, 0)]) + ((top,) if top is not None else ())
        del pool[:max(size - 1, 0)]
        piles.append(pile)

    return State(
        phase=phase,
        hands=tuple(hands),
        power=turn.power,
        # A rebuild follows the first or the second face-up card: the first.
        count=1 if phase == "rebuild" else turn.cards,
        seat=seat,
        actions=turn.actions,
        feathers_used=view.feathers_used,
        otter=view.otter,
        column=turn.column,
        owe=turn.owe,
        displaced=phase in ("pay", "move-wild") and view.wild_supply + on_boards < WILDS,
        discard=discard,
        piles=tuple(piles),
        market=market,
        trigger=trigger,
        boards=boards,
        animals=tuple(animals),
        feathers=tuple(p.feathers for p in view.players),
        feather_supply=view.feather_supply,
        wild_supply=view.wild_supply,
        turns_left=turns_left,
        ended=ended,
        players=names,
        feather_rule=str(params["feathers"]),
        # A log pinned to rules version 1 has no "wild": that version's rule (as setup).
        wild_rule=str(params.get("wild", "board")),
        first=names.index(view.first) if view.first in names else 0,
        removed=tuple(pool),
    )
