"""15 Days (Francesco Testini, ThunderGryph Games, 2020), 2-4 players.

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
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ..chance import Chance
from ..engine import Outcome, Param, Standing, Style, Value
from ..errors import AmbiguousMoveError, IllegalMoveError, NotationError

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
)

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
_COLOURS = ("32", "33", "31", "36")  # Spring green, Summer yellow, Autumn red, Winter cyan

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


class Move(NamedTuple):
    """One decision. ``op`` is the notation's letter:

    ``D`` draw from pile ``arg`` (0, 1); ``T`` take from source ``arg`` (0-2 a
    column, 3 the discard pile); ``W`` take a wild (``card`` -1) or place a
    wild as ``card``; ``P`` play ``card`` (``side`` 0 left, 1 right, -1 not
    said); ``X`` discard ``card``; ``R`` rebuild from pile ``arg``; ``E`` end
    the action; ``O`` spend a feather on the Otter. ``feather``: a feather is
    spent on the power of the action this move begins.
    """

    op: str
    arg: int = -1
    card: int = -1
    side: int = -1
    feather: bool = False


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    feather_rule: str
    first: int  # the seat that took the first turn
    piles: tuple[tuple[int, ...], ...]  # two draw piles, bottom to top
    removed: tuple[int, ...]  # 2 players: the 15 cards set aside unseen
    market: tuple[tuple[int, ...], ...]  # three columns, bottom to top
    discard: tuple[int, ...]  # bottom to top
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted
    boards: tuple[tuple[tuple[int, int, int], ...], ...]  # per seat, four corners
    feathers: tuple[int, ...]
    feather_supply: int
    wild_supply: int
    animals: tuple[int, ...]  # season -> seat holding its token, -1: the supply
    seat: int  # the player whose turn it is, -1 once the game is over
    phase: str  # the decision due; see _EXPECTED
    actions: int  # actions finished this turn
    power: bool  # the action under way has its animal's power
    count: int  # cards drawn or taken so far in the action under way
    column: int  # the market column being rebuilt
    owe: int  # cards still to discard (for a wild, or to pay for a placement)
    displaced: bool  # a wild replaced by a real card must move once the card is paid
    feathers_used: int  # this turn
    otter: bool  # a feather was spent on the Otter this turn
    trigger: int  # the seat whose turn emptied a draw pile, -1 before
    turns_left: int  # turns still to play once the trigger turn is over, -1 before
    ended: str  # "sets" or "pile" once over


# --- setup -----------------------------------------------------------------------


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    n = len(players)
    deck = Chance(seed, "deck").shuffle(DECK)
    removed: list[int] = []
    if n == 2:
        # Gameplay (2 players): 5 cards of each back are set aside unseen, the
        # first five of each back in the shuffled deck.
        left = {SU: 5, AU: 5, WI: 5}
        kept = []
        for c in deck:
            if left[c // 24]:
                left[c // 24] -= 1
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


def _corner_of(board: tuple[tuple[int, int, int], ...], season: int) -> int:
    for i in range(4):
        if board[i][0] == season:
            return i
    return -1


def _free_sides(board: tuple[tuple[int, int, int], ...]) -> tuple[int, ...]:
    """The sides (0 left, 1 right) with an empty corner."""
    return tuple(side for side in (0, 1) if board[side][0] < 0 or board[side + 2][0] < 0)


def _cost(index: int, mask: int, wild: int, bit: int) -> int:
    """Play cards: 1 for a new highest card of an ascending (right) corner or a new
    lowest of a descending (left) one, 2 otherwise; the wild counts as its value.
    (An empty corner is handled by the caller: it always costs 1.)"""
    after = mask | wild | bit
    if index & 1:
        return 1 if after < bit << 1 else 2
    return 1 if after & (bit - 1) == 0 else 2


def _complete(board: tuple[tuple[int, int, int], ...]) -> bool:
    """All four Season sets: every corner holds 1-6, a wild counting as its value."""
    return all(c[0] >= 0 and c[1] | c[2] == FULL for c in board)


def _wild_targets(board: tuple[tuple[int, int, int], ...]) -> list[int]:
    """Where a wild may go, as card kinds: a missing value of a season on the
    board whose corner has no wild yet (Take 1 wild card)."""
    out = []
    for season, mask, wild in board:
        if season >= 0 and not wild:
            out += [season * 6 + v for v in _VALUES[FULL & ~mask]]
    out.sort()
    return out


def _matching(board: tuple[tuple[int, int, int], ...], hand: tuple[int, ...]) -> list[int]:
    """The cards of ``hand`` whose season and value are a real card of the board."""
    present = set()
    for season, mask, _ in board:
        if season >= 0:
            present.update(season * 6 + v for v in _VALUES[mask])
    return [c for c in hand if c % 24 in present]


def _kinds(hand: tuple[int, ...]) -> list[int]:
    return sorted({c % 24 for c in hand})


def _without(hand: tuple[int, ...], kind: int) -> tuple[tuple[int, ...], int]:
    """``hand`` less one card of ``kind`` (the lowest code: the backs of cards out
    of the piles are never shown and change nothing), and that card."""
    for i, c in enumerate(hand):
        if c % 24 == kind:
            return hand[:i] + hand[i + 1 :], c
    raise ValueError(kind)


def _with(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    return tuple(sorted((*hand, card)))


def _set(seq: tuple, i: int, value) -> tuple:
    return (*seq[:i], value, *seq[i + 1 :])


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


def _over(state: State, how: str) -> State:
    return _replace(state, seat=-1, phase="over", ended=how, power=False, count=0,
                    column=-1, owe=0, displaced=False)


def _finish_action(state: State) -> State:
    """The action under way is over: the end by a completed board, the next
    action, or the end of the turn."""
    if _complete(state.boards[state.seat]):
        # End game: a player completing all four sets ends the game at the end
        # of that action.
        return _over(state, "sets")
    state = _replace(state, actions=state.actions + 1, phase="act", power=False, count=0,
                     column=-1, owe=0, displaced=False)
    if state.actions < 2 and _action_moves(state):
        return state
    # A player with no action left to take loses it (only possible once both
    # draw piles are empty).
    return _end_of_turn(state)


def _end_of_turn(state: State) -> State:
    """End of turn: discard down to the hand limit, then the bonus wild if this
    turn emptied a draw pile, then the next player."""
    if len(state.hands[state.seat]) > _limit(state):
        return _replace(state, phase="limit")
    return _after_limit(state)


def _after_limit(state: State) -> State:
    if state.trigger == state.seat and state.turns_left < 0:
        if state.wild_supply and _wild_targets(state.boards[state.seat]):
            return _replace(state, phase="bonus")
    return _next_turn(state)


def _next_turn(state: State) -> State:
    n = len(state.players)
    left = state.turns_left
    if state.trigger >= 0:
        # End game: once a pile is emptied the active player finishes the turn,
        # then every other player takes one last turn.
        left = n - 1 if left < 0 else left - 1
        if left == 0:
            return _over(state, "pile")
    state = _replace(state, seat=(state.seat + 1) % n, phase="act", actions=0, power=False,
                     count=0, column=-1, owe=0, displaced=False, feathers_used=0,
                     otter=False, turns_left=left)
    if _action_moves(state):
        return state
    return _end_of_turn(_replace(state, actions=2))


def _emptied(state: State, piles: tuple[tuple[int, ...], ...]) -> int:
    """The trigger seat after a card left ``piles``."""
    if state.trigger < 0 and not (piles[0] and piles[1]):
        return state.seat
    return state.trigger


# --- legal moves -------------------------------------------------------------------------


def _feather_ok(state: State, animal: int) -> bool:
    return (
        state.feathers[state.seat] > 0
        and state.animals[animal] != state.seat
        and (state.feather_rule == "one-per-action" or state.feathers_used == 0)
    )


def _placements(state: State, discount: int) -> list[Move]:
    """Every card of the hand that can be played now, with its side where the
    side must be said (a new season, with a free corner on both sides)."""
    seat = state.seat
    hand = state.hands[seat]
    board = state.boards[seat]
    others = len(hand) - 1
    free = _free_sides(board)
    out = []
    for kind in _kinds(hand):
        season, bit = kind // 6, 1 << kind % 6
        i = _corner_of(board, season)
        if i >= 0:
            _, mask, wild = board[i]
            if not mask & bit and others >= _cost(i, mask, wild, bit) - discount:
                out.append(Move("P", card=kind))
        elif others >= 1 - discount:
            if len(free) == 2:
                out += [Move("P", card=kind, side=0), Move("P", card=kind, side=1)]
            elif free:
                out.append(Move("P", card=kind))
    return out


def _wild_possible(state: State) -> bool:
    board = state.boards[state.seat]
    return (
        state.wild_supply > 0
        and len(_matching(board, state.hands[state.seat])) >= 2
        and bool(_wild_targets(board))
    )


def _action_moves(state: State) -> list[Move]:
    """The moves that begin an action."""
    out: list[Move] = []
    piles = [p for p in (0, 1) if state.piles[p]]
    sources = [s for s in range(3) if state.market[s]] + ([3] if state.discard else [])
    out += [Move("D", arg=p) for p in piles]
    if _feather_ok(state, SQUIRREL):
        out += [Move("D", arg=p, feather=True) for p in piles]
    out += [Move("T", arg=s) for s in sources]
    if _feather_ok(state, RABBIT):
        out += [Move("T", arg=s, feather=True) for s in sources]
    if _wild_possible(state):
        out.append(Move("W"))
    power = state.animals[FROG] == state.seat
    out += _placements(state, 1 if power else 0)
    if not power and _feather_ok(state, FROG):
        out += [m._replace(feather=True) for m in _placements(state, 1)]
    return out


def legal_moves(state: State) -> tuple[Move, ...]:
    """The moves of the decision due, in the order of the notation document."""
    phase = state.phase
    seat = state.seat
    if phase == "act":
        return tuple(_action_moves(state))
    if phase == "draw":
        moves = [Move("D", arg=p) for p in (0, 1) if state.piles[p]]
        return tuple(moves + [Move("E")] if state.count == 2 else moves)
    if phase == "take":
        sources = [s for s in range(3) if state.market[s]] + ([3] if state.discard else [])
        return tuple([Move("T", arg=s) for s in sources] + [Move("E")])
    if phase == "rebuild":
        return tuple(Move("R", arg=p) for p in (0, 1) if state.piles[p])
    if phase == "wild":
        matching = tuple(_matching(state.boards[seat], state.hands[seat]))
        return tuple(Move("X", card=k) for k in _kinds(matching))
    if phase in ("wild-place", "move-wild", "bonus"):
        return tuple(Move("W", card=k) for k in _wild_targets(state.boards[seat]))
    if phase == "play":
        return tuple(_placements(state, 0) + [Move("E")])
    if phase == "pay":
        return tuple(Move("X", card=k) for k in _kinds(state.hands[seat]))
    if phase == "limit":
        moves = [Move("X", card=k) for k in _kinds(state.hands[seat])]
        if not state.otter and _feather_ok(state, OTTER):
            moves.append(Move("O"))
        return tuple(moves)
    return ()


# --- applying moves ------------------------------------------------------------------------


def apply(state: State, move: Move) -> State:
    if state.seat < 0:
        raise _illegal("the game is over", C_END)
    handler = _HANDLERS.get(move.op)
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


def _spend_feather(state: State) -> dict:
    seat = state.seat
    return dict(
        feathers=_set(state.feathers, seat, state.feathers[seat] - 1),
        feather_supply=state.feather_supply + 1,
        feathers_used=state.feathers_used + 1,
    )


def _begin(state: State, move: Move, animal: int) -> tuple[bool, State]:
    """Begin an action: whether it has its animal's power, and the state with the
    feather spent (back to the supply) if one was."""
    power = _check_feather(state, move, animal)
    if move.feather:
        state = _replace(state, **_spend_feather(state))
    return power, state


def _enter(state: State, move: Move, phase: str, animal: int, clause: str) -> tuple[bool, State, bool]:
    """Begin an action of ``phase`` (``fresh``), or go on with the one under way;
    the power of ``animal`` (or a feather) applies to it."""
    if state.phase == "act":
        power, state = _begin(state, move, animal)
        return power, state, True
    if state.phase == phase:
        if move.feather:
            raise _illegal("a feather is spent before an action, not during it", C_FEATHERS)
        return state.power, state, False
    raise _out_of_phase(state, clause)


def _apply_draw(state: State, move: Move) -> State:
    power, state, fresh = _enter(state, move, "draw", SQUIRREL, C_DRAW)
    count = 0 if fresh else state.count
    pile = state.piles[move.arg]
    if not pile:
        raise _illegal(f"draw pile {move.arg + 1} is empty", C_DRAW)
    seat = state.seat
    piles = _set(state.piles, move.arg, pile[:-1])
    state = _replace(
        state,
        piles=piles,
        hands=_set(state.hands, seat, _with(state.hands[seat], pile[-1])),
        trigger=_emptied(state, piles),
        phase="draw",
        power=power,
        count=count + 1,
    )
    # Two cards, or three with the Squirrel (the third is optional); fewer only
    # if both piles run out.
    if piles[0] or piles[1]:
        if state.count < 2 or (state.count == 2 and power):
            return state
    return _finish_action(state)


def _apply_take(state: State, move: Move) -> State:
    power, state, fresh = _enter(state, move, "take", RABBIT, C_TAKE)
    count = 1 if fresh else state.count + 1
    changes: dict = {}
    src = move.arg
    seat = state.seat
    if src == 3:
        if not state.discard:
            raise _illegal("the discard pile is empty", C_TAKE)
        card = state.discard[-1]
        changes["discard"] = state.discard[:-1]
    else:
        column = state.market[src]
        if not column:
            raise _illegal(f"market column {SOURCES[src]} is empty", C_TAKE)
        card = column[-1]
        changes["market"] = _set(state.market, src, column[:-1])
    state = _replace(
        state,
        hands=_set(state.hands, seat, _with(state.hands[seat], card)),
        phase="take",
        power=power,
        count=count,
        **changes,
    )
    if src < 3 and not state.market[src] and (state.piles[0] or state.piles[1]):
        # The taker of a column's last card rebuilds it, pile by pile.
        return _replace(state, phase="rebuild", column=src)
    return _after_take(state)


def _after_take(state: State) -> State:
    """After a face-up card (and any rebuild): the Rabbit's optional second card."""
    state = _replace(state, phase="take", column=-1)
    if state.power and state.count == 1 and (any(state.market) or state.discard):
        return state
    return _finish_action(state)


def _apply_rebuild(state: State, move: Move) -> State:
    if state.phase != "rebuild" or move.feather:
        raise _out_of_phase(state, C_TAKE)
    pile = state.piles[move.arg]
    if not pile:
        raise _illegal(f"draw pile {move.arg + 1} is empty", C_TAKE)
    col = state.column
    piles = _set(state.piles, move.arg, pile[:-1])
    column = state.market[col] + (pile[-1],)
    state = _replace(state, piles=piles, market=_set(state.market, col, column),
                     trigger=_emptied(state, piles))
    if len(column) < MARKET_DEPTH and (piles[0] or piles[1]):
        return state
    return _after_take(state)


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
        if not _wild_targets(board):
            raise _illegal("no season on your board has a missing value without a wild", C_WILD)
        return _replace(state, phase="wild", owe=2)
    # Place a wild as ``move.card``.
    if state.phase not in ("wild-place", "move-wild", "bonus"):
        if state.phase == "act":
            raise _illegal("take the wild first: W, then discard two cards matching your board",
                           C_WILD)
        raise _out_of_phase(state, C_WILD)
    season, bit = move.card // 6, 1 << move.card % 6
    i = _corner_of(board, season)
    name = CARDS[move.card]
    if i < 0:
        raise _illegal(f"no {SEASON_NAMES[season]} on your board: a wild replaces a missing "
                       "value of a season you have", C_WILD)
    _, mask, wild = board[i]
    if wild:
        raise _illegal(f"your {SEASON_NAMES[season]} already has a wild: at most one per season",
                       C_WILD)
    if mask & bit:
        raise _illegal(f"your board already holds {name}: a wild replaces a missing value", C_WILD)
    boards = _set(state.boards, seat, _set(board, i, (season, mask, bit)))
    if state.phase == "move-wild":
        return _after_placement(_replace(state, boards=boards, displaced=False))
    state = _replace(state, boards=boards, wild_supply=state.wild_supply - 1)
    if state.phase == "bonus":
        if _complete(boards[seat]):
            return _over(state, "sets")
        return _next_turn(state)
    return _finish_action(state)


def _apply_play(state: State, move: Move) -> State:
    power, state, fresh = _enter(state, move, "play", FROG, C_PLAY)
    discount = 1 if fresh and power else 0  # Frog: 1 off the action, taken on its first card
    seat = state.seat
    kind = move.card
    hand = state.hands[seat]
    name = CARDS[kind]
    if not any(c % 24 == kind for c in hand):
        raise _illegal(f"you hold no {name}", C_PLAY)
    board = state.boards[seat]
    season, bit = kind // 6, 1 << kind % 6
    i = _corner_of(board, season)
    if i >= 0:
        _, mask, wild = board[i]
        if mask & bit:
            raise _illegal(f"your {SEASON_NAMES[season]} already holds a {kind % 6 + 1}: a "
                           "season cannot hold two cards of one value", C_PLAY)
        if move.side >= 0 and move.side != i & 1:
            raise _illegal(f"your {SEASON_NAMES[season]} is in the {CORNERS[i]} corner: all its "
                           "cards go there", C_PLAY)
        cost = _cost(i, mask, wild, bit)
        displaced = wild == bit
        corner = (season, mask | bit, 0 if displaced else wild)
    else:
        free = _free_sides(board)
        side = move.side
        if side < 0:
            if len(free) == 2:
                raise AmbiguousMoveError(
                    f"{SEASON_NAMES[season]} is new to your board: say the side, left "
                    f"(descending) or right (ascending): P{name}L or P{name}R",
                    f"{TITLE}: {C_PLAY}",
                    (_feather_text(move) + f"P{name}L", _feather_text(move) + f"P{name}R"),
                )
            side = free[0]
        elif side not in free:
            raise _illegal(f"both {'left' if side == 0 else 'right'} corners hold a season "
                           "already", C_PLAY)
        i = side if board[side][0] < 0 else side + 2  # the top corner first
        cost, displaced, corner = 1, False, (season, bit, 0)
    cost = max(0, cost - discount)
    others = len(hand) - 1
    if others < cost:
        raise _illegal(f"playing {name} costs {cost} card{'s' * (cost != 1)} and you hold "
                       f"{others} other{'s' * (others != 1)}", C_PLAY)
    hand, _ = _without(hand, kind)
    boards = _set(state.boards, seat, _set(board, i, corner))
    animals, feathers, supply = _award(state, boards, seat, season)
    state = _replace(
        state,
        hands=_set(state.hands, seat, hand),
        boards=boards,
        animals=animals,
        feathers=feathers,
        feather_supply=supply,
        phase="play",
        power=power,
        owe=cost,
        displaced=displaced,
    )
    if cost:
        return _replace(state, phase="pay")
    return _after_payment(state)


def _award(state: State, boards, seat: int, season: int):
    """Animal Tokens: the player with 3 cards of a season takes its token from the
    supply; later, whoever has as many of that season's cards as the holder, or
    more, takes it from them, and the holder takes a feather if one is left.
    Only real cards count, not wilds."""
    animals, feathers, supply = state.animals, state.feathers, state.feather_supply
    holder = animals[season]
    if holder == seat:
        return animals, feathers, supply
    mine = _season_count(boards[seat], season)
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
    i = _corner_of(board, season)
    return POPCOUNT[board[i][1]] if i >= 0 else 0


def _after_payment(state: State) -> State:
    if state.displaced:
        # Play cards: the wild replaced by its real card moves to another missing
        # value; with none anywhere it goes back to the supply.
        if _wild_targets(state.boards[state.seat]):
            return _replace(state, phase="move-wild")
        state = _replace(state, displaced=False, wild_supply=state.wild_supply + 1)
    return _after_placement(state)


def _after_placement(state: State) -> State:
    if _complete(state.boards[state.seat]):
        return _finish_action(state)  # nothing is left to play: the game ends
    return _replace(state, phase="play")


def _apply_discard(state: State, move: Move) -> State:
    phase = state.phase
    clause = {"wild": C_WILD, "pay": C_PLAY, "limit": C_LIMIT}.get(phase)
    if clause is None:
        raise _out_of_phase(state, C_ACTIONS)
    seat = state.seat
    kind = move.card
    hand = state.hands[seat]
    name = CARDS[kind]
    if not any(c % 24 == kind for c in hand):
        raise _illegal(f"you hold no {name}", clause)
    if phase == "wild" and not _matching(state.boards[seat], (kind,)):
        raise _illegal(f"{name} is not on your board: the wild costs two cards that are", C_WILD)
    hand, card = _without(hand, kind)
    state = _replace(state, hands=_set(state.hands, seat, hand), discard=state.discard + (card,))
    if phase == "limit":
        if len(hand) > _limit(state):
            return state
        return _after_limit(state)
    state = _replace(state, owe=state.owe - 1)
    if state.owe:
        return state
    if phase == "wild":
        return _replace(state, phase="wild-place")
    return _after_payment(state)


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
    _check_feather(state, Move("O", feather=True), OTTER)
    state = _replace(state, otter=True, **_spend_feather(state))
    if len(state.hands[state.seat]) > OTTER_LIMIT:
        return state
    return _after_limit(state)


_HANDLERS = {
    "D": _apply_draw,
    "T": _apply_take,
    "R": _apply_rebuild,
    "W": _apply_wild,
    "P": _apply_play,
    "X": _apply_discard,
    "E": _apply_end,
    "O": _apply_otter,
}


# --- notation ------------------------------------------------------------------------------

_WORDS = {
    "draw": "d", "take": "t", "wild": "w", "joker": "w", "play": "p", "place": "p",
    "pay": "x", "discard": "x", "rebuild": "r", "end": "e", "stop": "e", "done": "e",
    "feather": "f", "otter": "o", "left": "l", "right": "r",
    "spring": "sp", "summer": "su", "autumn": "au", "fall": "au",
    "winter": "wi", "pile": "", "column": "", "the": "", "from": "", "card": "",
}  # fmt: skip
_SEASON_CODES = {"sp": SP, "su": SU, "au": AU, "fa": AU, "wi": WI}
_MOVE_RE = re.compile(
    r"(?P<f>f)?(?:d(?P<d>[12])|t(?P<t>[abcdx])"
    r"|p(?P<ps>sp|su|au|fa|wi)(?P<pv>[1-6])(?P<side>[lr])?)"
    r"|(?P<w>w)(?:(?P<ws>sp|su|au|fa|wi)(?P<wv>[1-6]))?"
    r"|x(?P<xs>sp|su|au|fa|wi)(?P<xv>[1-6])"
    r"|r(?P<r>[12])|(?P<e>e)|(?P<o>fo)"
)
_SPLIT = re.compile(r"[\s\-_:/.,;+]+")


def parse_move(state: State, text: str) -> Move:
    """Read a move; case, spaces, separators and words are forgiven.

    >>> parse_move(None, "play summer 4 right")
    Move(op='P', arg=-1, card=9, side=1, feather=False)
    >>> parse_move(None, "take discard")
    Move(op='T', arg=3, card=-1, side=-1, feather=False)
    """
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    # A move reads the same in every position (the side of a play is checked and
    # dropped by format_move), so readings are cached.
    words = [w for w in _SPLIT.split(text.strip().lower()) if w]
    out = []
    for k, w in enumerate(words):
        if w == "discard" and k and words[k - 1] in ("take", "t"):
            out.append("d")  # "take discard": the discard pile as a source
        else:
            out.append(_WORDS.get(w, w))
    flat = "".join(out)
    m = _MOVE_RE.fullmatch(flat)
    if m is None:
        raise NotationError(
            "cannot read this as a move: expected D1, Ta, W, PSu4, PSu4R, XAu1, WSp3, R2, E "
            f"or FO (an F in front spends a feather) ({NOTATION})"
        )
    feather = m["f"] is not None
    if m["d"]:
        return Move("D", arg=int(m["d"]) - 1, feather=feather)
    if m["t"]:
        return Move("T", arg=3 if m["t"] == "x" else SOURCES.index(m["t"]), feather=feather)
    if m["ps"]:
        side = -1 if m["side"] is None else "lr".index(m["side"])
        return Move("P", card=_kind(m["ps"], m["pv"]), side=side, feather=feather)
    if m["xs"]:
        return Move("X", card=_kind(m["xs"], m["xv"]))
    if m["w"]:
        return Move("W", card=_kind(m["ws"], m["wv"]) if m["ws"] else -1)
    if m["r"]:
        return Move("R", arg=int(m["r"]) - 1)
    if m["e"]:
        return Move("E")
    return Move("O")


def _kind(season: str, value: str) -> int:
    return _SEASON_CODES[season] * 6 + int(value) - 1


def _feather_text(move: Move) -> str:
    return "F" if move.feather else ""


def format_move(state: State, move: Move) -> str:
    """The canonical notation. The side of a play is written only when it is a
    choice: a season new to the board with a free corner on both sides."""
    op = move.op
    if op == "D":
        return f"{_feather_text(move)}D{move.arg + 1}"
    if op == "T":
        return f"{_feather_text(move)}T{SOURCES[move.arg]}"
    if op == "P":
        return f"{_feather_text(move)}P{CARDS[move.card]}{_side_text(state, move)}"
    if op == "X":
        return f"X{CARDS[move.card]}"
    if op == "W":
        return _feather_text(move) + ("W" if move.card < 0 else f"W{CARDS[move.card]}")
    if op == "R":
        return f"R{move.arg + 1}"
    if op == "E":
        return "E"
    return "FO"


def _side_text(state: State, move: Move) -> str:
    side = move.side
    if side < 0:
        return ""
    typed = SIDES[side]
    if state.seat < 0:
        return typed
    board = state.boards[state.seat]
    i = _corner_of(board, move.card // 6)
    if i >= 0:
        return "" if i & 1 == side else typed
    free = _free_sides(board)
    if len(free) == 1 and free[0] == side:
        return ""
    return typed


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


def _plural(n: int, word: str) -> str:
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
    places = {}
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
            parts.append(f"{_plural(s.empty, 'empty corner')} -{2 * s.empty}")
        details.append(
            f"{state.players[p]} {s.total}: {'; '.join(parts)} "
            f"({_plural(s.hand, 'card')} in hand, {_plural(s.wilds, 'wild')} on the board)"
        )
    for a, b in zip(order, order[1:]):
        sa, sb = scores[a], scores[b]
        if sa.total != sb.total:
            continue
        who = f"{state.players[a]} and {state.players[b]} both have {sa.total} points"
        if sa.hand != sb.hand:
            why = f"{state.players[a]} holds more cards in hand ({sa.hand} to {sb.hand})"
        elif sa.wilds != sb.wilds:
            why = (f"both hold {_plural(sa.hand, 'card')}; {state.players[a]} played more wild "
                   f"cards ({sa.wilds} to {sb.wilds})")
        else:
            why = (f"both hold {_plural(sa.hand, 'card')} and played "
                   f"{_plural(sa.wilds, 'wild card')}: they share {_ordinal(places[a])} place")
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
            f"{_plural(state.turns_left, 'turn')} left")



VIEW = View  # the type of a view, to read one back from a view file

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
    tops = []
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
    piles = []
    for pile, top in zip(state.piles, tops):
        if top is None:
            piles.append(())
            continue
        size = len(pile) - 1
        piles.append((*pool[:size], top))
        del pool[:size]
    return _replace(state, hands=tuple(hands), piles=tuple(piles), removed=tuple(pool))


def _paint(card: str, style: Style) -> str:
    return style.paint(card, _COLOURS[SEASONS.index(card[:2])])


def render(v: View, style: Style) -> str:
    """Each player's four corners (cards in the corner's order, wilds marked *),
    tokens, feathers, hand and score; then the market, the discard pile, the
    piles and the supply."""
    u = style.unicode
    h, vbar = ("─", "│") if u else ("-", "|")
    tl, tm, tr = ("┌", "┬", "┐") if u else ("+", "+", "+")
    ml, mm, mr = ("├", "┼", "┤") if u else ("+", "+", "+")
    bl, bm, br = ("└", "┴", "┘") if u else ("+", "+", "+")
    down, up = ("↓", "↑") if u else ("v", "^")
    arrow = "→" if u else ">"
    width = 30
    lines = []
    for pv in v.players:
        mark = arrow if v.to_move == pv.name else " "
        tokens = ", ".join(pv.animals) or "no animal"
        head = (f"{mark} {pv.name}  score {pv.score}  {_plural(pv.feathers, 'feather')}  "
                f"{tokens}")
        lines.append(head)
        if pv.hand is not None:
            hand = " ".join(_paint(c, style) for c in pv.hand) or "(empty)"
            lines.append(f"  hand ({pv.hand_size}): {hand}")
        else:
            lines.append(f"  hand: {_plural(pv.hand_size, 'card')}")

        def label(c: CornerView) -> str:
            text = f"{h} {c.corner} {down if c.order == 'descending' else up} "
            return text + h * (width - len(text))

        def cell(c: CornerView) -> str:
            if c.season is None:
                body = "(empty)"
                shown = body
            else:
                name = SEASON_NAMES[SEASONS.index(c.season)]
                values = " ".join(x[2:] for x in c.cards)
                tail = " done" if c.complete else ""
                shown = f"{name:<7} {values}{tail}"
                body = style.paint(f"{name:<7}", _COLOURS[SEASONS.index(c.season)]) + \
                    f" {values}{tail}"
            pad = width - 1 - len(shown)
            return " " + body + " " * max(pad, 0)

        c = pv.corners
        lines.append("  " + tl + label(c[0]) + tm + label(c[1]) + tr)
        lines.append("  " + vbar + cell(c[0]) + vbar + cell(c[1]) + vbar)
        lines.append("  " + ml + label(c[2]) + mm + label(c[3]) + mr)
        lines.append("  " + vbar + cell(c[2]) + vbar + cell(c[3]) + vbar)
        lines.append("  " + bl + h * width + bm + h * width + br)
    lines.append(f"  ({down} descending, {up} ascending, * a wild card)")
    lines.append("")
    lines.append("Market (only the last card of a column can be taken):")
    for name, col in zip(SOURCES, v.market):
        cards = " ".join(_paint(c, style) for c in col) or "(empty)"
        lines.append(f"  {name}: {cards}")
    if v.discard:
        # Face up and public: all of it, wrapped, the top card last.
        lines.append(f"  d: discard pile ({len(v.discard)}, top last):")
        for k in range(0, len(v.discard), 12):
            lines.append("     " + " ".join(_paint(c, style) for c in v.discard[k : k + 12]))
    else:
        lines.append("  d: discard pile (empty)")
    piles = []
    for i, (size, back) in enumerate(zip(v.piles, v.pile_backs), 1):
        if back is None:
            piles.append(f"{i}: empty")
        else:
            piles.append(f"{i}: {_plural(size, 'card')}, "
                         f"{SEASON_NAMES[SEASONS.index(back)]} back on top")
    lines.append("Draw piles  " + "   ".join(piles))
    supply = ", ".join(v.animal_supply) or "none"
    lines.append(f"Supply  {_plural(v.wild_supply, 'wild card')}, "
                 f"{_plural(v.feather_supply, 'feather')}; animals: {supply}")
    if v.end:
        lines.append(f"End: {v.end}")
    lines.append(f"Turn: {v.turn}")
    return "\n".join(lines)
