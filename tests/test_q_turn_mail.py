"""Q-Turn by mail: ``reading.read_listed`` (the move a player typed into a
view file, read and refused by Q-Turn's own notation and rules) and
``narrate`` (what a move did, as one viewer saw it).

``read_listed`` must agree with the log's reader in every position of random
games (2, 3 and 4 players, two disk mixes): every spelling notation/q-turn.md
allows, including those the position decides (a turn of a Q-Turner is no
turn, ``N`` on a Double Arrow is ``NS``, the square of a bounce is checked),
gives the same canonical move; every other text is refused exactly when the
log refuses it, with the same words; and the face-down disks, which nobody
sees, change no answer. ``narrate`` must tell everybody the same, whatever
lies face down, and tell the sample game of notation/q-turn.md as its
comments do. The checks shared by the three games are in test_atlas_mail.
"""

from __future__ import annotations

from functools import cache

import pytest

from adjudicator.errors import IllegalMoveError, NotationError
from adjudicator import reading
from adjudicator.games.q_turn import GAME as game
from test_atlas_mail import (
    Run, answer, check_narration, check_positions, listed, random_games, replayed, told,
)  # fmt: skip

SAMPLE = "examples/q-turn/2-players-sample.json"  # the sample game of notation/q-turn.md
SQUARES = [f"{f}{r}" for r in range(1, 5) for f in "abcd"]

# --- spellings (notation/q-turn.md, Tolerant input) ------------------------------------

GO = ["{}", "to {}", ">{}", "->{}", "to  {}"]
TURN_SEPARATORS = ["+", " + ", ",", "/", " turn ", "turning", " rotate ", "rotating", ";", "&",
                   ""]
NO_TURN = ["+-", "+none", " + 0", "+no", ", none", "/-"]
BOUNCE = ["bounce", "x", "*", "bounce off", "x off"]
DIR_WORDS = {"N": ["n", "north"], "E": ["e", "east"], "S": ["s", "south"], "W": ["w", "west"]}
AXIS_WORDS = {"NS": ["NS", "SN", "n-s", "s-n", "n/s", "s/n", *DIR_WORDS["N"], *DIR_WORDS["S"]],
              "EW": ["EW", "WE", "e-w", "w-e", "e/w", "w/e", *DIR_WORDS["E"], *DIR_WORDS["W"]]}
ORIENT = ["{}", "={}", "to {}", "->{}", ">{}"]


@cache
def _spellings(canonical: str) -> list[str]:
    """The spellings of ``canonical`` that read the same in every position."""
    head, _, turn = canonical.partition("+")
    if head == "bounce":
        heads = BOUNCE
    elif head in AXIS_WORDS:
        heads = [form.format(w) for w in AXIS_WORDS[head] for form in ORIENT]
    elif head in DIR_WORDS:
        heads = [form.format(w) for w in [head, *DIR_WORDS[head]] for form in ORIENT]
    else:
        heads = [form.format(h) for h in (head, head.upper()) for form in GO]
    if turn:
        tails = [sep + sq for sep in TURN_SEPARATORS for sq in (turn, turn.upper())]
    else:
        tails = ["", *NO_TURN]
    return [canonical] + [h + t for h in heads for t in tails if h + t != canonical]


def q_turn_spellings(state, view, canonical: str) -> list[str]:
    """Every spelling of ``canonical`` the notation allows; in a position, also
    the forms the position decides: a bounce naming any square, a move
    turning any square (a Q-Turner's turn is no turn; any other is another
    move, or refused)."""
    forms = list(_spellings(canonical))
    if view is None or "+" in canonical:
        return forms
    if canonical == "bounce":
        forms += [f"{b} {sq}" for b in ("bounce off", "x", "bounce") for sq in SQUARES]
        forms += [f"bounce off {sq} + {t}" for sq in SQUARES for t in SQUARES[::5]]
    else:
        forms += [f"{canonical}+{sq}" for sq in SQUARES]
    return forms


GARBAGE = ["", "pass", "e3", "b5", "c0", "to e1", "z9", "b2+e5", "bounce+", "NE", "north east",
           "b2+b3+c3", "xx", "to", "=", "a1 a1", "bounce off", "5", "d4+", "ns+ns"]


def refused_as(state, text: str, reason: str) -> str:
    """"b3 is not one of your legal moves: " and the rules' reason; the move as
    recorded, but a bounce keeps the square it names."""
    move = game.parse_move(state, text)
    spelled = game.format_move(state, move)
    if spelled.startswith("bounce") and move.arg >= 0:
        spelled = f"bounce off {SQUARES[move.arg]}" + spelled.removeprefix("bounce")
    return f"{spelled} is not one of your legal moves: {reason}"


def runs() -> list[Run]:
    out = []
    for n in game.players:
        for mix in ("4Q,6D,6O", "8Q,4D,4O"):
            params = {"disks": mix, "round-limit": 12}
            out += random_games("q-turn", n, [f"mail{n}", f"mail{n}b"], params)
    return out


# --- read_listed ---------------------------------------------------------------------


def test_read_listed_agrees_with_the_log_in_random_positions() -> None:
    """Every spelling of every listed move (a sample of each), other
    positions' moves and garbage, in over 500 positions of 12 random games."""
    count = check_positions("q-turn", refused_as, runs(), q_turn_spellings, GARBAGE, sample=5)
    assert count >= 500


def test_read_listed_takes_every_spelling_of_a_move() -> None:
    """All of them, not a sample, in one position of the sample game for each
    kind of move: a move turning a disk, a bounce, an orientation."""
    rep = replayed(SAMPLE)
    for number in (12, 15, 31, 34, 25):
        state = rep.states[number - 1]
        view, moves = game.view(state, game.to_move(state)), listed(game, state)
        move = rep.log.moves[number - 1].move
        for text in q_turn_spellings(state, view, move):
            want = game.format_move(state, game.parse_move(state, text))
            try:
                game.apply(state, game.parse_move(state, text))
            except IllegalMoveError:
                continue
            for typed in (text, text.upper(), f" {text}  "):
                assert reading.read_listed(game, view, moves, typed, rep.log.params) == want, typed


def at(number: int):
    """The position before move ``number`` (1-based) of the sample game: the
    view of the player to move (seat 0 at the end), their list and the log's
    parameters."""
    rep = replayed(SAMPLE)
    state = rep.states[number - 1]
    seat = game.to_move(state)
    return game.view(state, 0 if seat is None else seat), listed(game, state), rep.log.params


def refused(number: int, text: str, spelled: str | None = None) -> tuple[str, str | None]:
    """The reason and clause of read_listed's refusal of ``text`` before move
    ``number``, after "``spelled`` is not one of your legal moves: "."""
    view, moves, params = at(number)
    with pytest.raises(NotationError) as caught:
        reading.read_listed(game, view, moves, text, params)
    head = f"{spelled or text} is not one of your legal moves: "
    assert caught.value.reason.startswith(head), caught.value.reason
    return caught.value.reason.removeprefix(head), caught.value.clause


def test_read_listed_the_sample_games_readings() -> None:
    """The -> and = lines of the sample game, read from the view file."""
    for number, typed, canonical in [
        (1, "D4", "d4"), (2, "e-w", "EW"), (2, "w", "EW"), (4, "ns turn d4", "NS+d4"),
        (6, "west", "W"), (12, "NS + C4", "NS+c4"), (15, "xb3", "bounce"),
        (15, "bounce off b3", "bounce"), (22, "a1 + none", "a1"), (34, "bounce+c2", "bounce"),
    ]:
        view, moves, params = at(number)
        assert reading.read_listed(game, view, moves, typed, params) == canonical, typed


def test_read_listed_the_sample_games_refusals() -> None:
    """The x lines of the sample game, with the log's reasons and clauses."""
    assert refused(1, "b2") == (
        "your first move enters the board on a free corner: a1, d1, a4 or d4",
        "Q-Turn: Setup and Start")
    assert refused(1, "pass") == (
        "you may not pass: move, bounce or re-orient a One-Way Arrow", "Q-Turn: Taking a Turn")
    assert refused(2, "NS+a1") == (
        "the disk on a1 is face down: only revealed disks are turned", "Q-Turn: Special Actions")
    assert refused(4, "EW+a1") == (
        "a Double Arrow turns a disk other than your own, not the one on a1",
        "Q-Turn: Special Actions")
    assert refused(5, "d3") == (
        "the Double Arrow on d4 points east and west, not south to d3", "Q-Turn: Taking a Turn")
    assert refused(5, "c3")[0] == "c3 is not next to d4: a token moves one space, never diagonally"
    assert refused(5, "bounce") == (
        "the Double Arrow on d4 points at no token to bounce off; you may not bounce against "
        "an empty space or the edge of the board", "Q-Turn: Bouncing")
    assert refused(5, "c4+a1")[0] == (
        "the disk on c4 is face down: choose what it does once it is revealed, in your next move")
    assert refused(15, "b3")[0] == (
        "b3 holds ann's token: each space holds one token; bounce off it instead (bounce)")
    assert refused(15, "bounce off b1", "bounce off b1") == (
        "there is no token on b1 to bounce off", "Q-Turn: Bouncing")
    assert refused(25, "N")[0] == (
        "the One-Way Arrow on c4 points north already: re-orient it to another direction")
    assert refused(35, "bounce+c3")[0] == (
        "only a Double Arrow turns one disk; bouncing on the Q-Turner on d3 turns every "
        "revealed disk, so name none")
    assert refused(37, "d4+c3") == (
        "the game ends as you come home to d4: there is no disk to turn", "Q-Turn: Winning")
    assert refused(38, "c3") == ("the game is over: ann has won", "Q-Turn: Winning")


def test_read_listed_a_square_off_the_board_is_the_readers_error() -> None:
    """"e4" is refused by the reader itself, as a move off the board (Taking a
    Turn), in the same words as in the log."""
    view, moves, params = at(5)
    with pytest.raises(IllegalMoveError) as caught:
        reading.read_listed(game, view, moves, "e4", params)
    assert str(caught.value) == (
        "e4 is off the board: you may not move off the board (squares run from a1 to d4) "
        "(Q-Turn: Taking a Turn)")


def test_read_listed_the_face_down_disks_change_nothing() -> None:
    """Ruling R6: whatever lies face down, every answer is the same, for the
    move that reveals a disk too."""
    rep = replayed(SAMPLE)
    state = rep.states[4]  # ann on d4 may move to the face-down c4
    view, moves = game.view(state, 0), listed(game, state)
    texts = ["c4", "to c4", "c4+-", "c4+a1", "c4,d4", "d3", "bounce", "E", "pass"]
    answers = [answer(game, view, moves, t, rep.log.params) for t in texts]
    assert answers[:3] == [("move", "c4")] * 3
    others = [game.redeal(state, None, f"kinds/{k}") for k in range(4)]
    assert any(other.kinds != state.kinds for other in others)
    for other in others:
        seen = game.view(other, 0)
        assert [answer(game, seen, listed(game, other), t, rep.log.params)
                for t in texts] == answers


# --- narrate -------------------------------------------------------------------------


def test_narrate_is_the_same_for_everybody_whatever_lies_face_down() -> None:
    """Every viewer (every seat and the spectator) is told the same, and the
    same whatever the face-down disks are."""
    assert check_narration("q-turn", runs()) >= 450


def test_narrate_entering_and_revealing() -> None:
    """Taking a Turn: "move your token onto your starting corner. Each time you
    move your token onto a disk that is still face down, flip it over and
    rotate it to the position of your choice"."""
    rep = replayed(SAMPLE)
    assert told(rep, 1, None) == (
        "enters the board on d4, their starting corner, and reveals a Double Arrow, which they "
        "orient next")
    assert told(rep, 2, 1) == "lays the Double Arrow on d4 east-west"
    assert told(rep, 5, 0) == (
        "moves from d4 to c4 and reveals a One-Way Arrow, which they orient next")
    assert told(rep, 6, None) == "points the One-Way Arrow on c4 west"


def test_narrate_the_special_actions() -> None:
    """Special Actions: a Double Arrow turns one disk; a Q-Turner turns every
    revealed disk; a One-Way Arrow takes no action when landed on, and its
    player may re-orient it instead of moving."""
    rep = replayed(SAMPLE)
    # "NS+c4 ... and turns ann's One-Way on c4 from west to south"
    assert told(rep, 12, None) == (
        "lays the Double Arrow on b2 north-south, turning the One-Way Arrow on c4 from west "
        "to south")
    # "ann reveals a Q-Turner: every revealed disk turns a quarter counter-clockwise"
    assert told(rep, 16, None) == (
        "moves from b3 to a3 and reveals a Q-Turner: every revealed disk turns a quarter turn "
        "counter-clockwise")
    # "bob lands on the One-Way on c4, pointing north off the board"
    assert told(rep, 23, None) == (
        "moves from c3 to c4; landing on a One-Way Arrow, which takes no action")
    # "bob re-orients it instead of moving"
    assert told(rep, 25, None) == (
        "re-orients the One-Way Arrow on c4 from north to east instead of moving")
    # "ann lands on the Q-Turner: everything turns, bob's One-Way too"
    assert told(rep, 29, None) == (
        "moves from c1 to c2; landing on a Q-Turner, every revealed disk turns a quarter turn "
        "counter-clockwise")
    # "ann lands on the Double Arrow on c3 and turns d4 to north-south"
    assert told(rep, 31, None) == (
        "moves from c2 to c3; landing on a Double Arrow, turning the Double Arrow on d4 from "
        "north-south to east-west")


def test_narrate_bouncing() -> None:
    """Bouncing: "you may choose to bounce off their piece and remain where you
    are. This allows you to re-use the special action associated with your
    space"."""
    rep = replayed(SAMPLE)
    # "bob bounces off ann and stays on b2, turning nothing"
    assert told(rep, 15, None) == (
        "bounces off ann's token on b3 and stays on b2; re-using its Double Arrow, turning "
        "no disk")
    # "bob bounces off ann and re-uses his Double Arrow: turns c1"
    assert told(rep, 34, None) == (
        "bounces off ann's token on d3 and stays on d4; re-using its Double Arrow, turning the "
        "Double Arrow on c1 from east-west to north-south")
    # "ann bounces off bob and re-uses her Q-Turner"
    assert told(rep, 35, None) == (
        "bounces off bob's token on d4 and stays on d3; re-using its Q-Turner, every revealed "
        "disk turns a quarter turn counter-clockwise")


def test_narrate_the_far_corner_and_winning() -> None:
    """Winning: "move your token from the disk you started on across the board
    to the disk in the opposite corner, and back again"."""
    rep = replayed(SAMPLE)
    # "ann lands on a1, her far corner, a Double Arrow; she turns nothing"
    assert told(rep, 22, None) == (
        "moves from a2 to a1, their far corner; landing on a Double Arrow, turning no disk")
    # "ann is home after touching a1: she wins at once"
    assert told(rep, 37, 1) == "moves from d3 to d4, home again after reaching a1: ann wins"


def test_narrate_the_round_limit() -> None:
    """Ruling R15: the game ends without a winner at the round limit."""
    rep = replayed("examples/q-turn/3-players-round-limit.json")
    last = len(rep.log.moves)
    assert told(rep, last, None).endswith(
        "; the round limit (10 rounds) is reached: the game ends without a winner")
