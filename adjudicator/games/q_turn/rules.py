"""Q-Turn's rules: the state, setup, legal moves, applying a move, the end,
what each player sees, and a state consistent with what one saw.

Rule clauses are cited by the rule text's section headings ("Q-Turn:
Bouncing"); the notation and every ruling are in ``notation/q-turn.md``.

Representation: the 4x4 board's squares are ``rank * 4 + file`` (a1 = 0,
b1 = 1, ..., d4 = 15). A disk is a kind (Q-Turner, Double Arrow, One-Way
Arrow) and an orientation code: a One-Way Arrow's direction (0-3 for N, E, S,
W), a Double Arrow's axis (0 north-south, 1 east-west), 0 for a Q-Turner,
whose four arrows look the same every way round. Face-down disks have the
orientation -1; their kinds are in the state (the referee knows them) but
nothing a player can see or do depends on them until they are revealed.

Everything here is checked: :func:`apply` says why a move is illegal. The
unchecked paths of validation and self-play are in :mod:`.fast`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

import msgspec
from msgspec.structs import replace as _replace

from ...chance import shuffled
from ...engine import Outcome, Param, Standing, Value
from ...errors import IllegalMoveError, NotationError

ID = "q-turn"
TITLE = "Q-Turn"
PLAYERS = (2, 3, 4)
TURN_CLAUSE = "Q-Turn: Turn Order"
END_CLAUSE = "Q-Turn: Winning"
NOTATION = "notation/q-turn.md"

SETUP = "Setup and Start"
TURN = "Taking a Turn"
SPECIAL = "Special Actions"
BOUNCING = "Bouncing"
WINNING = "Winning"

Q, D, O = 0, 1, 2  # noqa: E741 - Q-Turner, Double Arrow, One-Way Arrow: the rule text's letters
KIND_LETTERS = "QDO"
KIND_NAMES = ("Q-Turner", "Double Arrow", "One-Way Arrow")
KIND_PLURALS = ("Q-Turners", "Double Arrows", "One-Way Arrows")
DIRS = "NESW"
DIR_NAMES = ("north", "east", "south", "west")
AXES = ("NS", "EW")
FILES = "abcd"
SQUARES = tuple(f"{FILES[i % 4]}{i // 4 + 1}" for i in range(16))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARES)}
CORNERS = (0, 3, 12, 15)  # a1, d1, a4, d4


def _mix_counts(text: str) -> tuple[int, int, int] | None:
    m = re.fullmatch(r"(0|[1-9][0-9]?)Q,(0|[1-9][0-9]?)D,(0|[1-9][0-9]?)O", text)
    if m is None:
        return None
    counts = (int(m[1]), int(m[2]), int(m[3]))
    return counts if sum(counts) == 16 else None


def _check_mix(value: Value) -> str | None:
    if isinstance(value, str) and _mix_counts(value) is not None:
        return None
    return (
        f"{value!r} is not a disk mix: write the numbers of Q-Turners, Double Arrows "
        "and One-Way Arrows, adding up to 16, as in 4Q,6D,6O"
    )


PARAMS = (
    Param(
        "disks",
        "4Q,6D,6O",
        "the 16 disks: how many Q-Turners (Q), Double Arrows (D) and One-Way "
        "Arrows (O), adding up to 16, written like 4Q,6D,6O",
        check=_check_mix,
    ),
    Param(
        "round-limit",
        100,
        "the game ends without a winner once every player has had this many "
        "turns and nobody has completed the journey",
        minimum=1,
        maximum=100_000,
    ),
)

# --- geometry ------------------------------------------------------------------------


def _step(i: int, d: int) -> int:
    r, c = divmod(i, 4)
    if d == 0:
        return i + 4 if r < 3 else -1
    if d == 1:
        return i + 1 if c < 3 else -1
    if d == 2:
        return i - 4 if r > 0 else -1
    return i - 1 if c > 0 else -1


STEP = tuple(tuple(_step(i, d) for d in range(4)) for i in range(16))
# The direction from one square to an orthogonal neighbour, -1 if not neighbours.
DIRECTION = tuple(
    tuple(next((d for d in range(4) if STEP[a][d] == b), -1) for b in range(16))
    for a in range(16)
)


def far_corner(corner: int) -> int:
    """The diagonally opposite corner: a1 <-> d4, d1 <-> a4."""
    return 15 - corner


# The directions a disk's arrows point in, by kind and orientation code.
ARROWS = (
    ((0, 1, 2, 3),),
    ((0, 2), (1, 3)),
    ((0,), (1,), (2,), (3,)),
)
# A quarter turn counter-clockwise: north becomes west, west south, ...
TURNED = ((0,), (1, 0), (3, 0, 1, 2))


def _mix(counts: tuple[int, int, int]) -> tuple[int, ...]:
    return (Q,) * counts[0] + (D,) * counts[1] + (O,) * counts[2]


# --- state and moves -----------------------------------------------------------------

GO, BOUNCE, ORIENT, PASS = range(4)


class Move(NamedTuple):
    """One decision.

    ``GO`` to square ``arg`` (entering the board on a corner, moving, or
    coming home); ``BOUNCE`` off the token on square ``arg`` (-1: not said
    which); ``ORIENT`` one's own disk to direction ``arg`` (0-3) or axis
    ``arg - 4`` (4: north-south, 5: east-west); ``PASS`` (never legal).
    ``turn`` is the square of the disk a Double Arrow turns, -1 for none.
    """

    action: int
    arg: int = -1
    turn: int = -1


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    round_limit: int
    kinds: tuple[int, ...]  # 16 disks: Q, D or O (hidden while face down)
    faces: tuple[int, ...]  # 16 orientation codes, -1 while face down
    tokens: tuple[int, ...]  # per seat: its square, -1 while off the board
    homes: tuple[int, ...]  # per seat: its starting corner, -1 until chosen
    reached: tuple[bool, ...]  # per seat: has stood on its far corner
    seat: int  # to move, -1 once the game is over
    orienting: bool  # the seat to move has just revealed its disk and orients it
    turns: int  # turns completed (a turn may take two moves)
    winner: int  # seat, -1 for none


# --- setup ---------------------------------------------------------------------------


def setup(params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> State:
    counts = _mix_counts(str(params["disks"]))
    assert counts is not None  # checked by the parameter
    # Setup and Start: the disks are mixed face down and laid out 4x4.
    kinds = tuple(shuffled(seed, "disks", _mix(counts)))
    n = len(players)
    return State(
        players=players,
        round_limit=int(params["round-limit"]),
        kinds=kinds,
        faces=(-1,) * 16,
        tokens=(-1,) * n,
        homes=(-1,) * n,
        reached=(False,) * n,
        seat=0,
        orienting=False,
        turns=0,
        winner=-1,
    )


def to_move(state: State) -> int | None:
    return None if state.seat < 0 else state.seat


# --- legal moves ---------------------------------------------------------------------

# Squares in name order (a1, a2, a3, a4, b1, ...), the order `legal` lists them in.
_BY_NAME = tuple(sorted(range(16), key=lambda i: SQUARES[i]))
_NAME_RANK = {i: r for r, i in enumerate(_BY_NAME)}
# Where the arrows of a disk lead: OPEN[square][kind][orientation], the squares
# on the board in name order.
OPEN = tuple(
    tuple(
        tuple(
            tuple(sorted((STEP[i][d] for d in arrows if STEP[i][d] >= 0), key=_NAME_RANK.__getitem__))
            for arrows in ARROWS[kind]
        )
        for kind in range(3)
    )
    for i in range(16)
)
# Every move a legal list can hold, made once. The second index is the
# square of the disk turned, plus one (0: none).
_GO_TO = tuple(tuple(Move(GO, t, x) for x in range(-1, 16)) for t in range(16))
_BOUNCING = tuple(Move(BOUNCE, -1, x) for x in range(-1, 16))
_ORIENTING = tuple(tuple(Move(ORIENT, a, x) for x in range(-1, 16)) for a in range(6))
_ENTRIES = tuple(sorted(CORNERS, key=_NAME_RANK.__getitem__))
_ONE_WAY = tuple(Move(ORIENT, d) for d in range(4))
_RE_ORIENT = tuple(tuple(m for m in _ONE_WAY if m.arg != face) for face in range(4))


def _turnable(kinds: tuple[int, ...], faces: tuple[int, ...]) -> list[int]:
    """The disks a Double Arrow may turn to some effect, plus one, in name
    order: revealed, and not a Q-Turner (which looks the same after a quarter
    turn). The caller leaves out the Double Arrow's own square."""
    return [i + 1 for i in _BY_NAME if faces[i] >= 0 and kinds[i] != Q]


def legal_moves(state: State) -> tuple[Move, ...]:
    # Built in the listed order (by action, then by square name), from moves
    # made once: self-play calls this for every move.
    seat = state.seat
    if seat < 0:
        return ()
    tokens, kinds, faces = state.tokens, state.kinds, state.faces
    pos = tokens[seat]
    if state.orienting:
        if kinds[pos] == O:
            return _ONE_WAY
        own = pos + 1
        targets = [x for x in _turnable(kinds, faces) if x != own]
        ns, ew = _ORIENTING[4], _ORIENTING[5]
        return (ns[0], *[ns[x] for x in targets], ew[0], *[ew[x] for x in targets])
    if pos < 0:
        homes = state.homes
        return tuple(_GO_TO[c][0] for c in _ENTRIES if c not in homes and c not in tokens)
    kind, face = kinds[pos], faces[pos]
    # Home again after the far corner ends the game: that disk takes no action.
    home_again = state.homes[seat] if state.reached[seat] else -1
    moves: list[Move] = []
    turnable: list[int] | None = None
    can_bounce = False
    for t in OPEN[pos][kind][face]:
        if t in tokens:
            can_bounce = True
            continue
        go = _GO_TO[t]
        moves.append(go[0])
        if kinds[t] == D and faces[t] >= 0 and t != home_again:
            if turnable is None:
                turnable = _turnable(kinds, faces)
            own = t + 1
            moves += [go[x] for x in turnable if x != own]
    if can_bounce:
        moves.append(_BOUNCING[0])
        if kind == D:
            if turnable is None:
                turnable = _turnable(kinds, faces)
            own = pos + 1
            moves += [_BOUNCING[x] for x in turnable if x != own]
    if kind == O:
        moves += _RE_ORIENT[face]
    return tuple(moves)


# --- applying a move -----------------------------------------------------------------


def _illegal(reason: str, section: str) -> IllegalMoveError:
    return IllegalMoveError(reason, f"{TITLE}: {section}")


def _points(kind: int, face: int) -> str:
    names = [DIR_NAMES[d] for d in ARROWS[kind][face]]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _rotate_all(faces: list[int], kinds: tuple[int, ...]) -> None:
    """The Q-Turner: every revealed disk a quarter turn counter-clockwise."""
    for i, f in enumerate(faces):
        if f >= 0:
            faces[i] = TURNED[kinds[i]][f]


def _check_turn(state: State, own: int, target: int) -> None:
    """The Double Arrow's optional turn of ``target`` (not -1) from ``own``."""
    if target == own:
        raise _illegal(
            f"a Double Arrow turns a disk other than your own, not the one on {SQUARES[own]}",
            SPECIAL,
        )
    if state.faces[target] < 0:
        raise _illegal(
            f"the disk on {SQUARES[target]} is face down: only revealed disks are turned",
            SPECIAL,
        )


def _end_turn(state: State, **changes) -> State:
    n = len(state.players)
    turns = state.turns + 1
    over = turns >= state.round_limit * n
    return _replace(
        state,
        seat=-1 if over else (state.seat + 1) % n,
        orienting=False,
        turns=turns,
        **changes,
    )


def _action(state: State, own: int, turn: int, faces: list[int], verb: str) -> None:
    """The special action of the revealed disk on ``own`` (Special Actions), into
    ``faces``; ``verb`` says how the player came to take it, for messages."""
    kind = state.kinds[own]
    if kind == Q:
        if turn >= 0:
            raise _illegal(
                f"only a Double Arrow turns one disk; {verb} the Q-Turner on "
                f"{SQUARES[own]} turns every revealed disk, so name none",
                SPECIAL,
            )
        _rotate_all(faces, state.kinds)
    elif kind == D:
        if turn >= 0:
            _check_turn(state, own, turn)
            faces[turn] = TURNED[state.kinds[turn]][faces[turn]]
    elif turn >= 0:
        raise _illegal(
            f"only a Double Arrow turns another disk; {verb} the One-Way Arrow on "
            f"{SQUARES[own]} takes no action",
            SPECIAL,
        )


def _move_to(state: State, seat: int, target: int, turn: int) -> State:
    """The token of ``seat`` moves onto the empty square ``target``."""
    tokens = list(state.tokens)
    tokens[seat] = target
    home = state.homes[seat]
    reached = state.reached
    if target == home and reached[seat]:
        # Winning: home again after the far corner; the game ends at once.
        if turn >= 0:
            raise _illegal(
                f"the game ends as you come home to {SQUARES[target]}: there is no disk to turn",
                WINNING,
            )
        return _replace(
            state, tokens=tuple(tokens), seat=-1, orienting=False,
            turns=state.turns + 1, winner=seat,
        )  # fmt: skip
    if target == far_corner(home) and not reached[seat]:
        reached = (*reached[:seat], True, *reached[seat + 1 :])
    faces = list(state.faces)
    if faces[target] < 0:
        # Taking a Turn: flip it over; the orientation is chosen once it is seen.
        if turn >= 0:
            raise _illegal(
                f"the disk on {SQUARES[target]} is face down: choose what it does once "
                "it is revealed, in your next move",
                TURN,
            )
        kind = state.kinds[target]
        if kind == Q:
            faces[target] = 0
            _rotate_all(faces, state.kinds)
            return _end_turn(state, tokens=tuple(tokens), faces=tuple(faces), reached=reached)
        # Provisionally pointing north; the player's next move orients it.
        faces[target] = 0
        return _replace(
            state, tokens=tuple(tokens), faces=tuple(faces), reached=reached, orienting=True
        )
    _action(state, target, turn, faces, "landing on")
    return _end_turn(state, tokens=tuple(tokens), faces=tuple(faces), reached=reached)


def apply(state: State, move: Move) -> State:
    seat = state.seat
    if seat < 0:
        if state.winner >= 0:
            raise _illegal(f"the game is over: {state.players[state.winner]} has won", WINNING)
        raise _illegal(
            f"the game is over: the round limit ({state.round_limit} rounds) was reached",
            WINNING,
        )
    action, arg, turn = move
    if action == PASS:
        raise _illegal("you may not pass: move, bounce or re-orient a One-Way Arrow", TURN)
    pos = state.tokens[seat]
    if state.orienting:
        return _orient_revealed(state, seat, pos, move)
    if pos < 0:
        return _enter(state, seat, move)
    kinds, faces = state.kinds, state.faces
    kind, face = kinds[pos], faces[pos]
    here = SQUARES[pos]
    if action == GO:
        d = DIRECTION[pos][arg]
        if d < 0:
            if arg == pos:
                raise _illegal(
                    f"you are on {here} already: to stay, bounce off a token (bounce)",
                    TURN,
                )
            raise _illegal(
                f"{SQUARES[arg]} is not next to {here}: a token moves one space, never diagonally",
                TURN,
            )
        if d not in ARROWS[kind][face]:
            raise _illegal(
                f"the {KIND_NAMES[kind]} on {here} points {_points(kind, face)}, not "
                f"{DIR_NAMES[d]} to {SQUARES[arg]}",
                TURN,
            )
        if arg in state.tokens:
            other = state.players[state.tokens.index(arg)]
            raise _illegal(
                f"{SQUARES[arg]} holds {other}'s token: each space holds one token; "
                "bounce off it instead (bounce)",
                BOUNCING,
            )
        return _move_to(state, seat, arg, turn)
    if action == BOUNCE:
        tokens = state.tokens
        off = [STEP[pos][d] for d in ARROWS[kind][face]]
        if arg >= 0:
            if arg not in off:
                if arg == pos or DIRECTION[pos][arg] < 0:
                    where = "is not next to " + here
                else:
                    where = f"is not where the {KIND_NAMES[kind]} on {here} points"
                raise _illegal(f"{SQUARES[arg]} {where}: bounce off a token you could enter", BOUNCING)
            if arg not in tokens:
                raise _illegal(f"there is no token on {SQUARES[arg]} to bounce off", BOUNCING)
        elif not any(t >= 0 and t in tokens for t in off):
            edge = " or the edge of the board" if -1 in off else ""
            raise _illegal(
                f"the {KIND_NAMES[kind]} on {here} points at no token to bounce off; you may "
                f"not bounce against an empty space{edge}",
                BOUNCING,
            )
        new = list(faces)
        _action(state, pos, turn, new, "bouncing on")
        return _end_turn(state, faces=tuple(new))
    if action == ORIENT:
        if kind != O:
            raise _illegal(
                f"only a One-Way Arrow may be re-oriented instead of moving; you are on the "
                f"{KIND_NAMES[kind]} on {here}",
                SPECIAL,
            )
        if arg >= 4:
            raise _illegal("a One-Way Arrow points one way: N, E, S or W", SPECIAL)
        if arg == face:
            raise _illegal(
                f"the One-Way Arrow on {here} points {DIR_NAMES[face]} already: "
                "re-orient it to another direction",
                SPECIAL,
            )
        if turn >= 0:
            raise _illegal("re-orienting a One-Way Arrow turns no other disk", SPECIAL)
        new = list(faces)
        new[pos] = arg
        return _end_turn(state, faces=tuple(new))
    raise NotationError(f"not a move of {TITLE}")


def _enter(state: State, seat: int, move: Move) -> State:
    """Taking a Turn: 'On your first turn, simply move your token onto your
    starting corner', chosen now among the corners nobody has taken."""
    action, arg, turn = move
    if action != GO or arg not in CORNERS:
        free = [SQUARES[c] for c in CORNERS if c not in state.homes]
        names = free[0] if len(free) == 1 else ", ".join(free[:-1]) + " or " + free[-1]
        raise _illegal(f"your first move enters the board on a free corner: {names}", SETUP)
    if arg in state.homes:
        owner = state.players[state.homes.index(arg)]
        raise _illegal(f"{SQUARES[arg]} is {owner}'s starting corner; choose another", SETUP)
    if arg in state.tokens:  # cannot happen: all enter in the first round
        raise _illegal(f"{SQUARES[arg]} holds a token", BOUNCING)
    homes = (*state.homes[:seat], arg, *state.homes[seat + 1 :])
    return _move_to(_replace(state, homes=homes), seat, arg, turn)


def _orient_revealed(state: State, seat: int, pos: int, move: Move) -> State:
    """Taking a Turn: rotate the disk just flipped 'to the position of your
    choice', then take its action (a Double Arrow's optional turn)."""
    action, arg, turn = move
    kind = state.kinds[pos]
    here = SQUARES[pos]
    if action != ORIENT:
        raise _illegal(
            f"first orient the {KIND_NAMES[kind]} you revealed on {here}: "
            + ("N, E, S or W" if kind == O else "NS or EW"),
            TURN,
        )
    faces = list(state.faces)
    if kind == O:
        if arg >= 4:
            raise _illegal(
                f"the One-Way Arrow on {here} points one way: N, E, S or W", TURN
            )
        if turn >= 0:
            raise _illegal(
                f"only a Double Arrow turns another disk; the One-Way Arrow on {here} "
                "takes no action",
                SPECIAL,
            )
        faces[pos] = arg
    else:
        faces[pos] = arg % 2 if arg < 4 else arg - 4
        if turn >= 0:
            _check_turn(state, pos, turn)
            faces[turn] = TURNED[state.kinds[turn]][faces[turn]]
    return _end_turn(state, faces=tuple(faces))


# --- the end -------------------------------------------------------------------------


def _progress(state: State, seat: int) -> str:
    name = state.players[seat]
    home = state.homes[seat]
    if home < 0:
        return f"{name} has not entered the board"
    far = SQUARES[far_corner(home)]
    if seat == state.winner:
        return f"{name} went from {SQUARES[home]} to {far} and back: {name} wins ({TITLE}: {WINNING})"
    if state.reached[seat]:
        return f"{name} has reached {far} and is on the way back to {SQUARES[home]}"
    return f"{name} has not yet reached {far}, the far corner from {SQUARES[home]}"


def standing(state: State) -> Outcome:
    """The winner scores 1 and everybody else 0; nobody has won until the end."""
    n = len(state.players)
    w = state.winner
    details = [_progress(state, p) for p in range(n)]
    if w < 0 and state.seat < 0:
        details.append(
            f"the round limit ({state.round_limit} rounds) was reached before anybody "
            "completed the journey: nobody wins"
        )
    order = sorted(range(n), key=lambda p: p != w)
    standings = tuple(
        Standing(player=state.players[p], score=int(p == w), place=1 if w < 0 or p == w else 2)
        for p in order
    )
    return Outcome(
        standings=standings,
        winners=(state.players[w],) if w >= 0 else (),
        details=tuple(details),
    )


def outcome(state: State) -> Outcome | None:
    return standing(state) if state.seat < 0 else None


# --- views ---------------------------------------------------------------------------------


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What one player (or a spectator) sees. Everybody sees the same: the
    face-down disks are unknown to all players alike."""

    viewer: str | None
    players: tuple[str, ...]
    # square -> "?" face down, "Q", "D:NS", "D:EW", "O:N", "O:E", ...; a disk just
    # revealed and not yet oriented is its letter alone ("D", "O").
    disks: dict[str, str]
    tokens: tuple[str | None, ...]  # per seat: its square, None while off the board
    homes: tuple[str | None, ...]  # per seat: its starting corner, None until chosen
    far_corners: tuple[str | None, ...]
    reached: tuple[bool, ...]  # per seat: has stood on its far corner
    face_down: dict[str, int]  # "Q", "D", "O" -> how many of that kind are still face down
    orienting: str | None  # the square of the disk just revealed, awaiting its orientation
    round: int  # the round being played (the last one once the game is over)
    round_limit: int
    to_move: str | None
    winner: str | None


def _disk_code(state: State, i: int) -> str:
    face = state.faces[i]
    if face < 0:
        return "?"
    kind = state.kinds[i]
    if state.orienting and state.tokens[state.seat] == i:
        return KIND_LETTERS[kind]
    if kind == Q:
        return "Q"
    return f"{KIND_LETTERS[kind]}:{(AXES if kind == D else DIRS)[face]}"


def view(state: State, seat: int | None) -> View:
    n = len(state.players)
    down = [0, 0, 0]
    for k, f in zip(state.kinds, state.faces):
        if f < 0:
            down[k] += 1
    orienting = SQUARES[state.tokens[state.seat]] if state.orienting else None
    return View(
        viewer=None if seat is None else state.players[seat],
        players=state.players,
        disks={SQUARES[i]: _disk_code(state, i) for i in sorted(range(16), key=lambda i: SQUARES[i])},
        tokens=tuple(SQUARES[t] if t >= 0 else None for t in state.tokens),
        homes=tuple(SQUARES[h] if h >= 0 else None for h in state.homes),
        far_corners=tuple(SQUARES[far_corner(h)] if h >= 0 else None for h in state.homes),
        reached=state.reached,
        face_down={KIND_LETTERS[k]: down[k] for k in range(3)},
        orienting=orienting,
        round=min(state.turns // n + 1, state.round_limit),
        round_limit=state.round_limit,
        to_move=None if state.seat < 0 else state.players[state.seat],
        winner=state.players[state.winner] if state.winner >= 0 else None,
    )


def redeal(state: State, seat: int | None, seed: str) -> State:
    """Nobody sees a face-down disk: shuffle the kinds among the face-down squares."""
    down = [i for i in range(16) if state.faces[i] < 0]
    if len(down) < 2:
        return state
    kinds = list(state.kinds)
    for i, k in zip(down, shuffled(seed, "redeal", [kinds[i] for i in down])):
        kinds[i] = k
    return _replace(state, kinds=tuple(kinds))


def consistent(view: View, params: Mapping[str, Value], seed: str) -> State:
    """A state that ``view`` shows exactly: what lies under each face-down
    disk, which nobody sees, is dealt from ``seed`` in the numbers the view
    gives. Nothing a player may do reads or is refused differently for it
    (ruling R6).

    >>> params = {"disks": "4Q,6D,6O", "round-limit": 100}
    >>> start = setup(params, ("ann", "bob"), "75")
    >>> view(consistent(view(start, 0), params, "any"), 0) == view(start, 0)
    True
    """
    down = view.face_down
    hidden = iter(shuffled(seed, "consistent", _mix((down["Q"], down["D"], down["O"]))))
    kinds, faces = [], []
    for sq in SQUARES:
        code = view.disks[sq]
        if code == "?":
            kinds.append(next(hidden))
            faces.append(-1)
            continue
        kind = KIND_LETTERS.index(code[0])
        kinds.append(kind)
        # A disk just revealed ("D", "O") points north until its player orients it.
        way = code[2:]
        faces.append((AXES if kind == D else DIRS).index(way) if way else 0)
    players = tuple(view.players)
    seat = -1 if view.to_move is None else players.index(view.to_move)

    def squares(names: tuple[str | None, ...]) -> tuple[int, ...]:
        return tuple(-1 if sq is None else SQUARE_INDEX[sq] for sq in names)

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
        turns=(view.round - 1) * len(players) + max(seat, 0),
        winner=-1 if view.winner is None else players.index(view.winner),
    )
