"""Q-Turn: scenario tests, one section of the rule text at a time (DATC style).

Each test names the section of ``shared/rules/q-turn.txt`` it checks ("Setup
and Start", "Taking a Turn", "Special Actions", "Bouncing", "Winning", "Turn
Order") and, where the text is silent, the ruling of ``notation/q-turn.md``
(R1...). Expected results are worked out by hand from the rule text, or by the
small rules oracle below, which is written from the text and shares no code
with the engine.

Positions are built with :func:`position` from a dict of squares to disks:
``"O:N"`` a revealed One-Way Arrow pointing north, ``"D:EW"`` a revealed Double
Arrow lying east-west, ``"Q"`` a revealed Q-Turner, ``"?D"`` a face-down
Double Arrow. Unnamed squares hold face-down One-Way Arrows.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import msgspec
import pytest
import volume
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match
from adjudicator.chance import Chance
from adjudicator.cli import app
from adjudicator.engine import Scene, Style
from adjudicator.errors import IllegalMoveError, NotationError, ParameterError
from adjudicator.games.q_turn import GAME as game, rules


def test_registered() -> None:
    assert games.GAMES[game.id] is game


ROOT = Path(__file__).resolve().parent.parent
NAMES = ("ann", "bob", "cy", "dee")
DEFAULTS = {"disks": "4Q,6D,6O", "round-limit": 100}
FILES = "abcd"
SQUARES = [f"{f}{r}" for r in range(1, 5) for f in FILES]  # a1 b1 c1 d1 a2 ... d4
VEC = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
# A quarter turn counter-clockwise, read off a compass: north to west, and so on.
CCW = {"N": "W", "W": "S", "S": "E", "E": "N"}
HOMES = {"ann": "a1", "bob": "d4", "cy": "d1", "dee": "a4"}
FAR = {"a1": "d4", "d4": "a1", "d1": "a4", "a4": "d1"}


# --- building positions ------------------------------------------------------------


def code_to_engine(code: str) -> tuple[int, int]:
    """(kind, orientation) of the engine for a disk written as in the docstring."""
    if code.startswith("?"):
        return "QDO".index(code[1]), -1
    kind = "QDO".index(code[0])
    if kind == 0:
        return 0, 0
    if kind == 1:
        return 1, ("NS", "EW").index(code[2:])
    return 2, "NESW".index(code[2:])


def position(
    disks: dict[str, str],
    tokens: dict[str, str] | None = None,
    *,
    players: int = 2,
    to_move: str = "ann",
    homes: dict[str, str] | None = None,
    reached: tuple[str, ...] = (),
    orienting: bool = False,
    turns: int | None = None,
    round_limit: int = 100,
    fill: str = "?O",
):
    names = NAMES[:players]
    state = game.setup({**DEFAULTS, "round-limit": round_limit}, names, "0")
    kinds, faces = [], []
    for sq in SQUARES:
        k, f = code_to_engine(disks.get(sq, fill))
        kinds.append(k)
        faces.append(f)
    tokens = tokens or {}
    homes = {p: HOMES[p] for p in names} if homes is None else homes
    return msgspec.structs.replace(
        state,
        kinds=tuple(kinds),
        faces=tuple(faces),
        tokens=tuple(SQUARES.index(tokens[p]) if p in tokens else -1 for p in names),
        homes=tuple(SQUARES.index(homes[p]) if p in homes else -1 for p in names),
        reached=tuple(p in reached for p in names),
        seat=names.index(to_move),
        orienting=orienting,
        turns=players * 2 if turns is None else turns,
    )


def disk(state, sq: str) -> str:
    """The disk on ``sq`` as written in the docstring (read from the engine's state)."""
    i = SQUARES.index(sq)
    k, f = state.kinds[i], state.faces[i]
    if f < 0:
        return "?" + "QDO"[k]
    if k == 0:
        return "Q"
    if k == 1:
        return "D:" + ("NS", "EW")[f]
    return "O:" + "NESW"[f]


def board(state) -> dict[str, str]:
    return {sq: disk(state, sq) for sq in SQUARES}


def token_of(state, name: str) -> str | None:
    i = state.tokens[state.players.index(name)]
    return SQUARES[i] if i >= 0 else None


def play(state, text: str):
    return game.apply(state, game.parse_move(state, text))


def refused(state, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        play(state, text)
    err = info.value
    assert "\n" not in str(err) and err.clause and err.clause.startswith("Q-Turn: ")
    return err


def legal(state) -> list[str]:
    return [game.format_move(state, m) for m in game.legal_moves(state)]


def mover(state) -> str | None:
    seat = game.to_move(state)
    return None if seat is None else state.players[seat]


def turned(code: str) -> str:
    """A revealed disk after a quarter turn counter-clockwise, by hand."""
    if code == "Q" or code.startswith("?"):
        return code
    if code.startswith("D:"):
        return "D:EW" if code == "D:NS" else "D:NS"
    return "O:" + CCW[code[2:]]


# --- the rules oracle (written from the text, not from the engine) ---------------------


def step(sq: str, d: str) -> str | None:
    dx, dy = VEC[d]
    f, r = FILES.index(sq[0]) + dx, int(sq[1]) + dy
    return f"{FILES[f]}{r}" if 0 <= f < 4 and 1 <= r <= 4 else None


def arrows(code: str) -> str:
    """The directions a revealed disk's arrows point in."""
    if code == "Q":
        return "NESW"
    if code.startswith("D:"):
        return code[2:]
    return code[2:]


def snapshot(state) -> tuple:
    """What a move can change, in the oracle's terms."""
    disks = board(state)
    if state.orienting:
        # The disk just revealed shows its kind only until its player orients it.
        own = token_of(state, mover(state))
        disks[own] = disks[own][0]
    return (
        tuple(sorted(disks.items())),
        tuple(token_of(state, p) for p in state.players),
        tuple(state.homes),
        state.reached,
        mover(state),
        state.orienting,
        state.winner,
    )


def expected_outcomes(state) -> set[tuple]:
    """Every position a player may bring about, from the rule text alone.

    Taking a Turn: enter on your corner / move one space along an arrow, never
    off the board / a One-Way may be re-oriented instead; flip a face-down disk
    and orient it (R6: a second move, knowing what it is). Special Actions: the
    Q-Turner turns every revealed disk, the Double Arrow may turn one other
    revealed disk. Bouncing: off an occupied square an arrow points to, re-using
    your disk's action. Winning: home after the far corner ends the game at once.
    """
    names = state.players
    n = len(names)
    me = mover(state)
    seat = names.index(me)
    cur = board(state)
    where = {p: token_of(state, p) for p in names}
    homes = [SQUARES[h] if h >= 0 else None for h in state.homes]
    out = set()

    def finish(disks, tokens, homes_, reached, *, orienting=False, winner=-1):
        turns = state.turns + (0 if orienting else 1)
        if winner >= 0:
            nxt = None
        elif orienting:
            nxt = me
        elif turns >= state.round_limit * n:
            nxt = None
        else:
            nxt = names[(seat + 1) % n]
        home_idx = tuple(SQUARES.index(h) if h else -1 for h in homes_)
        out.add((
            tuple(sorted(disks.items())),
            tuple(tokens[p] for p in names),
            home_idx,
            tuple(reached),
            nxt,
            orienting,
            winner,
        ))

    def all_turned(disks):
        return {sq: turned(c) for sq, c in disks.items()}

    def double_options(disks, own):
        """A Double Arrow: turn nothing, or one revealed disk other than your own."""
        yield dict(disks)
        for sq, c in disks.items():
            if sq != own and not c.startswith("?"):
                d2 = dict(disks)
                d2[sq] = turned(c)
                yield d2

    def action(disks, own):
        c = disks[own]
        if c == "Q":
            yield all_turned(disks)
        elif c.startswith("D:"):
            yield from double_options(disks, own)
        else:
            yield dict(disks)

    def land(target):
        tokens = dict(where)
        tokens[me] = target
        reached = list(state.reached)
        home = homes_[seat]
        if target == home and reached[seat]:
            finish(cur, tokens, homes_, reached, winner=seat)
            return
        if target == FAR[home]:
            reached[seat] = True
        c = cur[target]
        if c.startswith("?"):
            kind = c[1]
            if kind == "Q":
                d2 = dict(cur)
                d2[target] = "Q"
                finish(all_turned(d2), tokens, homes_, reached)
            else:
                d2 = dict(cur)
                d2[target] = kind  # revealed, its orientation still to come
                finish(d2, tokens, homes_, reached, orienting=True)
            return
        for d2 in action(cur, target):
            finish(d2, tokens, homes_, reached)

    if state.orienting:
        own = where[me]
        kind = "QDO"[state.kinds[SQUARES.index(own)]]
        if kind == "O":
            for d in "NESW":
                d2 = dict(cur)
                d2[own] = "O:" + d
                finish(d2, where, homes, state.reached)
        else:
            for axis in ("NS", "EW"):
                d2 = dict(cur)
                d2[own] = "D:" + axis
                for d3 in double_options(d2, own):
                    finish(d3, where, homes, state.reached)
        return out
    homes_ = list(homes)
    if where[me] is None:
        for corner in ("a1", "d1", "a4", "d4"):
            if corner not in homes and corner not in where.values():
                homes_ = list(homes)
                homes_[seat] = corner
                land(corner)
        return out
    here = where[me]
    code = cur[here]
    bounce = False
    for d in arrows(code):
        t = step(here, d)
        if t is None:
            continue  # never off the board
        if t in where.values():
            bounce = True
        else:
            land(t)
    if bounce:
        for d2 in action(cur, here):
            finish(d2, where, homes, state.reached)
    if code.startswith("O:"):
        for d in "NESW":
            if d != code[2:]:
                d2 = dict(cur)
                d2[here] = "O:" + d
                finish(d2, where, homes, state.reached)
    return out


def random_states(players: int, seed: str, params: dict | None = None, limit: int = 400):
    """The positions of a game of random legal moves (the play seed is the seed)."""
    log = match.new_log(game.id, NAMES[:players], seed, params)
    _, state = match.start(log)
    rng = Chance(seed, "test")
    states = [state]
    while game.to_move(state) is not None and len(states) < limit:
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rng.below(len(moves))])
        states.append(state)
    return states


# =====================================================================================
# Setup and Start
# =====================================================================================


def test_setup_the_16_disks_start_face_down_in_the_default_mix():
    """Setup and Start: "Place the disks face down, mix them up, then lay them out in
    a 4x4 pattern." R2: by default 4 Q-Turners, 6 Double Arrows, 6 One-Way Arrows."""
    state = game.setup(DEFAULTS, NAMES[:2], "1")
    assert all(code.startswith("?") for code in board(state).values())
    assert Counter(disk(state, sq)[1] for sq in SQUARES) == {"Q": 4, "D": 6, "O": 6}
    assert state.tokens == (-1, -1) and state.homes == (-1, -1)


@pytest.mark.parametrize(("mix", "counts"), [
    ("8Q,4D,4O", {"Q": 8, "D": 4, "O": 4}),
    ("0Q,16D,0O", {"D": 16}),
    ("1Q,0D,15O", {"Q": 1, "O": 15}),
])
def test_setup_the_disks_parameter_sets_the_mix(mix, counts):
    """Setup and Start, R2: the parameter `disks` gives the numbers of each kind."""
    state = game.setup({**DEFAULTS, "disks": mix}, NAMES[:3], "1")
    assert Counter(disk(state, sq)[1] for sq in SQUARES) == counts


@pytest.mark.parametrize("mix", ["4Q,6D,5O", "04Q,6D,6O", "4Q, 6D, 6O", "6D,4Q,6O", "16"])
def test_setup_a_bad_disk_mix_is_refused(mix):
    """R2: a mix is three numbers adding up to 16, written exactly as 4Q,6D,6O."""
    with pytest.raises(ParameterError) as info:
        match.new_log(game.id, NAMES[:2], "1", {"disks": mix})
    assert "4Q,6D,6O" in str(info.value)


def test_setup_a_mix_typed_in_lower_case_is_recorded_in_capitals():
    """R2 and issue #26: values are read in any case, like moves; the header
    records the one spelling."""
    assert match.new_log(game.id, NAMES[:2], "1", {"disks": "4q,6d,6o"}).params["disks"] == (
        "4Q,6D,6O")


def test_setup_the_shuffle_follows_the_documented_derivation():
    """Chance (notation/q-turn.md): Fisher-Yates with the label `disks` over Q..., D...,
    O..., laid out a1, b1, c1, d1, a2, ...; the documented test vector of seed 75."""
    state = game.setup(DEFAULTS, NAMES[:2], "75")
    assert "".join(disk(state, sq)[1] for sq in SQUARES) == "DODDODQOQODQQOOD"
    words = Chance("75", "disks")
    items = list("QQQQDDDDDDOOOOOO")
    for i in range(15, 0, -1):
        j = words.below(i + 1)
        items[i], items[j] = items[j], items[i]
    assert "".join(items) == "DODDODQOQODQQOOD"


def test_setup_the_first_move_chooses_and_enters_a_corner():
    """Setup and Start / Taking a Turn, R5: "Each player chooses ... a starting corner";
    "On your first turn, simply move your token onto your starting corner". The first
    move names the corner; any corner is open to the first player, and nothing else."""
    state = game.setup(DEFAULTS, NAMES[:2], "75")
    assert legal(state) == ["a1", "a4", "d1", "d4"]
    assert "corner" in str(refused(state, "b2"))
    refused(state, "N")
    refused(state, "bounce")


def test_setup_starting_corners_are_distinct_and_chosen_in_seat_order():
    """Setup and Start, R5: a later player chooses among the corners left."""
    state = game.setup({**DEFAULTS, "disks": "16Q,0D,0O"}, NAMES, "3")
    state = play(state, "d4")  # a Q-Turner: ann's turn is over at once
    assert mover(state) == "bob"
    assert legal(state) == ["a1", "a4", "d1"]
    assert "ann's starting corner" in str(refused(state, "d4"))
    for corner, who in (("a1", "cy"), ("d1", "dee")):
        state = play(state, corner)
        assert mover(state) == who
    assert legal(state) == ["a4"]  # dee takes the corner left
    state = play(state, "a4")
    assert [token_of(state, p) for p in NAMES] == ["d4", "a1", "d1", "a4"]
    assert [SQUARES[h] for h in state.homes] == ["d4", "a1", "d1", "a4"]


# =====================================================================================
# Taking a Turn
# =====================================================================================


def test_turn_entering_a_face_down_one_way_the_player_then_orients_it():
    """Taking a Turn: "Each time you move your token onto a disk that is still face
    down, flip it over and rotate it to the position of your choice." R6: the same
    player orients it in a second move, knowing it is a One-Way Arrow: four choices."""
    state = position({"c2": "O:E", "d2": "?O"}, {"ann": "c2", "bob": "a4"})
    state = play(state, "d2")
    assert mover(state) == "ann" and state.orienting
    assert token_of(state, "ann") == "d2"
    assert legal(state) == ["N", "E", "S", "W"]
    assert "orient" in str(refused(state, "c2"))
    state = play(state, "W")
    assert disk(state, "d2") == "O:W"
    assert mover(state) == "bob" and not state.orienting


def test_turn_entering_a_face_down_double_arrow_the_player_orients_it_and_may_turn_one():
    """Taking a Turn and Special Actions, R6/R8: a revealed Double Arrow is oriented
    NS or EW, and its optional turn of another revealed disk comes in the same move."""
    state = position({"c2": "O:E", "d2": "?D", "a4": "O:S"}, {"ann": "c2", "bob": "a4"})
    state = play(state, "d2")
    assert legal(state) == ["NS", "NS+a4", "NS+c2", "EW", "EW+a4", "EW+c2"]
    state = play(state, "ew + a4")
    assert disk(state, "d2") == "D:EW"
    assert disk(state, "a4") == "O:E"  # south, a quarter turn counter-clockwise: east
    assert disk(state, "c2") == "O:E"
    assert mover(state) == "bob"


def test_turn_entering_a_face_down_q_turner_needs_no_orientation():
    """Taking a Turn / Special Actions, R6/R7: a Q-Turner looks the same every way
    round, so it takes no second move: every revealed disk turns at once, and the turn
    passes."""
    state = position({"c2": "O:E", "d2": "?Q", "a4": "D:NS"}, {"ann": "c2", "bob": "a4"})
    state = play(state, "d2")
    assert mover(state) == "bob" and not state.orienting
    assert disk(state, "d2") == "Q"
    assert disk(state, "c2") == "O:N"  # east turns to north
    assert disk(state, "a4") == "D:EW"


def test_turn_the_entry_names_no_orientation_and_no_turn():
    """R6: an entry into a face-down disk is the square alone: what the disk does is
    chosen once it is seen, so a turn written with it is refused."""
    state = position({"c2": "O:E", "d2": "?D", "a4": "O:S"}, {"ann": "c2", "bob": "a4"})
    assert "face down" in str(refused(state, "d2+a4"))


@pytest.mark.parametrize(("x", "y"), [("?Q", "?D"), ("?D", "?O"), ("?O", "?Q")])
def test_turn_legal_moves_never_depend_on_a_face_down_disk(x, y):
    """R6, R16: the moves open to a player are the same whatever the face-down disks
    are (here two of them swap places); so are the views."""
    base = {"b2": "Q", "a4": "O:S"}
    state = position({**base, "b3": x, "c2": y}, {"ann": "b2", "bob": "a4"})
    other = position({**base, "b3": y, "c2": x}, {"ann": "b2", "bob": "a4"})
    assert legal(state) == legal(other) == ["a2", "b1", "b3", "c2"]
    assert game.view(state, 0) == game.view(other, 0)


def test_turn_a_token_follows_the_arrows_one_space_never_diagonally():
    """Taking a Turn: "move your token one space, following one of the arrows on the
    disk you occupy ... You may not move diagonally"."""
    state = position({"b2": "D:NS", "b3": "O:E", "b1": "O:N", "a2": "O:N", "c3": "O:N"},
                     {"ann": "b2", "bob": "d4"})
    assert legal(state) == ["b1", "b3"]
    assert "points north and south, not west" in str(refused(state, "a2"))
    assert "diagonally" in str(refused(state, "c3"))
    assert "diagonally" in str(refused(state, "b4"))
    assert "already" in str(refused(state, "b2"))


def test_turn_refusal_to_move_off_the_board():
    """Taking a Turn: "You may not move ... off the board." A One-Way Arrow on a4
    pointing north offers no move at all: its player can only re-orient it; a square
    beyond the edge is refused as off the board."""
    state = position({"a4": "O:N", "a3": "O:N", "b4": "O:N"}, {"ann": "a4", "bob": "d1"})
    assert legal(state) == ["E", "S", "W"]
    for beyond in ("a5", "e4", "A5"):
        err = refused(state, beyond)
        assert "off the board" in str(err) and err.clause == "Q-Turn: Taking a Turn"
    corner = position({"d1": "Q", "c1": "O:N", "d2": "O:N"}, {"ann": "d1", "bob": "a4"})
    assert legal(corner) == ["c1", "d2"]  # a Q-Turner in a corner: two ways on the board
    refused(corner, "e1")
    refused(corner, "d0")


def test_turn_you_may_not_pass():
    """Taking a Turn: "You may not pass." R12: `pass` is never legal."""
    state = position({"a4": "O:N"}, {"ann": "a4", "bob": "d1"})
    err = refused(state, "pass")
    assert "may not pass" in str(err) and err.clause == "Q-Turn: Taking a Turn"
    assert all(m.action != rules.PASS for m in game.legal_moves(state))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mix", ["4Q,6D,6O", "0Q,0D,16O", "0Q,16D,0O"])
def test_turn_a_player_always_has_a_legal_move(players, mix):
    """R12: the automatic pass never arises: in random games every player to move has
    a move (a One-Way can always be re-oriented, two opposite arrows always reach the
    board, a square is empty or holds a token to bounce off)."""
    for state in random_states(players, f"always-{mix}", {"disks": mix}):
        if game.to_move(state) is not None:
            assert legal(state)


def test_turn_a_square_holds_one_token():
    """Bouncing: "Each space can hold only one token." Moving onto it is refused."""
    state = position({"b2": "Q", "b3": "O:N"}, {"ann": "b2", "bob": "b3"})
    err = refused(state, "b3")
    assert "bob" in str(err) and err.clause == "Q-Turn: Bouncing"


# =====================================================================================
# Special Actions
# =====================================================================================


def test_special_q_turner_turns_every_revealed_disk_but_not_the_face_down_ones():
    """Special Actions: "Whenever you land on a disk with arrows pointing in all four
    directions, you MUST then immediately rotate all revealed disks a quarter turn
    counter-clockwise." R7: face-down disks are never turned (nor revealed)."""
    disks = {
        "a1": "O:N", "b1": "O:E", "c1": "O:S", "d1": "O:W",
        "a2": "D:NS", "b2": "D:EW", "c2": "Q", "d2": "?D",
        "c3": "O:N", "d3": "?Q", "a4": "O:E", "d4": "?O",
    }  # fmt: skip
    disks["c3"] = "O:S"
    state = position(disks, {"ann": "c3", "bob": "a4"}, homes={"ann": "a1", "bob": "a4"})
    after = play(state, "c2")
    assert after.winner == -1 and token_of(after, "ann") == "c2"
    expected = {
        "a1": "O:W", "b1": "O:N", "c1": "O:E", "d1": "O:S",
        "a2": "D:EW", "b2": "D:NS", "c2": "Q", "d2": "?D",
        "c3": "O:E", "d3": "?Q", "a4": "O:N", "d4": "?O",
    }  # fmt: skip
    for sq, code in expected.items():
        assert disk(after, sq) == code, sq
    assert legal(state).count("c2") == 1  # a mandatory action: no choice to write
    assert "every revealed disk" in str(refused(state, "c2+a1"))


def test_special_double_arrow_turns_another_disk_and_not_its_own():
    """Special Actions: "Whenever you land on this type of disk, you MAY also then rotate
    any one disk (other than your own) a quarter turn counter-clockwise." R8."""
    disks = {"b1": "O:N", "b2": "D:EW", "c2": "O:N", "a4": "O:E", "d4": "?D", "a1": "Q"}
    state = position(disks, {"ann": "b1", "bob": "a4"}, homes={"ann": "a1", "bob": "a4"})
    # The choices: nothing, or one revealed disk other than b2, but not the Q-Turner.
    assert legal(state) == ["b2", "b2+a4", "b2+b1", "b2+c2", "E", "S", "W"]
    after = play(state, "b2+c2")
    assert disk(after, "c2") == "O:W"  # north, a quarter turn counter-clockwise
    assert disk(after, "b2") == "D:EW"  # its own disk stays as it was
    assert {sq: c for sq, c in board(after).items() if sq != "c2"} == {
        sq: c for sq, c in board(state).items() if sq != "c2"
    }
    other = play(state, "b2+a4")
    assert disk(other, "a4") == "O:N" and disk(other, "c2") == "O:N"
    nothing = play(state, "b2")
    assert board(nothing) == board(state)
    assert "other than your own" in str(refused(state, "b2+b2"))
    assert "face down" in str(refused(state, "b2+d4"))


def test_special_double_arrow_may_turn_a_disk_a_token_stands_on():
    """Special Actions, R8: "any one disk (other than your own)": bob's disk too."""
    state = position({"b1": "O:N", "b2": "D:EW", "a4": "O:E"}, {"ann": "b1", "bob": "a4"},
                     homes={"ann": "a1", "bob": "a4"})
    after = play(state, "b2+a4")
    assert disk(after, "a4") == "O:N"


def test_special_double_arrow_turning_a_q_turner_is_turning_nothing():
    """R8: a Q-Turner looks the same after a quarter turn, so turning it is the same
    move as turning no disk, written without it."""
    state = position({"b1": "O:N", "b2": "D:EW", "c2": "Q", "a4": "O:E"},
                     {"ann": "b1", "bob": "a4"}, homes={"ann": "a1", "bob": "a4"})
    move = game.parse_move(state, "b2+c2")
    assert game.format_move(state, move) == "b2"
    assert game.apply(state, move) == play(state, "b2")


def test_special_one_way_re_orientation_instead_of_moving():
    """Special Actions: "if you are on such a space at the beginning of your turn, you
    may choose to re-orient that disk INSTEAD of moving your token to the indicated
    space ... as long as it doesn't point diagonally." R9: to another direction."""
    state = position({"b2": "O:E", "c2": "?D", "a4": "O:S"}, {"ann": "b2", "bob": "a4"},
                     homes={"ann": "a1", "bob": "a4"})
    assert legal(state) == ["c2", "N", "S", "W"]
    after = play(state, "N")
    assert token_of(after, "ann") == "b2"  # instead of moving
    assert disk(after, "b2") == "O:N"
    assert disk(after, "c2") == "?D"
    assert mover(after) == "bob"
    assert {sq: c for sq, c in board(after).items() if sq != "b2"} == {
        sq: c for sq, c in board(state).items() if sq != "b2"
    }
    assert "already" in str(refused(state, "E"))
    assert "one way" in str(refused(state, "NS"))
    assert "no other disk" in str(refused(state, "N+a4"))


def test_special_only_a_one_way_may_be_re_oriented():
    """Special Actions: re-orienting is the One-Way Arrow's; on a Q-Turner or a Double
    Arrow the player moves or bounces."""
    for code in ("Q", "D:NS"):
        state = position({"b2": code, "a4": "O:S"}, {"ann": "b2", "bob": "a4"})
        err = refused(state, "E")
        assert "only a One-Way Arrow" in str(err)


def test_special_landing_on_a_one_way_does_nothing():
    """Special Actions: "No action is taken when you land on this type of disk.\""""
    state = position({"b2": "Q", "b3": "O:W", "a4": "D:NS"}, {"ann": "b2", "bob": "a4"})
    after = play(state, "b3")
    assert board(after) == board(state)
    assert mover(after) == "bob"
    assert "no action" in str(refused(state, "b3+a4"))


# =====================================================================================
# Bouncing
# =====================================================================================


def test_bounce_re_uses_the_q_turner():
    """Bouncing: "If someone occupies a space you could potentially enter, you may
    choose to bounce off their piece and remain where you are. This allows you to
    re-use the special action associated with your space, just as though you had
    landed on it for the first time." On a Q-Turner: everything turns again."""
    disks = {"b2": "Q", "b3": "O:N", "c2": "O:N", "a2": "?O", "b1": "O:E", "c4": "D:NS"}
    state = position(disks, {"ann": "b2", "bob": "b3"})
    assert legal(state) == ["a2", "b1", "c2", "bounce"]
    after = play(state, "bounce")
    assert token_of(after, "ann") == "b2" and token_of(after, "bob") == "b3"
    assert disk(after, "b3") == "O:W"
    assert disk(after, "c2") == "O:W"
    assert disk(after, "c4") == "D:EW"
    assert disk(after, "b1") == "O:N"
    assert disk(after, "a2") == "?O"
    assert mover(after) == "bob"


def test_bounce_re_uses_the_double_arrow():
    """Bouncing on a Double Arrow: it may turn one other disk again (R11)."""
    state = position({"b2": "D:NS", "b3": "O:N", "b1": "O:W"}, {"ann": "b2", "bob": "b3"})
    assert legal(state) == ["b1", "bounce", "bounce+b1", "bounce+b3"]
    after = play(state, "bounce+b1")
    assert disk(after, "b1") == "O:S" and disk(after, "b2") == "D:NS"
    assert "other than your own" in str(refused(state, "bounce+b2"))


def test_bounce_on_a_one_way_changes_nothing_but_is_allowed():
    """R11: a One-Way Arrow has no action, so a bounce on it changes nothing; it is a
    bounce all the same."""
    state = position({"b2": "O:N", "b3": "O:N"}, {"ann": "b2", "bob": "b3"})
    assert legal(state) == ["bounce", "E", "S", "W"]
    after = play(state, "bounce")
    assert board(after) == board(state) and mover(after) == "bob"


def test_bounce_refused_off_the_edge_or_an_empty_square():
    """Bouncing: "You may only bounce off of an occupied space on the board; you may
    not bounce against the edge of the board.\""""
    edge = position({"a1": "D:EW", "b1": "?O"}, {"ann": "a1", "bob": "d4"},
                    homes={"ann": "a1", "bob": "d4"})
    err = refused(edge, "bounce")
    assert "edge" in str(err) and err.clause == "Q-Turn: Bouncing"
    assert "bounce" not in legal(edge)
    # A token next to you but where no arrow points is no bounce either.
    side = position({"b2": "O:N", "b3": "?O", "c2": "O:N"}, {"ann": "b2", "bob": "c2"})
    refused(side, "bounce")
    assert "not where" in str(refused(side, "bounce off c2"))
    assert "no token" in str(refused(side, "bounce off b3"))


def test_bounce_off_one_token_or_another_is_one_move():
    """R11: bouncing off either of two tokens leaves the same board: one legal move,
    and naming the token is accepted and dropped."""
    state = position({"b2": "Q", "b3": "O:N", "c2": "O:N"},
                     {"ann": "b2", "bob": "b3", "cy": "c2"}, players=3)
    assert legal(state).count("bounce") == 1
    a, b = game.parse_move(state, "xb3"), game.parse_move(state, "bounce off c2")
    assert game.format_move(state, a) == game.format_move(state, b) == "bounce"
    assert game.apply(state, a) == game.apply(state, b)


def test_bounce_on_a_one_way_turns_no_disk():
    """R11: bouncing re-uses the disk's own action only: a One-Way Arrow has none."""
    state = position({"b2": "O:N", "b3": "O:N"}, {"ann": "b2", "bob": "b3"})
    refused(state, "bounce+b3")  # a One-Way turns nothing


# =====================================================================================
# Winning
# =====================================================================================


def test_winning_home_after_touching_the_far_corner_wins_at_once():
    """Winning: "As soon as someone completes that journey and moves his or her token
    back onto their starting disk, the game ends and that player wins." ann started on
    a1 and has been to d4."""
    state = position({"a2": "O:S", "a1": "D:NS", "b4": "O:S"}, {"ann": "a2", "bob": "b4"},
                     reached=("ann",))
    after = play(state, "a1")
    assert game.to_move(after) is None
    assert game.legal_moves(after) == ()
    out = game.outcome(after)
    assert out.winners == ("ann",)
    assert [(s.player, s.score, s.place) for s in out.standings] == [("ann", 1, 1), ("bob", 0, 2)]
    assert "ann went from a1 to d4 and back" in out.details[0]
    assert "the game is over" in str(refused(after, "a2"))


def test_winning_home_without_having_touched_the_far_corner_does_not_win():
    """Winning: the journey is "across the board to the disk in the opposite corner,
    and back again": coming home first wins nothing."""
    state = position({"a2": "O:S", "a1": "D:NS", "b4": "O:S"}, {"ann": "a2", "bob": "b4"})
    after = play(state, "a1")
    assert game.outcome(after) is None
    assert mover(after) == "bob"
    assert legal(state) == ["a1", "a1+a2", "a1+b4", "N", "E", "W"]  # a Double Arrow as any other


def test_winning_the_far_corner_is_reached_by_moving_onto_it():
    """Winning, R13: touching the far corner counts when the token moves onto it, even
    when it is face down and revealed on the way."""
    state = position({"c4": "O:E", "a1": "D:NS", "b1": "O:N"}, {"ann": "c4", "bob": "b1"},
                     homes={"ann": "a1", "bob": "d1"})
    after = play(state, "d4")  # face down: revealed, and ann orients it
    assert after.reached == (True, False)
    assert mover(after) == "ann"


def test_winning_the_game_ends_before_the_home_disk_acts():
    """Winning, R14: the game ends the moment the token is home: a Double Arrow there
    turns nothing (and a Q-Turner nothing either)."""
    state = position({"b1": "O:W", "a1": "D:EW", "b4": "O:S"}, {"ann": "b1", "bob": "b4"},
                     reached=("ann",))
    assert legal(state) == ["a1", "N", "E", "S"]
    assert "game ends" in str(refused(state, "a1+b4"))
    q = position({"b1": "O:W", "a1": "Q", "b4": "O:S"}, {"ann": "b1", "bob": "b4"},
                 reached=("ann",))
    assert board(play(q, "a1")) == board(q)


def test_winning_bouncing_off_a_token_on_your_home_does_not_win():
    """Winning, R13/R14: a token on your starting corner keeps you out; a bounce off it
    is no homecoming."""
    state = position({"a2": "O:S", "a1": "D:NS"}, {"ann": "a2", "bob": "a1"}, reached=("ann",),
                     homes={"ann": "a1", "bob": "d4"})
    assert legal(state) == ["bounce", "N", "E", "W"]
    after = play(state, "bounce")
    assert game.outcome(after) is None


# =====================================================================================
# Turn Order and the round limit
# =====================================================================================


def test_turn_order_is_seat_order_and_a_reveal_keeps_the_same_player():
    """Turn Order, R4: seats move in turn from seat 0; a turn that reveals a Double
    Arrow or One-Way Arrow takes two moves of the same player."""
    log = match.new_log(game.id, NAMES[:3], "75")
    log = match.extend(log, ["d4"])  # ann reveals a Double Arrow
    assert match.replay(log).to_move() == "ann"
    with pytest.raises(IllegalMoveError) as info:
        match.extend(log, ["NS"], as_player="bob")
    assert "ann's turn" in str(info.value) and "Q-Turn: Turn Order" in str(info.value)
    log = match.extend(log, ["NS"], as_player="ann")
    assert match.replay(log).to_move() == "bob"


def test_round_limit_ends_the_game_without_a_winner():
    """R15: after `round-limit` rounds without a winner the game ends; nobody wins and
    everybody shares first place. A turn of two moves counts once."""
    log = match.new_log(game.id, NAMES[:2], "75", {"round-limit": 2})
    # Round 1: ann enters d4 (a Double Arrow) and orients it; bob enters a1 (another).
    # Round 2: ann moves to c4 (a face-down One-Way) and orients it; bob moves to b1.
    log = match.extend(log, ["d4", "EW", "a1", "EW", "c4", "W"])
    rep = match.replay(log)
    assert rep.to_move() == "bob"
    log = match.extend(log, ["b1"])
    rep = match.replay(log)
    assert rep.to_move() == "bob"  # b1 is a One-Way: bob orients it, still round 2
    log = match.extend(log, ["N"])
    out = log.result
    assert out is not None and out.winners == ()
    assert [(s.player, s.score, s.place) for s in out.standings] == [("ann", 0, 1), ("bob", 0, 1)]
    assert any("round limit (2 rounds)" in d for d in out.details)
    match.validate(log)


def test_round_limit_ends_every_random_game():
    """R15: with the default limit of 100 rounds every random game ends, won or not."""
    for n in (2, 3, 4):
        states = random_states(n, f"ends-{n}", limit=10_000)
        last = states[-1]
        assert game.to_move(last) is None
        assert last.winner >= 0 or last.turns == 100 * n


# =====================================================================================
# Legal moves against the oracle
# =====================================================================================


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", ["1", "2"])
@pytest.mark.parametrize("mix", ["4Q,6D,6O", "8Q,4D,4O"])
def test_legal_moves_agree_with_the_rules_over_whole_games(players, seed, mix):
    """All sections: at every position of random games the engine's legal moves bring
    about exactly the positions the oracle derives from the rule text, each once."""
    for state in random_states(players, f"oracle-{seed}", {"disks": mix}, limit=700):
        if game.to_move(state) is None:
            continue
        outcomes = [snapshot(game.apply(state, m)) for m in game.legal_moves(state)]
        assert len(set(outcomes)) == len(outcomes), "two legal moves with one outcome"
        assert set(outcomes) == expected_outcomes(state)


# =====================================================================================
# Notation
# =====================================================================================


TOLERANT = [
    ("B2", "b2"),
    ("to b2", "b2"),
    (">b2", "b2"),
    ("b2 + C3", "b2+c3"),
    ("b2,c3", "b2+c3"),
    ("b2/c3", "b2+c3"),
    ("b2 turn c3", "b2+c3"),
    ("b2c3", "b2+c3"),
    ("b2+-", "b2"),
    ("b2 + none", "b2"),
    ("b2+0", "b2"),
    ("b2+a3", "b2"),  # a3 is a Q-Turner
    ("x", "bounce"),
    ("*", "bounce"),
    ("xb3", "bounce"),
    ("Bounce off b3", "bounce"),
    ("bounce + c3", "bounce+c3"),
    ("x+c3", "bounce+c3"),
]


@pytest.mark.parametrize(("typed", "canonical"), TOLERANT)
def test_notation_tolerant_input_on_a_double_arrow(typed, canonical):
    """Notation: case, spaces, separators and words are forgiven; the move is recorded
    in canonical form (ann on a Double Arrow on b2... and b2 itself a Double Arrow)."""
    state = position(
        {"b1": "D:NS", "b2": "D:NS", "b3": "O:N", "c3": "O:E", "a3": "Q", "a4": "O:S"},
        {"ann": "b1", "bob": "a4"},
    )
    if canonical.startswith("bounce"):
        state = position(
            {"b2": "D:NS", "b3": "O:N", "c3": "O:E", "a3": "Q", "a4": "O:S"},
            {"ann": "b2", "bob": "b3"},
        )
    move = game.parse_move(state, typed)
    assert game.format_move(state, move) == canonical
    assert canonical in legal(state)
    assert game.apply(state, move) == play(state, canonical)


@pytest.mark.parametrize(("typed", "on_one_way", "on_double"), [
    ("east", "E", "EW"),
    ("e", "E", "EW"),
    ("=E", "E", "EW"),
    ("to e", "E", "EW"),
    ("W", "W", "EW"),
    ("s", "S", "NS"),
    ("north", "N", "NS"),
])
def test_notation_directions_and_axes(typed, on_one_way, on_double):
    """Notation: a One-Way's orientation is a direction; a Double Arrow's an axis,
    written NS or EW whichever end is named."""
    for kind, expected in (("?O", on_one_way), ("?D", on_double)):
        state = play(position({"c2": "O:E", "d2": kind}, {"ann": "c2", "bob": "a4"}), "d2")
        assert game.format_move(state, game.parse_move(state, typed)) == expected


@pytest.mark.parametrize("typed", ["ns", "N-S", "sn", "n/s"])
def test_notation_an_axis_is_for_a_double_arrow(typed):
    state = play(position({"c2": "O:E", "d2": "?D"}, {"ann": "c2", "bob": "a4"}), "d2")
    assert game.format_move(state, game.parse_move(state, typed)) == "NS"
    one_way = play(position({"c2": "O:E", "d2": "?O"}, {"ann": "c2", "bob": "a4"}), "d2")
    assert "one way" in str(refused(one_way, typed))


@pytest.mark.parametrize(("typed", "mentions"), [
    ("", None),
    ("hello", None),
    ("b", None),
    ("b2+", None),
    ("b2++c3", None),
    ("NE", None),
    ("f7", "f7"),
    ("b2+f7", "f7"),
    ("bounce off b9", "b9"),
])
def test_notation_garbage_is_a_notation_error(typed, mentions):
    """Notation: text that is not a move is a NotationError with a one-line message
    saying what is wrong or what was expected."""
    with pytest.raises(NotationError) as info:
        game.parse_move(None, typed)
    message = str(info.value)
    assert message and "\n" not in message
    assert (mentions or "b2+c3") in message


def test_notation_every_legal_move_round_trips():
    """Notation: every legal move's canonical text reads back to the same move, in
    lower and upper case."""
    for state in random_states(3, "notation", limit=300):
        for m in game.legal_moves(state):
            text = game.format_move(state, m)
            assert " " not in text
            for typed in (text, text.lower(), text.upper()):
                again = game.parse_move(state, typed)
                assert game.format_move(state, again) == text
                assert game.apply(state, again) == game.apply(state, m)


# Run the sample game of notation/q-turn.md with the test of every notation document.
def _q_turn_blocks():
    from test_notation_docs import blocks

    return [b for b in blocks("moves") if "game: q-turn" in b[2].splitlines()[0]]


@pytest.mark.parametrize(("doc", "line", "body"), _q_turn_blocks(), ids=lambda v: str(v)[:20])
def test_notation_document_examples(doc, line, body):
    from test_notation_docs import test_move_examples

    test_move_examples(doc, line, body)


def test_notation_document_sample_game_is_the_example_log():
    """The sample game of notation/q-turn.md ends as it says: ann wins at move 37."""
    path = ROOT / "examples" / "q-turn" / "2-players-sample.json"
    log = logmod.decode(path.read_bytes())
    rep = match.validate(log)
    assert len(log.moves) == 37
    assert log.result.winners == ("ann",)
    body = _q_turn_blocks()[0][2]
    played = [
        line.split("#")[0].split("->")[-1].strip()
        for line in body.splitlines()[1:]
        if line.split("#")[0].strip() and line.split("#")[0].strip()[:2] not in ("x ", "= ")
    ]
    assert played == [e.move for e in log.moves]
    assert rep.state.winner == 0


# =====================================================================================
# Views and rendering
# =====================================================================================


def test_view_face_down_disks_are_unknown_to_everybody():
    """R16: "the identity of a face-down disk is known to no player": every seat and a
    spectator see '?' for it, and the same view whatever it is."""
    a = position({"b2": "Q", "c2": "?Q", "a4": "O:S"}, {"ann": "b2", "bob": "a4"})
    b = position({"b2": "Q", "c2": "?O", "a4": "O:S"}, {"ann": "b2", "bob": "a4"})
    for seat in (None, 0, 1):
        va, vb = game.view(a, seat), game.view(b, seat)
        assert va.disks["c2"] == "?"
        assert va.disks["b2"] == "Q" and va.disks["a4"] == "O:S"
        # The counts differ (one more face-down Q-Turner in a): they follow from the
        # public mix in a real game, where both positions cannot arise from one mix.
        assert msgspec.structs.replace(va, face_down={}) == msgspec.structs.replace(vb, face_down={})
    assert game.view(a, 0).players == game.view(a, None).players


def test_view_counts_the_face_down_disks_by_kind_from_the_public_mix():
    """R16: how many of each kind are still face down follows from the mix (a
    parameter) and the revealed disks, so a view may say it."""
    state = game.setup(DEFAULTS, NAMES[:2], "75")
    state = play(play(state, "d4"), "EW")  # a Double Arrow
    v = game.view(state, None)
    assert v.face_down == {"Q": 4, "D": 5, "O": 6}
    assert json.loads(msgspec.json.encode(v))["disks"]["d4"] == "D:EW"


def test_view_redeal_changes_no_view():
    """R16: re-dealing the face-down disks changes nothing any seat sees."""
    for state in random_states(3, "redeal", limit=60):
        for seat in (None, 0, 1, 2):
            other = game.redeal(state, seat, "x")
            assert game.view(other, seat) == game.view(state, seat)
        moved = game.redeal(state, None, "x")
        assert Counter(moved.kinds) == Counter(state.kinds)


def test_consistent_rebuilds_every_view():
    """rules.consistent: a state cut from any view (every seat's and the
    spectator's) shows that view again, with the face-down disks dealt from
    the seed (the same seed, the same state), and the game goes on from it:
    the true state's legal moves, each of which applies."""
    for players in (2, 3, 4):
        for params in ({}, {"disks": "8Q,4D,4O"}, {"disks": "0Q,16D,0O", "round-limit": 3}):
            states = random_states(players, f"consistent-{params}", params, limit=200)
            for state in states[:: 7] + states[-1:]:
                for seat in (None, *range(players)):
                    v = rules.view(state, seat)
                    for seed in ("a", "b", "c"):
                        rebuilt = rules.consistent(v, {**DEFAULTS, **params}, seed)
                        assert rules.view(rebuilt, seat) == v, (seat, seed)
                        assert rules.consistent(v, {**DEFAULTS, **params}, seed) == rebuilt
                    assert rules.legal_moves(rebuilt) == rules.legal_moves(state)
                    for m in rules.legal_moves(state)[:4]:
                        assert rules.apply(rebuilt, m).turns >= rebuilt.turns
    # The seed deals the face-down disks: another seed, another deal.
    start = rules.view(game.setup(DEFAULTS, NAMES[:2], "75"), 0)
    assert (rules.consistent(start, DEFAULTS, "a").kinds
            != rules.consistent(start, DEFAULTS, "b").kinds)


def test_render_shows_face_down_disks_as_unknown():
    state = position({"b2": "Q", "c2": "?Q", "a4": "O:S"}, {"ann": "b2", "bob": "a4"})
    for style in (Style(unicode=True), Style(unicode=False)):
        text = game.render(game.view(state, None), style)
        assert "?" in text
        assert text.count("Q  ") == 1  # only the revealed Q-Turner is named


def _golden_states():
    log = logmod.decode((ROOT / "examples" / "q-turn" / "2-players-sample.json").read_bytes())
    rep = match.validate(log, keep=True)
    return rep.states


@pytest.mark.parametrize("ply", [0, 1, 16, 21, 34, 37])
def test_render_golden(ply, file_regression):
    """Golden renders of the sample game of notation/q-turn.md: the start, a disk
    awaiting its orientation, after a Q-Turner, mid-game with a disk being turned,
    after a bounce, and the end."""
    state = _golden_states()[ply]
    v = game.view(state, game.to_move(state))
    text = "\n".join((
        "--- unicode ---", game.render(v, Style(unicode=True)),
        "--- ascii ---", game.render(v, Style(unicode=False)),
        "--- legal ---", " ".join(legal(state)),
    )) + "\n"
    file_regression.check(text, extension=".txt", encoding="utf-8")


def test_render_ascii_is_pure_ascii_and_colour_only_through_paint():
    for state in random_states(4, "render", limit=80):
        v = game.view(state, None)
        assert game.render(v, Style(unicode=False)).isascii()
        assert "\x1b[" not in game.render(v, Style(unicode=True, color=False))
    assert "\x1b[" in game.render(v, Style(unicode=True, color=True))


def columns(line: str) -> int:
    """How many terminal columns ``line`` takes (wide characters count two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


# The longest names a log allows (24 characters), so every line is at its widest.
LONG_NAMES = tuple(f"{n}_{'x' * (23 - len(n))}" for n in NAMES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_render_fits_a_mail_line_of_72_columns(players):
    """Mail: the ASCII board is printable ASCII, and both styles keep every line
    within 72 columns, at random positions of every player count (with the
    longest names a log allows), while a disk is being oriented, and at the end
    of a game won and of one stopped by the round limit."""
    names = LONG_NAMES[:players]
    assert all(len(n) == 24 for n in names)
    states = []
    for k, params in enumerate(({}, {"disks": "8Q,4D,4O"}, {"disks": "0Q,0D,16O", "round-limit": 4})):
        log = match.simulate(game.id, names, f"width-{k}", params)
        rep = match.validate(log, keep=True)
        states += [*rep.states[:: max(1, len(rep.states) // 40)], rep.states[-1]]
    for k in range(40):  # games won by a player
        log = match.simulate(game.id, names, "won", play_seed=str(k))
        if log.result.winners:
            states.append(match.validate(log).state)
            break
    assert any(s.winner >= 0 for s in states) and any(s.orienting for s in states)
    for state in states:
        for seat in (None, *range(players)):
            v = game.view(state, seat)
            text = game.render(v, Style(unicode=False))
            for line in text.split("\n"):
                assert line.isascii() and line.isprintable(), line
                assert len(line) <= 72, line
            for line in game.render(v, Style(unicode=True)).split("\n"):
                assert columns(line) <= 72, line


# =====================================================================================
# Pictures
# =====================================================================================


def scene_of(rep: match.Replay, ply: int, seat: int | None) -> Scene:
    """The frame's facts after ``ply`` moves of a replay, as seen by ``seat``."""
    state, players = rep.states[ply], rep.log.players
    entry = rep.log.moves[ply - 1] if ply else None
    mover = game.to_move(state)
    return Scene(
        title=game.title,
        players=players,
        viewer=None if seat is None else players[seat],
        to_move=None if mover is None else players[mover],
        ply=ply,
        last=None if entry is None else (entry.by, entry.move),
        standing=game.standing(state),
        final=game.outcome(state) is not None,
    )


def drawn(rep: match.Replay, ply: int, seat: int | None) -> ET.Element:
    svg = game.draw(game.view(rep.states[ply], seat), scene_of(rep, ply, seat))
    return ET.fromstring(svg)


def squares_of(root: ET.Element, cls: str) -> list[str]:
    """The squares whose group holds an element of class ``cls``, in board order."""
    return [
        g.get("data-square")
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "square" and any(e.get("class") == cls for e in g)
    ]


SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_picture_is_svg_drawn_from_the_view_alone(players):
    """At random positions of every player count, for a spectator and every seat:
    the picture is well-formed SVG about 800 px wide, the same bytes twice, and
    the same bytes whatever the face-down disks are (R16)."""
    log = match.simulate(game.id, NAMES[:players], f"picture-{players}")
    rep = match.validate(log, keep=True)
    plies = sorted({0, 1, 2, 5, *range(7, len(rep.states), 23), len(rep.states) - 1})
    for ply in plies:
        state = rep.states[ply]
        for seat in (None, *range(players)):
            scene = scene_of(rep, ply, seat)
            svg = game.draw(game.view(state, seat), scene)
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg" and root.get("width") == "800"
            assert game.draw(game.view(state, seat), scene) == svg
            for k in range(2):
                other = game.redeal(state, seat, f"picture/{ply}/{k}")
                assert game.draw(game.view(other, seat), scene) == svg


def test_picture_shows_the_face_down_disks_the_tokens_and_the_corners():
    rep = match.validate(
        logmod.decode((ROOT / "examples" / "q-turn" / "2-players-sample.json").read_bytes()),
        keep=True,
    )
    start = drawn(rep, 0, None)
    assert len(squares_of(start, "face-down")) == 16
    assert squares_of(start, "token") == [] and squares_of(start, "last-move") == []
    # After ann's d4 (a Double Arrow awaiting its orientation) and EW.
    after = drawn(rep, 2, 0)
    assert len(squares_of(after, "face-down")) == 15
    assert squares_of(after, "token") == ["d4"] and squares_of(after, "home") == ["d4"]
    assert squares_of(after, "last-move") == ["d4"]
    disks = {e.get("data-disk") for e in after.iter(f"{SVG}circle") if e.get("data-disk")}
    assert disks == {"D:EW"}
    # Move 12, bob's NS+c4: his own disk on b2 outlined, ann's One-Way on c4 ringed.
    v = game.view(rep.states[12], None)
    turned = drawn(rep, 12, None)
    assert v.tokens[1] == "b2" and squares_of(turned, "last-move") == ["b2"]
    assert squares_of(turned, "turned") == ["c4"]
    assert len(squares_of(turned, "face-down")) == sum(v.face_down.values())
    assert sorted(squares_of(turned, "token")) == sorted(v.tokens)
    # The end: ann home on d4; the text says who won.
    end = drawn(rep, len(rep.states) - 1, 1)
    assert squares_of(end, "last-move") == ["d4"]
    texts = " ".join(t.text or "" for t in end.iter(f"{SVG}text"))
    assert "ann completed the journey and wins" in texts
    assert "Game over" in texts


def test_picture_says_when_a_q_turner_turned_every_disk():
    rep = match.validate(
        logmod.decode((ROOT / "examples" / "q-turn" / "2-players-sample.json").read_bytes()),
        keep=True,
    )
    ply = next(k for k, e in enumerate(rep.log.moves, 1) if e.move == "a3")  # a Q-Turner
    texts = " ".join(t.text or "" for t in drawn(rep, ply, None).iter(f"{SVG}text"))
    assert "The Q-Turner on a3 turned every revealed disk" in texts
    texts = " ".join(t.text or "" for t in drawn(rep, ply + 2, None).iter(f"{SVG}text"))
    assert "Q-Turner on" not in texts  # a2, a One-Way Arrow
    # Each square's tooltip names its disk; a disk awaiting its orientation says so.
    titles = {g.get("data-square"): g.find(f"{SVG}title").text
              for g in drawn(rep, ply, None).iter(f"{SVG}g") if g.get("data-square")}
    assert titles["a3"] == "a3: a Q-Turner, ann's token"
    assert titles["c4"].startswith("c4: a One-Way Arrow pointing ")
    titles = {g.get("data-square"): g.find(f"{SVG}title").text
              for g in drawn(rep, 1, None).iter(f"{SVG}g") if g.get("data-square")}
    assert titles["d4"] == ("d4: a Double Arrow just revealed, not yet oriented, ann's token, "
                            "ann's starting corner")


def test_picture_no_q_turner_acts_when_its_player_comes_home_to_win():
    """Winning: the game ends as the token comes home; a Q-Turner there turns nothing."""
    state = position({"a1": "Q", "a2": "O:S", "d4": "O:W"}, {"ann": "a2", "bob": "d4"},
                     reached=("ann",))  # fmt: skip
    after = play(state, "a1")
    assert after.winner == 0
    scene = Scene(game.title, state.players, None, None, 9, ("ann", "a1"), game.standing(after),
                  True)  # fmt: skip
    root = ET.fromstring(game.draw(game.view(after, None), scene))
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Q-Turner on" not in texts and "ann completed the journey and wins" in texts
    assert squares_of(root, "last-move") == ["a1"]


# =====================================================================================
# The engine contract, the log and the command line
# =====================================================================================


CONFORMANCE = [
    (n, params, seed)
    for n in (2, 3, 4)
    for params in ({}, {"disks": "0Q,16D,0O"}, {"disks": "0Q,0D,16O"}, {"disks": "16Q,0D,0O"},
                   {"disks": "8Q,4D,4O", "round-limit": 3})
    for seed in volume.seeds(1, 2)
]


@pytest.mark.parametrize(("n", "params", "seed"), CONFORMANCE, ids=str)
def test_conformance(n, params, seed):
    """The generic random-play check of tests/test_conformance.py."""
    from test_conformance import play_and_check

    play_and_check(game.id, n, params, seed)


def test_examples_are_valid_and_complete():
    paths = sorted((ROOT / "examples" / "q-turn").glob("*.json"))
    assert {p.name for p in paths} >= {"2-players.json", "3-players.json", "4-players.json"}
    counts = set()
    for path in paths:
        log = logmod.decode(path.read_bytes(), str(path))
        match.validate(log)
        assert log.result is not None, path.name
        counts.add(len(log.players))
    assert counts == {2, 3, 4}


def test_cli_a_three_player_game_played_to_the_end(tmp_path):
    """Done when: a game of three players is played to the end by passing the file
    around with `legal` and `extend`. The moves are those of a random game that ends
    with a winner; each is checked against `legal` before it is sent."""
    runner = CliRunner()
    moves = None
    for k in range(100):
        sim = match.simulate(game.id, list(NAMES[:3]), "cli", play_seed=str(k))
        if sim.result is not None and sim.result.winners and len(sim.moves) < 250:
            moves = sim.moves
            break
    assert moves is not None
    path = tmp_path / "game.json"
    r = runner.invoke(app, ["new", "q-turn", "--players", "ann,bob,cy", "--seed", "cli",
                            "-o", str(path)])
    assert r.exit_code == 0, r.output
    for entry in moves:
        r = runner.invoke(app, ["legal", str(path), "--json"])
        assert r.exit_code == 0, r.output
        listed = json.loads(r.stdout)
        assert listed["player"] == entry.by
        assert entry.move in listed["moves"]
        r = runner.invoke(app, ["extend", str(path), entry.move, "--as", entry.by, "--ascii"])
        assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 0 and "over" in r.stdout
    log = logmod.decode(path.read_bytes())
    assert log.result == sim.result
    r = runner.invoke(app, ["show", str(path), "--ascii"])
    assert r.exit_code == 0 and "wins" in r.stdout
    r = runner.invoke(app, ["legal", str(path), "--json"])
    assert json.loads(r.stdout) == {"player": None, "moves": []}


def test_cli_refuses_with_one_line_naming_the_rule(tmp_path):
    runner = CliRunner()
    path = tmp_path / "game.json"
    runner.invoke(app, ["new", "q-turn", "--players", "ann,bob", "--seed", "75", "-o", str(path)])
    before = path.read_bytes()
    r = runner.invoke(app, ["extend", str(path), "b2"])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        "Error: move 1 (ann) 'b2': your first move enters the board on a free corner: "
        "a1, d1, a4 or d4 (Q-Turn: Setup and Start)"
    )
    assert path.read_bytes() == before
    r = runner.invoke(app, ["extend", str(path), "d4", "EW", "a1", "EW", "d3"])
    assert r.exit_code == 1
    assert "move 5 (ann) 'd3': the Double Arrow on d4 points east and west, not south" in r.stderr
