"""Time Palatrix by mail: ``read_listed`` (the move a player typed into a view
file) and ``narrate`` (what a move did, as one viewer saw it).

``read_listed`` must agree with the log's reader in every position of random
games (3 and 4 players, both sides of the boards): every spelling
notation/time-palatrix.md allows gives the same canonical move, a card typed
without its location goes where the log puts it or is refused as ambiguous
with the same choices; every other text is refused exactly when the log
refuses it, with the same words; and the other players' hands change no
answer. ``narrate`` must tell every viewer the same, name no card still in a
hand, and tell the sample hand of notation/time-palatrix.md as its comments
do. The checks shared by the three games are in test_atlas_mail.
"""

from __future__ import annotations

from functools import cache

import pytest

from adjudicator.errors import AmbiguousMoveError, NotationError
from adjudicator.games.time_palatrix import GAME as game
from adjudicator.games.time_palatrix.cards import CANONICAL, CARD_NAMES, PAWNS
from adjudicator import reading
from test_atlas_mail import (
    Run, answer, check_narration, check_positions, listed, random_games, replayed, told,
)  # fmt: skip

SAMPLE = "examples/time-palatrix/3-players.json"  # the sample hand of the notation document
SUIT_WORDS = {"P": "pink", "O": "orange", "G": "green", "B": "blue"}

# --- spellings (notation/time-palatrix.md, Tolerant input) ------------------------------

SEPARATORS = ["-", "@", ":", ">", "/", ",", " ", " on ", " to ", " - ", " @ ", "on", "to"]


@cache
def _spellings(canonical: str) -> list[str]:
    if canonical[0].isdigit():
        count = canonical.rstrip("+")
        bids = [count, f"bid {count}", f"bid{count}", f"bid  {count}"]
        if not canonical.endswith("+"):
            return [canonical, *bids[1:]]
        more = str(int(count) + 1)
        spares = ["+", " +", "+1", " + 1", "+spare", " + spare", " spare", "spare",
                  f"/{more}", f"-{more}", f" or {more}", f" / {more}", f"or{more}"]
        return [canonical] + [b + s for b in bids for s in spares if b + s != canonical]
    card, _, loc = canonical.partition("-")
    suit, rank = card[0], card[1:]
    cards = [card, f"{suit} {rank}", f"{SUIT_WORDS[suit]} {rank}", f"{SUIT_WORDS[suit]}{rank}"]
    pawn = PAWNS[int(loc) - 1]
    places = [c + sep + loc for c in cards for sep in SEPARATORS]
    places += [c + sep + pawn for c in cards for sep in ["", *SEPARATORS]]
    # Without a location: where the log puts it, or ambiguous.
    places += cards
    return [canonical] + [p for p in places if p != canonical]


def palatrix_spellings(state, view, canonical: str) -> list[str]:
    """Every spelling of ``canonical`` the notation allows: for a bid, "bid"
    first, and for the spare chip +, +1, + spare, spare or the two counts;
    for a card, the suit in full and spaces; between card and location - @ :
    > / , a space, "on" or "to"; the location by its pawn's colour; and the
    card alone."""
    return _spellings(canonical)


GARBAGE = ["", "pass", "13", "3/5", "3 or 5", "bid", "G13-1", "G0-1", "O81", "G7-5", "G7-0",
           "X7-1", "green", "3++", "P1-1-1", "red", "12+", "-1", "bid 12 + spare", "P10-1",
           "B12", "G7 purple"]


def refused_as(state, text: str, reason: str) -> str:
    """"G7-2 is not one of your legal moves: " and the rules' reason."""
    spelled = game.format_move(state, game.parse_move(state, text))
    return f"{spelled} is not one of your legal moves: {reason}"


def runs(seeds: tuple[str, ...] = ("mail",), upto: int | None = None) -> list[Run]:
    return [run for n in game.players for locations in (3, 4) for run in random_games(
        "time-palatrix", n, [f"{s}{n}{locations}" for s in seeds], {"locations": locations},
        upto=upto)]


# --- read_listed ---------------------------------------------------------------------


def test_read_listed_agrees_with_the_log_in_random_positions() -> None:
    """A sample of the spellings of every listed move, other positions' moves
    and garbage, in every position of four whole games (3 and 4 players,
    3 and 4 locations): some 650 positions, every hand of each game."""
    count = check_positions("time-palatrix", refused_as, runs(), palatrix_spellings, GARBAGE,
                            sample=3, redeal_texts=10)
    assert count >= 600


def test_read_listed_takes_every_spelling_of_a_move() -> None:
    """All of them, not a sample: the bids of a hand's first position, and the
    placements of a position with a follow suit set."""
    rep = replayed(SAMPLE)
    for number in (2, 6, 7):
        state = rep.states[number - 1]
        view, moves = game.view(state, game.to_move(state)), listed(game, state)
        for move in moves:
            for text in palatrix_spellings(state, view, move):
                try:
                    want = game.format_move(state, game.parse_move(state, text))
                    game.apply(state, game.parse_move(state, text))
                except AmbiguousMoveError as e:
                    with pytest.raises(AmbiguousMoveError) as got:
                        reading.read_listed(game, view, moves, text, rep.log.params)
                    assert got.value.candidates == e.candidates
                    continue
                for typed in (text, text.upper(), f" {text}  "):
                    assert reading.read_listed(game, view, moves, typed, rep.log.params) == want, typed


def at(number: int):
    """The position before move ``number`` (1-based) of the sample game: the
    view of the player to move, their list and the log's parameters."""
    rep = replayed(SAMPLE)
    state = rep.states[number - 1]
    return game.view(state, game.to_move(state)), listed(game, state), rep.log.params


def refused(number: int, text: str) -> tuple[str, str | None]:
    """The reason and clause of read_listed's refusal of ``text`` (written
    canonically) before move ``number``, after "``text`` is not one of your
    legal moves: "."""
    view, moves, params = at(number)
    with pytest.raises(NotationError) as caught:
        reading.read_listed(game, view, moves, text, params)
    head = f"{text} is not one of your legal moves: "
    assert caught.value.reason.startswith(head), caught.value.reason
    return caught.value.reason.removeprefix(head), caught.value.clause


def test_read_listed_the_sample_hands_readings() -> None:
    """The -> and = lines of the sample hand, read from the view file."""
    for number, typed, canonical in [
        (1, "bid 6", "6"), (2, "bid 3 + spare", "3+"), (2, "3/4", "3+"), (2, "3 or 4", "3+"),
        (4, "blue 9 yellow", "B9-3"), (7, "orange 8 on black", "O8-1"), (7, "o8 @ 1", "O8-1"),
        (10, "o4", "O4-2"),
    ]:
        view, moves, params = at(number)
        assert reading.read_listed(game, view, moves, typed, params) == canonical, typed


def test_read_listed_the_sample_hands_refusals() -> None:
    """The x lines of the sample hand, with the log's reasons and clauses."""
    assert refused(1, "G8-1") == (
        "the hand begins with the bids: ann bids now, e.g. 3 or 3+", "Time Palatrix: Game Flow")
    assert refused(2, "13") == (
        "a bid is 0 to 12 tricks: a hand has only 12 tricks", "Time Palatrix: Bidding")
    assert refused(4, "3") == (
        "the bids of this hand are made; now place a card, e.g. G7-2", "Time Palatrix: Game Flow")
    # bob holds G8: ann's view cannot tell, and is not told, who does.
    assert refused(4, "G8-1") == ("ann holds no G8", "Time Palatrix: Trick Placement")
    assert refused(4, "B9-4") == (
        "there is no location 4: the boards are played on the front side, with 3 locations",
        "Time Palatrix: Variant")
    assert refused(6, "O7-1") == (
        "the follow suit of location 1 (black) is green (set by bob's G8) and cy holds green: "
        "follow it there or place on another empty location", "Time Palatrix: Trick Placement")
    assert refused(6, "G3-3")[0].startswith(
        "the follow suit of location 3 (yellow) is blue (set by ann's B9) and cy holds blue")
    assert refused(8, "O9-1")[0] == "location 1 (black) of bob's board already holds G8"
    assert refused(40, "P1-1")[0] == "the hand begins with the bids: ann bids now, e.g. 3 or 3+"
    assert refused(4, "P10-1") == (
        "there is no P10 with 3 players: the 10 to 12 of each suit are out of the game",
        "Time Palatrix: Preparation")


def test_read_listed_a_card_without_its_location() -> None:
    """Tolerant input: "A card typed without a location is placed on the only
    empty location where its player may place it ... If there are several,
    the move is refused as ambiguous, naming the choices"."""
    view, moves, params = at(7)  # ann holds no green: O8 may go on location 1 or 2
    with pytest.raises(AmbiguousMoveError) as caught:
        reading.read_listed(game, view, moves, "O8", params)
    assert caught.value.candidates == ("O8-1", "O8-2")
    assert str(caught.value) == (
        "O8 may go on several locations; add one: O8-1 or O8-2 (Time Palatrix: Trick Placement)")
    # cy holds green and blue, the follow suits of locations 1 and 3: an
    # orange card may go only on location 2, a blue one on 2 or 3.
    view, moves, params = at(6)
    assert reading.read_listed(game, view, moves, "o7", params) == "O7-2"
    with pytest.raises(AmbiguousMoveError) as caught:
        reading.read_listed(game, view, moves, "blue 4", params)
    assert caught.value.candidates == ("B4-2", "B4-3")


def test_read_listed_a_reading_error_is_the_readers() -> None:
    """Text that does not read is refused by the reader, in the log's words."""
    view, moves, params = at(2)
    with pytest.raises(NotationError) as caught:
        reading.read_listed(game, view, moves, "3/5", params)
    assert str(caught.value) == (
        "a bid with the spare chip covers two counts in a row, as in 3/4; write 3+ "
        "(adjudicator rules time-palatrix)")


def test_read_listed_the_other_hands_change_nothing() -> None:
    """The other hands re-dealt, every answer is the same: a card another
    player holds is refused as one the player does not hold."""
    rep = replayed(SAMPLE)
    state = rep.states[6]
    view, moves = game.view(state, 0), listed(game, state)
    texts = [*CANONICAL, "O8", "G5", "O7"]
    answers = [answer(game, view, moves, t, rep.log.params) for t in texts]
    for k in range(3):
        other = game.redeal(state, 0, f"hands/{k}")
        assert other.hands != state.hands
        seen = game.view(other, 0)
        assert [answer(game, seen, listed(game, other), t, rep.log.params)
                for t in texts] == answers


# --- narrate -------------------------------------------------------------------------


def test_narrate_names_no_card_in_a_hand_and_tells_everybody_the_same() -> None:
    """Every viewer is told the same, whatever is in the other hands, and no
    card still in a hand is named."""

    def hidden(state, seat):
        # The other hands, but for the cards of the tricks in view (a new
        # hand is dealt from every card, those just played included).
        seen = game.view(state, seat)
        shown = {c for t in seen.tricks_played for c in t.cards}
        return [name for p, cards in enumerate(state.hands) if p != seat
                for name in (CARD_NAMES[c] for c in cards) if name not in shown]

    assert check_narration("time-palatrix", runs(("told",), upto=60), hidden=hidden) >= 240


def test_narrate_bids() -> None:
    """Bidding: "Each player takes a number of purple chips equal to how many
    tricks they expect to win. A player may also take 1 orange spare chip"."""
    rep = replayed(SAMPLE)
    assert told(rep, 1, None) == "bids 6: exactly 6 tricks"
    assert told(rep, 2, 0) == "bids 3+, taking the orange spare chip: 3 or 4 tricks"
    # The last bid: the start player places first.
    assert told(rep, 3, 2) == "bids 3: exactly 3 tricks; the bids are made, and ann places first"


def test_narrate_placing_and_the_follow_suit() -> None:
    """Trick Placement: the first card on a location takes its pawn and sets
    the follow suit; a player who holds none of it may place any card."""
    rep = replayed(SAMPLE)
    # "ann: the first card on location 3 sets its follow suit, blue"
    assert told(rep, 4, 1) == (
        "places B9 on location 3 (yellow), taking the yellow pawn: blue is its follow suit")
    # "cy follows green with a low one"
    assert told(rep, 6, None) == "places G3 on location 1 (black)"
    # "the strategy tip: ann leads location 1 with orange" (she holds no green)
    assert told(rep, 7, 0) == "places O8 on location 1 (black), not following green: they hold none"


def test_narrate_the_tricks_resolved() -> None:
    """Trick Resolution: the highest trump wins, else the highest card of the
    lead player's suit; the follow suit plays no role; the winner of the last
    trick starts the next round."""
    rep = replayed(SAMPLE)
    # 1: ann led O8, bob G8, cy G3: ann wins, nobody else played orange and
    #    nobody trumped, though green was the follow suit; 2: ann led O4, bob
    #    O9, cy O7: bob wins; 3: bob led B1, cy B2, ann B9: ann wins and starts
    #    round 2.
    assert told(rep, 12, None) == (
        "places O7 on location 2 (red); the tricks are resolved: "
        "ann takes location 1 (black) with O8, the highest orange, the suit they led; "
        "bob takes location 2 (red) with O9, the highest orange, the suit ann led; "
        "ann takes location 3 (yellow) with B9, the highest blue, the suit bob led; "
        "ann starts round 2")
    # Round 2, 2: "bob led G6, cy G9, ann P2: ann's trump beats cy's G9"
    assert "ann takes location 2 (red) with P2, the highest trump;" in told(rep, 21, 1)


def test_narrate_the_end_of_a_hand() -> None:
    """Score Calculation and Start of the Next Hand: "ann bid 6 and took 6
    tricks: 2 x 6 = 12 points; bob bid 3+ and took 4: 1 x 4 = 4; cy bid 3
    and took 2: nothing"; ann won the last trick and bids first."""
    rep = replayed(SAMPLE)
    assert told(rep, 39, 2) == (
        "places P7 on location 2 (red), not following orange: they hold none; the tricks are "
        "resolved: cy takes location 1 (black) with G4, the highest green, the suit bob led; "
        "ann takes location 2 (red) with P7, the highest trump; ann takes location 3 (yellow) "
        "with P8, the highest trump; hand 1 is scored: ann 12 (bid 6, took 6), bob 4 (bid 3+, "
        "took 4), cy 0 (bid 3, took 2); ann, who won the last trick, starts hand 2 and bids "
        "first")


def test_narrate_the_end_of_the_game() -> None:
    """Start of the Next Hand and End of the Game: the highest score wins; a
    tie is shared (ruling R11)."""
    rep = replayed(SAMPLE)
    last = len(rep.log.moves)
    assert told(rep, last, None).endswith(
        "; the game is over: final score ann 18, bob 12, cy 10: ann wins")
    tie = replayed("examples/time-palatrix/4-players-tie.json")
    words = told(tie, len(tie.log.moves), None)
    assert words.endswith(": ann and bob share the win"), words


def test_narrate_the_back_side() -> None:
    """Variant: four locations, the fourth the blue pawn's."""
    rep = replayed("examples/time-palatrix/3-players-4-locations.json")
    assert told(rep, 5, None) == (
        "places O5 on location 4 (blue), taking the blue pawn: orange is its follow suit")
