"""Atlas: Enchanted Lands: scenario tests, one section of the rule text at a time.

Each test names the section of ``shared/rules/atlas-enchanted-lands.txt`` it
checks ("Play a Card A", "Game Set Up 3"), or the ruling of
``notation/atlas.md`` where the text is silent. Expected results are worked out
by hand from the rules, or by the small rules oracle below, which is written
from the text (Explaining Time and Place, Play a Card A and B, End of Game)
and shares no code with the engine.

Positions are built with :func:`position` from card codes: ``"3D"`` is the
3 of Day; suits W Dawn, D Day, S Sunset, N Night (the rows, top to bottom).
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import msgspec
import pytest
import volume
from typer.testing import CliRunner

from adjudicator import drawing, games, log as logmod, match
from adjudicator.chance import Chance, shuffled
from adjudicator.cli import app
from adjudicator.engine import Style
from adjudicator.errors import AmbiguousMoveError, IllegalMoveError, NotationError
from adjudicator.games.atlas import GAME as game, rules

import test_notation_docs
from test_conformance import play_and_check

ROOT = Path(__file__).resolve().parent.parent


def test_registered() -> None:
    assert games.GAMES[game.id] is game


# --- vocabulary --------------------------------------------------------------------

ROWS = "WDSN"  # Game Set Up 1: Dawn on top, then Day, Sunset and Night
NAMES = ("ann", "bob", "cy", "dee")
SIDE = {"T": rules.TIME, "P": rules.PLACE}
CHIPS_BY_COUNT = {2: 16, 3: 14, 4: 12}  # Game Set Up 2, the table
REMOVED_BY_COUNT = {2: 2, 3: 1, 4: 2}  # Game Set Up 6, the table
EVERY_CARD = [f"{n}{s}" for s in ROWS for n in range(1, 9)]  # 4 suits x 1-8


def c(text: str) -> int:
    """A card as the engine keeps it: its place on the board, row by row."""
    return ROWS.index(text[-1]) * 8 + int(text[:-1]) - 1


def name(card: int) -> str:
    return f"{card % 8 + 1}{ROWS[card // 8]}"


def position(
    up: str = "",
    down: str = "",
    stacks: tuple[tuple[str, str, str, int], ...] = (),
    hands: dict[str, str] | None = None,
    *,
    players: tuple[str, ...] = NAMES[:3],
    seat: int = 0,
    deck: str = "",
    removed: str = "",
    chips: dict[str, int] | None = None,
    over: bool = False,
):
    """A position: cards ``up`` and ``down`` on the board; ``stacks`` of chips as
    (card, owner, "T" or "P", chips); each player's hand; the draw pile (top
    first). Unless given, a player's chips are the full supply less their stacks."""
    piles = tuple(
        sorted(rules.Stack(c(card), players.index(who), SIDE[side], k) for card, who, side, k in stacks)
    )
    supply = []
    for p, who in enumerate(players):
        if chips and who in chips:
            supply.append(chips[who])
        else:
            supply.append(CHIPS_BY_COUNT[len(players)] - sum(s.chips for s in piles if s.seat == p))
    hands = hands or {}
    return rules.State(
        players=players,
        up=rules.mask(c(t) for t in up.split()),
        down=rules.mask(c(t) for t in down.split()),
        stacks=piles,
        on_time=rules.mask(s.card for s in piles if s.side == rules.TIME),
        on_place=rules.mask(s.card for s in piles if s.side == rules.PLACE),
        chips=tuple(supply),
        held=tuple(rules.mask(c(t) for t in hands.get(who, "").split()) for who in players),
        deck=tuple(c(t) for t in deck.split()),
        removed=tuple(sorted(c(t) for t in removed.split())),
        seat=-1 if over else seat,
        last=-1,
        played=0,
        unscored=(0,) * len(players),
    )


def play(state, text: str):
    return game.apply(state, game.parse_move(state, text))


def refused(state, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        play(state, text)
    return info.value


def faces(state) -> dict[str, str]:
    """The cards on the board: 'up' or 'down'."""
    return {name(i): ("up" if v == rules.UP else "down") for i, v in enumerate(state.board) if v}


def piles(state) -> set[tuple[str, str, str, int]]:
    """The stacks of chips on the board as (card, owner, "T" or "P", chips)."""
    return {(name(s.card), state.players[s.seat], "TP"[s.side - 1], s.chips) for s in state.stacks}


def hand(state, who: str) -> set[str]:
    return {name(k) for k in state.hands[state.players.index(who)]}


def legal(state) -> list[str]:
    return [game.format_move(state, m) for m in game.legal_moves(state)]


def scores(state) -> dict[str, int]:
    return {s.player: s.score for s in game.standing(state).standings}


def random_game(players: int, seed: str, bet: float = 0.5):
    """States of a game of random legal moves (Python's random, seeded); with
    probability ``bet`` a prediction is chosen when one is allowed."""
    state = game.setup({}, NAMES[:players], seed)
    rng = random.Random(f"{players}/{seed}")
    states = [state]
    while state.seat >= 0:
        moves = game.legal_moves(state)
        bets = [m for m in moves if m.side]
        pick = rng.choice(bets if bets and rng.random() < bet else [m for m in moves if not m.side])
        state = game.apply(state, pick)
        states.append(state)
    return states


# --- the rules oracle (written from the text, not from the engine) --------------------


def oracle_completes(board: dict[str, str], card: str) -> tuple[set[str], set[str]]:
    """Explaining Time and Place, read as ruled: the face-up cards flipped by the
    Time and by the Place that ``card`` completes when played on ``board``
    (card -> 'up'/'down'). Both are judged before anything flips."""
    after = {**board, card: "up"}
    number, suit = int(card[:-1]), card[-1]
    # Time: the stretch of the row through the card with no empty place in it;
    # face-down cards are skipped, and it needs at least 4 face-up cards.
    stretch = [card]
    for direction in (-1, 1):
        k = number + direction
        while f"{k}{suit}" in after:
            stretch.append(f"{k}{suit}")
            k += direction
    run = {x for x in stretch if after[x] == "up"}
    time = run if len(run) >= 4 else set()
    # Place: all four of the number on the board, at most one of them face down.
    column = [f"{number}{s}" for s in ROWS]
    place = set()
    if all(x in after for x in column) and sum(after[x] == "down" for x in column) <= 1:
        place = {x for x in column if after[x] == "up"}
    return time, place


def oracle_play(state, text: str):
    """The board and stacks after a play, by the oracle: (faces, stacks)."""
    board = faces(state)
    card, _, bet = text.partition("+")
    time, place = oracle_completes(board, card)
    new = {**board, card: "up"}
    for x in time | place:
        new[x] = "down"
    kept = set()
    for stack in piles(state):
        where, _, side, _ = stack
        if where in time and side != "T" or where in place and side != "P":
            continue  # Play a Card A: wrong predictions are discarded
        kept.add(stack)
    if bet:
        kept.add((card, state.players[state.seat], bet[-1], int(bet[:-1])))
    return new, kept


# =====================================================================================
# Components and Game Set Up
# =====================================================================================


@pytest.mark.parametrize("players", [2, 3, 4])
def test_set_up_2_chips_per_player_count(players):
    """Game Set Up 2: 16 chips each with 2 players, 14 with 3, 12 with 4."""
    state = game.setup({}, NAMES[:players], "0")
    assert state.chips == (CHIPS_BY_COUNT[players],) * players
    assert state.stacks == ()


@pytest.mark.parametrize(("players", "seed"), [(2, "0"), (2, "1"), (3, "0"), (3, "x"), (4, "0"), (4, "y")])
def test_set_up_3_to_7_every_card_is_dealt_once(players, seed):
    """Game Set Up 3-7: with 2 and 3 players the four 8s go back to the box; with 4
    all 32 cards are used and two start face up. 7 cards each, then 2, 1 or 2
    removed unseen, then the draw pile: 12 cards with 2 players, 6 with 3, none
    with 4."""
    state = game.setup({}, NAMES[:players], seed)
    hands = [hand(state, p) for p in NAMES[:players]]
    assert [len(h) for h in hands] == [7] * players
    assert len(state.removed) == REMOVED_BY_COUNT[players]
    assert len(state.deck) == {2: 12, 3: 6, 4: 0}[players]
    starting = [x for x, f in faces(state).items() if f == "up"]
    assert len(starting) == (2 if players == 4 else 0)
    everything = [x for h in hands for x in h] + [name(k) for k in state.deck + state.removed]
    everything += starting
    in_game = EVERY_CARD if players == 4 else [x for x in EVERY_CARD if not x.startswith("8")]
    assert sorted(everything) == sorted(in_game)


@pytest.mark.parametrize("seed", [str(i) for i in range(40)])
def test_set_up_3_four_players_starting_cards_differ_in_suit_and_number(seed):
    """Game Set Up 3, 4 players: "Draw two cards from the deck (must be different
    suit and number) and place them face up to the board as if they had been
    played". They carry no chips and nobody has played yet."""
    state = game.setup({}, NAMES, seed)
    starting = [x for x, f in faces(state).items() if f == "up"]
    assert len(starting) == 2
    (n1, s1), (n2, s2) = ((x[:-1], x[-1]) for x in starting)
    assert s1 != s2 and n1 != n2
    assert state.stacks == () and state.played == 0 and state.last == -1


def test_set_up_3_four_players_starting_cards_are_redrawn_until_they_differ():
    """Game Set Up 3 and ruling R2: a draw of two cards sharing a suit or a number is
    put back and both are drawn again from the stream 'start', as the notation
    document specifies (first card: a number below 32 over the 32 cards in
    starting order; second: below 31 over the rest)."""
    redrawn = 0
    for k in range(60):
        seed = f"redraw-{k}"
        chance = Chance(seed, "start")
        draws = []
        while True:
            first = EVERY_CARD[chance.below(32)]
            rest = [x for x in EVERY_CARD if x != first]
            second = rest[chance.below(31)]
            draws.append((first, second))
            if first[-1] != second[-1] and first[:-1] != second[:-1]:
                break
        redrawn += len(draws) > 1
        state = game.setup({}, NAMES, seed)
        assert {x for x, f in faces(state).items() if f == "up"} == set(draws[-1])
    assert redrawn >= 5, "the seeds must include draws that had to be made again"


@pytest.mark.parametrize(("players", "seed"), [(2, "a"), (3, "b"), (4, "c")])
def test_set_up_5_to_7_deal_follows_the_documented_derivation(players, seed):
    """Game Set Up 5-7 and the notation document's Chance section: the cards in
    starting order (without the 8s for 2-3 players, without the two face-up cards
    for 4) are shuffled with the label 'deck'; seat i takes cards 7i to 7i+6, the
    next are removed unseen, the rest is the draw pile, top first."""
    in_game = EVERY_CARD if players == 4 else [x for x in EVERY_CARD if not x.startswith("8")]
    state = game.setup({}, NAMES[:players], seed)
    starting = {x for x, f in faces(state).items() if f == "up"}
    cards = shuffled(seed, "deck", [x for x in in_game if x not in starting])
    for p in range(players):
        assert hand(state, NAMES[p]) == set(cards[7 * p : 7 * p + 7])
    cut = 7 * players + REMOVED_BY_COUNT[players]
    assert {name(k) for k in state.removed} == set(cards[7 * players : cut])
    assert [name(k) for k in state.deck] == cards[cut:]


def test_set_up_deals_depend_on_the_seed_only():
    """Game Set Up 5: the shuffle comes from the log's seed, the same every time."""
    assert game.setup({}, NAMES[:3], "s") == game.setup({}, NAMES[:3], "s")
    deals = {game.setup({}, NAMES[:3], str(i)).hands for i in range(20)}
    assert len(deals) == 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_set_up_8_the_first_seat_goes_first(players):
    """Game Set Up 8 and ruling R5: the players agree who goes first (the one most
    recently in a forest) by the order they write in the log: seat 0 starts."""
    assert game.to_move(game.setup({}, NAMES[:players], "0")) == 0


# =====================================================================================
# Explaining Time and Place
# =====================================================================================


def test_time_four_consecutive_cards_of_a_suit():
    """Explaining Time and Place: "A Time is defined as 4 consecutive cards of the
    same suit - for example, 3, 4, 5, 6 of the dawn suit." Playing the 6 of Dawn
    next to 3, 4 and 5 flips all four."""
    state = position(up="3W 4W 5W 1D", hands={"ann": "6W 2D"})
    after = play(state, "6W")
    assert faces(after) == {"3W": "down", "4W": "down", "5W": "down", "6W": "down", "1D": "up"}


def test_time_three_in_a_row_is_not_a_time():
    """Explaining Time and Place: a Time "must always be at least 4 cards long"."""
    state = position(up="3W 4W", hands={"ann": "5W"})
    assert faces(play(state, "5W")) == {"3W": "up", "4W": "up", "5W": "up"}


def test_time_a_card_may_join_a_run_from_below():
    """Play a Card: "A Time is completed if you create a run of 4 consecutive cards":
    the card played may be anywhere in the run, here its lowest card."""
    state = position(up="2N 3N 4N", hands={"ann": "1N"})
    assert set(faces(play(state, "1N")).values()) == {"down"}


def test_time_a_run_bridging_a_face_down_card():
    """Explaining Time and Place: a Time "may skip adjacent cards that have been
    flipped". 2 and 3 of Sunset face up, the 4 face down (scored in a Place), the 5
    face up: the 6 makes 2, 3, 5, 6 consecutive once the 4 is skipped - a Time."""
    state = position(up="2S 3S 5S", down="4S", hands={"ann": "6S"})
    after = play(state, "6S")
    assert faces(after) == dict.fromkeys(["2S", "3S", "4S", "5S", "6S"], "down")


def test_time_a_run_bridging_two_face_down_cards():
    """Explaining Time and Place (both of its examples are "scored as Time"): any
    number of flipped cards are skipped; the four face-up cards make the Time."""
    state = position(up="1D 2D 5D", down="3D 4D", hands={"ann": "6D"})
    assert set(faces(play(state, "6D")).values()) == {"down"}


def test_time_face_down_cards_do_not_count_towards_the_four():
    """Ruling R7: skipped cards are skipped, not counted. 1 face up, 2 and 3 face
    down, then the 4: only two face-up cards, no Time; nothing flips."""
    state = position(up="1W", down="2W 3W", hands={"ann": "4W"})
    assert faces(play(state, "4W")) == {"1W": "up", "2W": "down", "3W": "down", "4W": "up"}


def test_time_an_empty_place_breaks_a_run():
    """Ruling R7: only flipped cards are skipped; a card not on the board (still in
    a hand, or removed unseen) leaves a gap. 1, 2, 4 and 5 of Night are not a Time."""
    state = position(up="1N 2N 5N", removed="3N", hands={"ann": "4N"})
    assert set(faces(play(state, "4N")).values()) == {"up"}


def test_time_a_run_of_five_or_more_is_flipped_whole():
    """Ruling R7: the Time is the whole run. 1, 2, 4, 5 and 6 of Day are face up;
    the 3 joins them into a run of six, and all six flip (with the chips on them)."""
    state = position(
        up="1D 2D 4D 5D 6D",
        stacks=(("1D", "bob", "T", 2), ("6D", "cy", "T", 1), ("5D", "ann", "P", 3)),
        hands={"ann": "3D"},
    )
    after = play(state, "3D")
    assert faces(after) == dict.fromkeys(["1D", "2D", "3D", "4D", "5D", "6D"], "down")
    assert piles(after) == {("1D", "bob", "T", 2), ("6D", "cy", "T", 1)}


def test_time_a_run_of_five_bridging_a_flipped_card():
    """Ruling R7: face up 1, 2, 3 of Dawn, 4 flipped, 6 face up; the 5 makes a run
    1-6 with five face-up cards, which all flip."""
    state = position(up="1W 2W 3W 6W", down="4W", hands={"ann": "5W"})
    assert set(faces(play(state, "5W")).values()) == {"down"}


def test_place_all_four_cards_of_a_number():
    """Explaining Time and Place: "A Place is defined as all 4 cards of the same
    number - four 6s, for example"."""
    state = position(up="6W 6D 6S 7N", hands={"ann": "6N"})
    after = play(state, "6N")
    assert faces(after) == {"6W": "down", "6D": "down", "6S": "down", "6N": "down", "7N": "up"}


def test_place_three_face_up_and_one_face_down():
    """Explaining Time and Place: "three 6s may be scored as a Place if the fourth 6
    is flipped (because it was previously scored)"."""
    state = position(up="6W 6D", down="6N", stacks=(("6D", "bob", "P", 4),), hands={"ann": "6S"})
    after = play(state, "6S")
    assert faces(after) == dict.fromkeys(["6W", "6D", "6S", "6N"], "down")
    assert piles(after) == {("6D", "bob", "P", 4)}


def test_place_two_face_up_and_two_face_down_is_not_a_place():
    """Explaining Time and Place: "Two 6s and two flipped 6s is not considered a
    Place and the 6s remain face up"."""
    state = position(up="6W", down="6D 6N", hands={"ann": "6S"})
    after = play(state, "6S")
    assert faces(after) == {"6W": "up", "6S": "up", "6D": "down", "6N": "down"}
    # A prediction may still be placed on it (it completes nothing), though it can
    # no longer come true as a Place.
    assert "6S+1P" in legal(state)


def test_place_never_forms_with_a_card_removed_unseen():
    """Game Set Up 6 and ruling R8: a card returned to the box is never played, so
    its number can never make a Place; three 5s face up stay face up."""
    state = position(up="5W 5D", removed="5N", hands={"ann": "5S"})
    assert faces(play(state, "5S")) == {"5W": "up", "5D": "up", "5S": "up"}


def test_place_of_8s_never_forms_with_two_or_three_players():
    """Game Set Up 3: with 2 and 3 players the four 8s are out of the game; an 8 is
    refused, naming the reason."""
    state = position(up="7W", hands={"ann": "1W"})
    err = refused(state, "8W")
    assert "8s are out of the game" in err.reason
    assert err.clause == "Atlas: Game Set Up 3"


def test_time_and_place_at_once():
    """Play a Card A, NOTE: "If a played card completes both a Time and a Place
    simultaneously, both the Time and Place are scored". The 4 of Day completes
    1-2-3-4 of Day and the four 4s; Time chips stay on the Day run, Place chips
    stay on the 4s, the others are discarded."""
    state = position(
        up="1D 2D 3D 4W 4S 4N 7N",
        stacks=(
            ("2D", "bob", "T", 3),  # right: flipped by the Time
            ("3D", "cy", "P", 2),  # wrong: flipped by the Time
            ("4W", "bob", "P", 1),  # right: flipped by the Place
            ("4N", "cy", "T", 5),  # wrong: flipped by the Place
            ("7N", "bob", "T", 2),  # untouched
        ),
        hands={"ann": "4D 5D"},
    )
    assert "4D+1T" not in legal(state) and "4D" in legal(state)
    after = play(state, "4D")
    assert faces(after) == {
        **dict.fromkeys(["1D", "2D", "3D", "4D", "4W", "4S", "4N"], "down"),
        "7N": "up",
    }
    assert piles(after) == {("2D", "bob", "T", 3), ("4W", "bob", "P", 1), ("7N", "bob", "T", 2)}
    assert scores(after) == {"ann": 0, "bob": 3 + 1 + 1 + 1, "cy": 0}


def test_time_and_place_are_judged_as_the_card_lands():
    """Ruling R9: both are judged before anything flips. The 5 of Night joins 2-3-4
    of Night in a Time; the 5s of Dawn and Day are face up and the 5 of Sunset face
    down, so with the 5 of Night face up as it lands the four 5s are a Place too
    (flipping the Time first would leave two face down and no Place)."""
    state = position(up="2N 3N 4N 5W 5D", down="5S", hands={"ann": "5N"})
    after = play(state, "5N")
    assert set(faces(after).values()) == {"down"}


def test_flipping_never_sets_off_another_time_or_place():
    """Ruling R10: a flip only turns face-up cards face down, which completes nothing
    else. The Place of 3s flips the 3 of Dawn out of the run 1-2-3 of Dawn; the 1
    and 2 stay face up, and nobody's chips there are touched."""
    state = position(
        up="1W 2W 3W 3D 3S", stacks=(("2W", "bob", "P", 1),), hands={"ann": "3N", "bob": "7N"}
    )
    after = play(state, "3N")
    assert faces(after) == {
        "1W": "up", "2W": "up", "3W": "down", "3D": "down", "3S": "down", "3N": "down"
    }
    assert piles(after) == {("2W", "bob", "P", 1)}


# =====================================================================================
# Play a Card
# =====================================================================================


def test_play_a_card_from_your_own_hand():
    """Play a Card: "play one card from your hand to the board"; a card the player
    does not hold is refused without saying where it is."""
    state = position(hands={"ann": "1W 2W", "bob": "3W"}, removed="4W")
    for other in ("3W", "4W", "5W"):
        err = refused(state, other)
        assert err.reason == f"ann does not hold the {other[0]} of Dawn"
        assert err.clause == "Atlas: Play a Card"


def test_play_a_card_already_on_the_board_is_refused():
    """Play a Card: every card has one place; a card on the board cannot come again."""
    err = refused(position(up="3S", hands={"ann": "1W"}), "3S")
    assert "already on the board" in err.reason


def test_play_a_card_goes_to_its_row_and_column_and_leaves_the_hand():
    """Play a Card: the card goes to the row of its suit, as many places from the
    suit token as its number; it leaves the hand, and the turn passes on."""
    state = position(hands={"ann": "2S 7N", "bob": "1W"})
    after = play(state, "7N")
    assert faces(after) == {"7N": "up"}
    assert hand(after, "ann") == {"2S"}
    assert game.to_move(after) == 1
    assert after.last == c("7N")


def test_play_a_card_every_card_in_hand_is_playable():
    """Play a Card: any card of the hand may be played, anywhere in its row (no
    adjacency needed)."""
    state = position(up="1W", hands={"ann": "8W 4S 2N"}, players=NAMES)
    assert [m for m in legal(state) if "+" not in m] == ["8W", "4S", "2N"]


# --- A: the card completes a Time or Place ------------------------------------------------


def test_worked_example_turn():
    """Example Turn: "The 1, 3, and 4 of Day have been played. The Blue player has
    predicted Place on the 3 and the Green player has predicted Time on the 4.
    Yellow plays 2 of Day, completing the Time. (Note: yellow may not place a
    prediction this turn!) All of the included cards are flipped. The blue
    player's incorrect prediction is discarded. The green player's correct
    prediction remains on the board to show it has scored." Played out from the
    start of the round: yellow plays the 1, blue the 3 predicting Place with 2
    chips, green the 4 predicting Time with 3 chips."""
    players = ("yellow", "blue", "green")
    state = position(
        hands={"yellow": "1D 2D 7S", "blue": "3D 6S", "green": "4D 5N"}, players=players
    )
    state = play(state, "1D")
    state = play(state, "3D+2P")
    state = play(state, "4D+3T")
    assert faces(state) == {"1D": "up", "3D": "up", "4D": "up"}
    assert piles(state) == {("3D", "blue", "P", 2), ("4D", "green", "T", 3)}
    # yellow may not predict on the 2: it completes the Time
    err = refused(state, "2D+1P")
    assert err.clause == "Atlas: Play a Card A"
    assert err.reason == "the 2 of Day completes a Time: no prediction may be placed on it"
    assert not any(m.startswith("2D+") for m in legal(state))
    after = play(state, "2D")
    assert faces(after) == dict.fromkeys(["1D", "2D", "3D", "4D"], "down")
    assert piles(after) == {("4D", "green", "T", 3)}
    # The discarded chips are not returned to blue.
    assert after.chips == (14, 12, 11)
    assert scores(after) == {"yellow": 0, "blue": 0, "green": 3 + 1}


def test_play_a_card_a_prediction_refused_on_a_card_completing_a_place():
    """Play a Card A: "You may not place a prediction on it", for a Place as well."""
    state = position(up="2W 2D 2S", hands={"ann": "2N"})
    err = refused(state, "2N+1T")
    assert err.reason == "the 2 of Night completes a Place: no prediction may be placed on it"
    assert legal(state) == ["2N"]


def test_play_a_card_a_prediction_refused_on_a_card_completing_both():
    """Play a Card A: the refusal names both when the card completes both."""
    state = position(up="1D 2D 3D 4W 4S 4N", hands={"ann": "4D"})
    err = refused(state, "4D+5P")
    assert "completes a Time and a Place" in err.reason


def test_play_a_card_a_place_keeps_place_chips_and_discards_time_chips():
    """Play a Card A, by a Place: the correct prediction (Place) stays on the flipped
    card, the incorrect one (Time) is discarded, not returned to its owner."""
    state = position(
        up="7W 7D 7S", stacks=(("7W", "bob", "P", 5), ("7D", "cy", "T", 4)), hands={"ann": "7N"}
    )
    after = play(state, "7N")
    assert piles(after) == {("7W", "bob", "P", 5)}
    assert after.chips == state.chips
    assert scores(after) == {"ann": 0, "bob": 6, "cy": 0}


def test_play_a_card_a_chips_on_a_bridged_flipped_card_stay():
    """Play a Card A and ruling R10: a Time flips only face-up cards; a flipped card
    it bridges keeps its chips, even Place chips (they were scored by a Place)."""
    state = position(
        up="1S 2S 4S", down="3S", stacks=(("3S", "bob", "P", 2), ("4S", "cy", "T", 1)),
        hands={"ann": "5S"},
    )
    after = play(state, "5S")
    assert piles(after) == {("3S", "bob", "P", 2), ("4S", "cy", "T", 1)}
    assert scores(after) == {"ann": 0, "bob": 3, "cy": 2}


# --- B: the card completes nothing --------------------------------------------------------


def test_play_a_card_b_predictions_of_one_to_five_chips_on_either_side():
    """Play a Card B: "You may optionally bet up to five chips on the card you played
    as a prediction for either Time or Place (never both)": for each card that
    completes nothing, no prediction, Time with 1-5 chips, Place with 1-5 chips."""
    state = position(hands={"ann": "3D"})
    assert legal(state) == ["3D"] + [f"3D+{k}T" for k in range(1, 6)] + [f"3D+{k}P" for k in range(1, 6)]


def test_play_a_card_b_the_prediction_is_one_stack_on_the_card_played():
    """Play a Card B: "Stack the chips on the played card with the side showing your
    prediction face up"; the chips leave the player's supply."""
    state = position(hands={"ann": "3D 4D"})
    after = play(state, "3D+4P")
    assert piles(after) == {("3D", "ann", "P", 4)}
    assert after.chips == (10, 14, 14)


def test_play_a_card_b_more_than_five_chips_refused():
    """Play a Card B: "up to five chips"."""
    state = position(hands={"ann": "3D"})
    err = refused(state, "3D+6T")
    assert err.clause == "Atlas: Play a Card B"
    assert err.reason == "a prediction is 1 to 5 chips, not 6"
    assert refused(state, "3D+0P").reason == "a prediction is 1 to 5 chips, not 0"


def test_play_a_card_b_more_chips_than_the_player_has_refused():
    """Play a Card B: a player bets from their own chips; with 3 left, 4 is refused
    and 3 is allowed."""
    state = position(hands={"ann": "3D"}, chips={"ann": 3})
    err = refused(state, "3D+4T")
    assert err.reason == "ann has only 3 chips left"
    assert err.clause == "Atlas: Play a Card B"
    assert legal(state) == ["3D", "3D+1T", "3D+2T", "3D+3T", "3D+1P", "3D+2P", "3D+3P"]
    assert play(state, "3D+3T").chips == (0, 14, 14)


def test_play_a_card_b_no_chips_no_predictions():
    """Play a Card B: "If you have no chips remaining, you may no longer place
    predictions."""
    state = position(hands={"ann": "3D 5S"}, chips={"ann": 0})
    assert legal(state) == ["3D", "5S"]
    assert refused(state, "3D+1T").reason == "ann has no chips left"


def test_play_a_card_b_a_prediction_without_a_side_is_ambiguous():
    """Play a Card B: a prediction is for Time or Place, "never both"; the side must
    be given, and the refusal lists the two readings."""
    with pytest.raises(AmbiguousMoveError) as info:
        game.parse_move(None, "3D+2")
    assert info.value.candidates == ("3D+2T", "3D+2P")
    assert info.value.clause == "Atlas: Play a Card B"


def test_play_a_card_b_predictions_are_never_moved():
    """Play a Card B: "Predictions may never be changed or moved": a later play
    leaves every stack where it was, and a player may bet again on another card."""
    state = position(hands={"ann": "3D 1W", "bob": "5S 6S"}, players=NAMES[:2])
    state = play(state, "3D+2T")
    state = play(state, "5S+1P")
    state = play(state, "1W+5P")
    assert piles(state) == {("3D", "ann", "T", 2), ("5S", "bob", "P", 1), ("1W", "ann", "P", 5)}
    assert state.chips == (9, 15)


# =====================================================================================
# Draw a Card
# =====================================================================================


def test_draw_a_card_after_the_play_from_the_top_of_the_pile():
    """Draw a Card: "To end your turn, draw a card from the deck if there are cards
    remaining": the top card goes to the hand of the player who played."""
    state = position(hands={"ann": "1W 2W", "bob": "3W"}, deck="7N 6N 5N")
    after = play(state, "1W")
    assert hand(after, "ann") == {"2W", "7N"}
    assert [name(k) for k in after.deck] == ["6N", "5N"]
    after = play(after, "3W")
    assert hand(after, "bob") == {"6N"}


def test_draw_a_card_nothing_when_the_pile_is_empty():
    """Draw a Card: "If there are no cards left to draw, simply end your turn"."""
    state = position(hands={"ann": "1W 2W", "bob": "3W"})
    assert hand(play(state, "1W"), "ann") == {"2W"}


@pytest.mark.parametrize(("players", "pile"), [(2, 12), (3, 6), (4, 0)])
def test_draw_a_card_hands_stay_at_seven_while_the_pile_lasts(players, pile):
    """Draw a Card: each player draws after playing until the pile is empty (there
    is none with 4 players), so hands stay at 7 cards until then."""
    states = random_game(players, "draw")
    for k, state in enumerate(states[: pile + 1]):
        assert len(state.deck) == pile - k
        assert all(len(h) == 7 for h in state.hands)
    # Once the pile is empty the hands shrink, one card per turn.
    after = states[pile + players]
    assert [len(h) for h in after.hands] == [6] * players


# =====================================================================================
# Gameplay: turns and the end
# =====================================================================================


@pytest.mark.parametrize(("players", "turns"), [(2, 13), (3, 9), (4, 7)])
def test_gameplay_clockwise_until_every_hand_is_empty(players, turns):
    """Gameplay: "Play continues clockwise until all cards in players hands have been
    played": 2 players play the 14 dealt and 12 drawn cards, 13 turns each; 3
    players 21 + 6, 9 each; 4 players 28, 7 each."""
    states = random_game(players, "turns")
    assert len(states) - 1 == players * turns
    seats = [s.seat for s in states[:-1]]
    assert seats == [k % players for k in range(players * turns)]
    assert states[-1].seat == -1 and all(not h for h in states[-1].hands)
    assert game.to_move(states[-1]) is None and game.legal_moves(states[-1]) == ()


def test_gameplay_a_player_with_no_card_is_passed_over():
    """Ruling R13: with the rule text's deal every hand empties in the same round,
    but should a hand be empty while others are not, its player is passed over;
    the game ends only when every hand is empty."""
    state = position(hands={"ann": "1W", "cy": "2W 3W"})
    state = play(state, "1W")
    assert game.to_move(state) == 2
    state = play(state, "2W")
    assert game.to_move(state) == 2
    state = play(state, "3W")
    assert game.to_move(state) is None and game.outcome(state) is not None


def test_gameplay_out_of_turn_is_refused_in_the_log():
    """Gameplay: players take turns in seat order; a move by someone else is refused
    citing the turn order."""
    log = match.new_log(game.id, NAMES[:3], "turn")
    with pytest.raises(IllegalMoveError) as info:
        match.extend(log, ["1W"], as_player="bob")
    assert "it is ann's turn" in str(info.value)
    assert info.value.clause == game.turn_clause


def test_gameplay_no_move_after_the_end():
    """End of Game: after the last card nothing more can be played."""
    state = position(over=True)
    err = refused(state, "1W")
    assert err.clause == game.end_clause


# =====================================================================================
# End of Game and Final Scoring
# =====================================================================================


def test_scoring_example_one_stack_of_five_scores_six():
    """End of Game, Example: "A player with 1 stack of 5 chips on the board scores 6
    points: 1 point for each of his 5 chips, and 1 point for the stack"."""
    state = position(down="1W 2W 3W 4W", stacks=(("2W", "ann", "T", 5),), over=True)
    out = game.outcome(state)
    assert {s.player: s.score for s in out.standings} == {"ann": 6, "bob": 0, "cy": 0}
    assert out.winners == ("ann",)


def test_scoring_example_four_stacks_of_one_score_eight():
    """End of Game, Example: "A player with 4 stacks of 1 chip each scores 8 points:
    4 points for his chips, plus 1 more point for each his 4 stacks"."""
    state = position(
        down="1W 2W 3W 4W 6W 6D 6S 6N",
        stacks=(("1W", "bob", "T", 1), ("3W", "bob", "T", 1), ("6D", "bob", "P", 1), ("6N", "bob", "P", 1)),
        over=True,
    )
    assert scores(state) == {"ann": 0, "bob": 8, "cy": 0}


def test_scoring_chips_on_face_up_cards_are_removed_at_the_end():
    """End of Game: "remove any unscored chips still on face up cards from the
    board ... Chips remaining in your possession are worth 0 points". The last card
    played completes nothing; bob's 4 chips on a face-up card score nothing."""
    state = position(
        up="5N", down="1W 2W 3W 4W",
        stacks=(("5N", "bob", "P", 4), ("1W", "cy", "T", 2)),
        hands={"ann": "7S"}, chips={"ann": 14, "bob": 10, "cy": 12},
    )
    mid = game.standing(state)
    assert [(s.player, s.score) for s in mid.standings] == [("cy", 3), ("ann", 0), ("bob", 0)]
    assert any("bob: no stack" in d and "1 stack (4 chips) still on face-up cards" in d
               for d in mid.details)
    after = play(state, "7S")
    assert game.to_move(after) is None
    assert piles(after) == {("1W", "cy", "T", 2)}
    out = game.outcome(after)
    assert {s.player: s.score for s in out.standings} == {"ann": 0, "bob": 0, "cy": 3}
    assert "chips left on face-up cards at the end, removed unscored: bob 4" in out.details


def test_scoring_a_tie_is_won_by_the_most_stacks():
    """End of Game: "Ties are won by the tied player with the most total stacks of
    correct predictions." ann: one stack of 5 = 6; bob: two stacks of 2 = 6."""
    state = position(
        down="1W 2W 3W 4W 6D 6S 6N 6W",
        stacks=(("2W", "ann", "T", 5), ("3W", "bob", "T", 2), ("6S", "bob", "P", 2)),
        over=True,
    )
    out = game.outcome(state)
    assert [(s.player, s.score, s.place) for s in out.standings] == [
        ("bob", 6, 1), ("ann", 6, 2), ("cy", 0, 3)
    ]
    assert out.winners == ("bob",)
    assert any("bob ranks higher with more stacks (2 to 1)" in d for d in out.details)


def test_scoring_still_tied_the_place_is_shared():
    """End of Game: "If players are still tied, play again!" A log cannot replay, so
    by ruling R15 the tied players share the place and both win; the next player
    takes the place after them (1, 1, 3)."""
    state = position(
        down="1W 2W 3W 4W 6D 6S 6N 6W",
        stacks=(("2W", "ann", "T", 3), ("6D", "cy", "P", 3), ("1W", "bob", "T", 1)),
        over=True,
    )
    out = game.outcome(state)
    assert [(s.player, s.score, s.place) for s in out.standings] == [
        ("ann", 4, 1), ("cy", 4, 1), ("bob", 2, 3)
    ]
    assert out.winners == ("ann", "cy")
    assert any("ann and cy both have 4 points and 1 stack: they share 1st place" in d
               for d in out.details)


def test_scoring_nobody_scores_everybody_shares_first_place():
    """End of Game: with no correct prediction at all, all are tied on 0 points and
    0 stacks: a shared first place."""
    out = game.outcome(position(over=True))
    assert [s.place for s in out.standings] == [1, 1, 1]
    assert out.winners == NAMES[:3]


@pytest.mark.parametrize(("players", "seed"), [(2, "s1"), (3, "s2"), (4, "s3"), (3, "s4")])
def test_scoring_of_random_games_follows_the_rule(players, seed):
    """End of Game: at the end only stacks on face-down cards remain, and each player
    scores one point per chip and per stack of them (counted here by hand)."""
    last = random_game(players, seed)[-1]
    expected = Counter()
    for card, who, _side, k in piles(last):
        assert faces(last)[card] == "down"
        expected[who] += k + 1
    out = game.outcome(last)
    assert {s.player: s.score for s in out.standings} == {p: expected[p] for p in NAMES[:players]}
    assert out.standings[0].player in out.winners


def test_sample_game_of_the_notation_document_scores_as_described():
    """End of Game, on the sample game of notation/atlas.md (seed 0), counted by hand
    from its moves: ann keeps 2 on 5W and 3 on 1S (5 + 2 = 7), bob 3 on 4W and 3 on
    1D (6 + 2 = 8), cy 2 on 3D, 3 on 3S, 2 on 2D and 3 on 4D (10 + 4 = 14); left on
    face-up cards at the end: ann 3 (2S), bob 3 (4N), cy 3 + 1 (4S, 2N)."""
    log = logmod.decode((ROOT / "examples" / "atlas" / "3-players.json").read_bytes())
    rep = match.validate(log)
    assert piles(rep.state) == {
        ("5W", "ann", "T", 2), ("1S", "ann", "P", 3),
        ("4W", "bob", "T", 3), ("1D", "bob", "T", 3),
        ("3D", "cy", "P", 2), ("3S", "cy", "P", 3), ("2D", "cy", "T", 2), ("4D", "cy", "T", 3),
    }  # fmt: skip
    assert scores(rep.state) == {"ann": 7, "bob": 8, "cy": 14}
    assert rep.state.unscored == (3, 3, 4)
    assert log.result.winners == ("cy",)


# =====================================================================================
# The rules oracle over whole games
# =====================================================================================


@pytest.mark.parametrize(("players", "seed"), [(2, "o1"), (3, "o2"), (4, "o3"), (2, "o4"), (3, "o5"), (4, "o6")])
def test_every_play_of_random_games_agrees_with_the_oracle(players, seed):
    """Explaining Time and Place, Play a Card A and B: at every turn of random games,
    the moves listed are exactly the cards of the hand, each with predictions when
    (and only when) it completes nothing and the player has chips; and each play
    flips, keeps and discards exactly what the oracle says. Chips are conserved:
    supply + on the board + discarded = the starting supply."""
    state = game.setup({}, NAMES[:players], seed)
    rng = random.Random(seed)
    start = CHIPS_BY_COUNT[players]
    discarded = Counter()
    while state.seat >= 0:
        who = state.players[state.seat]
        board = faces(state)
        have = state.chips[state.seat]
        expected = []
        for card in sorted(hand(state, who), key=c):
            expected.append(card)
            if not any(oracle_completes(board, card)):
                expected += [f"{card}+{k}{s}" for s in "TP" for k in range(1, min(5, have) + 1)]
        assert legal(state) == expected
        text = rng.choice(expected)
        new_faces, kept = oracle_play(state, text)
        before = piles(state)
        after = play(state, text)
        if after.seat >= 0:
            assert faces(after) == new_faces
            assert piles(after) == kept
        for gone in before - piles(after):
            discarded[gone[1]] += gone[3]
        state = after
        for p, who in enumerate(state.players):
            on_board = sum(k for _, w, _, k in piles(state) if w == who)
            assert state.chips[p] + on_board + discarded[who] == start


# =====================================================================================
# Hidden information: views
# =====================================================================================


def test_view_shows_own_hand_and_only_sizes_of_the_others():
    """Ruling R16: a player sees their own hand, the board, every stack, every
    player's chips and the sizes of the hands and the draw pile; a spectator sees no
    hand at all."""
    state = game.setup({}, NAMES[:3], "view")
    state = play(state, game.format_move(state, game.legal_moves(state)[3]))
    mine = game.view(state, 1)
    assert set(mine.hand) == hand(state, "bob")
    assert mine.hand_sizes == (7, 7, 7)
    assert mine.draw_pile == 5 and mine.removed == 1
    assert mine.out_of_game == ("8W", "8D", "8S", "8N")
    assert mine.chips == state.chips
    assert [(s.card, s.owner, s.side, s.chips, s.scored) for s in mine.stacks] == [
        (name(s.card), "ann", ("Time", "Place")[s.side - 1], s.chips, False) for s in state.stacks
    ]
    spectator = game.view(state, None)
    assert spectator.hand is None and spectator.viewer is None
    assert spectator.hand_sizes == (7, 7, 7)


def _codes(v) -> set[str]:
    return set(re.findall(r"\b[1-8][WDSN]\b", msgspec.json.encode(v).decode()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_never_names_a_card_the_viewer_cannot_see(players):
    """Ruling R16: the only cards a view names are on the board, in the viewer's own
    hand or out of the game (the 8s with 2 and 3 players): never another hand, the
    draw pile or the cards removed unseen."""
    for state in random_game(players, "leak"):
        public = {name(i) for i, v in enumerate(state.board) if v}
        out = {"8W", "8D", "8S", "8N"} if players < 4 else set()
        for seat in [None, *range(players)]:
            own = hand(state, state.players[seat]) if seat is not None else set()
            seen = game.view(state, seat)
            assert _codes(seen) <= public | own | out
            drawn = game.render(seen, Style(unicode=False))
            assert set(re.findall(r"\b[1-8][WDSN]\b", drawn)) <= public | own | out


@pytest.mark.parametrize(("players", "seed"), [(2, "r1"), (3, "r2"), (4, "r3"), (3, "r4")])
def test_view_unchanged_when_the_hidden_cards_are_dealt_again(players, seed):
    """Ruling R16: re-dealing the hands of others, the draw pile and the removed
    cards never changes what a player sees, nor the moves they may make. The
    re-deal really moves cards (else this test could not fail)."""
    moved = 0
    for state in random_game(players, seed):
        for seat in [None, *range(players)]:
            seen = game.view(state, seat)
            for k in range(3):
                other = game.redeal(state, seat, f"{seed}/{k}")
                moved += other.hands != state.hands or other.deck != state.deck
                if seat is not None:
                    assert other.hands[seat] == state.hands[seat]
                assert Counter(x for h in other.hands for x in h) + Counter(other.deck + other.removed) == (
                    Counter(x for h in state.hands for x in h) + Counter(state.deck + state.removed)
                )
                assert game.view(other, seat) == seen
                if seat is not None and state.seat == seat:
                    assert legal(other) == legal(state)
    assert moved > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_consistent_rebuilds_every_view(players):
    """rules.consistent: a state cut from any view (every seat's and the
    spectator's) at positions of random games shows that view again, with
    the cards its viewer cannot see dealt from the seed (the same seed, the
    same state; every card of the game once), and the game goes on from it:
    the viewer's legal moves when it is their turn, each of which applies."""
    dealt = 0
    for seed in ("c1", "c2"):
        states = random_game(players, f"consistent-{seed}")
        for state in states[::3] + states[-1:]:
            for seat in [None, *range(players)]:
                v = rules.view(state, seat)
                for k in ("a", "b", "c"):
                    rebuilt = rules.consistent(v, {}, k)
                    assert rules.view(rebuilt, seat) == v, (seat, k)
                    assert rules.consistent(v, {}, k) == rebuilt
                    cards = [x for h in rebuilt.hands for x in h] + list(rebuilt.deck + rebuilt.removed)
                    on_board = bin(rebuilt.up | rebuilt.down).count("1")
                    assert len(set(cards)) == len(cards) == (32 if players == 4 else 28) - on_board
                    dealt += rebuilt.hands != state.hands or rebuilt.deck != state.deck
                if seat is not None and state.seat == seat:
                    assert legal(rebuilt) == legal(state)
                    for m in rules.legal_moves(rebuilt):
                        rules.apply(rebuilt, m)
    assert dealt > 0


def test_view_redeal_changes_what_the_others_would_see():
    """A check of the check: the re-deal for one seat does change the other seats'
    views (so an engine showing other hands would fail the test above)."""
    state = game.setup({}, NAMES[:3], "check")
    other = game.redeal(state, 0, "x")
    assert game.view(other, 0) == game.view(state, 0)
    assert game.view(other, 1) != game.view(state, 1) or game.view(other, 2) != game.view(state, 2)


def test_render_the_board_as_four_rows_of_eight():
    """Render: the 4 suit rows by 8 number columns, face-up cards by their code,
    face-down cards shaded, chip stacks under their card with the owner's letter,
    the chips and the side; the viewer's hand and the others' hand sizes."""
    state = position(
        up="2D 3D 6N", down="1W 2W 3W 4W",
        stacks=(("3D", "bob", "P", 2), ("2W", "cy", "T", 4)),
        hands={"ann": "5S 7S", "bob": "1N", "cy": "4N 5N"}, deck="7W",
    )
    state = msgspec.structs.replace(state, last=c("6N"))
    text = game.render(game.view(state, 0), Style(unicode=True))
    lines = text.splitlines()
    assert lines[0].split() == [str(k) for k in range(1, 9)]
    rows = [line for line in lines if line.split(" ")[0] in ("Dawn", "Day", "Sunset", "Night")]
    assert [r.split()[0] for r in rows] == ["Dawn", "Day", "Sunset", "Night"]
    assert all(r.count("│") == 9 for r in rows)
    assert rows[0].count("▓▓") == 4
    assert "2D" in rows[1] and "3D" in rows[1] and "[6N]" in rows[3]
    under = lines[lines.index(rows[1]) + 1]
    assert " b2P " in under
    assert " c4T " in lines[lines.index(rows[0]) + 1]
    assert "Hand of ann: 5S 7S" in text
    players = {line.split()[1]: line for line in lines if line[2:4] in ("a ", "b ", "c ")}
    assert players["bob"].endswith("  1 card") and players["cy"].endswith("  2 cards")
    assert "1N" not in text and "4N" not in text
    ascii_text = game.render(game.view(state, None), Style(unicode=False))
    assert ascii_text.isascii() and "##" in ascii_text
    assert "5S" not in ascii_text
    coloured = game.render(game.view(state, 0), Style(unicode=True, color=True))
    assert "\x1b[" in coloured


@pytest.mark.parametrize("players", [2, 3, 4])
def test_render_fits_a_mail_at_every_position(players):
    """Render: every line of every position, in both styles and for every seat
    and a spectator, is at most 72 columns (printable ASCII with --ascii),
    even with the longest names a log allows (24 letters)."""
    names = tuple(f"{x}{'a' * 23}" for x in "ABCD")[:players]
    for seed in ("mail-1", "mail-2"):
        for state in random_game(players, seed):
            state = msgspec.structs.replace(state, players=names)
            for seat in [None, *range(players)]:
                seen = game.view(state, seat)
                ascii_lines = game.render(seen, Style(unicode=False)).splitlines()
                assert all(len(x) <= 72 and x.isascii() and x.isprintable() for x in ascii_lines)
                assert all(len(x) <= 72 for x in game.render(seen, Style()).splitlines())


# =====================================================================================
# The picture
# =====================================================================================


def picture(state, seat, last=None):
    """The SVG of seat ``seat``'s view (None: a spectator's), parsed."""
    scene = drawing.scene(game, state.players, state, state.played, last, seat)
    svg = game.draw(game.view(state, seat), scene)
    return svg, ET.fromstring(svg)


def classes(root) -> Counter:
    return Counter(e.get("class") for e in root.iter() if e.get("class"))


def test_picture_shows_the_table_as_the_view_has_it():
    """Draw: every face-up card with its number, every face-down card as a back,
    each stack of chips under its card with its owner, size and side (a tick
    when scored), the 8s out of the game; the viewer's hand face up, the other
    hands as backs; the card of the last move outlined."""
    state = position(
        up="2D 3D 6N", down="1W 2W 3W 4W",
        stacks=(("3D", "bob", "P", 2), ("2W", "cy", "T", 4)),
        hands={"ann": "5S 7S", "bob": "1N", "cy": "4N 5N"}, deck="7W 6W",
    )
    svg, root = picture(state, 0, last=("cy", "6N+2T"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    drawn = classes(root)
    assert drawn["card face-up"] == 3 and drawn["card face-down"] == 4
    assert drawn["card out"] == 4  # the four 8s, with 3 players
    assert drawn["card face-up hand"] == 2  # ann's own
    assert drawn["card face-down hand"] == 1 + 2  # bob's and cy's, as backs
    assert drawn["stack"] == 1 and drawn["stack scored"] == 1
    assert drawn["last"] == 1 and drawn["pile"] == 1
    texts = [e.text for e in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "2 Place" in texts and "4 Time \u2713" in texts
    assert "Draw pile: 2 cards" in " ".join(t for t in texts if t)
    titles = [e.text for e in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "the 5 of Sunset, in hand" in titles
    assert not any("1 of Night" in t or "4 of Night" in t for t in titles)
    assert b"<script" not in svg.encode()
    # A spectator sees no hand face up.
    _, public = picture(state, None)
    assert classes(public)["card face-up hand"] == 0
    assert classes(public)["card face-down hand"] == 2 + 1 + 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_picture_of_a_seat_is_the_same_whatever_the_hidden_cards(players):
    """Draw (ruling R16): the picture of seat s is drawn from its view alone, so
    dealing again everything s cannot see changes not one byte of it."""
    for k, state in enumerate(random_game(players, "picture")):
        if k % 4:
            continue
        for seat in [None, *range(players)]:
            svg, _ = picture(state, seat)
            for r in range(2):
                other = game.redeal(state, seat, f"picture/{k}/{r}")
                assert picture(other, seat)[0] == svg


def test_picture_is_deterministic_and_marks_only_a_card_of_the_last_move():
    """Draw: the same view and scene give the same bytes; the last move is read
    from its canonical text only, and a text naming no card marks nothing."""
    state = game.setup({}, NAMES[:4], "0")
    first, root = picture(state, 2, last=("dee", "7N+1T"))
    assert picture(state, 2, last=("dee", "7N+1T"))[0] == first
    assert classes(root)["last"] == 1
    assert classes(picture(state, 2, last=("dee", "pass"))[1])["last"] == 0
    assert classes(picture(state, 2)[1])["last"] == 0


# =====================================================================================
# Notation
# =====================================================================================


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("3D", "3D"),
        ("3d", "3D"),
        (" 3 d ", "3D"),
        ("3 of Day", "3D"),
        ("day 3", "3D"),
        ("D3", "3D"),
        ("1 dawn", "1W"),
        ("7 sunset", "7S"),
        ("7 sun", "7S"),
        ("5night", "5N"),
        ("3D+2T", "3D+2T"),
        ("3d+2t", "3D+2T"),
        ("3D 2T", "3D+2T"),
        ("3D2T", "3D+2T"),
        ("3D:2T", "3D+2T"),
        ("3D/2 time", "3D+2T"),
        ("3 of day, 2 chips on time", "3D+2T"),
        ("3D + T2", "3D+2T"),
        ("8w + 5 place", "8W+5P"),
        ("4N with 1 chip on place", "4N+1P"),
    ],
)
def test_notation_tolerant_input(typed, canonical):
    """Notation: case, spaces, suit and side names, either order of number and suit,
    and a few separators are forgiven; the canonical form is number, suit letter,
    then '+', chips and T or P."""
    move = game.parse_move(None, typed)
    assert game.format_move(None, move) == canonical
    assert game.parse_move(None, canonical) == move


@pytest.mark.parametrize(
    ("typed", "mentions"),
    [
        ("", "3D"),
        ("hello", "3D"),
        ("3", "3D"),
        ("D", "3D"),
        ("3X", "3D"),
        ("9D", "no 9 of Day"),
        ("0S", "no 0 of Sunset"),
        ("3D+T", "how many chips"),
        ("3D+2Q", "3D"),
        ("3D+2T+1P", "3D"),
        ("3D 4D", "3D"),
    ],
)
def test_notation_garbage_is_a_notation_error(typed, mentions):
    """Notation: text that is not a move is refused as a NotationError (not as an
    illegal move), one line saying what was expected."""
    with pytest.raises(NotationError) as info:
        game.parse_move(None, typed)
    assert not isinstance(info.value, IllegalMoveError)
    assert "\n" not in str(info.value)
    assert mentions in str(info.value)


def test_notation_round_trip_of_every_legal_move():
    """Notation: every legal move is written once, reads back to itself and applies."""
    for state in random_game(3, "notation")[:-1]:
        texts = legal(state)
        assert len(set(texts)) == len(texts)
        for m in game.legal_moves(state):
            text = game.format_move(state, m)
            assert game.parse_move(state, text) == m
            assert re.fullmatch(r"[1-8][WDSN](\+[1-5][TP])?", text)


def test_notation_document_examples_replay():
    """The ```moves block of notation/atlas.md replays exactly (the shared test does
    the same once the game is registered for the whole suite)."""
    ours = [b for b in test_notation_docs.blocks("moves") if b[0] == "atlas.md"]
    assert ours
    for doc, line, body in ours:
        test_notation_docs.test_move_examples(doc, line, body)


# =====================================================================================
# The engine contract, the examples and the command line
# =====================================================================================


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", volume.seeds(2, 4))
def test_conformance(players, seed):
    """The generic random-play conformance check of the engine contract."""
    play_and_check(game.id, players, {}, seed)


def test_examples_validate():
    """Every example log of Atlas validates, for 2, 3 and 4 players."""
    paths = sorted((ROOT / "examples" / "atlas").glob("*.json"))
    counts = set()
    for path in paths:
        log = logmod.decode(path.read_bytes(), str(path))
        rep = match.validate(log)
        assert log.result is not None and game.to_move(rep.state) is None
        counts.add(len(log.players))
    assert counts == {2, 3, 4}


def test_cli_a_three_player_game_to_the_end(tmp_path):
    """A whole three-player game through the command line: new, then each player in
    turn shows the game as they see it and extends it with a move typed loosely,
    then the finished log validates and shows the result."""
    runner = CliRunner()
    path = tmp_path / "game.json"
    r = runner.invoke(app, ["new", "atlas", "--players", "ann,bob,cy", "--seed", "cli", "-o", str(path)])
    assert r.exit_code == 0, r.output
    turns = 0
    while True:
        data = json.loads(runner.invoke(app, ["legal", str(path), "--json"]).stdout)
        if data["player"] is None:
            break
        who, moves = data["player"], data["moves"]
        shown = runner.invoke(app, ["show", str(path), "--as", who, "--ascii"])
        assert shown.exit_code == 0 and f"* {'abc'[NAMES.index(who)]} {who}" in shown.stdout
        # Prefer a modest prediction when one is allowed, typed the way a player would.
        bets = [m for m in moves if m.endswith("+1T") or m.endswith("+2P")]
        move = (bets or moves)[turns % len(bets or moves)]
        typed = move.lower().replace("+", " ")
        r = runner.invoke(app, ["extend", str(path), typed, "--as", who])
        assert r.exit_code == 0, r.output
        assert f"Recorded 1 move in {path}: {move}" in r.stdout
        turns += 1
    assert turns == 27
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 0 and "27 moves, over" in r.stdout
    r = runner.invoke(app, ["show", str(path)])
    assert "Game over. Winner:" in r.stdout
    # A move after the end is refused with one line.
    r = runner.invoke(app, ["extend", str(path), "1W"])
    assert r.exit_code == 1 and "the game is already over" in r.stderr


def test_cli_refuses_an_illegal_prediction_with_one_line(tmp_path):
    """The command line reports a refused move in one line citing the rule."""
    runner = CliRunner()
    path = tmp_path / "game.json"
    runner.invoke(app, ["new", "atlas", "--players", "ann,bob", "--seed", "cli", "-o", str(path)])
    card = json.loads(runner.invoke(app, ["legal", str(path), "--json"]).stdout)["moves"][0]
    before = path.read_bytes()
    r = runner.invoke(app, ["extend", str(path), f"{card}+6T"])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"Error: move 1 (ann) '{card}+6T': a prediction is 1 to 5 chips, not 6 (Atlas: Play a Card B)"
    )
    assert path.read_bytes() == before


# =====================================================================================
# Resignation and abandonment (notation/atlas.md, the events of notation/README.md)
# =====================================================================================

# The sample game of notation/atlas.md up to the Place of 3s: ann 3 points, bob 4
# (and 2 chips still riding on the face-up 1 of Dawn), cy 7.
SAMPLE_TO_3N = ["3W", "1W+2T", "3D+2P", "5W+2T", "4W+3T", "3S+3P", "6W", "3N"]


def sample_log(moves: list[str]):
    return match.extend(match.new_log(game.id, NAMES[:3], "0"), moves)


def placed(outcome) -> list[tuple[str, int, int]]:
    return [(s.player, s.score, s.place) for s in outcome.standings]


def test_resigning_ranks_the_others_by_the_score_so_far_and_the_resigner_last():
    """notation/atlas.md, Resignation: cy leads with 7 points and resigns; bob (4)
    and ann (3) are ranked by the score so far, cy last whatever their points.
    bob's chips riding on the face-up 1 of Dawn score nothing and stay there."""
    log = match.extend(sample_log(SAMPLE_TO_3N), ["@resign"], as_player="cy")
    rep = match.validate(log)
    assert placed(log.result) == [("bob", 4, 1), ("ann", 3, 2), ("cy", 7, 3)]
    assert log.result.winners == ("bob",)
    assert log.result.details[-1] == "cy resigned: ranked last"
    assert log.result.details[:-1] == game.standing(rep.state).details
    assert "1 stack (2 chips) still on face-up cards" in log.result.details[1]
    with pytest.raises(IllegalMoveError, match="the game is already over"):
        match.extend(log, ["2D+2T"])


def test_resigning_out_of_turn_ties_shared_among_the_others():
    """notation/atlas.md, Resignation: while nobody has a stack on a face-down
    card, the others tie on 0 points and 0 stacks and share 1st place (R15),
    the player who resigned is 3rd: ann resigning in cy's turn, then bob
    resigning after move 1 (the document's example)."""
    log = match.extend(sample_log(["3W", "1W+2T"]), ["@resign"], as_player="ann")
    assert placed(log.result) == [("bob", 0, 1), ("cy", 0, 1), ("ann", 0, 3)]
    log = match.extend(sample_log(["3W"]), ["@resign"], as_player="bob")
    assert placed(log.result) == [("ann", 0, 1), ("cy", 0, 1), ("bob", 0, 3)]
    assert log.result.winners == ("ann", "cy")


def test_no_resigning_after_the_last_card():
    """notation/atlas.md, Resignation: only before the last card is played."""
    log = logmod.decode((ROOT / "examples" / "atlas" / "3-players.json").read_bytes())
    with pytest.raises(IllegalMoveError, match="the game is already over"):
        match.extend(log, ["@resign"], as_player="ann")


def test_abandoning_by_agreement_ends_the_game_with_no_result():
    """notation/atlas.md, Abandoning: once both others accept, no standings, no
    winner; a rejection, or a card played while the proposal waits, drops it."""
    log = match.extend(sample_log(SAMPLE_TO_3N), ["@abandon"], as_player="cy")
    log = match.extend(log, ["@accept"], as_player="ann")
    assert log.result is None and match.validate(log).seat() == 2  # still cy to move
    done = match.extend(log, ["@accept"], as_player="bob")
    assert done.result is not None
    assert (done.result.standings, done.result.winners) == ((), ())
    assert done.result.details == ("abandoned by agreement: no result",)
    for drop in (["@reject"], ["2D+2T"]):
        who = "bob" if drop == ["@reject"] else "cy"
        dropped = match.extend(log, drop, as_player=who)
        with pytest.raises(IllegalMoveError, match="there is no proposal to accept"):
            match.extend(dropped, ["@accept"], as_player="bob")
