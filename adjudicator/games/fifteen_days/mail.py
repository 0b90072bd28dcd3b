"""15 Days by mail: a move told as one viewer saw it (``narrate``), and the
tolerant reader of a refereed player's view file (``read_listed``).

Both work from views alone, never from a state, so neither can say what
the viewer may not see: a card drawn face down is named only to the player
who drew it, and a move refused in a view file is explained with what that
player's view shows (their hand, the boards, the market, the discard pile,
the sizes of the piles, the decision due), in ``apply``'s words where the
view tells them.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import NamedTuple

from ...errors import AmbiguousMoveError, NotationError
from . import rules
from .notation import parse_move, spell
from .rules import (
    C_ACTIONS,
    C_DRAW,
    C_END,
    C_FEATHERS,
    C_LIMIT,
    C_PLAY,
    C_TAKE,
    C_WILD,
    ANIMALS,
    CARDS,
    CORNERS,
    SEASON_NAMES,
    SEASONS,
    SOURCES,
    TITLE,
    View,
)

OTTER, FROG, SQUIRREL, RABBIT = range(4)
_ANIMAL_OF = {"D": SQUIRREL, "T": RABBIT, "P": FROG}  # the power an action may have


def _card(kind: int) -> str:
    """A card kind (season * 6 + value - 1) as written: 9 -> 'Su4'."""
    return CARDS[kind]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _seat(view: View, name: str | None) -> int:
    return next((i for i, p in enumerate(view.players) if p.name == name), -1)


class _Corner(NamedTuple):
    season: int  # -1: empty
    mask: int  # the values of its real cards (bit v - 1)
    wild: int  # the bit of the value its wild stands for, 0: none


def _corners(view: View, seat: int) -> tuple[_Corner, ...]:
    out = []
    for c in view.players[seat].corners:
        mask = wild = 0
        for text in c.cards:
            bit = 1 << int(text[2]) - 1
            if text.endswith("*"):
                wild |= bit
            else:
                mask |= bit
        out.append(_Corner(SEASONS.index(c.season) if c.season else -1, mask, wild))
    return tuple(out)


def _corner_of(corners: tuple[_Corner, ...], season: int) -> int:
    return next((i for i, c in enumerate(corners) if c.season == season), -1)


def _free_sides(corners: tuple[_Corner, ...]) -> tuple[int, ...]:
    """The sides (0 left, 1 right) with an empty corner."""
    return tuple(side for side in (0, 1)
                 if corners[side].season < 0 or corners[side + 2].season < 0)


# --- the decision due, as the view words it -----------------------------------------


class _Turn(NamedTuple):
    phase: str | None  # as rules' State.phase; None: the view's words are not known
    count: int = 0  # cards drawn so far in the draw under way
    column: int = -1  # the column being rebuilt
    owe: int = 0  # cards still to discard
    limit: int = 0  # the hand limit being discarded down to


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
_POWER = " with its animal's power"


def _turn(view: View) -> _Turn:
    """The decision due, read back from the view's ``turn`` (the words of
    rules' _describe_turn, which a view carries for every reader)."""
    who = view.to_move
    if who is None:
        return _Turn("over")
    text = view.turn
    if not text.startswith(who):
        return _Turn(None)
    rest = text[len(who):].removesuffix(_POWER)
    if re.fullmatch(r": choose action [12] of 2", rest):
        return _Turn("act")
    m = re.fullmatch(r": end of turn, discarding down to (\d+) cards", rest)
    if m:
        return _Turn("limit", limit=int(m[1]))
    if rest == ": end of turn, placing the bonus wild":
        return _Turn("bonus")
    m = re.fullmatch(r", action [12] of 2: (.*)", rest)
    if m:
        for pattern, phase in _INNER:
            inner = pattern.fullmatch(m[1])
            if inner is None:
                continue
            if phase == "draw":
                return _Turn(phase, count=int(inner[1]))
            if phase == "rebuild":
                return _Turn(phase, column=SOURCES.index(inner[1]))
            if phase in ("wild", "pay"):
                return _Turn(phase, owe=int(inner[1]))
            return _Turn(phase)
    return _Turn(None)


# --- read_listed ---------------------------------------------------------------------


def _spelled(view: View, move) -> str:
    """The canonical notation of ``move`` (as notation.format_move writes it),
    the side of a play or a wild's place resolved on the mover's board in the
    view: written only when it is a choice (a season new to the board, a free
    corner on both sides)."""
    side = move.side
    if move.op not in "PW" or side < 0:
        return spell(move, "")
    typed = spell(move, "LR"[side])
    seat = _seat(view, view.to_move)
    if seat < 0:
        return typed
    corners = _corners(view, seat)
    i = _corner_of(corners, move.card // 6)
    if i >= 0:
        return spell(move, "") if i & 1 == side else typed
    return spell(move, "") if _free_sides(corners) == (side,) else typed


class _Why:
    """Why a move that reads well is not listed, from the mover's view: the
    checks of rules.apply in its order, each where the view can tell."""

    def __init__(self, view: View, listed: tuple[str, ...]) -> None:
        self.view, self.listed = view, listed
        self.turn = _turn(view)
        self.seat = _seat(view, view.to_move)
        me = view.players[self.seat]
        self.me = me
        self.hand = Counter(me.hand) if me.hand is not None else None
        self.corners = _corners(view, self.seat)

    def owns(self, animal: int) -> bool:
        return ANIMALS[animal] in self.me.animals

    def otter_spent(self) -> bool:
        return self.turn.limit == rules.OTTER_LIMIT and not self.owns(OTTER)

    def feathers_blocked(self) -> bool:
        """Whether the player may spend no more feathers this turn (one per
        turn, spent already): told by the listed moves, which list a
        feather's action wherever one may be spent."""
        if self.me.feathers == 0:
            return False
        if self.turn.phase == "limit":
            return "FO" not in self.listed and not self.owns(OTTER) and not self.otter_spent()
        if any(m[:1] == "F" for m in self.listed):
            return False
        v = self.view
        return (not self.owns(SQUIRREL) and any(v.piles)) or (
            not self.owns(RABBIT) and (any(v.market) or bool(v.discard)))

    def feather(self, animal: int) -> tuple[str, str] | None:
        """rules._check_feather for a feather spent on ``animal``."""
        if self.owns(animal):
            return f"you hold the {ANIMALS[animal]}: its power needs no feather", C_FEATHERS
        if self.me.feathers == 0:
            return "you have no Feather token", C_FEATHERS
        if self.feathers_blocked():
            return ("you have spent a Feather token this turn already "
                    "(one per turn: parameter feathers)"), C_FEATHERS
        return None

    def not_now(self, clause: str) -> tuple[str, str] | None:
        t = self.turn
        expected = getattr(rules, "_EXPECTED", None)
        if t.phase is None or expected is None:
            return None
        key = t.phase
        if key == "draw" and t.count == 2:
            key = "draw+"
        if key == "take":
            key = "take+"
        if key not in expected:
            return None
        text = expected[key].format(
            col=SOURCES[t.column] if t.column >= 0 else "?", owe=t.owe, limit=t.limit)
        return f"not now: {text}", clause

    def enter(self, move, phase: str, clause: str) -> tuple[str, str] | None:
        """rules._enter: beginning an action, or going on with the one under way."""
        now = self.turn.phase
        if now == "act":
            return self.feather(_ANIMAL_OF[move.op]) if move.feather else None
        if now == phase:
            if move.feather:
                return "a feather is spent before an action, not during it", C_FEATHERS
            return None
        return self.not_now(clause)

    def why(self, move) -> tuple[str, str] | None:
        if self.view.to_move is None:
            return "the game is over", C_END
        if self.turn.phase is None:
            return None
        return getattr(self, "_" + move.op)(move)

    def _D(self, move) -> tuple[str, str] | None:
        return self.enter(move, "draw", C_DRAW) or self._pile(move, C_DRAW)

    def _pile(self, move, clause: str) -> tuple[str, str] | None:
        if not self.view.piles[move.arg]:
            return f"draw pile {move.arg + 1} is empty", clause
        return None

    def _T(self, move) -> tuple[str, str] | None:
        problem = self.enter(move, "take", C_TAKE)
        if problem:
            return problem
        if move.arg == 3:
            return None if self.view.discard else ("the discard pile is empty", C_TAKE)
        if not self.view.market[move.arg]:
            return f"market column {SOURCES[move.arg]} is empty", C_TAKE
        return None

    def _R(self, move) -> tuple[str, str] | None:
        if self.turn.phase != "rebuild":
            return self.not_now(C_TAKE)
        return self._pile(move, C_TAKE)

    def _matching(self) -> int:
        """Cards of the hand whose season and value are a real card of the board."""
        present = {c.season: c.mask for c in self.corners if c.season >= 0}
        return sum(
            n for text, n in self.hand.items()
            if present.get(SEASONS.index(text[:2]), 0) >> int(text[2:]) - 1 & 1
        )

    def _W(self, move) -> tuple[str, str] | None:
        phase = self.turn.phase
        places = ("wild-place", "move-wild", "bonus")
        if move.card < 0:
            if phase != "act":
                if phase in places:
                    return "say where the wild goes: W and a missing card, e.g. WSu4", C_WILD
                return self.not_now(C_WILD)
            if not self.view.wild_supply:
                return "no wild card is left in the supply", C_WILD
            if self.hand is None:
                return None
            if (n := self._matching()) < 2:
                return (f"you hold {_plural(n, 'card')} matching a card of your board; "
                        "the wild costs two"), C_WILD
            return "no season on your board has a missing value without a wild", C_WILD
        if phase not in places:
            if phase == "act":
                return ("take the wild first: W, then discard two cards matching your board",
                        C_WILD)
            return self.not_now(C_WILD)
        season, bit = move.card // 6, 1 << move.card % 6
        name = _card(move.card)
        i = _corner_of(self.corners, season)
        if i < 0:
            # With wild=any a wild may open a season not on the board, and
            # then each of its values is listed (rules R8): none listed, the
            # wild goes only where the season already is (wild=board).
            if not any(m[:3] == f"W{name[:2]}" for m in self.listed):
                return (f"no {SEASON_NAMES[season]} on your board: a wild replaces a "
                        "missing value of a season you have"), C_WILD
            free = _free_sides(self.corners)
            if move.side < 0 and len(free) == 2:
                raise AmbiguousMoveError(
                    f"{SEASON_NAMES[season]} is new to your board: say the side of the "
                    f"wild, left (descending) or right (ascending): W{name}L or W{name}R",
                    f"{TITLE}: {C_WILD}",
                    (f"W{name}L", f"W{name}R"),
                )
            if move.side >= 0 and move.side not in free:
                return (f"both {'left' if move.side == 0 else 'right'} corners hold a season "
                        "already"), C_WILD
            return None
        if move.side >= 0 and move.side != i & 1:
            return (f"your {SEASON_NAMES[season]} is in the {CORNERS[i]} corner: its wild "
                    "goes there"), C_WILD
        if self.corners[i].wild:
            return (f"your {SEASON_NAMES[season]} already has a wild: at most one per season",
                    C_WILD)
        if self.corners[i].mask & bit:
            return f"your board already holds {name}: a wild replaces a missing value", C_WILD
        return None

    def _P(self, move) -> tuple[str, str] | None:
        problem = self.enter(move, "play", C_PLAY)
        if problem:
            return problem
        name = _card(move.card)
        if self.hand is None:
            return None
        if not self.hand[name]:
            return f"you hold no {name}", C_PLAY
        season, v = move.card // 6, move.card % 6
        bit = 1 << v
        i = _corner_of(self.corners, season)
        if i >= 0:
            _, mask, wild = self.corners[i]
            if mask & bit:
                return (f"your {SEASON_NAMES[season]} already holds a {v + 1}: a season "
                        "cannot hold two cards of one value"), C_PLAY
            if move.side >= 0 and move.side != i & 1:
                return (f"your {SEASON_NAMES[season]} is in the {CORNERS[i]} corner: all "
                        "its cards go there"), C_PLAY
            after = mask | wild | bit
            if i & 1:
                cost = 1 if after < bit << 1 else 2
            else:
                cost = 1 if after & (bit - 1) == 0 else 2
        else:
            free = _free_sides(self.corners)
            if move.side < 0 and len(free) == 2:
                f = "F" if move.feather else ""
                raise AmbiguousMoveError(
                    f"{SEASON_NAMES[season]} is new to your board: say the side, left "
                    f"(descending) or right (ascending): P{name}L or P{name}R",
                    f"{TITLE}: {C_PLAY}",
                    (f"{f}P{name}L", f"{f}P{name}R"),
                )
            if move.side >= 0 and move.side not in free:
                return (f"both {'left' if move.side == 0 else 'right'} corners hold a season "
                        "already"), C_PLAY
            cost = 1
        # The Frog takes 1 off the action, on its first card (held, or a feather).
        if self.turn.phase == "act" and (move.feather or self.owns(FROG)):
            cost -= 1
        others = sum(self.hand.values()) - 1
        if others < cost:
            return (f"playing {name} costs {_plural(cost, 'card')} and you hold "
                    f"{others} other{'s' * (others != 1)}"), C_PLAY
        return None

    def _X(self, move) -> tuple[str, str] | None:
        clause = {"wild": C_WILD, "pay": C_PLAY, "limit": C_LIMIT}.get(self.turn.phase or "")
        if clause is None:
            return self.not_now(C_ACTIONS)
        name = _card(move.card)
        if self.hand is None:
            return None
        if not self.hand[name]:
            return f"you hold no {name}", clause
        if self.turn.phase == "wild":
            i = _corner_of(self.corners, move.card // 6)
            if i < 0 or not self.corners[i].mask >> move.card % 6 & 1:
                return f"{name} is not on your board: the wild costs two cards that are", C_WILD
        return None

    def _E(self, move) -> tuple[str, str] | None:
        phase = self.turn.phase
        if phase in ("play", "take") or (phase == "draw" and self.turn.count == 2):
            return None
        if phase == "draw":
            return "draw two cards: the action takes two (three with the Squirrel)", C_DRAW
        return self.not_now(C_ACTIONS)

    def _O(self, move) -> tuple[str, str] | None:
        if self.turn.phase != "limit":
            return ("a feather is spent on the Otter at the hand limit, at the end of the turn",
                    C_FEATHERS)
        if self.otter_spent():
            return "you have spent a feather on the Otter this turn already", C_FEATHERS
        return self.feather(OTTER)


def read_listed(view: View, listed: tuple[str, ...], text: str) -> str:
    """The listed move ``text`` names, read as ``parse_move`` reads it (words,
    case, separators: ``play summer 4 right`` is ``PSu4R``) with the side of
    a play checked on the player's board in the view and dropped where it is
    no choice.

    Raises NotationError (the text does not read as a move, or names no
    listed move: then why, in ``apply``'s words where the view tells it) or
    AmbiguousMoveError (a new season's side is needed, with the choices).
    """
    move = parse_move(None, text)  # a move reads the same in every position
    spelled = _spelled(view, move)
    if spelled in listed:
        return spelled
    if view.to_move is None:
        raise NotationError(f"{spelled} is not one of your legal moves: the game is over",
                            f"{TITLE}: {C_END}")
    why = _Why(view, listed).why(move)
    if why is not None:
        reason, clause = why
        raise NotationError(f"{spelled} is not one of your legal moves: {reason}",
                            f"{TITLE}: {clause}")
    shown = ", ".join(listed) if len(listed) <= 12 else f"{len(listed)} moves"
    raise NotationError(
        f"{spelled} is not one of your legal moves ({view.turn}); listed: {shown}",
        f"{TITLE}: {C_ACTIONS}",
    )


# --- narrate ---------------------------------------------------------------------------


def _holders(view: View) -> dict[str, str | None]:
    """Animal -> the name of the player holding its token (None: the supply)."""
    out: dict[str, str | None] = dict.fromkeys(ANIMALS)
    for p in view.players:
        for a in p.animals:
            out[a] = p.name
    return out


def _corner_view(view: View, seat: int, season: int):
    """The corner of ``season`` on a seat's board in the view, or None."""
    return next((c for c in view.players[seat].corners if c.season == SEASONS[season]), None)


def _corner_text(view: View, seat: int, season: int) -> tuple[str, str] | None:
    """The corner of ``season`` on a board: its name and its cards in order,
    as ``show`` writes them: ('top-left', 'Autumn 6* 5 4 3')."""
    c = _corner_view(view, seat, season)
    if c is None:
        return None
    return c.corner, " ".join([SEASON_NAMES[season], *(t[2:] for t in c.cards)])


def _drawn(before: View, after: View, seat: int) -> str | None:
    """The card the mover drew, if the viewer is the mover (their own hand)."""
    a, b = before.players[seat].hand, after.players[seat].hand
    if a is None or b is None:
        return None
    new = Counter(b) - Counter(a)
    return next(iter(new), None) if sum(new.values()) == 1 else None


def _final(view: View) -> str:
    """The result, from the view: the most points, then the most cards in
    hand, then the most wild cards played; still tied, a shared place."""
    players = view.players
    key = {p.name: (p.score, p.hand_size, p.wilds) for p in players}
    order = sorted(players, key=lambda p: tuple(-k for k in key[p.name]))
    text = "the game is over: " + ", ".join(f"{p.name} {p.score}" for p in order)
    ties = []
    for a, b in zip(order, order[1:]):
        ka, kb = key[a.name], key[b.name]
        if ka[0] != kb[0]:
            continue
        if ka == kb:
            ties.append(f"{a.name} and {b.name} share a place")
        else:
            why = "cards in hand" if ka[1] != kb[1] else "wild cards played"
            ties.append(f"{a.name} ahead of {b.name} on {why}")
    if ties:
        text += f" ({'; '.join(ties)})"
    winners = [p.name for p in order if key[p.name] == key[order[0].name]]
    if len(winners) > 1:
        return f"{text}; {' and '.join(winners)} share the win"
    return f"{text}; {winners[0]} wins"


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What the decision ``move`` did, in the rule text's words: the card
    drawn (to its drawer only), taken, played (where, and what it costs),
    paid or discarded, a wild taken, placed or moved, an animal changing
    hands, a Season set completed, the end of the turn, the last round, the
    scores that changed and the end of the game. Told from the two views.

    ``PAu4`` replacing a wild reads: ``played Au4 to the top-left corner,
    replacing its wild (Autumn 5 4 3), to pay 2 cards``.
    """
    m = parse_move(None, move)
    turn = _turn(before)
    parts = []
    if m.feather and m.op in _ANIMAL_OF:
        parts.append(f"spent a feather on the {ANIMALS[_ANIMAL_OF[m.op]]}")
    op = m.op
    if op == "D":
        card = _drawn(before, after, by)
        if card is None:
            back = before.pile_backs[m.arg]
            if back:
                season = SEASON_NAMES[SEASONS.index(back)]
                card = f"{'an' if season[0] in 'AEIOU' else 'a'} {season}-backed card"
            else:
                card = "a card"
        parts.append(f"drew {card} from pile {m.arg + 1}")
    elif op == "T":
        if m.arg == 3:
            parts.append(f"took {before.discard[-1]} from the discard pile")
        else:
            parts.append(f"took {before.market[m.arg][-1]} from column {SOURCES[m.arg]}")
    elif op == "R":
        col = next((i for i in range(3) if len(after.market[i]) > len(before.market[i])), -1)
        if col >= 0:
            parts.append(f"rebuilt column {SOURCES[col]} with {after.market[col][-1]} "
                         f"from pile {m.arg + 1}")
        else:
            parts.append(f"rebuilt a column from pile {m.arg + 1}")
    elif op == "W" and m.card < 0:
        parts.append("took a wild card, for two cards matching the board")
    elif op == "W":
        name = _card(m.card)
        verb = {"move-wild": "moved the replaced wild to",
                "bonus": "placed the bonus wild as"}.get(turn.phase or "", "placed the wild as")
        where = _corner_text(after, by, m.card // 6)
        text = f"{verb} {name}"
        if where and _corner_text(before, by, m.card // 6) is None:
            text += f" in the {where[0]} corner"  # a season new to the board (wild=any)
        parts.append(text + (f" ({where[1]})" if where else ""))
    elif op == "P":
        name = _card(m.card)
        where = _corner_text(after, by, m.card // 6)
        text = f"played {name}"
        if where:
            text += f" to the {where[0]} corner"
            old = _corner_view(before, by, m.card // 6)
            if old is not None and f"{name}*" in old.cards:
                text += ", replacing its wild"
            text += f" ({where[1]})"
        owed = _turn(after)
        if owed.phase == "pay":
            text += f", to pay {_plural(owed.owe, 'card')}"
        elif owed.phase is not None:
            text += ", free"
        parts.append(text)
    elif op == "X":
        name = _card(m.card)
        parts.append({"wild": f"discarded {name} for the wild",
                      "pay": f"paid {name}",
                      "limit": f"discarded {name} at the hand limit"}.get(
                          turn.phase or "", f"discarded {name}"))
    elif op == "E":
        parts.append("ended the action")
    else:
        parts.append(f"spent a feather on the Otter: a hand limit of {rules.OTTER_LIMIT} "
                     "this turn")
    parts += _consequences(before, after, by)
    return ", ".join(parts[:1]) + "".join(f"; {p}" for p in parts[1:])


def _consequences(before: View, after: View, by: int) -> list[str]:
    """What followed from the move: tokens, sets, the wild's return, the end
    of the turn, the last round, the scores."""
    out = []
    was, now = _holders(before), _holders(after)
    mover = before.players[by].name
    for animal in ANIMALS:
        if was[animal] == now[animal] or now[animal] is None:
            continue
        if was[animal] is None:
            out.append(f"{now[animal]} takes the {animal} from the supply")
            continue
        loser = _seat(after, was[animal])
        feather = after.players[loser].feathers > before.players[loser].feathers
        out.append(f"{now[animal]} takes the {animal} from {was[animal]}"
                   + (", who takes a feather" if feather else ""))
    for a, b in zip(before.players, after.players):
        for ca, cb in zip(a.corners, b.corners):
            if cb.complete and not ca.complete:
                season = SEASON_NAMES[SEASONS.index(cb.season)]
                out.append(f"{b.name} completes the {season} set")
    if after.wild_supply > before.wild_supply:
        out.append("the wild goes back to the supply")
    t_before, t_after = _turn(before), _turn(after)
    if after.to_move is None:
        if after.end and after.end != before.end:
            out.append(after.end)
        out.append(_final(after))
        return out
    if t_after.phase == "rebuild" and t_before.phase != "rebuild":
        out.append(f"column {SOURCES[t_after.column]} is to be rebuilt")
    if t_after.phase == "limit" and t_before.phase != "limit":
        out.append(f"end of turn: discard down to {t_after.limit} cards")
    if t_after.phase == "bonus" and t_before.phase != "bonus":
        out.append("end of turn: the bonus wild to place")
    if after.end != before.end and after.end:
        out.append(after.end)
    if after.to_move != mover:
        out.append(f"end of turn, {after.to_move} to play")
    changed = [
        f"{b.name} {b.score} ({b.score - a.score:+d})"
        for a, b in zip(before.players, after.players)
        if a.score != b.score
    ]
    if changed:
        out.append("score " + ", ".join(changed))
    return out
