"""Atlas by mail: ``reading.read_listed`` (the move a player typed into a
view file, read and refused by Atlas's own notation and rules) and
``narrate`` (what a move did, as one viewer saw it).

``read_listed`` must agree with the log's reader, ``parse_move`` and the
rules, in every position of random games: every spelling notation/atlas.md
allows gives the same canonical move, and every other text is refused
exactly when the log would refuse it, with the same words; and it says the
same whatever is dealt where its player cannot see. ``narrate`` must say
the same whatever the viewer cannot see, in printable ASCII, and tell the
rule text's examples (Example Turn, the sample game of notation/atlas.md)
as worked out by hand.

The first half of this file is shared with tests/test_q_turn_mail.py and
tests/test_time_palatrix_mail.py: random games, and the checks every game
must pass.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import NamedTuple

import msgspec
import pytest

from adjudicator import games, log as logmod, match, reading
from adjudicator.engine import GameSpec
from adjudicator.errors import AmbiguousMoveError, MoveError, NotationError
from adjudicator.games.atlas import GAME as game, cards

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("ann", "bob", "cy", "dee")
REDEALS = 3


# --- shared by the three games' mail tests ---------------------------------------------


class Run(NamedTuple):
    """A game of random moves: its states, the moves between them, and its
    log's parameters (every one written out)."""

    states: list
    moves: list[str]
    params: dict


def random_games(game_id: str, players: int, seeds: Iterable[str], params: dict | None = None,
                 upto: int | None = None) -> list[Run]:
    """Games of random legal moves (Python's random, seeded); ``upto`` cuts a
    long game short after that many moves."""
    out = []
    g = games.get(game_id)
    for seed in seeds:
        log = match.new_log(game_id, NAMES[:players], seed, params or {})
        _, state = match.start(log)
        rng = random.Random(f"{game_id}/{players}/{seed}")
        run = Run([state], [], log.params)
        while g.to_move(state) is not None and (upto is None or len(run.moves) < upto):
            move = rng.choice(g.legal_moves(state))
            run.moves.append(g.format_move(state, move))
            state = g.apply(state, move)
            run.states.append(state)
        out.append(run)
    return out


def listed(g: GameSpec, state) -> tuple[str, ...]:
    return tuple(g.format_move(state, m) for m in g.legal_moves(state))


def log_reads(g: GameSpec, state, text: str) -> tuple[str | None, MoveError | None, str]:
    """What the log's reader says of ``text`` here: the canonical move, or the
    error, and where it came from ("parse" or "apply")."""
    try:
        move = g.parse_move(state, text)
    except MoveError as e:
        return None, e, "parse"
    try:
        g.apply(state, move)
    except MoveError as e:
        return None, e, "apply"
    return g.format_move(state, move), None, ""


def answer(g: GameSpec, view, moves: tuple[str, ...], text: str, params: dict) -> tuple:
    """read_listed's answer, comparable: the move, or the error's kind and words."""
    try:
        return ("move", reading.read_listed(g, view, moves, text, params))
    except MoveError as e:
        return (type(e).__name__, str(e), getattr(e, "candidates", None))


#: How a game's read_listed words the refusal of ``text`` in ``state`` that
#: the rules give as ``reason``: (state, text, reason) -> the error's reason.
Refused = Callable[[object, str, str], str]


def check_agrees(g: GameSpec, refused_as: Refused, state, view, moves: tuple[str, ...], text: str,
                 params: dict) -> None:
    """read_listed reads ``text`` exactly as parse_move and the rules do: the
    same canonical move, or a refusal with the same words. A reading error is
    the very same error; a move the rules refuse is a NotationError saying it
    is not listed, with the rules' reason and clause (``refused_as``); an
    ambiguity names the same choices."""
    canonical, err, where = log_reads(g, state, text)
    if canonical is not None:
        assert canonical in moves, f"{text!r} reads as {canonical!r}, which is not listed"
        assert reading.read_listed(g, view, moves, text, params) == canonical, text
        return
    with pytest.raises(MoveError) as caught:
        reading.read_listed(g, view, moves, text, params)
        pytest.fail(f"{text!r} taken by read_listed, refused by the log: {err}")
    got = caught.value
    assert err is not None
    if where == "parse" or isinstance(err, AmbiguousMoveError):
        assert (type(got), str(got)) == (type(err), str(err)), text
        assert getattr(got, "candidates", ()) == getattr(err, "candidates", ()), text
    else:
        assert isinstance(got, NotationError), text
        assert (got.reason, got.clause) == (refused_as(state, text, err.reason), err.clause), text


def check_positions(game_id: str, refused_as: Refused, runs: list[Run],
                    spell: Callable[[object, object, str], list[str]], garbage: list[str],
                    *, sample: int = 6, redeal_texts: int = 16) -> int:
    """The read_listed checks of the module docstring at every position of
    ``runs``; ``spell(state, view, canonical)`` gives the spellings of a
    listed move the notation allows (the canonical one first). Returns the
    number of positions checked."""
    g = games.get(game_id)
    rng = random.Random(game_id)
    pool: list[str] = []
    count = 0
    for run in runs:
        for state in run.states:
            seat = g.to_move(state)
            if seat is None:
                # The end: a player's view with nothing listed refuses everything.
                view = g.view(state, 0)
                for text in pool[:20]:
                    check_agrees(g, refused_as, state, view, (), text, run.params)
                continue
            count += 1
            view = g.view(state, seat)
            moves = listed(g, state)
            tried = []
            for move in moves:
                forms = spell(state, view, move)
                assert forms[0] == move
                picked = [move, *rng.sample(forms[1:], min(sample, len(forms) - 1))]
                for text in picked:
                    typed = respace(rng, recase(rng, text))
                    check_agrees(g, refused_as, state, view, moves, typed, run.params)
                    tried.append(typed)
            others = pool + garbage
            others += [recase(rng, rng.choice(spell(None, None, t))) for t in rng.sample(
                pool, min(8, len(pool)))]
            for text in others:
                check_agrees(g, refused_as, state, view, moves, text, run.params)
            # The same answers whatever is dealt where the player cannot see.
            texts = rng.sample(tried, min(redeal_texts // 2, len(tried)))
            texts += rng.sample(others, min(redeal_texts // 2, len(others)))
            answers = [answer(g, view, moves, t, run.params) for t in texts]
            for k in range(REDEALS):
                other = g.redeal(state, seat, f"mail/{k}")
                seen = g.view(other, seat)
                assert [answer(g, seen, listed(g, other), t, run.params) for t in texts] == answers
            pool = (pool + list(moves[:: max(1, len(moves) // 6)]))[-60:]
    return count


def recase(rng: random.Random, text: str) -> str:
    """``text`` in another case: as it is, lower, upper, or letter by letter."""
    how = rng.randrange(4)
    if how == 1:
        return text.lower()
    if how == 2:
        return text.upper()
    if how == 3:
        return "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in text)
    return text


def respace(rng: random.Random, text: str) -> str:
    """``text`` with more space where it has some, and around it."""
    words = text.split(" ")
    glue = rng.choice([" ", "  ", " \t "])
    return rng.choice(["", " ", "  "]) + glue.join(words) + rng.choice(["", " ", "\t"])


def check_narration(game_id: str, runs: list[Run], *, hidden: Callable | None = None,
                    private: Callable | None = None) -> int:
    """narrate at every move of ``runs``, for every seat and the spectator: one
    printable ASCII line, no player's name first, no final full stop; the same
    from views read back from JSON (as from a view file) and for every re-deal
    of what the viewer cannot see; the same for every viewer, except what
    ``private(before, after, by, sentence)`` takes out of the mover's own
    (what only the mover saw); and, if given, naming nothing of
    ``hidden(state, seat)``, the words of what that seat cannot see (each
    a whole word: "P1" is not in "P12").
    Returns the number of moves told."""
    g = games.get(game_id)
    count = 0
    for run in runs:
        for before, after, move in zip(run.states, run.states[1:], run.moves):
            by = g.to_move(before)
            count += 1
            told = {}
            for seat in [None, *range(len(before.players))]:
                vb, va = g.view(before, seat), g.view(after, seat)
                words = g.narrate(vb, va, by, move)
                assert words and words.isascii() and words.isprintable(), words
                assert not words.endswith("."), words
                assert not any(words.startswith(p) for p in before.players), words
                again = [msgspec.json.decode(msgspec.json.encode(v), type=g.view_type)
                         for v in (vb, va)]
                assert g.narrate(*again, by, move) == words
                for k in range(REDEALS):
                    b2 = g.redeal(before, seat, f"mail/{k}")
                    a2 = g.redeal(after, seat, f"mail/{k}")
                    assert (g.view(b2, seat), g.view(a2, seat)) == (vb, va)
                    assert g.narrate(g.view(b2, seat), g.view(a2, seat), by, move) == words
                if hidden is not None:
                    for secret in hidden(after, seat):
                        found = re.search(rf"(?<![\w+-]){re.escape(secret)}(?![\w+-])", words)
                        assert not found, (seat, secret, words)
                told[seat] = words
            public = told[None]
            for seat, words in told.items():
                if seat == by and private is not None:
                    words = private(before, after, by, words)
                assert words == public, (seat, words, public)
    return count


def replayed(path: str) -> match.Replay:
    return match.validate(logmod.decode((ROOT / path).read_bytes()), keep=True)


def told(rep: match.Replay, number: int, seat: int | None) -> str:
    """narrate of move ``number`` (1-based) of a replay, as ``seat`` saw it."""
    g, entry = rep.game, rep.log.moves[number - 1]
    before, after = rep.states[number - 1], rep.states[number]
    by = rep.log.players.index(entry.by)
    return g.narrate(g.view(before, seat), g.view(after, seat), by, entry.move)


# --- Atlas: spellings (notation/atlas.md, Tolerant input) ------------------------------

SUIT_WORDS = {"W": ["W", "dawn"], "D": ["D", "day"], "S": ["S", "sunset", "sun"],
              "N": ["N", "night"]}
SIDE_WORDS = {"T": ["T", "time"], "P": ["P", "place"]}
SEPARATORS = ["+", ":", "/", ",", "-", " with ", " and ", "", " ", " + "]


def atlas_spellings(state, view, canonical: str) -> list[str]:
    return _atlas_spellings(canonical)


@cache
def _atlas_spellings(canonical: str) -> list[str]:
    """Every spelling of ``canonical`` the notation document allows: the suit's
    name for its letter, the suit before the number, "of" between them;
    between card and prediction + : / , - "with" "and" or nothing; "x",
    "chip(s)", then "on" or "for" after the chips; time and place for T and
    P, and the side before the number. (Reading never looks at the position.)"""
    card, _, bet = canonical.partition("+")
    number, suit = card[:-1], card[-1]
    cards = []
    for word in SUIT_WORDS[suit]:
        cards += [f"{number}{word}", f"{number} {word}", f"{word} {number}", f"{word}{number}",
                  f"{number} of {word}"]
    if not bet:
        return [canonical, *cards]
    chips, side = bet[:-1], bet[-1]
    bets = []
    for s in SIDE_WORDS[side]:
        bets += [f"{chips}{s}", f"{chips} {s}", f"{s}{chips}", f"{s} {chips}",
                 f"{chips} chips on {s}", f"{chips} chip for {s}", f"{chips}x{s}",
                 f"{chips} x {s}", f"{chips} chips {s}", f"{chips}chip on {s}"]
    return [canonical] + [c + sep + b for c in cards for sep in SEPARATORS for b in bets]


ATLAS_GARBAGE = ["", "pass", "9D", "0W", "3D+", "3D+2", "3D+T", "3D+0T", "3D+6P", "3D+99T",
                 "3X", "D", "3 of", "4W+3Tx", "dawn dawn", "+2T", "3D 2T 1P", "1N+5 chips"]


def refused_as(state, text: str, reason: str) -> str:
    """Atlas: "3D+2T is not one of your legal moves: " and the rules' reason;
    the move as it would be recorded."""
    return f"{game.format_move(state, game.parse_move(state, text))} {reading.NOT_LISTED}: {reason}"


def atlas_runs() -> list[Run]:
    return [run for n in game.players for run in random_games(
        "atlas", n, [f"mail{k}" for k in range(4)])]


def test_read_listed_agrees_with_the_log_in_random_positions() -> None:
    """Every spelling of every listed move, and other positions' moves and
    garbage, in some 330 positions of 12 random games (2, 3 and 4 players)."""
    count = check_positions("atlas", refused_as, atlas_runs(), atlas_spellings, ATLAS_GARBAGE)
    assert count >= 300


def test_read_listed_takes_every_spelling_of_a_move() -> None:
    """All of them, not a sample, for a move with and one without a prediction."""
    run = random_games("atlas", 2, ["all"], upto=0)[0]
    state = run.states[0]
    view, moves = game.view(state, 0), listed(game, state)
    for move in (moves[0], moves[3], moves[-1]):
        for text in atlas_spellings(state, view, move):
            for typed in (text, text.upper(), text.lower(), f"  {text} "):
                assert reading.read_listed(game, view, moves, typed, run.params) == move, typed


def test_narrate_says_nothing_hidden_and_the_same_to_every_viewer() -> None:
    """Other hands, the draw pile and the cards removed unseen are never named
    (in words or in code); every viewer is told the same, but the drawer
    alone learns the card drawn."""
    def hidden(state, seat):
        seen = game.view(state, seat)
        shown = set(seen.face_up) | set(seen.face_down) | set(seen.hand or ())
        out = []
        for code in cards.CARD_TEXT:
            if code not in shown:
                number, suit = code[:-1], code[-1]
                name = dict(W="Dawn", D="Day", S="Sunset", N="Night")[suit]
                out += [code, f"the {number} of {name}"]
        return out

    def private(before, after, by, words):
        drawn = set(game.view(after, by).hand) - set(game.view(before, by).hand)
        for code in drawn:
            number, suit = code[:-1], code[-1]
            name = dict(W="Dawn", D="Day", S="Sunset", N="Night")[suit]
            words = words.replace(f"draws the {number} of {name}", "draws a card")
        return words

    runs = [run for n in game.players for run in random_games("atlas", n, ["told0", "told1"])]
    assert check_narration("atlas", runs, hidden=hidden, private=private) >= 150


# --- Atlas: read_listed, the examples of notation/atlas.md ------------------------------

SAMPLE = "examples/atlas/3-players.json"  # the sample game of notation/atlas.md
PARAMS: dict = {}  # Atlas has no parameters: every log's header says so


def at(rep: match.Replay, number: int) -> tuple:
    """The position before move ``number`` (1-based): the mover's view and list."""
    state = rep.states[number - 1]
    seat = rep.game.to_move(state)
    return state, rep.game.view(state, seat), listed(rep.game, state)


def refusal(view, moves, text: str) -> NotationError:
    with pytest.raises(NotationError) as caught:
        reading.read_listed(game, view, moves, text, PARAMS)
    return caught.value


def test_read_listed_the_sample_games_refusals() -> None:
    """The x lines of the sample game: the same reasons as the log, with the
    clause, after "not one of your legal moves"."""
    rep = replayed(SAMPLE)
    _, view, moves = at(rep, 1)
    e = refusal(view, moves, "8W")
    assert (e.reason, e.clause) == (
        f"8W {reading.NOT_LISTED}: the 8s are out of the game with 3 players", "Atlas: Game Set Up 3")
    e = refusal(view, moves, "3D")  # in cy's hand: ann's view cannot tell where it is
    assert (e.reason, e.clause) == (
        f"3D {reading.NOT_LISTED}: ann does not hold the 3 of Day", "Atlas: Play a Card")
    assert reading.read_listed(game, view, moves, "3 dawn", PARAMS) == "3W"
    _, view, moves = at(rep, 2)
    e = refusal(view, moves, "3W")
    assert e.reason == f"3W {reading.NOT_LISTED}: the 3 of Dawn is already on the board"
    assert reading.read_listed(game, view, moves, "1w 2t", PARAMS) == "1W+2T"
    _, view, moves = at(rep, 3)
    with pytest.raises(AmbiguousMoveError) as amb:
        reading.read_listed(game, view, moves, "3D+2", PARAMS)
    assert amb.value.candidates == ("3D+2T", "3D+2P")
    assert reading.read_listed(game, view, moves, "3 of day, 2 chips on place", PARAMS) == "3D+2P"
    _, view, moves = at(rep, 5)
    e = refusal(view, moves, "4W+6T")
    assert (e.reason, e.clause) == (
        f"4W+6T {reading.NOT_LISTED}: a prediction is 1 to 5 chips, not 6", "Atlas: Play a Card B")
    _, view, moves = at(rep, 7)
    e = refusal(view, moves, "6W+1T")
    assert (e.reason, e.clause) == (
        f"6W+1T {reading.NOT_LISTED}: the 6 of Dawn completes a Time: no prediction may be placed on it",
        "Atlas: Play a Card A")
    _, view, moves = at(rep, 20)
    e = refusal(view, moves, "4N+4P")
    assert e.reason == f"4N+4P {reading.NOT_LISTED}: bob has only 3 chips left"
    _, view, moves = at(rep, 21)
    assert refusal(view, moves, "2N+2T").reason == f"2N+2T {reading.NOT_LISTED}: cy has only 1 chip left"
    _, view, moves = at(rep, 22)
    assert refusal(view, moves, "7S+1P").reason == f"7S+1P {reading.NOT_LISTED}: ann has no chips left"
    assert reading.read_listed(game, view, moves, "7s", PARAMS) == "7S"


def test_read_listed_a_place_and_both_at_once_refuse_a_prediction() -> None:
    """Play a Card A, told from the view: the 3 of Night completes a Place in
    the sample game (move 8), as the log says."""
    rep = replayed(SAMPLE)
    state, view, moves = at(rep, 8)
    e = refusal(view, moves, "3N+2P")
    assert e.reason == (f"3N+2P {reading.NOT_LISTED}: the 3 of Night completes a Place: "
                        "no prediction may be placed on it")
    with pytest.raises(MoveError) as logged:
        game.apply(state, game.parse_move(state, "3N+2P"))
    assert e.reason.endswith(logged.value.reason)


def test_read_listed_takes_a_listed_move_as_listed() -> None:
    """The list is the referee's: a move on it, typed as listed, is the move
    (the referee checks it again when the file comes back)."""
    rep = replayed(SAMPLE)
    _, view, moves = at(rep, 1)
    assert reading.read_listed(game, view, (*moves, "8W"), "8W", PARAMS) == "8W"
    # Read but not listed, and the view shows no reason: the list was edited.
    e = refusal(view, moves[1:], moves[0])
    assert e.reason == f"{moves[0]} {reading.NOT_LISTED} ({len(moves) - 1} listed)"


def test_read_listed_refusals_name_nothing_hidden() -> None:
    """Ruling R17: a card the player does not hold is refused in the same words
    wherever it is: another hand, the draw pile, removed unseen."""
    rep = replayed(SAMPLE)
    state, view, moves = at(rep, 1)
    where = {"2W": "removed", "2D": "cy's hand", "1W": "bob's hand", "6N": "the draw pile"}
    for code in where:
        assert code not in view.hand
        e = refusal(view, moves, code)
        number, suit = code[:-1], code[-1]
        name = dict(W="Dawn", D="Day", S="Sunset", N="Night")[suit]
        assert e.reason == f"{code} {reading.NOT_LISTED}: ann does not hold the {number} of {name}"


# --- Atlas: narrate, the rule text's examples --------------------------------------------


def test_narrate_the_example_turn() -> None:
    """Example Turn: "Yellow plays 2 of Day, completing the Time. All of the
    included cards are flipped. The blue player's incorrect prediction is
    discarded. The green player's correct prediction remains on the board."
    (Built as tests/test_atlas.py builds it.)"""
    from test_atlas import play, position

    players = ("yellow", "blue", "green")
    state = position(hands={"yellow": "1D 2D 7S", "blue": "3D 6S", "green": "4D 5N"},
                     players=players)
    for text in ("1D", "3D+2P", "4D+3T"):
        before, state = state, play(state, text)
    assert game.narrate(game.view(before, None), game.view(state, None), 2, "4D+3T") == (
        "plays the 4 of Day, predicting Time with 3 chips")
    after = play(state, "2D")
    assert game.narrate(game.view(state, 1), game.view(after, 1), 0, "2D") == (
        "plays the 2 of Day, completing a Time (the 1, 2, 3 and 4 of Day): the cards flip; "
        "correct, staying: green's 3 chips on 4D (Time); "
        "incorrect, discarded: blue's 2 chips on 3D (Place)")


def test_narrate_the_sample_game() -> None:
    """The sample game of notation/atlas.md, as its comments tell it."""
    rep = replayed(SAMPLE)
    # "ann bets nothing; she draws the 7 of Sunset": ann alone sees which card.
    assert told(rep, 1, 0) == "plays the 3 of Dawn; then draws the 7 of Sunset"
    assert told(rep, 1, 1) == told(rep, 1, None) == "plays the 3 of Dawn; then draws a card"
    assert told(rep, 2, None) == (
        "plays the 1 of Dawn, predicting Time with 2 chips; then draws a card")
    assert told(rep, 6, None).endswith("then draws a card, the last of the draw pile")
    # "Time 3-4-5-6 of Dawn: the chips on Time stay, all correct"
    assert told(rep, 7, None) == (
        "plays the 6 of Dawn, completing a Time (the 3, 4, 5 and 6 of Dawn): the cards flip; "
        "correct, staying: bob's 3 chips on 4W (Time), ann's 2 chips on 5W (Time)")
    # "Place: 3s of Day, Sunset and Night face up, the 3 of Dawn face down"
    assert told(rep, 8, None) == (
        "plays the 3 of Night, completing a Place (the 3 of Day, Sunset and Night): the cards "
        "flip; correct, staying: cy's 2 chips on 3D (Place), cy's 3 chips on 3S (Place)")
    # "Time 1-2-4-5 of Day, bridging the face-down 3 of Day"
    assert told(rep, 14, None).startswith(
        "plays the 5 of Day, completing a Time (the 1, 2, 4 and 5 of Day)")
    # "Place of 1s (the 1 of Day face down): bob's Time chips on 1W are discarded"
    assert told(rep, 15, None) == (
        "plays the 1 of Night, completing a Place (the 1 of Dawn, Sunset and Night): the cards "
        "flip; correct, staying: ann's 3 chips on 1S (Place); "
        "incorrect, discarded: bob's 2 chips on 1W (Time)")
    # "cy: the last card; chips on face-up cards are removed"; ann 5 + 2 = 7,
    # bob 6 + 2 = 8, cy 10 + 4 = 14: cy wins. Removed: ann 3 on 2S, bob 3 on
    # 4N, cy 3 on 4S and 1 on 2N.
    assert told(rep, 27, 2) == (
        "plays the 5 of Night; every hand is empty: the chips on face-up cards are removed "
        "(ann 3, bob 3, cy 4); final score ann 7, bob 8, cy 14: cy wins")


def test_narrate_a_card_completing_a_time_and_a_place() -> None:
    """Play a Card A, NOTE: "If a played card completes both a Time and a Place
    simultaneously, both the Time and Place are scored"."""
    from test_atlas import play, position

    state = position(up="1D 2D 4D 3W 3S", down="3N", hands={"ann": "3D"},
                     stacks=(("2D", "bob", "P", 2), ("3S", "cy", "P", 1)))
    after = play(state, "3D")
    assert game.narrate(game.view(state, None), game.view(after, None), 0, "3D") == (
        "plays the 3 of Day, completing a Time (the 1, 2, 3 and 4 of Day) and a Place "
        "(the 3 of Dawn, Day and Sunset): the cards flip; correct, staying: cy's 1 chip on 3S "
        "(Place); incorrect, discarded: bob's 2 chips on 2D (Place); every hand is empty: "
        "final score ann 0, bob 0, cy 2: cy wins")


def test_narrate_a_shared_win() -> None:
    """End of Game: ties go to the most stacks; still tied, shared (R15)."""
    rep = replayed("examples/atlas/4-players-shared-win.json")
    last = len(rep.log.moves)
    words = told(rep, last, None)
    result = rep.log.result
    assert result is not None
    best = [s.player for s in result.standings if s.place == 1]
    assert len(best) > 1
    assert words.endswith(" and ".join([", ".join(best[:-1]), best[-1]]) + " share the win")
