"""Time Palatrix: scenario tests, one rule-text section at a time (DATC style).

Each test names the section of ``shared/rules/time-palatrix.txt`` it checks
(PREPARATION, BIDDING, TRICK PLACEMENT, TRICK RESOLUTION, SCORE CALCULATION,
START OF THE NEXT HAND and END OF THE GAME, VARIANT, STRATEGY TIPS) and the
project's rulings (R1 ... in ``notation/time-palatrix.md``) where the text is
silent. Expected results are worked out by hand from the rules, or by the
small rules oracle below, which is written from the text and shares no code
with the engine.

Positions are built with :func:`round_start`: the hands of the players at the
start of a placement round, by card name ("G7" is green 7), then moves are
played through the engine as typed by the players.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import msgspec
import pytest
import volume
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match
from adjudicator.chance import Chance, shuffled
from adjudicator.cli import app
from adjudicator.engine import Style
from adjudicator.errors import AmbiguousMoveError, IllegalMoveError, NotationError
from adjudicator.games.time_palatrix import GAME, cards, rules
from test_conformance import play_and_check
from test_notation_docs import blocks as notation_blocks
from test_notation_docs import test_move_examples as replay_moves_block


def test_registered() -> None:
    assert games.GAMES[GAME.id] is GAME


# --- vocabulary --------------------------------------------------------------------

NAMES = ("ann", "bob", "cy", "dee")
SUITS = "POGB"  # pink, orange, green, blue: the rule text's order; pink is trump
ANN, BOB, CY, DEE = range(4)
CARD = re.compile(r"\b[POGB](?:1[0-2]|[1-9])\b")


def card(name: str) -> int:
    """A card as the module docstring documents it: suit * 16 + rank."""
    return SUITS.index(name[0]) * 16 + int(name[1:])


def names(cards) -> list[str]:
    return [f"{SUITS[c >> 4]}{c & 15}" for c in cards]


def round_start(*hands: str, start: int = ANN, locations: int = 3, round_no: int = 0,
                hand_no: int = 0, bids=None, spares=None, tricks=None, scores=None):
    """The start of a placement round: each player's hand ('G9 O2 B5'), the start
    player, and what is known about the hand so far."""
    n = len(hands)
    state = GAME.setup({"locations": locations}, NAMES[:n], "scenario")
    return msgspec.structs.replace(
        state,
        hands=tuple(tuple(sorted(card(c) for c in h.split())) for h in hands),
        start=start,
        seat=start,
        bidding=False,
        bids=tuple(bids or (0,) * n),
        spares=tuple(spares or (False,) * n),
        round_no=round_no,
        hand_no=hand_no,
        tricks=tuple(tricks or (0,) * n),
        scores=tuple(scores or (0,) * n),
    )


def play(state, *moves: str):
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(state, text))
    return state


def refused(state, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        play(state, text)
    return info.value


def legal(state) -> list[str]:
    return [GAME.format_move(state, m) for m in GAME.legal_moves(state)]


def to_move(state) -> str | None:
    seat = GAME.to_move(state)
    return None if seat is None else state.players[seat]


def tricks_of(state) -> list[tuple[str, str, str]]:
    """The tricks resolved so far, as (lead player, winner, winning card), from
    the public view."""
    v = GAME.view(state, None)
    return [(t.lead, t.winner, t.cards[v.players.index(t.winner)]) for t in v.tricks_played]


# =====================================================================================
# PREPARATION and the deal (R1, R3)
# =====================================================================================


def deck_by_hand(players: int) -> list[str]:
    """PREPARATION: 48 cards, 1 to 12 in four colours; with 3 players the 10 to 12
    of each suit go back in the box. In the documented starting order."""
    top = 9 if players == 3 else 12
    return [f"{s}{r}" for s in SUITS for r in range(1, top + 1)]


@pytest.mark.parametrize(("players", "size"), [(3, 36), (4, 48)])
@pytest.mark.parametrize("seed", ["0", "1", "abc"])
def test_preparation_every_card_is_dealt_12_to_each_player(players, size, seed):
    """PREPARATION and BIDDING: "deal 12 to each player"; 3 players: 1-9 (36 cards),
    4 players: 1-12 (48 cards). Every card is dealt once (R1)."""
    state = GAME.setup({"locations": 3}, NAMES[:players], seed)
    dealt = [c for h in state.hands for c in names(h)]
    assert len(deck_by_hand(players)) == size
    assert sorted(dealt) == sorted(deck_by_hand(players))
    assert all(len(h) == 12 for h in state.hands)


@pytest.mark.parametrize(("locations", "rounds"), [(3, 4), (4, 3)])
def test_preparation_twelve_cards_fill_every_location_of_every_round(locations, rounds):
    """R1: 12 cards a player is exactly the locations times the rounds of a hand
    (3 x 4 on the front side, 4 x 3 on the back)."""
    assert locations * rounds == 12
    state = GAME.setup({"locations": locations}, NAMES[:3], "deal")
    assert GAME.view(state, None).rounds == rounds


@pytest.mark.parametrize("players", [3, 4])
def test_preparation_deal_follows_the_documented_chance_labels(players):
    """R3: hand h is the deck in its starting order shuffled with the label deal/h;
    seat i takes positions 12i to 12i+11. Hand 2 is checked after playing hand 1."""
    seed = "labels"
    state = GAME.setup({"locations": 3}, NAMES[:players], seed)
    first = shuffled(seed, "deal/1", deck_by_hand(players))
    for seat in range(players):
        assert sorted(names(state.hands[seat])) == sorted(first[12 * seat: 12 * seat + 12])
    while state.hand_no == 0:
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    second = shuffled(seed, "deal/2", deck_by_hand(players))
    for seat in range(players):
        assert sorted(names(state.hands[seat])) == sorted(second[12 * seat: 12 * seat + 12])
    assert first != second


def test_preparation_ranks_10_to_12_are_out_of_a_three_player_game():
    """PREPARATION: with 3 players the 10 to 12 of each suit are removed."""
    state = round_start("G9 O2 B5", "G4 O9 B1", "G3 B7 O5")
    error = refused(state, "G10-1")
    assert "no G10 with 3 players" in error.reason and error.clause == cards.PREPARATION


# =====================================================================================
# BIDDING (R2, R4)
# =====================================================================================


def test_bidding_the_first_start_player_is_drawn_from_the_seed():
    """BIDDING: a start player is "determined in any appropriate manner": drawn from
    the seed, label 'start' (R2). Every seat can be drawn."""
    starts = set()
    for i in range(40):
        seed = str(i)
        for n in (3, 4):
            state = GAME.setup({"locations": 3}, NAMES[:n], seed)
            expected = Chance(seed, "start").below(n)
            assert state.start == expected and GAME.to_move(state) == expected
            starts.add((n, expected))
    assert starts == {(n, s) for n in (3, 4) for s in range(n)}


def bidding_state(start: int, players: int = 4):
    state = GAME.setup({"locations": 3}, NAMES[:players], "bids")
    return msgspec.structs.replace(state, start=start, seat=start)


def test_bidding_in_turn_from_the_start_player_clockwise():
    """BIDDING: "beginning with the start player and proceeding clockwise"; then the
    start player places the first card (TRICK PLACEMENT)."""
    state = bidding_state(CY)
    order = []
    for bid in ("2", "0+", "5", "3"):
        order.append(to_move(state))
        state = play(state, bid)
    assert order == ["cy", "dee", "ann", "bob"]
    assert to_move(state) == "cy" and GAME.view(state, None).phase == "placement"
    assert GAME.view(state, None).bids == ("5", "3", "2", "0+")


def test_bidding_every_count_from_0_to_12_with_or_without_the_spare_chip():
    """BIDDING and R4: purple chips for the tricks expected (0 to 12: a hand has 12
    tricks), and optionally the one orange spare chip."""
    state = bidding_state(ANN)
    expected = [f"{k}{s}" for k in range(13) for s in ("", "+")]
    assert legal(state) == expected
    assert refused(state, "13").clause == cards.BIDDING


def test_bidding_no_cap_from_the_chip_supply():
    """R4: the 16 purple chips do not cap the bids: 4 players may bid 12 each."""
    state = play(bidding_state(ANN), "12", "12", "12+", "12")
    assert GAME.view(state, None).bids == ("12", "12", "12+", "12")


def test_bidding_bids_are_public_and_come_before_any_card():
    """GAME FLOW: a bidding phase, then the placement rounds. R4: every bid is seen
    by everyone as it is made."""
    state = bidding_state(ANN, players=3)
    assert refused(state, "G7-1").clause == cards.GAME_FLOW
    state = play(state, "4+")
    for seat in (None, BOB, CY):
        assert GAME.view(state, seat).bids == ("4+", None, None)
    state = play(state, "1", "0")
    assert refused(state, "2").clause == cards.GAME_FLOW


# =====================================================================================
# TRICK PLACEMENT (R5, R6)
# =====================================================================================

ROUND = ("O2 B5 B6", "G9 O9 B1", "G3 B7 O5")  # ann, bob, cy (ann has no green)
# A last round started by bob: cy wins locations 1 and 3, bob location 2.
LAST_ROUND = ("P1 O2 O3", "P5 O4 O5", "P9 O1 P8")
LAST_MOVES = ("P5-1", "P9-1", "P1-1", "O4-2", "O1-2", "O2-2", "O5-3", "P8-3", "O3-3")


def test_placement_one_card_at_a_time_clockwise_from_the_start_player():
    """TRICK PLACEMENT: "Beginning with the start player and proceeding clockwise" one
    card at a time, "until each player has played 3 cards" (R5)."""
    state = round_start("P1 P2 P3", "P4 P5 P6", "P7 P8 P9", start=BOB)
    order = []
    for _ in range(9):
        order.append(to_move(state))
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert order == ["bob", "cy", "ann"] * 3


def test_placement_only_on_an_empty_location_of_your_own_board():
    """TRICK PLACEMENT: "any location on their board where there is not a card"."""
    state = play(round_start(*ROUND), "B5-2", "B1-2", "B7-2")  # all three on location 2
    error = refused(state, "O2-2")
    assert "location 2 (red) of ann's board already holds B5" in error.reason
    assert error.clause == cards.PLACEMENT
    assert refused(state, "G9-1").reason == "ann holds no G9"


def test_placement_the_first_card_on_a_location_sets_its_follow_suit():
    """TRICK PLACEMENT: the first player to place on a colour takes its pawn: the
    follow colour of that trick, for every board (R6)."""
    state = play(round_start(*ROUND), "B5-2", "G9-1")
    v = GAME.view(state, None)
    assert v.follow == ("green", "blue", None)
    assert v.follow_set_by == ("bob", "ann", None)


def test_placement_must_follow_the_follow_suit_when_able():
    """TRICK PLACEMENT: "you must play a card of the same suit as the follow color if
    you can". cy holds green (G3), so on bob's green location 1 only G3 may go."""
    state = play(round_start(*ROUND), "B5-2", "G9-1")
    error = refused(state, "O5-1")
    assert error.clause == cards.PLACEMENT
    assert "follow suit of location 1 (black) is green" in error.reason
    assert "cy holds green" in error.reason
    assert refused(state, "B7-1").clause == cards.PLACEMENT
    state = play(state, "G3-1")
    assert GAME.view(state, None).boards[CY] == ("G3", None, None)


def test_placement_any_card_when_you_cannot_follow():
    """TRICK PLACEMENT: "otherwise, any card may be played": ann has no green."""
    state = play(round_start(*ROUND), "B5-2", "G9-1", "G3-1")
    assert "O2-1" in legal(state) and "B6-1" in legal(state)
    state = play(state, "O2-1")
    assert GAME.view(state, None).boards[ANN] == ("O2", "B5", None)


def test_placement_escape_the_follow_suit_on_another_location():
    """TRICK PLACEMENT and STRATEGY TIPS: cards go "to the tricks in any order", so
    a player holding the follow suit may place another suit on a location with no
    follow suit yet (R6): cy, holding green, puts O5 on the empty location 3."""
    state = play(round_start(*ROUND), "B5-2", "G9-1")
    assert refused(state, "O5-1").clause == cards.PLACEMENT
    state = play(state, "O5-3")
    v = GAME.view(state, None)
    assert v.boards[CY] == (None, None, "O5")
    assert v.follow == ("green", "blue", "orange")  # and cy now sets location 3


def test_placement_playing_a_suit_out_to_be_free_of_it_later():
    """STRATEGY TIPS: "play a card to a certain trick in order to no longer have cards
    of a specific suit, such that you cannot be forced to follow suit on another
    trick". cy places his only green on location 3; then bob's green location 1
    no longer binds him."""
    state = round_start("P1 P2 P3", "G9 O9 B1", "G3 B7 O5", start=CY)
    state = play(state, "G3-3", "P1-3", "G9-1")  # cy, ann, bob
    assert "B7-1" in legal(state) and "O5-1" in legal(state)


def test_placement_the_follow_suit_binds_one_location_only():
    """R6: the follow suit belongs to one location: bob's green location 1 says
    nothing about location 2 or 3."""
    state = play(round_start(*ROUND), "B5-2", "G9-1")
    assert {"G3-3", "B7-3", "O5-3"} <= set(legal(state))
    assert [m for m in legal(state) if m.endswith("-1")] == ["G3-1"]


def test_placement_a_card_typed_without_a_location():
    """Notation: a card without a location goes to the only location it may go to,
    else it is ambiguous. ann, with no green, may put O2 on 1 or 3."""
    state = play(round_start(*ROUND), "B5-2", "G9-1", "G3-1")
    with pytest.raises(AmbiguousMoveError) as info:
        play(state, "O2")
    assert info.value.candidates == ("O2-1", "O2-3")
    state = play(state, "O2-1")
    with pytest.raises(AmbiguousMoveError) as info:
        play(state, "B1")  # bob's B1 follows blue on location 2, or opens location 3
    assert info.value.candidates == ("B1-2", "B1-3")
    state = play(state, "B1-2", "B7-2", "B6")  # ann: only location 3 is left
    assert GAME.view(state, None).boards[ANN] == ("O2", "B5", "B6")


def test_placement_the_follow_suits_start_afresh_each_round():
    """TRICK PLACEMENT and R6: the pawns are taken again in every round."""
    hands = ("O2 B5 B6 P1 P2 P3", "G9 O9 B1 G1 G2 G4", "G3 B7 O5 O1 O3 O4")
    state = play(round_start(*hands), "B5-2", "G9-1", "G3-1", "O2-1", "B1-2", "B7-2",
                 "B6-3", "O9-3", "O5-3")
    v = GAME.view(state, None)
    assert v.round == 2 and v.follow == (None, None, None)
    assert v.boards == ((None,) * 3,) * 3


# =====================================================================================
# TRICK RESOLUTION (R7)
# =====================================================================================

TIP_ROUND = ("B5-2", "G9-1", "G3-1", "O2-1", "B1-2", "B7-2", "B6-3", "O9-3", "O5-3")


def test_resolution_the_lead_players_suit_beats_the_follow_suit():
    """TRICK RESOLUTION and STRATEGY TIPS: "As the start player ... If you can play a
    card of a different color than the other players, and they do not play trump,
    you can win the first trick." Location 1 follows green (bob's G9, then cy's G3),
    but ann leads it with O2: orange is the lead suit, so her 2 beats the 9."""
    state = play(round_start(*ROUND), *TIP_ROUND)
    assert tricks_of(state)[0] == ("ann", "ann", "O2")
    assert GAME.view(state, None).tricks[ANN] >= 1


def test_resolution_the_lead_passes_to_the_winner():
    """TRICK RESOLUTION: "The winner of the first trick is the lead player for the 2nd
    trick", and so on. Trick 2: ann led B5, cy's B7 wins. Trick 3: cy leads, so
    orange (his O5) is the lead suit and bob's O9 beats ann's B6 - had ann led, her
    blue would have won."""
    state = play(round_start(*ROUND), *TIP_ROUND)
    assert tricks_of(state) == [("ann", "ann", "O2"), ("ann", "cy", "B7"), ("cy", "bob", "O9")]
    assert GAME.view(state, None).tricks == (1, 1, 1)


def test_resolution_trump_beats_everything():
    """TRICK RESOLUTION: "The player who played the highest ranked trump card (pink
    suit) wins." Trick 1: cy's P2 beats ann's G9, the highest green led. Trick 2:
    of two trumps the higher wins (cy's P3 over bob's P1)."""
    state = round_start("G9 G8 O1", "P1 G2 O2", "P2 P3 O3")
    state = play(state, "G9-1", "P1-2")
    # bob holds green (G2): he could not have trumped location 1.
    state = play(state, "P2-1")  # cy has no green: he trumps
    state = play(state, "G8-2", "G2-1", "P3-2", "O1-3", "O2-3", "O3-3")
    assert tricks_of(state) == [("ann", "cy", "P2"), ("cy", "cy", "P3"), ("cy", "cy", "O3")]


def test_resolution_trump_cannot_be_used_against_a_follow_suit_you_hold():
    """TRICK PLACEMENT then TRICK RESOLUTION: bob holds green, so he may not trump
    ann's green location; he may trump elsewhere."""
    state = play(round_start("G9 G8 O1", "P1 G2 O2", "P2 P3 O3"), "G9-1")
    assert refused(state, "P1-1").clause == cards.PLACEMENT
    assert "P1-2" in legal(state)


def test_resolution_a_lead_in_trump_and_the_highest_of_the_lead_suit():
    """TRICK RESOLUTION: the lead player may lead trump (then pink is the lead suit as
    well); without trump, the highest card of the lead suit wins."""
    state = round_start("P9 O4 B2", "O8 B9 G1", "O1 B1 G2")
    state = play(state, "P9-1", "O8-2", "O1-2", "O4-2", "B9-3", "B1-3", "B2-3", "G1-1", "G2-1")
    # 1: ann P9, bob G1, cy G2 -> ann (trump). 2: ann leads O4; bob O8, cy O1 -> bob.
    # 3: bob leads B9; cy B1, ann B2 -> bob.
    assert tricks_of(state) == [("ann", "ann", "P9"), ("ann", "bob", "O8"), ("bob", "bob", "B9")]


def test_resolution_is_automatic_after_the_last_card_of_the_round():
    """TRICK PLACEMENT: "This process continues until each player has played 3 cards;
    then the tricks are resolved" (R7: no move is needed)."""
    state = play(round_start(*ROUND), *TIP_ROUND[:-1])
    assert GAME.view(state, None).tricks == (0, 0, 0) and to_move(state) == "cy"
    state = play(state, TIP_ROUND[-1])
    v = GAME.view(state, None)
    assert v.tricks == (1, 1, 1) and v.round == 2 and v.cards_in_hand == (0, 0, 0)


def test_resolution_the_last_tricks_winner_starts_the_next_round():
    """TRICK RESOLUTION: the winner of the 3rd trick "will take the large yellow start
    player pawn and becomes the start player for the next trick placement phase":
    bob won location 3, so he places first and leads location 1 next round."""
    hands = ("O2 B5 B6 P1 P3 O6", "G9 O9 B1 G1 P4 O7", "G3 B7 O5 G2 O3 P2")
    state = play(round_start(*hands), *TIP_ROUND)
    v = GAME.view(state, None)
    assert v.start_player == "bob" and to_move(state) == "bob"
    state = play(state, "G1-1", "G2-1", "O6-2", "O7-2", "O3-2", "P3-1", "P4-3", "P2-3", "P1-3")
    # 1: bob leads G1; cy G2, ann P3 -> ann. 2: ann leads O6; bob O7, cy O3 -> bob.
    # 3: bob leads P4; cy P2, ann P1 -> bob, who starts round 3.
    assert tricks_of(state)[3:] == [
        ("bob", "ann", "P3"), ("ann", "bob", "O7"), ("bob", "bob", "P4")]
    assert GAME.view(state, None).start_player == "bob"


def test_resolution_the_last_tricks_winner_starts_the_next_hand():
    """START OF THE NEXT HAND: "The start player for the next round is the player that
    won the last trick of the previous hand"; they bid first (R10). The last round
    of hand 1, started by bob: cy trumps location 3 and so bids first in hand 2."""
    state = round_start(*LAST_ROUND, start=BOB, round_no=3, bids=(1, 1, 1))
    state = play(state, *LAST_MOVES)
    # 1: bob leads P5; cy P9 wins. 2: cy leads O1; ann O2, bob O4 -> bob.
    # 3: bob leads O5; cy, out of orange, trumps with P8; ann O3. Last trick: cy.
    assert tricks_of(state) == [("bob", "cy", "P9"), ("cy", "bob", "O4"), ("bob", "cy", "P8")]
    v = GAME.view(state, None)
    assert v.hand == 2 and v.phase == "bidding" and v.start_player == "cy"
    assert to_move(state) == "cy" and v.cards_in_hand == (12, 12, 12)
    assert v.bids == (None, None, None) and v.tricks == (0, 0, 0)


def test_resolution_details_say_who_won_each_trick_and_why():
    """TRICK RESOLUTION in the result's words (R14)."""
    state = play(round_start(*ROUND), *TIP_ROUND)
    v = GAME.view(state, None)
    assert [t.why for t in v.tricks_played] == [
        "O2, the highest orange, the suit they led",
        "B7, the highest blue, the suit ann led",
        "O9, the highest orange, the suit cy led",
    ]
    text = GAME.render(v, Style(unicode=False))
    assert "> ann (highest of the lead suit)" in text and "> cy (highest of the lead suit)" in text


# =====================================================================================
# SCORE CALCULATION (R8, R9)
# =====================================================================================


@pytest.mark.parametrize(
    ("bid", "spare", "took", "points"),
    [
        (3, False, 3, 6),   # exact: 2 points for each trick
        (3, False, 2, 0),   # missed
        (3, False, 4, 0),   # missed, even by taking more
        (3, True, 3, 3),    # spare chip, took the bid: 1 point a trick
        (3, True, 4, 4),    # spare chip, took the bid + 1
        (3, True, 2, 0),
        (3, True, 5, 0),
        (0, False, 0, 0),   # an exact zero: no tricks, no points (R9)
        (0, False, 1, 0),
        (0, True, 0, 0),
        (0, True, 1, 1),
        (0, True, 2, 0),
        (12, False, 12, 24),
        (12, True, 12, 12),
    ],
)
def test_scoring_table(bid, spare, took, points):
    """SCORE CALCULATION: without the orange chip, 2 points a trick if exactly as
    predicted; with it, 1 point a trick on either of the 2 values; else nothing."""
    assert rules.hand_points(bid, spare, took) == points




@pytest.mark.parametrize(
    ("bids", "spares", "points"),
    [
        # Before the round ann has 3 tricks, bob 4, cy 2; it adds bob 1, cy 2.
        ((3, 5, 4), (False, False, False), (6, 10, 8)),   # all exact
        ((2, 4, 3), (True, True, True), (3, 5, 4)),      # spare chip on bid + 1
        ((3, 5, 4), (True, True, True), (3, 5, 4)),      # spare chip on the bid
        ((4, 4, 0), (False, False, True), (0, 0, 0)),    # misses
        ((0, 0, 0), (False, False, False), (0, 0, 0)),
    ],
)
def test_scoring_at_the_end_of_a_hand(bids, spares, points):
    """SCORE CALCULATION after the 4th round, added to the scores so far."""
    state = round_start(*LAST_ROUND, start=BOB, round_no=3, bids=bids, spares=spares,
                        tricks=(3, 4, 2), scores=(10, 20, 30))
    state = play(state, *LAST_MOVES)
    assert GAME.view(state, None).scores == tuple(s + p for s, p in zip((10, 20, 30), points))
    assert GAME.view(state, None).results[-1].tricks == (3, 5, 4)


def test_scoring_zero_bids():
    """SCORE CALCULATION and R9: a 0 bid taken exactly earns 2 x 0 = 0; 0+ earns 1
    point for its one trick, nothing for none."""
    state = round_start(*LAST_ROUND, start=BOB, round_no=3, bids=(0, 0, 0),
                        spares=(False, True, True), tricks=(0, 0, 0))
    state = play(state, *LAST_MOVES)  # bob takes 1, cy 2, ann none
    v = GAME.view(state, None)
    assert v.results[-1].tricks == (0, 1, 2)
    assert v.scores == (0, 1, 0)
    details = GAME.standing(state).details
    assert "hand 1: ann bid 0 and took 0 tricks - exact, but no tricks: 0 points" in details
    assert ("hand 1: bob bid 0+ and took 1 trick - within the spare chip, 1 point a trick: "
            "1 point") in details
    assert "hand 1: cy bid 0+ and took 2 tricks - not 0 or 1: 0 points" in details


# =====================================================================================
# VARIANT (R12)
# =====================================================================================


@pytest.mark.parametrize(("locations", "rounds"), [(3, 4), (4, 3)])
@pytest.mark.parametrize("players", [3, 4])
def test_variant_rounds_per_hand(players, locations, rounds):
    """GAME FLOW: four rounds of placement and resolution; VARIANT: "4 cards played in
    each placement round, and there are only 3 sets of placement and resolution for
    each hand"."""
    state = GAME.setup({"locations": locations}, NAMES[:players], "variant")
    for _ in range(players):
        state = play(state, "1")
    per_round = []
    placed = 0
    while GAME.view(state, None).hand == 1:
        before = GAME.view(state, None).round
        state = GAME.apply(state, GAME.legal_moves(state)[0])
        placed += 1
        if GAME.view(state, None).round != before:
            per_round.append(placed)
            placed = 0
    assert per_round == [players * locations] * rounds
    assert len(GAME.view(state, None).results[0].tricks) == players
    assert sum(GAME.view(state, None).results[0].tricks) == 12


def test_variant_the_fourth_location_is_the_blue_pawns():
    """VARIANT: "The small blue pawn is also needed": location 4, resolved last; its
    winner becomes the start player."""
    state = round_start("G9 G8 O1 B1", "P1 G2 O2 B2", "P2 P3 O3 B3", locations=4)
    state = play(state, "B1-4", "B2-4", "B3-4")
    assert GAME.view(state, None).follow == (None, None, None, "blue")
    state = play(state, "G9-1", "P1-2", "P2-1", "G8-2", "G2-1", "P3-2", "O1-3", "O2-3", "O3-3")
    assert tricks_of(state)[-1] == ("cy", "cy", "B3")
    assert GAME.view(state, None).start_player == "cy"


def test_variant_the_front_side_has_no_fourth_location():
    state = round_start(*ROUND)
    assert refused(state, "B5-4").clause == cards.VARIANT


# =====================================================================================
# START OF THE NEXT HAND and END OF THE GAME (R10, R11)
# =====================================================================================


@pytest.mark.parametrize(("players", "moves"), [(3, 3 * 39), (4, 4 * 52)])
@pytest.mark.parametrize("locations", [3, 4])
def test_end_as_many_hands_as_players(players, moves, locations):
    """END OF THE GAME: "played over a number of hands equal to the number of players"."""
    log = match.simulate(GAME.id, NAMES[:players], "hands", {"locations": locations})
    assert len(log.moves) == moves
    rep = match.validate(log, keep=True)
    hands = {GAME.view(s, None).hand for s in rep.states}
    assert hands == set(range(1, players + 1))
    assert len(GAME.view(rep.state, None).results) == players
    assert refused(rep.state, "1").clause == cards.NEXT_HAND


def last_round_of_game(scores, bids, tricks=(4, 4, 1)):
    """The last round of hand 3 of 3: it adds bob 1 trick and cy 2 (ann 4, bob 5,
    cy 3 in the hand)."""
    return round_start(*LAST_ROUND, start=BOB, round_no=3, hand_no=2, bids=bids,
                       tricks=tricks, scores=scores)


def test_end_the_highest_score_wins():
    """END OF THE GAME: "the player with the highest score wins"."""
    # ann: 4 exact, +8; bob: 5 for 1, +0; cy: 3 exact, +6.
    state = play(last_round_of_game((10, 5, 7), (4, 1, 3)), *LAST_MOVES)
    result = GAME.outcome(state)
    assert [(s.player, s.score, s.place) for s in result.standings] == [
        ("ann", 18, 1), ("cy", 13, 2), ("bob", 5, 3)]
    assert result.winners == ("ann",)
    assert to_move(state) is None and GAME.legal_moves(state) == ()


def test_end_a_tie_is_shared():
    """R11: a final tie is not broken: tied players share the place; the tricks are
    reported for information."""
    state = play(last_round_of_game((10, 20, 12), (4, 0, 3)), *LAST_MOVES)
    # ann +8 = 18, bob +0 = 20, cy +6 = 18.
    result = GAME.outcome(state)
    assert [(s.player, s.score, s.place) for s in result.standings] == [
        ("bob", 20, 1), ("ann", 18, 2), ("cy", 18, 2)]
    assert result.winners == ("bob",)
    assert ("ann and cy tie on 18 points and share 2nd place: a tie is not broken "
            f"({cards.NEXT_HAND})") in result.details

    state = play(last_round_of_game((12, 20, 10), (4, 0, 3)), *LAST_MOVES)  # 20, 20, 16
    result = GAME.outcome(state)
    assert [(s.player, s.place) for s in result.standings] == [
        ("ann", 1), ("bob", 1), ("cy", 3)]
    assert result.winners == ("ann", "bob")
    assert any(d.startswith("tricks won over the game (information only)") for d in result.details)


def test_end_details_explain_every_trick_and_every_hand():
    """R14: the result explains every trick of every hand and every hand's scoring."""
    log = match.simulate(GAME.id, NAMES[:3], "details")
    details = log.result.details
    assert sum(d.startswith(f"hand {h}, trick ") for d in details for h in (1, 2, 3)) == 36
    assert sum(" bid " in d and " took " in d for d in details) == 9
    first = next(d for d in details if d.startswith("hand 1, trick 1 "))
    assert re.fullmatch(
        r"hand 1, trick 1 \(round 1, location 1, black\): \w+ led [POGB]\d+, then \w+ [POGB]\d+, "
        r"\w+ [POGB]\d+; \w+ wins with [POGB]\d+, the highest (trump|\w+, the suit \w+ led)",
        first,
    )


# =====================================================================================
# The rules oracle: whole games replayed from the text, not from the engine
# =====================================================================================


def oracle_legal(hand: set[str], board: list, follow: list) -> set[str]:
    """TRICK PLACEMENT: an empty location; its follow suit if the hand holds one."""
    out = set()
    for c in hand:
        for loc, there in enumerate(board):
            if there is None and (
                follow[loc] is None or c[0] == follow[loc]
                or not any(x[0] == follow[loc] for x in hand)
            ):
                out.add(f"{c}-{loc + 1}")
    return out


def oracle_winner(cards: list[str], lead: int) -> int:
    """TRICK RESOLUTION: the highest pink; else the highest of the lead player's suit."""
    rank = lambda p: int(cards[p][1:])  # noqa: E731
    pinks = [p for p, c in enumerate(cards) if c[0] == "P"]
    if pinks:
        return max(pinks, key=rank)
    return max((p for p, c in enumerate(cards) if c[0] == cards[lead][0]), key=rank)


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", ["o1", "o2", "o3"])
def test_whole_games_agree_with_the_rules_oracle(players, locations, seed):
    """Every section at once: the deal, the turn order, the legal placements, the
    resolution, the start players, the scoring and the final ranking of random
    games agree with an oracle written from the rule text."""
    rng = random.Random(f"{seed}/{players}/{locations}")
    state = GAME.setup({"locations": locations}, NAMES[:players], seed)
    start = Chance(seed, "start").below(players)
    scores = [0] * players
    for hand_no in range(1, players + 1):
        deal = shuffled(seed, f"deal/{hand_no}", deck_by_hand(players))
        hands = [set(deal[12 * p: 12 * p + 12]) for p in range(players)]
        bids = []
        for k in range(players):
            assert GAME.to_move(state) == (start + k) % players
            bid = (rng.randrange(5), rng.random() < 0.4)
            bids.append(bid)
            state = play(state, f"{bid[0]}{'+' * bid[1]}")
        bids = bids[players - start:] + bids[:players - start]  # seat order
        tricks = [0] * players
        for _round in range(12 // locations):
            boards = [[None] * locations for _ in range(players)]
            follow = [None] * locations
            for k in range(players * locations):
                p = (start + k) % players
                assert GAME.to_move(state) == p
                expected = oracle_legal(hands[p], boards[p], follow)
                assert set(legal(state)) == expected
                text = rng.choice(sorted(expected))
                c, loc = text.split("-")
                loc = int(loc) - 1
                hands[p].remove(c)
                boards[p][loc] = c
                follow[loc] = follow[loc] or c[0]
                state = play(state, text)
            lead = start
            for loc in range(locations):
                lead = oracle_winner([boards[p][loc] for p in range(players)], lead)
                tricks[lead] += 1
            start = lead
            v = GAME.view(state, None)
            assert v.start_player == NAMES[start]
            if v.hand == hand_no and v.phase != "over":
                assert list(v.tricks) == tricks
        for p in range(players):
            bid, spare = bids[p]
            if spare:
                scores[p] += tricks[p] if tricks[p] in (bid, bid + 1) else 0
            else:
                scores[p] += 2 * tricks[p] if tricks[p] == bid else 0
        assert list(GAME.view(state, None).scores) == scores
        assert list(GAME.view(state, None).results[-1].tricks) == tricks
    result = GAME.outcome(state)
    best = max(scores)
    assert {s.player for s in result.standings if s.place == 1} == {
        NAMES[p] for p in range(players) if scores[p] == best}
    assert set(result.winners) == {NAMES[p] for p in range(players) if scores[p] == best}
    for s in result.standings:
        assert s.place == 1 + sum(x > s.score for x in scores)


# =====================================================================================
# What each player sees (notation: "What each player sees")
# =====================================================================================


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


@pytest.mark.parametrize("players", [3, 4])
def test_view_shows_your_own_hand_and_never_another(players):
    """Hidden information: a player's view holds their hand, every placed card, all
    bids and scores, and how many cards the others hold - never their cards."""
    state = GAME.setup({"locations": 3}, NAMES[:players], "view")
    state = play(state, *["2+"] * players)
    for _ in range(players + 1):  # a few cards on the boards
        state = GAME.apply(state, GAME.legal_moves(state)[-1])
    placed = {c for board in GAME.view(state, None).boards for c in board if c}
    assert len(placed) == players + 1
    for seat in range(players):
        v = GAME.view(state, seat)
        own = set(names(state.hands[seat]))
        assert v.my_cards == tuple(names(state.hands[seat]))
        assert v.cards_in_hand == tuple(len(h) for h in state.hands)
        assert v.bids == ("2+",) * players
        seen = cards_in(msgspec.json.encode(v).decode())
        assert seen == own | placed, "a view shows only your hand and the placed cards"
        for style in (Style(unicode=True), Style(unicode=False)):
            assert cards_in(GAME.render(v, style)) == own | placed
    spectator = GAME.view(state, None)
    assert spectator.my_cards is None
    assert cards_in(msgspec.json.encode(spectator).decode()) == placed
    assert cards_in(GAME.render(spectator, Style(unicode=False))) == placed


def test_view_is_unchanged_when_the_hidden_hands_are_redealt():
    """The view of a seat does not depend on the other hands (the conformance check
    in small): re-dealing the others leaves it as it was, and their hand sizes."""
    state = play(GAME.setup({"locations": 3}, NAMES, "redeal"), "1", "2", "3", "4")
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    for seat in (None, 0, 1, 2, 3):
        other = GAME.redeal(state, seat, "x")
        assert GAME.view(other, seat) == GAME.view(state, seat)
        if seat is not None:
            assert other.hands[seat] == state.hands[seat]
    assert GAME.redeal(state, None, "x").hands != state.hands


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
def test_a_consistent_state_gives_the_view_back(players, locations):
    """rules.consistent: from any view (every seat's and the spectator's) at
    random positions of random games, a state that gives the same view back,
    the same for the same seed; the hands the viewer cannot see are dealt
    from the cards of the hand that the view does not show, the viewer to
    move has the same legal moves, and the rules carry on from it to the end."""
    deck = sorted(rules.deck(players))
    for k in range(2):
        log = match.simulate(GAME.id, NAMES[:players], f"consistent/{k}", {"locations": locations})
        states = match.replay(log, keep=True).states
        rng = random.Random(f"consistent/{players}/{locations}/{k}")
        for state in [states[0], states[-1], *rng.sample(states, 10)]:
            for seat in (None, *range(players)):
                v = GAME.view(state, seat)
                for seed in ("a", "b", "reader"):
                    again = GAME.consistent(v, log.params, seed)
                    assert GAME.view(again, seat) == v, (seat, seed)
                    assert GAME.consistent(v, log.params, seed) == again
                    if seat is not None:
                        assert again.hands[seat] == state.hands[seat]
                    if GAME.to_move(again) is None:
                        continue
                    in_play = [c for h in again.hands for c in h]
                    in_play += [c for b in again.boards for c in b if c >= 0]
                    in_play += [c for r in again.record if r[0] == again.hand_no for c in r[5:]]
                    assert sorted(in_play) == deck
                    if seat == GAME.to_move(state):
                        assert GAME.legal_moves(again) == GAME.legal_moves(state)
        # The rules carry on from a consistent state, to the end of the game.
        state = GAME.consistent(GAME.view(rng.choice(states[:-1]), None), log.params, "on")
        while GAME.to_move(state) is not None:
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        assert GAME.outcome(state) is not None


def test_view_keeps_the_last_hands_tricks_in_sight_until_the_next_trick():
    """Rendering: after resolution, who won each trick and why - also across the
    deal of the next hand."""
    state = round_start(*LAST_ROUND, start=BOB, round_no=3, bids=(1, 1, 1))
    state = play(state, *LAST_MOVES)
    v = GAME.view(state, ANN)
    assert v.hand == 2 and [t.number for t in v.tricks_played] == [10, 11, 12]
    text = GAME.render(v, Style(unicode=False))
    assert "Tricks of hand 1:" in text and "hand 1: ann 1/0 = 0, bob 1/1 = 2, cy 1/2 = 0" in text


def test_render_shows_boards_follow_suits_bids_tricks_and_scores():
    """Rendering: each board with its cards per location and each location's follow
    suit; bids, tricks won, scores; in pure ASCII when asked."""
    state = play(round_start(*ROUND, bids=(1, 0, 2), spares=(True, False, False),
                             scores=(7, 0, 3)), "B5-2", "G9-1")
    text = GAME.render(GAME.view(state, CY), Style(unicode=False))
    assert text.isascii()
    rows = {line.split("|")[1].strip(" *+"): line for line in text.splitlines()
            if line.startswith("|")}
    assert [c.strip() for c in rows["ann"].split("|")[2:9]] == ["", "B5", "", "1+", "0", "7", "2"]
    assert [c.strip() for c in rows["bob"].split("|")[2:9]] == ["G9", "", "", "0", "0", "0", "2"]
    assert [c.strip() for c in rows["follow"].split("|")[2:5]] == ["green (bob)", "blue (ann)", ""]
    assert "cy's hand: O5 G3 B7" in text
    assert "| * cy " in text and "|  +ann " in text
    unicode = GAME.render(GAME.view(state, CY), Style(unicode=True, color=True))
    assert "│" in unicode and "\x1b[" in unicode


# =====================================================================================
# Notation
# =====================================================================================


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("G7-2", "G7-2"), ("g7-2", "G7-2"), ("  G7 2 ", "G7-2"), ("green 7 on 2", "G7-2"),
        ("G7@2", "G7-2"), ("g7:2", "G7-2"), ("G7>2", "G7-2"), ("g 7 / 2", "G7-2"),
        ("g7 red", "G7-2"), ("G7RED", "G7-2"), ("green 7 to red", "G7-2"),
        ("pink 12 blue", "P12-4"), ("B10, 3", "B10-3"), ("orange 1 black", "O1-1"),
        ("3", "3"), ("bid 3", "3"), ("3+", "3+"), ("3 + spare", "3+"), ("3+1", "3+"),
        ("3/4", "3+"), ("3-4", "3+"), ("3 or 4", "3+"), ("BID 0+", "0+"), ("12", "12"),
        ("3spare", "3+"), ("07", "7"),
    ],
)
def test_notation_tolerant_input(typed, canonical):
    """Notation: case, spaces, separators and full words are forgiven."""
    assert GAME.format_move(None, GAME.parse_move(None, typed)) == canonical


@pytest.mark.parametrize(
    ("typed", "mentions"),
    [
        ("", "G7-2"), ("bid", "3+"), ("Z7-2", "G7-2"), ("G13-1", "rank 13"),
        ("G0-1", "rank 0"), ("G72", "G7-2"), ("G7-5", "no location 5"), ("G7-0", "no location 0"),
        ("3/5", "3/4"), ("G7-2-1", "G7-2"), ("3++", "3+"), ("purple 3", "G7-2"),
    ],
)
def test_notation_garbage_is_a_notation_error(typed, mentions):
    """Notation: text that is not a move is refused as such, in one line."""
    with pytest.raises(NotationError) as info:
        GAME.parse_move(None, typed)
    assert not isinstance(info.value, IllegalMoveError)
    assert mentions in str(info.value) and "\n" not in str(info.value)


def test_notation_every_legal_move_round_trips():
    state = GAME.setup({"locations": 4}, NAMES, "notation")
    seen = 0
    while GAME.to_move(state) is not None and seen < 120:
        for m in GAME.legal_moves(state):
            text = GAME.format_move(state, m)
            assert GAME.parse_move(state, text) == m
            assert " " not in text
        state = GAME.apply(state, GAME.legal_moves(state)[seen % len(GAME.legal_moves(state))])
        seen += 1


def test_notation_a_card_typed_without_a_location_is_recorded_with_it():
    """Notation: cy's O5 may go neither on bob's green location 1 nor on ann's blue
    location 2 (he holds both suits), so 'o5' is recorded as O5-3. His B7 may go on
    2 or 3: written as typed, and refused as ambiguous."""
    state = play(round_start(*ROUND), "B5-2", "G9-1")
    assert GAME.format_move(state, GAME.parse_move(state, "o5")) == "O5-3"
    assert GAME.format_move(state, GAME.parse_move(state, "b7")) == "B7"
    with pytest.raises(AmbiguousMoveError):
        play(state, "b7")
    assert GAME.view(play(state, "o5"), None).boards[CY] == (None, None, "O5")


NOTATION_BLOCKS = [b for b in notation_blocks("moves") if b[0] == "time-palatrix.md"]


def test_notation_document_has_examples_for_both_sides():
    bodies = [body for _, _, body in NOTATION_BLOCKS]
    assert len(bodies) == 2 and "locations=4" in bodies[1]


@pytest.mark.parametrize(("doc", "line", "body"), NOTATION_BLOCKS, ids=lambda v: str(v)[:20])
def test_notation_document_examples_replay(doc, line, body):
    """Every ```moves block of notation/time-palatrix.md replays as documented."""
    replay_moves_block(doc, line, body)


def test_notation_document_sample_hand_scores_as_described():
    """The sample hand of the notation document: ann 12, bob 4, cy 0 (the text's
    own arithmetic, checked against the engine)."""
    _, _, body = NOTATION_BLOCKS[0]
    moves = []
    for raw in body.splitlines()[1:]:
        text = raw.split("#", 1)[0].strip()
        if text and not (text[0] in "x?=" and text[1:2] == " "):
            moves.append(text.partition("->")[0].strip())
    log = match.extend(match.new_log(GAME.id, NAMES[:3], "105"), moves)
    state = match.validate(log).state
    assert GAME.view(state, None).results[0].points == (12, 4, 0)
    assert GAME.view(state, None).bids == ("2+", "0", "0+")


# =====================================================================================
# Resignation and abandonment (notation/time-palatrix.md; README.md, Events)
# =====================================================================================


def sample_log(moves: int):
    """The sample game of the notation document (seed 105), its first ``moves``
    moves played through the log."""
    _, _, body = NOTATION_BLOCKS[0]
    played = []
    for raw in body.splitlines()[1:]:
        text = raw.split("#", 1)[0].strip()
        if text and not (text[0] in "x?=" and text[1:2] == " "):
            played.append(text.partition("->")[0].strip())
    return match.extend(match.new_log(GAME.id, NAMES[:3], "105"), played[:moves])


def resigned(log, who: str):
    """The result of the game when ``who`` resigns now, through the log."""
    done = match.validate(match.extend(log, ["@resign"], as_player=who))
    assert done.seat() is None and done.legal() == ()
    return done.outcome


def ranking(result) -> list[tuple[str, int, int]]:
    return [(s.player, s.score, s.place) for s in result.standings]


def test_resigning_mid_hand_the_hand_in_play_scores_nothing():
    """The document's first example: after move 15 the first round is resolved
    (ann 2 tricks, bob 1), but no hand is scored, so everybody has 0: the two
    others share 1st place, both winners, and ann is ranked 3rd."""
    log = sample_log(15)
    assert GAME.view(match.validate(log).state, None).tricks == (2, 1, 0)
    result = resigned(log, "ann")
    assert ranking(result) == [("bob", 0, 1), ("cy", 0, 1), ("ann", 0, 3)]
    assert result.winners == ("bob", "cy")
    assert result.details == (
        "hand 1 of 3 in play: bids ann 6, bob 3+, cy 3; tricks ann 2, bob 1, cy 0",
        "ann resigned: ranked last",
    )


def test_resigning_ranks_the_player_last_whatever_their_score():
    """The document's second example: after hand 1 (ann 12, bob 4, cy 0) ann
    resigns: bob 1st and the winner, cy 2nd, ann 3rd with her 12 points. The
    details are the standing's lines, then the resignation."""
    log = sample_log(39)
    result = resigned(log, "ann")
    assert ranking(result) == [("bob", 4, 1), ("cy", 0, 2), ("ann", 12, 3)]
    assert result.winners == ("bob",)
    assert result.details == (
        "hand 1: ann bid 6 and took 6 tricks - exact, 2 points a trick: 12 points",
        "hand 1: bob bid 3+ and took 4 tricks - within the spare chip, 1 point a trick: 4 points",
        "hand 1: cy bid 3 and took 2 tricks - missed: 0 points",
        "hand 2 of 3 in play: bids ann -, bob -, cy -; tricks ann 0, bob 0, cy 0",
        "ann resigned: ranked last",
    )


def test_resigning_out_of_turn_ends_the_game_for_everyone():
    """A player resigns whenever the game is not over, in turn or not (ann is
    to move, cy resigns); then no move and no other resignation is taken."""
    log = sample_log(39)
    assert match.validate(log).to_move() == "ann"
    log = match.extend(log, ["@resign"], as_player="cy")
    assert ranking(match.validate(log).outcome) == [("ann", 12, 1), ("bob", 4, 2), ("cy", 0, 3)]
    with pytest.raises(IllegalMoveError, match="already over"):
        match.extend(log, ["2+"], as_player="ann")
    with pytest.raises(IllegalMoveError, match="already over"):
        match.extend(log, ["@resign"], as_player="bob")


def test_abandoning_by_agreement_has_no_result():
    """An abandonment takes effect once both other players accept: no
    standings, no winner."""
    log = match.extend(sample_log(20), ["@abandon"], as_player="bob")
    log = match.extend(log, ["@accept"], as_player="ann")
    assert match.validate(log).outcome is None, "one answer of two is not enough"
    log = match.extend(log, ["@accept"], as_player="cy")
    result = match.validate(log).outcome
    assert result is not None and result.standings == () and result.winners == ()
    assert result.details == ("abandoned by agreement: no result",)


# =====================================================================================
# Conformance, examples and the command line
# =====================================================================================


@pytest.mark.parametrize("params", [{}, {"locations": 4}], ids=["3-locations", "4-locations"])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", volume.seeds(1, 3))
def test_conformance(players, params, seed):
    play_and_check(GAME.id, players, params, seed)


def test_examples_validate():
    folder = Path(__file__).resolve().parent.parent / "examples" / "time-palatrix"
    paths = sorted(folder.glob("*.json"))
    assert len(paths) >= 3
    seen = set()
    for path in paths:
        log = logmod.decode(path.read_bytes(), str(path))
        assert log.game == GAME.id and log.result is not None
        match.validate(log)
        seen.add((len(log.players), log.params["locations"]))
    assert {(3, 3), (4, 3), (4, 4)} <= seen


def test_cli_a_four_player_game_to_the_end(tmp_path):
    """Done when: a four-player game can be played to the end through the CLI."""
    runner = CliRunner()
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["new", GAME.id, "--players", "ann,bob,cy,dee", "--seed", "cli",
                                 "-o", str(path)])
    assert result.exit_code == 0, result.output
    moves = 0
    while True:
        result = runner.invoke(app, ["legal", str(path), "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        if data["player"] is None:
            break
        move = data["moves"][moves % len(data["moves"])]
        if moves == 5:  # a tolerant spelling, as a player would type it
            move = move.replace("-", " on ")
        result = runner.invoke(app, ["extend", str(path), move, "--as", data["player"], "--ascii"])
        assert result.exit_code == 0, result.output
        moves += 1
    assert moves == 208
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0 and "over" in result.stdout
    result = runner.invoke(app, ["show", str(path), "--ascii"])
    assert result.exit_code == 0 and "Game over" in result.stdout


def test_cli_show_as_a_player_reveals_only_their_hand(tmp_path):
    runner = CliRunner()
    path = tmp_path / "game.json"
    runner.invoke(app, ["new", GAME.id, "--players", "ann,bob,cy", "--seed", "105", "-o", str(path)])
    result = runner.invoke(app, ["show", str(path), "--as", "bob", "--ascii"])
    assert result.exit_code == 0, result.output
    state = GAME.setup({"locations": 3}, NAMES[:3], "105")
    assert cards_in(result.stdout) == set(names(state.hands[BOB]))
    result = runner.invoke(app, ["show", str(path), "--public", "--ascii"])
    assert cards_in(result.stdout) == set()


def test_cli_an_illegal_placement_is_one_line_naming_the_rule(tmp_path):
    runner = CliRunner()
    path = tmp_path / "game.json"
    runner.invoke(app, ["new", GAME.id, "--players", "ann,bob,cy", "--seed", "105", "-o", str(path)])
    before = path.read_bytes()
    result = runner.invoke(app, ["extend", str(path), "6", "3+", "3", "B9-3", "G8-1", "O7-1"])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "Error: move 6 (cy) 'O7-1': the follow suit of location 1 (black) is green (set by "
        "bob's G8) and cy holds green: follow it there or place on another empty location "
        "(Time Palatrix: Trick Placement)"
    )
    assert path.read_bytes() == before
