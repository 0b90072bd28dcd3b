"""Turn of Time by mail: ``adjudicator.reading.read_listed`` (the tolerant
reader of a view file, generic over the games) and ``narrate`` (a move told
from one viewer's views, ``narration.py``).

``read_listed`` knows only the player's view and their listed moves; it must
read every spelling ``parse_move`` reads (notation/turn-of-time.md,
"Tolerant input") to the same canonical move, and refuse exactly what
``parse_move`` and ``apply`` refuse, with the same reason and clause. The
sentences of ``narrate`` are checked word for word on the rule card's worked
examples (4, 5.3, 6) and the notation document's sample game.
"""

from __future__ import annotations

import itertools
import random
import re
import sys
from functools import partial
from pathlib import Path

import msgspec
import pytest

from adjudicator import log as logmod, match
from adjudicator.errors import AmbiguousMoveError, IllegalMoveError, MoveError, NotationError
from adjudicator.games.turn_of_time import GAME, narration
from adjudicator.games.turn_of_time.cards import Move, SQUARES
from adjudicator.reading import read_listed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_atlas_mail import listed as shared_listed  # noqa: E402
from test_conformance import param_sets as conformance_param_sets  # noqa: E402
from test_turn_of_time import (  # noqa: E402
    EXAMPLE_FACES,
    WORKED,
    deal_backs,
    position,
    table,
    turned,
)

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("ann", "bob", "cy", "dee")
SEASONS = ("Sp", "Su", "Fa", "Wi")
DIRS = "nesw"


def params(**over: str) -> dict:
    out = {p.name: p.default for p in GAME.params}
    out.update(over)
    return out


def param_sets() -> list[dict]:
    """The conformance test's parameter sets, every parameter written out."""
    return [params(**over) for over in conformance_param_sets(GAME)]


def players(n: int) -> tuple[str, ...]:
    return NAMES[:n] if n > 1 else ("sol",)


listed = partial(shared_listed, GAME)  # the legal moves, canonical


def oracle(state, text: str) -> str | MoveError:
    """What the open log makes of ``text``: parse_move, apply, format_move."""
    try:
        move = GAME.parse_move(state, text)
        canonical = GAME.format_move(state, move)
        GAME.apply(state, move)
    except MoveError as e:
        return e
    return canonical


def reader(view, moves: tuple[str, ...], text: str, p: dict) -> str | MoveError:
    """read_listed's answer for the game with the parameters ``p``."""
    try:
        return read_listed(GAME, view, moves, text, p)
    except MoveError as e:
        return e


def agrees(got: str | MoveError, expected: str | MoveError) -> bool:
    """read_listed's answer is the open log's: the same move; the same
    ambiguity with the same choices; the same syntax error; or, for a move
    that reads well, a refusal giving apply's reason and clause."""
    if isinstance(expected, str):
        return got == expected
    if isinstance(expected, AmbiguousMoveError):
        return (type(got) is AmbiguousMoveError and str(got) == str(expected)
                and got.candidates == expected.candidates)
    if isinstance(expected, IllegalMoveError):
        return (isinstance(got, NotationError) and got.clause == expected.clause
                and " is not one of your legal moves: " in got.reason
                and got.reason.endswith(": " + expected.reason))
    return isinstance(got, NotationError) and str(got) == str(expected)


def shown(answer: str | MoveError) -> str:
    return answer if isinstance(answer, str) else f"{type(answer).__name__}: {answer}"


# --- spellings, from notation/turn-of-time.md "Tolerant input" ------------------------

WORDS = {0: ("sp", "spring"), 1: ("su", "summer"), 2: ("fa", "fall", "autumn", "au"),
         3: ("wi", "winter")}


def spell(rng: random.Random, face: int, back: int, square: str, order: str) -> str:
    """One way of typing the move: case and spaces ignored, '/' between the
    seasons, '@' or nothing for '-', '/' or nothing for ':', the seasons'
    full names."""
    text = (rng.choice(WORDS[face]) + rng.choice(("", "/", " / ", " "))
            + rng.choice(WORDS[back]) + rng.choice(("-", "@", "", " ", " @ ", " - ")) + square)
    if order:
        text += rng.choice((":", "/", "", " ", " : ")) + order
    text = "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)
    if rng.random() < 0.2:
        k = rng.randrange(len(text) + 1)
        text = text[:k] + " " + text[k:]
    return text


def neighbours(state, square: int) -> str:
    """The directions of the cards next to ``square``, in n, e, s, w order."""
    r, c = divmod(square, 7)
    steps = ((r + 1, c), (r, c + 1), (r - 1, c), (r, c - 1))
    return "".join(
        DIRS[d] for d, (rr, cc) in enumerate(steps)
        if 0 <= rr < 7 and 0 <= cc < 7 and state.board[rr * 7 + cc] >= 0
    )


def spellings(rng: random.Random, state, moves: tuple[str, ...], pool: list[str]) -> list[str]:
    """Texts to read at ``state``: every listed move typed several ways and
    each also with its other face and in other orders of meetings (some
    needed, some not, some naming the wrong neighbours), moves of other
    positions, and text that is no move at all."""
    out = []
    for text in moves:
        m = GAME.parse_move(state, text)
        around = neighbours(state, m.square)
        orders = ["", *("".join(p) for p in itertools.permutations(around))]
        orders += [around[1:], around + "n" if "n" not in around else around[:-1] + around[-1] * 2]
        square = SQUARES[m.square]
        out.append(spell(rng, m.face, m.back, square, "".join(DIRS[d] for d in m.order)))
        for _ in range(3):
            face, back = (m.face, m.back) if rng.random() < 0.5 else (m.back, m.face)
            out.append(spell(rng, face, back, square, rng.choice(orders)))
    out += rng.sample(pool, min(len(pool), 12))
    out += ["", "pass", "FaSp", "FaSp-h1", "FaSp-e9", "FaSp-d4:nn", "FaSp-d4:x", "Fa-e5",
            "XxSp-d4", "fall spring", "d4"]
    return out


# --- self-play --------------------------------------------------------------------------


def self_play(n: int, p: dict, seed: str) -> list[tuple[object, str]]:
    """The positions of a random game and the move made at each (canonical)."""
    state = GAME.setup(p, players(n), seed)
    rng = random.Random(f"mail/{n}/{seed}/{sorted(p.items())}")
    out = []
    while GAME.to_move(state) is not None:
        move = rng.choice(GAME.legal_moves(state))
        out.append((state, GAME.format_move(state, move)))
        state = GAME.apply(state, move)
    out.append((state, ""))
    return out


CASES = [
    pytest.param(n, p, seed, id=f"{n}p-{'-'.join(str(v) for v in p.values())}-{seed}")
    for n in GAME.players
    for p in param_sets()
    for seed in ("1", "2")
]


@pytest.mark.parametrize(("n", "p", "seed"), CASES)
def test_read_listed_agrees_with_parse_move(n: int, p: dict, seed: str) -> None:
    """At every position of random games, each text (listed moves spelled as
    the notation allows, other faces and orders, other positions' moves,
    garbage) gets from read_listed on the mover's view what parse_move and
    apply make of it on the state; and the same answer for every re-deal of
    what the mover cannot see (the solo deck under the drawn card)."""
    rng = random.Random(f"spell/{n}/{seed}")
    pool: list[str] = []
    checked = 0
    for state, _ in self_play(n, p, seed):
        seat = GAME.to_move(state)
        if seat is None:
            view = GAME.view(state, 0)
            for text in ("FaSp-d4", "SpSp-b4", "wi/wi e5"):
                assert agrees(reader(view, (), text, p), oracle(state, text)), text
            break
        moves = listed(state)
        view = GAME.view(state, seat)
        redealt = [GAME.redeal(state, seat, f"{seed}/redeal/{k}") for k in range(3)]
        texts = spellings(rng, state, moves, pool)
        for i, text in enumerate(texts):
            got, expected = reader(view, moves, text, p), oracle(state, text)
            assert agrees(got, expected), f"{text!r}: {shown(got)} / open log: {shown(expected)}"
            checked += 1
            if i % 4 == 0:
                for other in redealt:
                    again = reader(GAME.view(other, seat), listed(other), text, p)
                    assert shown(again) == shown(got), f"{text!r} reads differently on a re-deal"
        pool = (pool + list(moves))[-80:]
    assert checked > 300


@pytest.mark.parametrize(("n", "p", "seed"), CASES)
def test_narrate_tells_only_what_the_viewer_sees(n: int, p: dict, seed: str) -> None:
    """Every move of random games, told to every seat and to a spectator:
    printable ASCII, no full stop, not opening with the mover's name, the
    same for every re-deal of what the viewer cannot see; and, nothing of
    Turn of Time being hidden but the solo deck's order, the same to all.
    Every neighbouring card the move turned to another face is named, and
    the points told at the end are the engine's result."""
    game = self_play(n, p, seed)
    for (before, move), (after, _) in zip(game, game[1:]):
        by = GAME.to_move(before)
        told = set()
        for seat in (None, *range(n)):
            words = GAME.narrate(GAME.view(before, seat), GAME.view(after, seat), by, move)
            assert words and all(" " <= c <= "~" for c in words), words
            assert not words.endswith(".") and not words.startswith(before.players[by])
            assert len(words) <= (560 if GAME.to_move(after) is None else 400), words
            for k in range(3):
                a = GAME.redeal(before, seat, f"{seed}/r/{k}")
                b = GAME.redeal(after, seat, f"{seed}/s/{k}")
                assert GAME.narrate(GAME.view(a, seat), GAME.view(b, seat), by, move) == words
            told.add(words)
        assert len(told) == 1, told
        flipped = {sq for sq, card in table(after).items()
                   if table(before).get(sq, card) != card}
        for sq in flipped:
            assert f" on {sq}" in words, (move, words)
    # The last sentence tells the result the engine gives (6, 7, R7).
    words, result = told.pop(), GAME.outcome(game[-1][0])
    scores = {s.player: s.score for s in result.standings}
    if n == 1:
        assert (" met (" in words) == bool(result.winners), words
    elif n == 2 and "turn order decides" in words:
        assert "points" not in words
    elif n == 2:
        assert {k: int(v) for k, v in re.findall(r"(\w+) (\d+) points", words)} == scores
    else:
        found = re.findall(r"\((\w+)\) \d+(?: \(group \d+\))?: (\d+) points?", words)
        assert {k: int(v) for k, v in found if k != "nobody"} == scores, words


# --- the notation document's examples, typed into a view file -----------------------------


def doc_block() -> list[tuple[str, str, str]]:
    """The sample game of notation/turn-of-time.md: (mark, typed, recorded)."""
    text = (ROOT / "notation" / "turn-of-time.md").read_text()
    block = text.split("```moves")[1].split("```")[0]
    out = []
    for line in block.strip().splitlines()[1:]:
        line = line.split("#")[0].strip()
        if not line:
            continue
        mark = line[0] if line[0] in "x?=" else ""
        body = line[1:].strip() if mark else line
        typed, _, recorded = body.partition("->")
        out.append((mark, typed.strip(), recorded.strip() or typed.strip()))
    return out


def sample_game():
    return GAME.setup(params(), NAMES, "0")


def test_the_documents_sample_game_typed_into_view_files():
    """Every line of the notation's sample game, typed by the player to move
    into their view file: the tolerant spellings (`fall/spring e5 sw`,
    `FA SP @ E5 SW`, `FaSpe5sw`, `fafa c4 sen`) record what the document
    says, `x` lines are refused with apply's reason (a card not held, not
    adjacent, five columns, the game over), `?` lines as ambiguous."""
    state = sample_game()
    for mark, typed, recorded in doc_block():
        seat = GAME.to_move(state)
        view = GAME.view(state, 0 if seat is None else seat)
        moves = listed(state) if seat is not None else ()
        got = reader(view, moves, typed, params())
        if mark == "x":
            assert isinstance(got, NotationError), (typed, shown(got))
            assert agrees(got, oracle(state, typed)), (typed, shown(got))
        elif mark == "?":
            assert isinstance(got, AmbiguousMoveError), (typed, shown(got))
            assert agrees(got, oracle(state, typed)), (typed, shown(got))
        else:
            assert got == recorded, (typed, shown(got))
        if not mark:
            state = GAME.apply(state, GAME.parse_move(state, recorded))
    assert GAME.to_move(state) is None


def test_read_listed_refusals_say_why_with_the_clause():
    """Refusals in the sample game, word for word: a card not held (3), the
    first card off d4 (5.1a, R4), a square touching only at a corner (5.1a),
    a square taken (5.1), an order naming a card that is not there (5.2)."""
    state = sample_game()
    view = GAME.view(state, 0)
    err = reader(view, listed(state), "FaSu-d4", params())
    assert str(err) == ("FaSu-d4 is not one of your legal moves: ann holds no FaSu card "
                        "(Turn of Time 3)")
    err = reader(view, listed(state), "SuWi-e4", params())
    assert str(err) == ("SuWi-e4 is not one of your legal moves: the first card goes on d4, "
                        "the centre of the notation's frame (Turn of Time 5.1a)")
    for move in ("SuWi-d4", "WiSp-e4"):
        state = GAME.apply(state, GAME.parse_move(state, move))
    err = reader(GAME.view(state, 2), listed(state), "susu f5", params())
    assert str(err) == ("SuSu-f5 is not one of your legal moves: f5 is not adjacent to any "
                        "card (Turn of Time 5.1a)")
    err = reader(GAME.view(state, 2), listed(state), "SuSu-d4", params())
    assert str(err) == ("SuSu-d4 is not one of your legal moves: d4 already holds a card "
                        "(Turn of Time 5.1)")
    # An order that is not needed is accepted and dropped.
    assert reader(GAME.view(state, 2), listed(state), "SuSu-d5:s", params()) == "SuSu-d5"
    err = reader(GAME.view(state, 2), listed(state), "SuSu-d5:se", params())
    assert str(err) == ("SuSu-d5:se is not one of your legal moves: the order of meetings "
                        "must name each neighbouring card once (neighbours of d5: s) "
                        "(Turn of Time 5.2)")


def test_read_listed_the_5_2_example_needs_the_order():
    """5.2/5.3 worked example: without the order the move is ambiguous, and
    the error lists both ways, as apply's does; each order reads as typed."""
    state = position(WORKED, ["FaSp"])
    view, moves = GAME.view(state, 0), listed(state)
    err = reader(view, moves, "fall spring c3", params())
    assert isinstance(err, AmbiguousMoveError)
    assert set(err.candidates) == {"FaSp-c3:nw", "FaSp-c3:wn"}
    assert err.clause == "Turn of Time 5.2"
    assert str(err) == str(oracle(state, "fall spring c3"))
    assert reader(view, moves, "FA SP @ C3 NW", params()) == "FaSp-c3:nw"
    assert reader(view, moves, "faspc3wn", params()) == "FaSp-c3:wn"


# --- narrate: the rule card's examples, word for word ------------------------------------


def told(state, move: str, seat: int | None = None) -> str:
    by = GAME.to_move(state)
    after = GAME.apply(state, GAME.parse_move(state, move))
    return GAME.narrate(GAME.view(state, seat), GAME.view(after, seat), by, move)


def test_narrate_4_fall_placed_next_to_spring_both_flip():
    """4, example: "If Fall is placed adjacent to Spring, both seasons are
    flipped. This specific Fall flips to Spring." """
    state = position({"d4": "SpFa"}, ["FaSp"])
    assert "FaSp-e4" in listed(state)
    assert told(state, "FaSp-e4") == (
        "Fall with a Spring back on e4: it and the Spring on d4 flip each other "
        "(it to Spring, d4 to Fall); face up: Fall +1"
    )


def test_narrate_5_3_worked_example_two_new_fall():
    """5.3, example: "First, she lets Fall and Spring meet, flipping her Fall
    to Spring and the Spring to Fall. [...] Next, she lets her newly flipped
    Spring meet Summer, flipping her Spring back to Fall. Her play gave her 2
    new Fall on the board." No Winter: no chain reaction."""
    state = position(WORKED, ["FaSp"])
    assert told(state, "FaSp-c3:nw") == (
        "Fall with a Spring back on c3: it and the Spring on c4 flip each other "
        "(it to Spring, c4 to Fall), then the Summer on b3 flips it back to Fall; "
        "face up: Spring -1, Fall +2"
    )


def test_narrate_5_2_the_other_order():
    """5.2: meeting the Summer first, Fall flips Summer (its Winter back comes
    up); then Fall and Spring flip each other: 1 new Fall only."""
    state = position(WORKED, ["FaSp"])
    assert told(state, "FaSp-c3:wn") == (
        "Fall with a Spring back on c3: it flips the Summer on b3 to Winter, then it "
        "and the Spring on c4 flip each other (it to Spring, c4 to Fall); "
        "face up: Summer -1, Fall +1, Winter +1"
    )


def test_narrate_a_single_card_turned_over_shows_its_season_again():
    """R2: flipping a single card turns it over to the same season."""
    state = position({"d4": "SuSu"}, ["FaWi"])
    assert told(state, "FaWi-e4") == (
        "Fall with a Winter back on e4: it turns over the single Summer on d4 "
        "(still Summer); face up: Fall +1"
    )
    state = position({"d4": "WiWi"}, ["FaFa"])
    assert told(state, "FaFa-d5") == (
        "the single Fall on d5: the Winter on d4 turns it over (a single card: still "
        "Fall); face up: Fall +1"
    )


def test_narrate_the_documents_sample_game():
    """notation/turn-of-time.md, sample game: ann's Summer on d4 opens; bob's
    Winter meets it, opposites, both flip; at the end Winter (ann) 5 face up
    scores 4, Spring (bob) 3 on its group of 4 against Fall's 2, Fall (dee) 2,
    Summer (cy) 1."""
    moves = [recorded for mark, _, recorded in doc_block() if not mark]
    state = sample_game()
    words = []
    for move in moves:
        words.append(told(state, move, 1))
        state = GAME.apply(state, GAME.parse_move(state, move))
    assert words[0] == "Summer with a Winter back on d4 (the first card); face up: Summer +1"
    assert words[1] == (
        "Winter with a Spring back on e4: it and the Summer on d4 flip each other "
        "(it to Spring, d4 to Winter); face up: Spring +1, Summer -1, Winter +1"
    )
    assert words[-1].endswith(
        "; the game is over (6), face up: Winter (ann) 5: 4 points; Spring (bob) 4 "
        "(group 4): 3 points; Fall (dee) 4 (group 2): 2 points; Summer (cy) 3: 1 point"
    )


def last_move_to(final: dict[str, str], order: tuple[str, ...], n: int, seat: int):
    """A position one card short of the full table ``final`` and the move that
    completes it exactly (found by trying each square, card and neighbours'
    faces before the move)."""
    for square, card in sorted(final.items()):
        f, r = square[0], int(square[1])
        near = [q for q in (f"{f}{r + 1}", f"{chr(ord(f) + 1)}{r}", f"{f}{r - 1}",
                            f"{chr(ord(f) - 1)}{r}") if q in final]
        for placed in {card, turned(card)}:
            for faces in itertools.product(*[(final[q], turned(final[q])) for q in near]):
                cards = {q: c for q, c in final.items() if q != square}
                cards.update(zip(near, faces))
                state = position(cards, [placed], players=n, seat=seat, order=order)
                for m in GAME.legal_moves(state):
                    if SQUARES[m.square] != square:
                        continue
                    if table(GAME.apply(state, m)) == final:
                        return state, GAME.format_move(state, m)
    raise AssertionError("no last move completes this table")


def test_narrate_6_scoring_example():
    """6, example: "5 Fall (4 adjacent): 4 pts, 5 Spring (3 adjacent): 3 pts,
    3 Summer (2 adjacent): 2 pts, 3 Winter (2 adjacent): 1 pts. Fall has more
    adjacent seasons than Spring [...] Summer started before Winter and gets
    2 points." Turn order ann Spring, bob Summer, cy Winter, dee Fall."""
    state, move = last_move_to(deal_backs(*EXAMPLE_FACES), ("Sp", "Su", "Wi", "Fa"), 4, 3)
    assert told(state, move).endswith(
        "; the game is over (6), face up: Fall (dee) 5 (group 4): 4 points; Spring (ann) "
        "5 (group 3): 3 points; Summer (bob) 3 (group 2): 2 points; Winter (cy) 3 "
        "(group 2): 1 point"
    )


def test_narrate_two_players_a_full_tie_between_the_players_seasons():
    """R7: with two players a full tie between one player's season and the
    other's goes by turn order, the players' or the seasons' as drawn, a
    ruling the view does not carry: the sentence says so and gives no points.
    Here ann plays Spring and Fall, bob Summer and Winter (drawn Sp, Su, Fa,
    Wi); Summer and Fall both have 4 face up and a largest group of 2."""
    final = deal_backs("Su Su Sp Fa", "Wi Wi Sp Fa", "Wi Sp Fa Wi", "Su Su Wi Fa")
    state, move = last_move_to(final, ("Sp", "Su", "Fa", "Wi"), 2, 1)
    words = told(state, move)
    assert words.endswith(
        "; the game is over (6), face up: Winter (bob) 5; Fall (ann) 4 (group 2); "
        "Summer (bob) 4 (group 2); Spring (ann) 3; Summer and Fall tie on cards and group: "
        "turn order decides"
    ), words


def replayed(name: str) -> list:
    log = logmod.decode((ROOT / "examples" / "turn-of-time" / name).read_bytes())
    return list(match.validate(log, keep=True).states), log


@pytest.mark.parametrize(("name", "end"), [
    # 2 players, the example log: Summer (ann) and Winter (bob) tie fully, but
    # both readings of turn order put ann's Summer first: 7 points to 3.
    ("2-players.json", "ann 7 points, bob 3 points"),
    # 2 players, equal totals: bob holds the higher-ranked season (R7).
    ("2-players-tie.json", "bob 5 points, ann 5 points (bob holds the higher-ranked season)"),
    ("solo-dominance.json", "dominance met (largest group 7 Summer) (7)"),
    ("solo-balance-missed.json", "balance missed (Spring 3, Summer 5, Fall 3, Winter 5) (7)"),
    ("solo-balance.json", "balance met (Spring 4, Summer 4, Fall 4, Winter 4) (7)"),
])
def test_narrate_the_end_of_the_example_games(name: str, end: str):
    """The last move of each example log ends with the result its log records."""
    states, log = replayed(name)
    by = log.players.index(log.moves[-1].by)
    words = GAME.narrate(GAME.view(states[-2], None), GAME.view(states[-1], None), by,
                         log.moves[-1].move)
    assert words.endswith(end), words


def test_the_game_narrates_with_its_narration_and_reads_with_the_generic_reader():
    """The narration layer is narration.py; a move typed into a view file is
    read by adjudicator.reading, the same for every game."""
    assert GAME.narration is narration and GAME.narrate(
        GAME.view(sample_game(), None), GAME.view(GAME.apply(sample_game(), Move(1, 3, 24)), None),
        0, "SuWi-d4") == narration.narrate(
        GAME.view(sample_game(), None), GAME.view(GAME.apply(sample_game(), Move(1, 3, 24)), None),
        0, "SuWi-d4")
    state = sample_game()
    assert read_listed(GAME, GAME.view(state, 0), listed(state), "su/wi d4", params()) == "SuWi-d4"
    assert msgspec.json.encode(GAME.view(sample_game(), None))  # views are what they read
