"""Q-Turn by mail: what a move did, told from a player's views
(:func:`narrate`), and the listed move a player typed, read from their view
and their list alone (:func:`read_listed`).

Nothing in a view is hidden from anybody but the kinds of the face-down
disks, and nothing a player can type reads differently with another disk
under a face-down one (ruling R6): so a move typed into a view file is read,
and refused, exactly as the log reads it, by the rules themselves, on a
position rebuilt from the view with every face-down disk taken for a One-Way
Arrow (a stand-in no answer depends on).
"""

from __future__ import annotations

from ...errors import MoveError, NotationError
from .notation import format_move, parse_move
from .rules import (
    ARROWS, AXES, BOUNCE, D, DIR_NAMES, DIRS, GO, KIND_LETTERS, KIND_NAMES, O, ORIENT, SQUARES,
    STEP, Move, State, View, _SQUARE_INDEX, apply,
)  # fmt: skip

#: How a refusal of a readable move ends: the move, spelled, comes first, and
#: the rules' own reason after it.
NOT_LISTED = "is not one of your legal moves"


# --- reading a move typed into a view file -------------------------------------------


def position(view: View) -> State:
    """A position that shows exactly what ``view`` shows. The kinds of the
    face-down disks, which nobody sees, are One-Way Arrows here: no legal
    move, reading or refusal depends on them (notation/q-turn.md, R6)."""
    kinds, faces = [], []
    for sq in SQUARES:
        code = view.disks[sq]
        if code == "?":
            kinds.append(O)
            faces.append(-1)
            continue
        kind = KIND_LETTERS.index(code[0])
        kinds.append(kind)
        # A disk just revealed ("D", "O") points north until its player orients it.
        way = code[2:]
        faces.append((AXES if kind == D else DIRS).index(way) if way else 0)
    players = tuple(view.players)
    n = len(players)
    seat = -1 if view.to_move is None else players.index(view.to_move)

    def squares(names) -> tuple[int, ...]:
        return tuple(-1 if sq is None else _SQUARE_INDEX[sq] for sq in names)

    return State(
        players=players,
        round_limit=view.round_limit,
        kinds=tuple(kinds),
        faces=tuple(faces),
        tokens=squares(view.tokens),
        homes=squares(view.homes),
        reached=tuple(view.reached),
        seat=seat,
        orienting=view.orienting is not None,
        # Seat k plays the k-th turn of each round (turns go in seat order).
        turns=(view.round - 1) * n + max(seat, 0),
        winner=-1 if view.winner is None else players.index(view.winner),
    )


def read_listed(view: View, listed: tuple[str, ...], text: str) -> str:
    """The listed move (canonical notation) the player to move typed as ``text``.

    Every spelling :func:`parse_move` takes, read as the log reads it: a
    turn of a Q-Turner is no turn, ``N`` on a Double Arrow is ``NS``, the
    square of a bounce is checked and dropped. A move that reads but is not
    listed is refused with the rules' reason; text that does not read, with
    the notation's.

    >>> from adjudicator.games import q_turn as g
    >>> start = g.setup({"disks": "4Q,6D,6O", "round-limit": 100}, ("ann", "bob"), "75")
    >>> listed = tuple(g.format_move(start, m) for m in g.legal_moves(start))
    >>> read_listed(g.view(start, 0), listed, " D4 ")
    'd4'
    >>> read_listed(g.view(start, 0), listed, "b2")
    Traceback (most recent call last):
    ...
    adjudicator.errors.NotationError: b2 is not one of your legal moves: your first move \
enters the board on a free corner: a1, d1, a4 or d4 (Q-Turn: Setup and Start)
    """
    if text in listed:
        return text
    move = parse_move(None, text)  # raises as the log's reader does
    state = position(view)
    canonical = format_move(state, move)
    try:
        apply(state, move)
    except MoveError as e:
        raise NotationError(f"{spelled(move, canonical)} {NOT_LISTED}: {e.reason}",
                            e.clause) from None
    if canonical in listed:
        return canonical
    # Legal as far as the view tells, but not on the list: the list was edited.
    raise NotationError(f"{canonical} {NOT_LISTED} ({len(listed)} listed)")


def spelled(move: Move, canonical: str) -> str:
    """A refused move as its player meant it: canonical, but a bounce keeps the
    square it named (which is what is wrong with it)."""
    if move.action == BOUNCE and move.arg >= 0:
        return f"bounce off {SQUARES[move.arg]}" + canonical.removeprefix("bounce")
    return canonical


# --- narrating a move ----------------------------------------------------------------


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
    near = [SQUARES[s] for d in ARROWS[kind][face] if (s := STEP[_SQUARE_INDEX[here]][d]) >= 0]
    off = [f"{at[sq]}'s token on {sq}" for sq in near if sq in at]
    return off[0] if len(off) == 1 else "a token (" + " or ".join(off) + ")"


def narrate(before: View, after: View, by: int, move: str) -> str:
    """What the move ``move`` of seat ``by`` did, from two views of the public
    board: where the token went, which disk was revealed and how it was
    oriented, which disks turned, the far corner reached, the win.

    >>> from adjudicator.games import q_turn as g
    >>> start = g.setup({"disks": "4Q,6D,6O", "round-limit": 100}, ("ann", "bob"), "75")
    >>> print(narrate(g.view(start, None), g.view(g.fast_apply(start, "d4"), None), 0, "d4"))
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
