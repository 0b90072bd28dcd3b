"""Q-Turn's narration: what a move did, told from two views of the public
board (the engine's Narration layer).

Nothing in a view is hidden from anybody but the kinds of the face-down
disks, and no sentence names one before it is revealed: so everybody is
told the same, whatever lies face down.
"""

from __future__ import annotations

from .notation import parse_move
from .rules import (
    ARROWS, AXES, BOUNCE, D, DIR_NAMES, DIRS, GO, KIND_LETTERS, KIND_NAMES, ORIENT, SQUARE_INDEX,
    SQUARES, STEP, View,
)  # fmt: skip


def _disk(code: str) -> str:
    """``the One-Way Arrow``: the kind of a revealed disk, from its view code."""
    return "the " + KIND_NAMES[KIND_LETTERS.index(code[0])]


def _way(code: str) -> str:
    """How a revealed disk points: ``west``, ``north-south``; a Q-Turner every way."""
    way = code[2:]
    if code[0] == "D":
        return "-".join(DIR_NAMES[DIRS.index(d)] for d in way)
    return DIR_NAMES[DIRS.index(way)] if way else "every way"


def _turned(before: View, after: View, sq: str) -> str:
    """The Double Arrow's action on the disk on ``sq``: a quarter turn
    counter-clockwise, told by where the disk pointed and points now."""
    return (
        f"turning {_disk(before.disks[sq])} on {sq} from {_way(before.disks[sq])} "
        f"to {_way(after.disks[sq])}"
    )


_ALL_TURN = "every revealed disk turns a quarter turn counter-clockwise"


def _action(before: View, after: View, code: str, turn: int, how: str) -> str:
    """The special action (Special Actions) of the disk ``code``, which the
    player is ``how`` ("landing on a", "re-using its")."""
    kind = code[0]
    if kind == "Q":
        return f"{how} Q-Turner, {_ALL_TURN}"
    if kind == "D":
        if turn < 0:
            return f"{how} Double Arrow, turning no disk"
        return f"{how} Double Arrow, {_turned(before, after, SQUARES[turn])}"
    return f"{how} One-Way Arrow, which takes no action"


def _bounced_off(before: View, seat: int) -> str:
    """Whose token a bounce was off, as far as the move tells: the tokens on the
    squares the mover's disk points to (the move does not name which)."""
    here = before.tokens[seat]
    assert here is not None
    code = before.disks[here]
    kind = KIND_LETTERS.index(code[0])
    way = code[2:]
    face = (AXES if kind == D else DIRS).index(way) if way else 0
    at = {sq: before.players[p] for p, sq in enumerate(before.tokens) if sq is not None}
    near = [SQUARES[s] for d in ARROWS[kind][face] if (s := STEP[SQUARE_INDEX[here]][d]) >= 0]
    off = [f"{at[sq]}'s token on {sq}" for sq in near if sq in at]
    return off[0] if len(off) == 1 else "a token (" + " or ".join(off) + ")"


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What the move ``move`` of seat ``by`` did, from two views of the public
    board: where the token went, which disk was revealed and how it was
    oriented, which disks turned, the far corner reached, the win.

    >>> from adjudicator.games.q_turn import rules
    >>> start = rules.setup({"disks": "4Q,6D,6O", "round-limit": 100}, ("ann", "bob"), "75")
    >>> after = rules.apply(start, parse_move(start, "d4"))
    >>> print(narrate(rules.view(start, None), rules.view(after, None), 0, "d4"))
    enters the board on d4, their starting corner, and reveals a Double Arrow, which they \
orient next
    """
    m = parse_move(None, move)
    name = before.players[by]
    here = before.tokens[by]
    if before.orienting is not None:
        # Taking a Turn: "flip it over and rotate it to the position of your choice".
        sq = before.orienting
        code = after.disks[sq]
        if code[0] == "O":
            words = f"points the One-Way Arrow on {sq} {_way(code)}"
        else:
            words = f"lays the Double Arrow on {sq} {_way(code)}"
            if m.turn >= 0:
                words += f", {_turned(before, after, SQUARES[m.turn])}"
    elif m.action == GO:
        to = SQUARES[m.arg]
        if here is None:
            words = f"enters the board on {to}, their starting corner,"
        else:
            words = f"moves from {here} to {to}"
        if after.winner == name:
            far = before.far_corners[by]
            words += f", home again after reaching {far}: {name} wins"
        else:
            if after.reached[by] and not before.reached[by]:
                words += ", their far corner,"
            if before.disks[to] == "?":
                # Taking a Turn: a face-down disk is flipped over as the token lands.
                revealed = after.disks[to]
                kind = KIND_NAMES[KIND_LETTERS.index(revealed)]
                then = f": {_ALL_TURN}" if revealed == "Q" else ", which they orient next"
                words += f" and reveals a {kind}{then}"
            else:
                landing = _action(before, after, before.disks[to], m.turn, "landing on a")
                words = words.rstrip(",") + "; " + landing
    elif m.action == BOUNCE:
        assert here is not None
        words = (
            f"bounces off {_bounced_off(before, by)} and stays on {here}; "
            + _action(before, after, before.disks[here], m.turn, "re-using its")
        )
    elif m.action == ORIENT:
        assert here is not None
        words = (
            f"re-orients the One-Way Arrow on {here} from {_way(before.disks[here])} to "
            f"{_way(after.disks[here])} instead of moving"
        )
    else:  # never legal (ruling R12)
        words = "passes"
    if after.to_move is None and after.winner is None:
        words += (
            f"; the round limit ({after.round_limit} rounds) is reached: the game ends "
            "without a winner"
        )
    return words


def _aim(arg: int) -> str:
    """An orientation as a move names it: 0-3 a direction, 4 and 5 an axis."""
    return DIR_NAMES[arg] if arg < 4 else ("north-south", "east-west")[arg - 4]


def _turning(view: View, turn: int) -> str:
    if turn < 0:
        return "turning no disk"
    sq = SQUARES[turn]
    return f"turning {_disk(view.disks[sq])} on {sq} a quarter turn"


def describe(view: View, move: str) -> str:
    """What the legal move ``move`` would do, in a short phrase, from the
    public board before it: where the token goes, the disk it reveals or
    the action of the disk it lands or bounces on (Special Actions), the
    far corner reached, the way a disk is pointed. What a face-down disk
    is stays untold: nobody knows it before it is revealed.

    >>> from adjudicator.games.q_turn import rules
    >>> start = rules.setup({"disks": "4Q,6D,6O", "round-limit": 100}, ("ann", "bob"), "75")
    >>> describe(rules.view(start, 0), "d4")
    'enter the board on d4, your starting corner, and reveal its disk'
    """
    m = parse_move(None, move)
    seat = view.players.index(view.to_move) if view.to_move in view.players else 0
    here = view.tokens[seat]
    if view.orienting is not None:
        sq = view.orienting
        if view.disks[sq][:1] == "O":
            return f"point the One-Way Arrow on {sq} {_aim(m.arg)}"
        return f"lay the Double Arrow on {sq} {_aim(m.arg)}, {_turning(view, m.turn)}"
    if m.action == GO:
        to = SQUARES[m.arg]
        if here is None:
            return f"enter the board on {to}, your starting corner, and reveal its disk"
        words = f"move from {here} to {to}"
        if to == view.far_corners[seat] and not view.reached[seat]:
            words += ", your far corner,"
        elif to == view.homes[seat] and view.reached[seat]:
            return words + ", home again after the far corner: you win"
        code = view.disks[to]
        if code == "?":
            return words + " and reveal its disk"
        return words.rstrip(",") + ", " + _landing(view, code, m.turn, "landing on")
    if m.action == BOUNCE:
        assert here is not None
        return f"bounce and stay on {here}, " + _landing(view, view.disks[here], m.turn,
                                                           "re-using")
    if m.action == ORIENT:
        return f"re-orient the One-Way Arrow on {here} to {_aim(m.arg)} instead of moving"
    return "pass"


def _landing(view: View, code: str, turn: int, how: str) -> str:
    """The special action of the disk ``code`` the token lands or bounces on."""
    if code[:1] == "Q":
        return f"{how} the Q-Turner: {_ALL_TURN}"
    if code[:1] == "D":
        return f"{how} the Double Arrow, {_turning(view, turn)}"
    return f"{how} the One-Way Arrow, which takes no action"
