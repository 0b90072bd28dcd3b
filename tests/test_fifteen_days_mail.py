"""15 Days by mail: ``read_listed`` (the tolerant reader of a view file) and
``narrate`` (a move told from one viewer's views).

``read_listed`` knows only the player's view and their listed moves; it must
read every spelling ``parse_move`` reads (notation/fifteen-days.md,
"Tolerant input": words, case, separators, the side of a play or a wild
dropped where it is no choice) to the same canonical move, refuse exactly
what ``parse_move`` and ``apply`` refuse, and give apply's reason whenever it
gives a reason at all. Nothing it answers, and nothing ``narrate`` says, may
change when what the player cannot see (other hands, the piles) is re-dealt.
The sentences of ``narrate`` are checked word for word on the notation
document's sample game and on positions from the rule text's sections.
"""

from __future__ import annotations

from functools import partial

import random
import re
import sys
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from adjudicator import log as logmod, match, reading
from adjudicator.errors import AmbiguousMoveError, BadLogError, IllegalMoveError, MoveError, NotationError
from adjudicator.games.fifteen_days import GAME as fd, narration

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_atlas_mail import listed as shared_listed  # noqa: E402
from test_conformance import param_sets as conformance_param_sets  # noqa: E402
from test_fifteen_days import (  # noqa: E402
    AU, MARKET, PILE2, SU, WILD_BOARD, board, play, position,
)

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("ann", "bob", "cy", "dee")
SEASONS = ("Sp", "Su", "Au", "Wi")
CARDS = [f"{s}{v}" for s in SEASONS for v in range(1, 7)]


def params(**over: str) -> dict:
    out = {p.name: p.default for p in fd.params}
    out.update(over)
    return out


def param_sets() -> list[dict]:
    """The conformance test's parameter sets, every parameter written out."""
    return [params(**over) for over in conformance_param_sets(fd)]


listed = partial(shared_listed, fd)  # the legal moves, canonical


def oracle(state, text: str) -> str | MoveError:
    """What the open log makes of ``text``: parse_move, apply, format_move."""
    try:
        move = fd.parse_move(state, text)
        canonical = fd.format_move(state, move)
        fd.apply(state, move)
    except MoveError as e:
        return e
    return canonical


def params_of(state) -> dict:
    """The parameters of a position made by test_fifteen_days.position (which
    sets up with first-player=seat-0), as the state records them."""
    return params(**{"first-player": "seat-0"}, feathers=state.feather_rule,
                  wild=state.wild_rule)


def reader(view, moves: tuple[str, ...], text: str, p: dict) -> str | MoveError:
    """read_listed's answer for the game with the parameters ``p``."""
    try:
        return reading.read_listed(fd, view, moves, text, p)
    except MoveError as e:
        return e


def generic(answer: MoveError) -> bool:
    """A refusal that gives no reason of apply's but the decision due and the list."""
    return "; listed: " in answer.reason


def agrees(got: str | MoveError, expected: str | MoveError) -> bool:
    """read_listed's answer is the open log's: the same move; the same
    ambiguity with the same choices; the same syntax error; or, for a move
    that reads well, a refusal that gives apply's reason and clause or, where
    the view cannot tell that reason, names the decision due and the list."""
    if isinstance(expected, str):
        return got == expected
    if isinstance(expected, AmbiguousMoveError):
        return (type(got) is AmbiguousMoveError and str(got) == str(expected)
                and got.candidates == expected.candidates)
    if isinstance(expected, IllegalMoveError):
        if not isinstance(got, NotationError):
            return False
        if " is not one of your legal moves" not in got.reason:
            return False
        return generic(got) or (got.clause == expected.clause
                                and got.reason.endswith(": " + expected.reason))
    return isinstance(got, NotationError) and str(got) == str(expected)


def shown(answer: str | MoveError) -> str:
    return answer if isinstance(answer, str) else f"{type(answer).__name__}: {answer}"


# --- spellings, from notation/fifteen-days.md "Tolerant input" --------------------------

LETTERS = {"D": ("d", "draw"), "T": ("t", "take"), "W": ("w", "wild", "joker"),
           "P": ("p", "play", "place"), "X": ("x", "pay", "discard"), "R": ("r", "rebuild"),
           "E": ("e", "end", "stop", "done"), "F": ("f", "feather")}
SEASON_WORDS = {"Sp": ("sp", "spring"), "Su": ("su", "summer"),
                "Au": ("au", "autumn", "fall", "fa"), "Wi": ("wi", "winter")}
SIDE_WORDS = {"L": ("l", "left"), "R": ("r", "right")}
SEPARATORS = (" ", "-", "_", ":", "/", ".", ",", ";", "+", " - ", "  ")


def tokens(text: str) -> list[tuple[str, ...]]:
    """The parts of a canonical move, each with the ways of writing it."""
    if text == "FO":
        return [("f", "feather"), ("o", "otter")]
    out: list[tuple[str, ...]] = []
    if text[0] == "F":
        out.append(LETTERS["F"])
        text = text[1:]
    op, rest = text[0], text[1:]
    out.append(LETTERS[op])
    if op in "DR":
        out.append((rest, f"pile {rest}", f"from pile {rest}", f"from the pile {rest}"))
    elif op == "T":
        out.append((rest, f"column {rest}", f"from column {rest}") if rest != "d" else
                   ("d", "x", "discard", "the discard pile", "from the discard pile"))
    elif rest:
        out += [SEASON_WORDS[rest[:2]], (rest[2],)]
        if rest[3:]:
            out.append(SIDE_WORDS[rest[3:]])
    return out


def spell(rng: random.Random, text: str) -> str:
    """One way of typing the canonical move ``text``: letters or words,
    separators or none, any case."""
    parts = [rng.choice(alternatives) for alternatives in tokens(text)]
    out = parts[0]
    for part in parts[1:]:
        # Words need a separator to be read as words (or the text is refused,
        # which the oracle says too).
        wordy = len(part) > 2 or len(out.split()[-1] if out.split() else out) > 2
        out += rng.choice(SEPARATORS) if wordy and rng.random() < 0.9 else rng.choice(("", " "))
        out += part
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in out)


UNIVERSE = (
    ["D1", "D2", "FD1", "FD2", "R1", "R2", "W", "E", "FO"]
    + [f"{f}T{s}" for f in ("", "F") for s in "abcd"]
    + [f"{f}P{c}{side}" for f in ("", "F") for c in CARDS for side in ("", "L", "R")]
    + [f"X{c}" for c in CARDS] + [f"W{c}{side}" for c in CARDS for side in ("", "L", "R")]
)
GARBAGE = ["", "pass", "D3", "Te", "PSu7", "PSu", "X", "WSu", "draw draw", "FX Su1", "FE",
           "FR1", "play summer 4 up", "take discard pile 2", "Su4"]


def variants(text: str) -> list[str]:
    """The move with and without a feather, and a card with each side or none."""
    out = {text}
    m = re.fullmatch(r"(F?)([PW])((?:Sp|Su|Au|Wi)[1-6])[LR]?", text)
    if m:
        f, op, card = m.groups()
        out |= {f"{f}{op}{card}{side}" for side in ("", "L", "R")}
        if op == "P":
            out.add(f"{'' if f else 'F'}P{card}")
    m = re.fullmatch(r"(F?)([DT][12a-d])", text)
    if m:
        out.add(m[2] if m[1] else "F" + m[2])
    return sorted(out)


def spellings(rng: random.Random, moves: tuple[str, ...]) -> list[str]:
    out = []
    for text in moves:
        out.append(spell(rng, text))
        out += [spell(rng, v) for v in rng.sample(variants(text), min(2, len(variants(text))))]
    out += [spell(rng, t) for t in rng.sample(UNIVERSE, 12)]
    out += rng.sample(UNIVERSE, 6) + rng.sample(GARBAGE, 4)
    return out


# --- self-play --------------------------------------------------------------------------


def self_play(n: int, p: dict, seed: str) -> list[tuple[object, str]]:
    """The positions of a random game and the move made at each (canonical)."""
    state = fd.setup(p, NAMES[:n], seed)
    rng = random.Random(f"mail/{n}/{seed}/{sorted(p.items())}")
    out = []
    while fd.to_move(state) is not None:
        move = rng.choice(fd.legal_moves(state))
        out.append((state, fd.format_move(state, move)))
        state = fd.apply(state, move)
    out.append((state, ""))
    return out


CASES = [
    pytest.param(n, p, seed, id=f"{n}p-{'-'.join(str(v) for v in p.values())}-{seed}")
    for n in fd.players
    for p in param_sets()
    for seed in ("1",)
]
STEP = 5  # every 5th position of each game: a few hundred in all


@pytest.mark.parametrize(("n", "p", "seed"), CASES)
def test_read_listed_agrees_with_parse_move(n: int, p: dict, seed: str) -> None:
    """At positions of random games, each text (listed moves spelled as the
    notation allows, with and without a feather and a side, any other move
    of the game spelled so, garbage) gets from read_listed on the mover's view
    what parse_move and apply make of it on the state, and the same answer
    for every re-deal of what the mover cannot see (other hands, the piles)."""
    rng = random.Random(f"spell/{n}/{seed}")
    reasons = Counter()
    for k, (state, _) in enumerate(self_play(n, p, seed)):
        seat = fd.to_move(state)
        if seat is None:
            view = fd.view(state, 0)
            for text in ("D1", "take a", "E"):
                assert agrees(reader(view, (), text, p), oracle(state, text)), text
            break
        if k % STEP:
            continue
        moves = listed(state)
        view = fd.view(state, seat)
        redealt = [fd.redeal(state, seat, f"{seed}/redeal/{j}") for j in range(3)]
        for i, text in enumerate(spellings(rng, moves)):
            got, expected = reader(view, moves, text, p), oracle(state, text)
            assert agrees(got, expected), f"{text!r}: {shown(got)} / open log: {shown(expected)}"
            if isinstance(expected, IllegalMoveError):
                reasons["generic" if generic(got) else "apply's"] += 1
            if i % 3 == 0:
                for other in redealt:
                    again = reader(fd.view(other, seat), listed(other), text, p)
                    assert shown(again) == shown(got), f"{text!r} reads differently on a re-deal"
    # Every refusal is explained with apply's own reason: the view tells them all.
    assert reasons["generic"] == 0 and reasons["apply's"] > 100, reasons


@pytest.mark.parametrize(("n", "p", "seed"), CASES)
def test_narrate_tells_only_what_the_viewer_sees(n: int, p: dict, seed: str) -> None:
    """Every move of random games, told to every seat and to a spectator:
    printable ASCII, no full stop, not opening with the mover's name, the
    same for every re-deal of what the viewer cannot see. Everyone but the
    mover is told the same; the mover too, but for the card they drew, which
    only they are told (the others hear its back)."""
    game = self_play(n, p, seed)
    for k, ((before, move), (after, _)) in enumerate(zip(game, game[1:])):
        by = fd.to_move(before)
        told = {}
        for seat in (None, *range(n)):
            words = fd.narrate(fd.view(before, seat), fd.view(after, seat), by, move)
            assert words and all(" " <= c <= "~" for c in words), words
            assert not words.endswith(".") and not words.startswith(before.players[by])
            assert len(words) <= 400, words
            if k % STEP == 0:
                for j in range(2):
                    a = fd.redeal(before, seat, f"{seed}/r/{j}")
                    b = fd.redeal(after, seat, f"{seed}/s/{j}")
                    assert fd.narrate(fd.view(a, seat), fd.view(b, seat), by, move) == words
            told[seat] = words
        others = {w for seat, w in told.items() if seat != by}
        assert len(others) == 1, others
        if move.lstrip("F")[:1] == "D":
            drawn = Counter(c % 24 for c in after.hands[by]) - Counter(
                c % 24 for c in before.hands[by])
            (card,) = drawn
            name = CARDS[card]
            assert f"drew {name} from pile" in told[by], told[by]
            assert all(f"-backed card from pile {move[-1]}" in w for w in others), others
        else:
            assert told[by] in others


# --- the notation document's examples, typed into view files ------------------------------


def doc_block() -> list[tuple[str, str, str]]:
    """The sample opening of notation/fifteen-days.md: (mark, typed, recorded)."""
    text = (ROOT / "notation" / "fifteen-days.md").read_text()
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
    return fd.setup(params(), NAMES[:3], "2")


def test_the_documents_sample_opening_typed_into_view_files():
    """Every line of the notation's sample opening, typed by the player to move
    into their view file: `feather take b`, `play spring 2 right`, `take a`,
    `wild autumn 4` record what the document says; `x` lines are refused
    (with apply's reason), `?` lines as ambiguous."""
    state = sample_game()
    for mark, typed, recorded in doc_block():
        seat = fd.to_move(state)
        got = reader(fd.view(state, seat), listed(state), typed, params())
        if mark == "x":
            assert isinstance(got, NotationError) and not generic(got), (typed, shown(got))
            assert agrees(got, oracle(state, typed)), (typed, shown(got))
        elif mark == "?":
            assert isinstance(got, AmbiguousMoveError), (typed, shown(got))
        else:
            assert got == recorded, (typed, shown(got))
        if not mark:
            state = fd.apply(state, fd.parse_move(state, recorded))


def test_read_listed_refusals_in_apply_s_words():
    """The sample opening's refusals, word for word, from ann's and bob's views."""
    state = sample_game()
    view, moves = fd.view(state, 0), listed(state)
    assert str(reader(view, moves, "play autumn 4 left", params())) == (
        "PAu4L is not one of your legal moves: you hold no Au4 (15 Days: Play cards)")
    state = play(state, "FTb")
    assert str(reader(fd.view(state, 0), listed(state), "feather take b", params())) == (
        "FTb is not one of your legal moves: a feather is spent before an action, not "
        "during it (15 Days: Feather Tokens)")
    state = play(state, "Tb", "Tb")
    assert str(reader(fd.view(state, 0), listed(state), "draw 1", params())) == (
        "D1 is not one of your legal moves: not now: rebuild column b from a draw pile "
        "(R1 or R2) (15 Days: Take 2 face-down Season cards)")
    state = play(state, "R1", "R1", "R1", "D2")
    assert str(reader(fd.view(state, 1), listed(state), "end", params())) == (
        "E is not one of your legal moves: draw two cards: the action takes two (three "
        "with the Squirrel) (15 Days: Take 2 face-down Season cards)")
    state = play(state, "D2")
    err = reader(fd.view(state, 1), listed(state), "play spring 2", params())
    assert isinstance(err, AmbiguousMoveError)
    assert err.candidates == ("PSp2L", "PSp2R") and err.clause == "15 Days: Play cards"
    assert str(err) == str(oracle(state, "PSp2"))


def test_read_listed_the_side_of_a_wild_in_a_new_season():
    """Take 1 wild card with wild=any (R8): Winter is new to ann's board and
    both sides have a free corner, so the side is needed; `wild winter 3
    right` records WWi3R."""
    state = play(position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}), "W", "XSu2", "XAu6")
    view, moves = fd.view(state, 0), listed(state)
    err = reader(view, moves, "wild winter 3", params_of(state))
    assert isinstance(err, AmbiguousMoveError) and err.candidates == ("WWi3L", "WWi3R")
    assert str(err) == str(oracle(state, "WWi3"))
    assert reader(view, moves, "wild winter 3 right", params_of(state)) == "WWi3R"
    # Autumn 5 6 (run 2), Summer 1 2 3 (3) and now Winter 3* (1), one corner
    # empty (-2): 4 points, 3 more than with two empty corners (Scoring).
    assert fd.narrate(view, fd.view(play(state, "WWi3R"), 0), 0, "WWi3R") == (
        "placed the wild as Wi3 in the bottom-right corner (Winter 3*); score ann 4 (+3)")


@pytest.mark.parametrize(("state", "text", "reason"), [
    # Take 2 face-down Season cards: "from either face-down draw pile".
    (lambda: position(piles=("", PILE2), hands={0: "Su1"}), "draw 1",
     "draw pile 1 is empty (15 Days: Take 2 face-down Season cards)"),
    # Take 1 face-up Season card: "from either of the 3 columns".
    (lambda: position(market=("", MARKET[1], MARKET[2]), hands={0: "Su1"}), "take a",
     "market column a is empty (15 Days: Take 1 face-up Season card)"),
    # Take 1 wild card: "Take a wild card from the supply".
    (lambda: position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}, wilds=0), "wild",
     "no wild card is left in the supply (15 Days: Take 1 wild card)"),
    (lambda: position(hands={0: "Su2 Au1"}, boards={0: WILD_BOARD}), "joker",
     "you hold 1 card matching a card of your board; the wild costs two "
     "(15 Days: Take 1 wild card)"),
    (lambda: position(hands={0: "Su2 Au6"}, wild="board",
                      boards={0: board(TR="Su 1 2 3 4 5 6", TL="Au 6 5 1*")}), "W",
     "no season on your board has a missing value without a wild (15 Days: Take 1 wild card)"),
    # "Discard 2 cards from your hand which are present on your board."
    (lambda: play(position(hands={0: "Su2 Au6 Wi1"}, boards={0: WILD_BOARD}), "W"), "pay wi 1",
     "Wi1 is not on your board: the wild costs two cards that are (15 Days: Take 1 wild card)"),
    (lambda: play(position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}, wild="board"),
                  "W", "XSu2", "XAu6"), "WWi3",
     "no Winter on your board: a wild replaces a missing value of a season you have "
     "(15 Days: Take 1 wild card)"),
    # Frog: "a discount of 1, per action" - Su4 inside Su 2 5 costs 2 - 1.
    (lambda: position(hands={0: "Su4"}, boards={0: board(TR="Su 2 5")}, animals={SU: 0}),
     "play su4", "playing Su4 costs 1 card and you hold 0 others (15 Days: Play cards)"),
    # Feather Tokens / Otter: one feather on the Otter in a turn (R13).
    (lambda: position(hands={0: "Su1 Su2 Su3 Su4 Su5 Su6 Au1 Au2 Au3"}, phase="limit",
                      actions=2, otter=True, feathers_used=1),
     "feather otter", "you have spent a feather on the Otter this turn already "
     "(15 Days: Feather Tokens)"),
])
def test_read_listed_refusals_the_view_can_explain(state, text, reason):
    """Refusals random play seldom meets, each from a section of the rule
    text: read_listed gives apply's reason, from the mover's view alone."""
    state = state()
    got = reader(fd.view(state, 0), listed(state), text, params_of(state))
    assert isinstance(got, NotationError) and str(got).endswith(": " + reason), shown(got)
    assert str(oracle(state, text)) == reason


def test_read_listed_a_decision_worded_otherwise_is_refused_plainly():
    """A view whose decision due is worded in a way the reader does not know
    (a later version's words) is refused with one line naming those words:
    the rules cannot rebuild the position to read a move on, and a guess
    could refuse a move for the wrong reason."""
    state = sample_game()
    view = msgspec.structs.replace(fd.view(state, 0), turn="ann: something new")
    moves = listed(state)
    for typed in ("take column b", "R1"):
        with pytest.raises(BadLogError) as e:
            reading.read_listed(fd, view, moves, typed, params())
        assert str(e.value) == ("the decision due, 'ann: something new', is not one this "
                                "version of the rules knows: use a newer adjudicator")


def test_narrate_a_replaced_wild_with_nowhere_to_go():
    """Play cards / R11: "replace a wild card with the corresponding missing
    value. Then, move the wild card to replace another missing value" - with
    none left anywhere it goes back to the supply."""
    b = board(TR="Su 1 2 3 4 5* 6", TL="Au 6 5 4 3 2 1*", BL="Wi 6 5 4 3 2 1", BR="Sp 1 2*")
    state = play(position(hands={0: "Su5 Wi1 Wi2"}, boards={0: b}, wilds=4), "PSu5", "XWi1")
    after = play(state, "XWi2")
    # The Summer set was complete already, its wild counting as the 5 (R15).
    assert fd.narrate(fd.view(state, 1), fd.view(after, 1), 0, "XWi2") == (
        "paid Wi2; the wild goes back to the supply")


# --- narrate: the rule text, word for word ----------------------------------------------------


def test_narrate_the_documents_sample_opening():
    """notation/fifteen-days.md, the sample opening, as a spectator and as the
    player who draws: a feather on the Rabbit; the column's last card and the
    rebuild; a card drawn face down, named only to its drawer; a new season
    top-right, ascending, 1 card to pay; the hand limit; the wild (Autumn 5 4*
    3); the Frog for a feather (Su5 free, her 3rd Summer); the real Au4
    replacing the wild (2 cards), the wild moving to Autumn 6* 5 4 3."""
    state = sample_game()
    spectator, mover = [], []
    for mark, _, recorded in doc_block():
        if mark:
            continue
        by = fd.to_move(state)
        after = play(state, recorded)
        spectator.append(fd.narrate(fd.view(state, None), fd.view(after, None), by, recorded))
        mover.append(fd.narrate(fd.view(state, by), fd.view(after, by), by, recorded))
        state = after
    assert spectator[0] == "spent a feather on the Rabbit; took Au5 from column b"
    assert spectator[2] == "took Au3 from column b; column b is to be rebuilt"
    assert spectator[5].endswith("from pile 1; end of turn, bob to play")
    assert spectator[6] == "drew a Winter-backed card from pile 2"
    assert mover[6] == "drew Wi1 from pile 2"  # he pays it at the 10th move
    assert spectator[8] == ("played Sp2 to the top-right corner (Spring 2), to pay 1 card; "
                            "score bob -5 (+3)")
    assert spectator[9] == "paid Wi1"
    assert spectator[10] == "played Sp6 to the top-right corner (Spring 2 6), to pay 1 card"
    assert spectator[12] == "ended the action; end of turn, cy to play"
    assert spectator[28].endswith("; end of turn: discard down to 5 cards")
    assert spectator[29] == "discarded Sp1 at the hand limit"
    assert spectator[31] == "took a wild card, for two cards matching the board"
    assert spectator[32] == "discarded Au3 for the wild"
    assert spectator[34] == "placed the wild as Au4 (Autumn 5 4* 3); score ann -3 (+2)"
    assert spectator[47] == (
        "spent a feather on the Frog; played Su5 to the top-right corner (Summer 3 4 5), "
        "free; cy takes the Frog from the supply; score cy -1 (+3)")
    assert spectator[51] == (
        "played Au4 to the top-left corner, replacing its wild (Autumn 5 4 3), to pay 2 "
        "cards; ann takes the Squirrel from the supply; score ann -1 (+2)")
    assert spectator[54] == "moved the replaced wild to Au6 (Autumn 6* 5 4 3); score ann 0 (+1)"
    assert spectator[55] == "ended the action; end of turn, bob to play"


def test_narrate_an_animal_taken_from_its_holder_and_the_feather():
    """Animal Tokens: "Any player who has equal or higher number of Season cards
    than the current owner of the animal token takes it from them. The player
    who loses the animal token then receives a feather token." bob holds the
    Squirrel with 3 Autumn cards; ann plays her 3rd: +1 run and +2 for her,
    -2 for bob (Scoring)."""
    state = position(
        hands={0: "Au4 Wi1"},
        boards={0: board(TL="Au 6 5"), 1: board(TR="Au 1 2 3")},
        animals={AU: 1},
        feathers=(0, 0, 1),
        feather_supply=2,
    )
    after = play(state, "PAu4")
    assert fd.narrate(fd.view(state, 2), fd.view(after, 2), 0, "PAu4") == (
        "played Au4 to the top-left corner (Autumn 6 5 4), to pay 1 card; ann takes the "
        "Squirrel from bob, who takes a feather; score ann -1 (+3), bob -3 (-2)"
    )


def replayed(name: str):
    log = logmod.decode((ROOT / "examples" / "fifteen-days" / name).read_bytes())
    return list(match.validate(log, keep=True).states), log


def tell(states, log, i: int, seat: int | None = None) -> str:
    entry = log.moves[i]
    return fd.narrate(fd.view(states[i], seat), fd.view(states[i + 1], seat),
                      log.players.index(entry.by), entry.move)


def test_narrate_a_game_ended_by_completed_sets():
    """End game: "a player completes all 4 Season sets": the set completed by
    the last card, the end, and the scores the log's result gives."""
    states, log = replayed("3-players-completed-sets.json")
    words = [tell(states, log, i) for i in range(len(log.moves))]
    completed = [w for w in words if " completes the " in w]
    assert [w.split(" completes the ")[1].split(" set")[0] for w in completed] == [
        "Summer", "Winter", "Autumn", "Spring"]
    assert words[-1].endswith(
        "; ann completed all four Season sets; the game is over: ann 32, cy 10, bob 9; "
        "ann wins")
    assert log.result.standings[0].player == "ann" and log.result.standings[0].score == 32


def test_narrate_a_game_ended_by_an_emptied_pile():
    """End game: "any one draw pile is emptied. [...] the active player
    finishes their turn and takes a bonus wild card [...] The remaining
    players then take one last turn." And the tie-break: "the player with the
    most cards in hand" (bob and cy both have 7 points, bob holds more)."""
    states, log = replayed("2-players.json")
    words = [tell(states, log, i) for i in range(len(log.moves))]
    assert any(w.endswith("; a draw pile is empty: ann finishes this turn and takes the "
                          "bonus wild") for w in words)
    bonus = [w for w in words if w.startswith("placed the bonus wild as ")]
    assert len(bonus) == 1 and "a draw pile was emptied on ann's turn: last round, 1 turn " \
        "left; end of turn, bob to play" in bonus[0]
    assert words[-1].endswith("the last round is over; the game is over: ann 20, bob 9; ann wins")
    states, log = replayed("3-players.json")
    last = tell(states, log, len(log.moves) - 1, 1)
    assert last.endswith(
        "the game is over: ann 12, bob 7, cy 7 (bob ahead of cy on cards in hand); ann wins")
    assert any("bob holds more cards in hand" in d for d in log.result.details)


def test_the_game_declares_its_narration_and_reads_with_the_generic_reader():
    assert fd.narration is narration and callable(narration.narrate)
    assert callable(reading.read_listed)
