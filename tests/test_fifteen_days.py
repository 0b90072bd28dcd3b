"""15 Days: scenario tests, one section of the rule text at a time (DATC style).

Each test names the section heading of ``shared/rules/fifteen-days.txt`` it
checks ("Play cards", "Animal Tokens", ...) and, where the text is silent, the
ruling of ``notation/fifteen-days.md`` (R1, R2, ...). Expected values are
worked out by hand from the rules and written into the tests.

Positions are built with :func:`position` from text: cards are written as in
the notation (``Su4``; a Spring card's back with a slash, ``Sp4/Au``), a
corner as its season and values in any order with a wild marked ``*``
(``"Su 1 2 4*"``), draw piles and market columns as lists of cards.
"""

from __future__ import annotations

import json
import sys
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
from adjudicator.errors import AmbiguousMoveError, IllegalMoveError, MoveError, NotationError
from adjudicator.games.fifteen_days import GAME as fd, rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_conformance import play_and_check  # noqa: E402


def test_registered() -> None:
    assert games.GAMES[fd.id] is fd


NAMES = ("ann", "bob", "cy", "dee")
SEASONS = ("Sp", "Su", "Au", "Wi")
SP, SU, AU, WI = range(4)
OTTER, FROG, SQUIRREL, RABBIT = range(4)  # the token of Spring, Summer, Autumn, Winter
CORNER = {"TL": 0, "TR": 1, "BL": 2, "BR": 3}
DEFAULTS = {"first-player": "drawn", "feathers": "one-per-turn", "wild": "any"}


# --- vocabulary ----------------------------------------------------------------------


def code(text: str) -> int:
    """'Su4' -> the card as dealt (back * 24 + kind); a Spring card has a Summer
    back unless written 'Sp4/Au'."""
    face, _, back = text.partition("/")
    season = SEASONS.index(face[:2])
    b = SEASONS.index(back) if back else (SU if season == SP else season)
    return b * 24 + season * 6 + int(face[2:]) - 1


def kind(text: str) -> int:
    return code(text) % 24


def name(c: int) -> str:
    c %= 24
    return f"{SEASONS[c // 6]}{c % 6 + 1}"


def cards(text: str) -> list[int]:
    return [code(t) for t in text.split()]


def corner(spec: str) -> tuple[int, int, int]:
    """'Su 1 2 4*' -> (season, mask of real values, bit of the wild)."""
    season, *values = spec.split()
    mask = wild = 0
    for v in values:
        bit = 1 << int(v.rstrip("*")) - 1
        if v.endswith("*"):
            wild = bit
        else:
            mask |= bit
    return (SEASONS.index(season), mask, wild)


def board(**corners: str) -> tuple[tuple[int, int, int], ...]:
    out = [(-1, 0, 0)] * 4
    for where, spec in corners.items():
        out[CORNER[where]] = corner(spec)
    return tuple(out)


PILE1 = "Wi6 Wi5 Wi4 Wi3 Wi2 Wi1 Wi6 Wi5 Wi4 Wi3"  # top first
PILE2 = "Au1 Au2 Au3 Au4 Au5 Au6 Au1 Au2 Au3 Au4"
MARKET = ("Sp1 Sp2 Sp3", "Sp4 Sp5 Sp6", "Su1 Su2 Su3")  # bottom to top


def position(
    players: int = 3,
    *,
    seat: int = 0,
    hands: dict[int, str] | None = None,
    boards: dict[int, tuple] | None = None,
    piles: tuple[str, str] = (PILE1, PILE2),
    market: tuple[str, str, str] = MARKET,
    discard: str = "",
    animals: dict[int, int] | None = None,
    feathers: tuple[int, ...] | None = None,
    feather_supply: int | None = None,
    wilds: int = 8,
    rule: str = "one-per-turn",
    wild: str = "any",
    **fields,
):
    """A position at the start of ``seat``'s turn (or as ``fields`` say)."""
    state = fd.setup({"first-player": "seat-0", "feathers": rule, "wild": wild},
                     NAMES[:players], "pos")
    hs = [()] * players
    for s, text in (hands or {}).items():
        hs[s] = tuple(sorted(cards(text)))
    bs = [board()] * players
    for s, b in (boards or {}).items():
        bs[s] = b
    an = [-1] * 4
    for season, s in (animals or {}).items():
        an[season] = s
    return msgspec.structs.replace(
        state,
        hands=tuple(hs),
        boards=tuple(bs),
        piles=tuple(tuple(reversed(cards(p))) for p in piles),
        market=tuple(tuple(cards(col)) for col in market),
        discard=tuple(cards(discard)),
        animals=tuple(an),
        feathers=feathers if feathers is not None else (1,) * players,
        feather_supply=feather_supply if feather_supply is not None else 5 - players,
        wild_supply=wilds,
        seat=seat,
        **fields,
    )


def play(state, *moves: str):
    for text in moves:
        state = fd.apply(state, fd.parse_move(state, text))
    return state


def refused(state, text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        fd.apply(state, fd.parse_move(state, text))
    return info.value


def legal(state) -> list[str]:
    return [fd.format_move(state, m) for m in fd.legal_moves(state)]


def hand(state, seat: int = 0) -> list[str]:
    return sorted((name(c) for c in state.hands[seat]), key=kind)


def pile(state, p: int) -> list[str]:
    """A draw pile, top first."""
    return [name(c) for c in reversed(state.piles[p])]


def column(state, i: int) -> list[str]:
    return [name(c) for c in state.market[i]]


def discards(state) -> list[str]:
    return [name(c) for c in state.discard]


def corners(state, seat: int = 0) -> dict[str, str]:
    """The board as corner -> 'Su 1 2 4*' (values ascending)."""
    out = {}
    for where, i in CORNER.items():
        season, mask, wild = state.boards[seat][i]
        if season >= 0:
            values = [f"{v + 1}{'*' if wild >> v & 1 else ''}" for v in range(6)
                      if (mask | wild) >> v & 1]
            out[where] = " ".join([SEASONS[season], *values])
    return out


# =====================================================================================
# Gameplay: the cards and the set-up (R1-R4)
# =====================================================================================


def test_gameplay_the_season_deck():
    """Gameplay: "90 Seasons cards. There are 24 Summer, 24 Autumn, 24 Winter, and 18
    Spring cards ... 30 Summer-backed, 30 Autumn-backed, 30 Winter-backed cards. There
    are no Spring-backed cards." R1: values 1-6; each back group is its own season 1-6
    four times and Spring 1-6 once, so a card matches its back 4 times in 5."""
    assert len(rules.DECK) == 90
    faces = Counter(c % 24 // 6 for c in rules.DECK)
    assert faces == {SP: 18, SU: 24, AU: 24, WI: 24}
    backs = Counter(c // 24 for c in rules.DECK)
    assert backs == {SU: 30, AU: 30, WI: 30}
    for back in (SU, AU, WI):
        group = Counter(name(c) for c in rules.DECK if c // 24 == back)
        own = SEASONS[back]
        assert group == Counter([f"{own}{v}" for v in range(1, 7)] * 4
                                + [f"Sp{v}" for v in range(1, 7)])
        assert sum(1 for c in rules.DECK if c // 24 == back and c % 24 // 6 == back) == 24


def all_cards(state) -> Counter:
    held = [c for h in state.hands for c in h] + [c for p in state.piles for c in p]
    held += [c for col in state.market for c in col] + list(state.discard) + list(state.removed)
    return Counter(held)


@pytest.mark.parametrize(("players", "pile_sizes"), [(2, (31, 31)), (3, (38, 37)), (4, (37, 36))])
@pytest.mark.parametrize("seed", ["0", "1", "x"])
def test_gameplay_setup(players, pile_sizes, seed):
    """R3: each player starts with 2 Season cards and 1 feather; the market is three
    columns of three face-up cards; the rest is split into two draw piles (the first
    half takes the odd card); 8 wilds and 5 - players feathers in the supply, the four
    animals in the supply. 2 players: 75 - 9 - 4 = 62 cards, 31 per pile; 3 players:
    90 - 9 - 6 = 75, 38 and 37; 4 players: 90 - 9 - 8 = 73, 37 and 36."""
    state = fd.setup(DEFAULTS, NAMES[:players], seed)
    assert all_cards(state) == Counter(rules.DECK), "every card is somewhere, once"
    assert [len(h) for h in state.hands] == [2] * players
    assert [len(c) for c in state.market] == [3, 3, 3]
    assert tuple(len(p) for p in state.piles) == pile_sizes
    assert state.feathers == (1,) * players and state.feather_supply == 5 - players
    assert state.wild_supply == 8 and state.animals == (-1, -1, -1, -1)
    assert state.discard == () and all(b == board() for b in state.boards)
    assert state.phase == "act" and state.actions == 0


@pytest.mark.parametrize("seed", ["0", "1", "2", "x"])
def test_gameplay_two_players_remove_five_of_each_back(seed):
    """Gameplay (2 players): "remove 5 Summer-, 5 Autumn- and 5 Winter-backed cards",
    unseen (R3: the first five of each back in the shuffled deck)."""
    state = fd.setup(DEFAULTS, NAMES[:2], seed)
    assert Counter(c // 24 for c in state.removed) == {SU: 5, AU: 5, WI: 5}
    deck = Chance(seed, "deck").shuffle(rules.DECK)
    expected = []
    for back in (SU, AU, WI):
        expected += [c for c in deck if c // 24 == back][:5]
    assert sorted(state.removed) == sorted(expected)
    for players in (3, 4):
        assert fd.setup(DEFAULTS, NAMES[:players], seed).removed == ()


def test_gameplay_the_deal_follows_the_documented_order():
    """R3 / notation "Chance": shuffle with label 'deck'; the first 9 cards make the
    market (3 per column, the first dealt at the bottom), the next go one at a time to
    the players in seat order, and the rest is split in two halves, each half's first
    card on top."""
    state = fd.setup({**DEFAULTS, "first-player": "seat-0"}, NAMES[:3], "doc")
    deck = Chance("doc", "deck").shuffle(rules.DECK)
    assert state.market == (tuple(deck[0:3]), tuple(deck[3:6]), tuple(deck[6:9]))
    assert [sorted(h) for h in state.hands] == [
        sorted([deck[9], deck[12]]), sorted([deck[10], deck[13]]), sorted([deck[11], deck[14]])
    ]
    rest = deck[15:]
    assert list(reversed(state.piles[0])) == rest[:38]
    assert list(reversed(state.piles[1])) == rest[38:]


def test_gameplay_starting_player_is_drawn_from_the_seed():
    """R4: the starting player is random (first-player=drawn, from the seed's 'first'
    stream); seat-0 makes the first listed player start. Play then goes in seat order."""
    firsts = {fd.setup(DEFAULTS, NAMES, str(i)).seat for i in range(40)}
    assert firsts == {0, 1, 2, 3}
    for i in range(10):
        s = fd.setup(DEFAULTS, NAMES[:3], str(i))
        assert s.seat == s.first == Chance(str(i), "first").below(3)
        assert fd.setup(DEFAULTS, NAMES[:3], str(i)) == s
        assert fd.setup({**DEFAULTS, "first-player": "seat-0"}, NAMES[:3], str(i)).seat == 0


def test_gameplay_turns_go_round_in_seat_order():
    """Gameplay: "you must take 2 actions"; then the next player in seat order, from
    the last seat back to seat 0."""
    state = position(3, seat=2, hands={2: "Su1"})
    state = play(state, "D1", "D1", "D2", "D2")
    assert state.seat == 0 and state.actions == 0
    assert len(state.hands[2]) == 5


# =====================================================================================
# Actions: take 2 face-down Season cards
# =====================================================================================


def test_draw_two_cards_one_from_each_pile():
    """Take 2 face-down Season cards: "You can take from the same pile or one from each
    pile." D1 then D2 takes the top card of each pile; the action is over."""
    state = position(hands={0: "Su1"})
    assert "D1" in legal(state) and "D2" in legal(state)
    state = play(state, "D1")
    assert legal(state) == ["D1", "D2"], "the second card must be drawn"
    state = play(state, "D2")
    assert hand(state) == ["Su1", "Au1", "Wi6"]
    assert pile(state, 0)[:1] == ["Wi5"] and pile(state, 1)[:1] == ["Au2"]
    assert state.actions == 1 and state.phase == "act"


def test_draw_two_cards_from_the_same_pile():
    """Take 2 face-down Season cards: both from pile 1."""
    state = play(position(), "D1", "D1")
    assert hand(state) == ["Wi5", "Wi6"]
    assert len(state.piles[0]) == 8 and len(state.piles[1]) == 10


def test_draw_refused_from_an_empty_pile():
    """Take 2 face-down Season cards: a card comes from a pile that has one."""
    state = position(piles=("", PILE2))
    assert refused(state, "D1").clause == "15 Days: Take 2 face-down Season cards"
    assert not any(t.endswith("D1") for t in legal(state))


def test_draw_with_the_squirrel_takes_a_third_card():
    """Squirrel (brown token) power: "You can take 3 face-down cards instead of 2."
    R6: the third card is optional: after two, D1, D2 or E."""
    state = position(animals={AU: 0})
    state = play(state, "D1", "D2")
    assert legal(state) == ["D1", "D2", "E"]
    three = play(state, "D1")
    assert hand(three) == ["Au1", "Wi5", "Wi6"] and three.actions == 1
    two = play(state, "E")
    assert hand(two) == ["Au1", "Wi6"] and two.actions == 1


def test_draw_without_the_squirrel_cannot_take_a_third_card():
    """Take 2 face-down Season cards: two cards, no more, and no E before two."""
    state = play(position(), "D1")
    assert refused(state, "E").clause == "15 Days: Take 2 face-down Season cards"
    state = play(state, "D1")
    assert state.actions == 1 and len(state.hands[0]) == 2
    # The next D1 begins the second action: it draws, it is not a third card.
    after = play(state, "D1")
    assert after.actions == 1 and after.phase == "draw" and after.count == 1


def test_draw_with_a_feather_for_the_squirrel():
    """Feather Tokens: "a player may discard a Feather token to use the power of one
    animal token ... for the next action": FD1 spends it (back to the supply, R13) and
    the draw may take 3 cards."""
    state = position(feathers=(1, 0, 0), feather_supply=1)
    state = play(state, "FD1")
    assert state.feathers == (0, 0, 0) and state.feather_supply == 2
    state = play(state, "D1")
    assert "E" in legal(state)
    state = play(state, "D2")
    assert hand(state) == ["Au1", "Wi5", "Wi6"]
    assert state.actions == 1


def test_draw_stops_when_both_piles_run_out():
    """R6: with a single card left in the piles the draw takes just that card."""
    state = position(piles=("Wi1", ""))
    state = play(state, "D1")
    assert hand(state) == ["Wi1"] and state.actions == 1


# =====================================================================================
# Actions: take 1 face-up Season card
# =====================================================================================


def test_take_the_top_card_of_a_column():
    """Take 1 face-up Season card: "Take 1 face-up card from either of the 3 columns";
    only the top card of a column can be taken (R7): column a is Sp1 Sp2 Sp3, Sp3 on
    top."""
    state = play(position(), "Ta")
    assert hand(state) == ["Sp3"]
    assert column(state, 0) == ["Sp1", "Sp2"]
    assert state.actions == 1


def test_take_the_top_card_of_the_discard_pile():
    """Take 1 face-up Season card: "... or the discard pile": its top card (Td)."""
    state = position(discard="Au1 Wi2")
    state = play(state, "Td")
    assert hand(state) == ["Wi2"] and discards(state) == ["Au1"]
    empty = play(position(), "D1", "D1")
    assert refused(empty, "Td").clause == "15 Days: Take 1 face-up Season card"


def test_take_the_last_card_rebuilds_the_column_pile_by_pile():
    """Take 1 face-up Season card: "If the last card of any column was taken, the player
    who took the last card rebuilds it up to 3 cards using the face-down draw piles in
    any order." R7: at once, choosing a pile for each card."""
    state = position(market=("Su5", "Sp4 Sp5 Sp6", "Su1 Su2 Su3"))
    state = play(state, "Ta")
    assert hand(state) == ["Su5"] and state.phase == "rebuild"
    assert legal(state) == ["R1", "R2"]
    state = play(state, "R2", "R1", "R2")
    assert column(state, 0) == ["Au1", "Wi6", "Au2"]  # the first card rebuilt at the bottom
    assert state.actions == 1 and state.phase == "act"
    assert pile(state, 0)[0] == "Wi5" and pile(state, 1)[0] == "Au3"


def test_take_from_an_empty_column_is_refused():
    state = position(market=("", "Sp4 Sp5 Sp6", "Su1 Su2 Su3"), piles=("", ""))
    assert refused(state, "Ta").clause == "15 Days: Take 1 face-up Season card"


def test_take_with_the_rabbit_takes_a_second_card():
    """Rabbit (purple token) power: "You can take 2 face-up cards instead of 1."
    R7: the second is optional."""
    state = position(animals={WI: 0}, discard="Au4")
    state = play(state, "Tc")
    assert legal(state) == ["Ta", "Tb", "Tc", "Td", "E"]
    two = play(state, "Td")
    assert hand(two) == ["Su3", "Au4"] and two.actions == 1
    one = play(state, "E")
    assert hand(one) == ["Su3"] and one.actions == 1


def test_take_with_the_rabbit_rebuilds_before_the_second_card():
    """Take 1 face-up Season card with the Rabbit: the emptied column is rebuilt first,
    and its new top card may be the second card taken."""
    state = position(animals={WI: 0}, market=("Su5", "Sp4 Sp5 Sp6", "Su1 Su2 Su3"))
    state = play(state, "Ta", "R1", "R1", "R1")
    assert column(state, 0) == ["Wi6", "Wi5", "Wi4"]
    assert state.phase == "take"
    state = play(state, "Ta")
    assert hand(state) == ["Su5", "Wi4"] and state.actions == 1


def test_take_with_a_feather_for_the_rabbit():
    """Feather Tokens: FTa spends a feather on the Rabbit for this take."""
    state = play(position(), "FTa")
    assert state.feathers[0] == 0 and state.feather_supply == 3
    state = play(state, "Ta")
    assert hand(state) == ["Sp2", "Sp3"] and state.actions == 1


def test_take_without_the_rabbit_takes_one_card():
    state = play(position(), "Ta")
    assert state.actions == 1
    assert refused(state, "E").clause == "15 Days: Actions"


# =====================================================================================
# Actions: take 1 wild card
# =====================================================================================

WILD_BOARD = board(TR="Su 1 2 3", TL="Au 6 5")


def test_wild_discard_two_matching_cards_then_place_it():
    """Take 1 wild card: "Discard 2 cards from your hand which are present on your board.
    Take a wild card from the supply. You then place that wild card in any Season, in
    place of a missing value." W, the two discards (the last on top of the discard
    pile), then the wild's place."""
    state = position(hands={0: "Su2 Au6 Wi1"}, boards={0: WILD_BOARD})
    assert "W" in legal(state)
    state = play(state, "W")
    assert legal(state) == ["XSu2", "XAu6"], "only cards present on the board"
    assert refused(state, "XWi1").clause == "15 Days: Take 1 wild card"
    state = play(state, "XAu6", "XSu2")
    assert discards(state) == ["Au6", "Su2"]
    # wild=any (the default): every missing value of Summer and Autumn, and any value
    # of Spring and Winter, new to the board, with the side of their free corner
    # (both sides have one); by card, L before R.
    assert legal(state) == (
        [f"WSp{v}{side}" for v in range(1, 7) for side in "LR"]
        + ["WSu4", "WSu5", "WSu6", "WAu1", "WAu2", "WAu3", "WAu4"]
        + [f"WWi{v}{side}" for v in range(1, 7) for side in "LR"]
    )
    state = play(state, "WSu5")
    assert corners(state) == {"TR": "Su 1 2 3 5*", "TL": "Au 5 6"}
    assert state.wild_supply == 7 and hand(state) == ["Wi1"] and state.actions == 1


def test_wild_both_discards_may_match_the_same_card():
    """R8: two Su2s both match the Su2 of the board."""
    state = position(hands={0: "Su2 Su2"}, boards={0: WILD_BOARD})
    state = play(state, "W", "XSu2", "XSu2", "WAu4")
    assert corners(state)["TL"] == "Au 4* 5 6" and hand(state) == []


def test_wild_needs_two_matching_cards():
    """Take 1 wild card: with one card matching the board, no wild."""
    state = position(hands={0: "Su2 Wi1 Wi2"}, boards={0: WILD_BOARD})
    assert "W" not in legal(state)
    assert refused(state, "W").clause == "15 Days: Take 1 wild card"


def test_wild_needs_a_wild_in_the_supply():
    state = position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}, wilds=0)
    assert "W" not in legal(state)
    assert refused(state, "W").clause == "15 Days: Take 1 wild card"


def test_wild_a_wild_on_the_board_is_not_a_card_to_match():
    """R8: the card matched must be a real card of the board, not a wild."""
    state = position(hands={0: "Su4 Su4"}, boards={0: board(TR="Su 1 2 3 4*")})
    assert "W" not in legal(state)


def test_wild_cannot_be_the_second_wild_of_a_season():
    """Take 1 wild card: "You cannot have 2 wild cards in a Season."""
    b = board(TR="Su 1 2 3 5*", TL="Au 6 5")
    state = play(position(hands={0: "Su2 Au6"}, boards={0: b}), "W", "XSu2", "XAu6")
    assert refused(state, "WSu6").clause == "15 Days: Take 1 wild card"
    assert not any(t.startswith("WSu") for t in legal(state))
    assert "WAu1" in legal(state)
    assert corners(play(state, "WAu1"))["TL"] == "Au 1* 5 6"


def test_wild_goes_on_a_missing_value_of_a_season_on_the_board():
    """Take 1 wild card: "in place of a missing value": not a value already there;
    with wild=board (rules version 1) not a season without a corner either (R8)."""
    state = play(position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}, wild="board"),
                 "W", "XSu2", "XAu6")
    assert refused(state, "WSu3").clause == "15 Days: Take 1 wild card"
    err = refused(state, "WWi3")
    assert err.clause == "15 Days: Take 1 wild card"
    assert str(err).startswith("no Winter on your board")
    assert refused(state, "WWi3L").clause == "15 Days: Take 1 wild card"
    assert legal(state) == ["WSu4", "WSu5", "WSu6", "WAu1", "WAu2", "WAu3", "WAu4"]


def test_wild_impossible_when_no_value_is_missing():
    """R8: every season on the board already has a wild or all six values, and (with
    wild=any) no corner is free: W refused."""
    b = board(TR="Su 1 2 3 4 5 6", TL="Au 6 5 1*")
    state = position(hands={0: "Su2 Au6"}, boards={0: b}, wild="board")
    assert "W" not in legal(state)
    assert refused(state, "W").clause == "15 Days: Take 1 wild card"
    # wild=any: a free corner takes the wild of a season new to the board.
    state = position(hands={0: "Su2 Au6"}, boards={0: b})
    assert "W" in legal(state)
    state = play(state, "W", "XSu2", "XAu6")
    assert legal(state) == [f"W{season}{v}{side}" for season in ("Sp", "Wi")
                            for v in range(1, 7) for side in "LR"]
    full = board(TR="Su 1 2 3 4 5 6", TL="Au 6 5 1*", BL="Wi 6 5 4*", BR="Sp 1 2 3 4 5 6")
    state = position(hands={0: "Su2 Au6"}, boards={0: full})
    assert "W" not in legal(state)
    assert refused(state, "W").clause == "15 Days: Take 1 wild card"


def test_wild_replaced_by_the_real_card_moves_to_another_missing_value():
    """Take 1 wild card: "In future Play cards actions, you can replace a wild card with
    the corresponding missing value. Then, move the wild card to replace another missing
    value." Su 1 2 3 5*: Su5 is the highest of the ascending corner: 1 card to pay; then
    the wild moves (here to Au4: the Autumn corner had no wild). With wild=board only
    to a season on the board."""
    state = position(hands={0: "Su5 Wi1 Wi2"}, boards={0: board(TR="Su 1 2 3 5*", TL="Au 6 5")},
                     wild="board")
    state = play(state, "PSu5")
    assert state.phase == "pay" and state.owe == 1
    state = play(state, "XWi1")
    assert corners(state)["TR"] == "Su 1 2 3 5"
    assert set(legal(state)) == {"WSu4", "WSu6", "WAu1", "WAu2", "WAu3", "WAu4"}
    state = play(state, "WAu4")
    assert corners(state) == {"TR": "Su 1 2 3 5", "TL": "Au 4* 5 6"}
    assert state.wild_supply == 8, "the moved wild is the same card: none taken"
    assert state.phase == "play" and hand(state) == ["Wi2"]


def test_wild_replaced_may_stay_in_its_own_season():
    """R11: the replaced wild may move to another missing value of its own season."""
    state = position(hands={0: "Su5 Wi1"}, boards={0: board(TR="Su 1 2 3 5*")})
    state = play(state, "PSu5", "XWi1", "WSu6")
    assert corners(state)["TR"] == "Su 1 2 3 5 6*"


def test_wild_replaced_with_nowhere_to_go_returns_to_the_supply():
    """R11: when no season without a wild misses a value, the wild goes back to the
    supply. Su5 is not the highest of Su 1 2 3 4 5* 6: it costs 2."""
    b = board(TR="Su 1 2 3 4 5* 6", TL="Au 6 5 4 3 2 1*", BL="Wi 6 5 4 3 2 1", BR="Sp 1 2*")
    state = position(hands={0: "Su5 Wi1 Wi2"}, boards={0: b}, wilds=4)
    state = play(state, "PSu5", "XWi1", "XWi2")
    assert corners(state)["TR"] == "Su 1 2 3 4 5 6"
    assert state.wild_supply == 5 and state.phase == "play"


def test_wild_placed_then_replaced_then_moved_in_one_turn():
    """Take 1 wild card, then Play cards: a wild placed in the first action can be
    replaced in the second ("future Play cards actions")."""
    state = position(hands={0: "Su2 Au6 Su4 Wi1"}, boards={0: WILD_BOARD})
    state = play(state, "W", "XSu2", "XAu6", "WSu4")
    assert corners(state)["TR"] == "Su 1 2 3 4*"
    state = play(state, "PSu4", "XWi1", "WAu1", "E")
    assert corners(state) == {"TR": "Su 1 2 3 4", "TL": "Au 1* 5 6"}
    assert state.seat == 1


# --- the parameter wild: "in any Season" (any, the default) or a season on the board ---


def test_wild_any_opens_a_season_new_to_the_board():
    """Take 1 wild card: "You then place that wild card in any Season, in place of a
    missing value" (wild=any, R8): Winter is not on ann's board, so every Winter value
    is missing; the wild opens a corner for Winter as a first card would (R9), the side
    said when both sides have a free corner, the top corner of the side first."""
    state = play(position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}), "W", "XSu2", "XAu6")
    with pytest.raises(AmbiguousMoveError) as info:
        fd.apply(state, fd.parse_move(state, "wild winter 3"))
    assert info.value.clause == "15 Days: Take 1 wild card"
    assert "WWi3L or WWi3R" in str(info.value)
    assert fd.format_move(state, fd.parse_move(state, "wild winter 3 right")) == "WWi3R"
    after = play(state, "WWi3R")
    # Summer holds the top-right corner: Winter takes the bottom-right one.
    assert corners(after) == {"TL": "Au 5 6", "TR": "Su 1 2 3", "BR": "Wi 3*"}
    assert after.wild_supply == 7 and after.actions == 1 and after.phase == "act"
    after = play(state, "WWi3L")
    assert corners(after) == {"TL": "Au 5 6", "TR": "Su 1 2 3", "BL": "Wi 3*"}
    # wild=board: the same position refuses it.
    board_rule = play(position(hands={0: "Su2 Au6"}, boards={0: WILD_BOARD}, wild="board"),
                      "W", "XSu2", "XAu6")
    assert refused(board_rule, "WWi3R").clause == "15 Days: Take 1 wild card"


def test_wild_any_side_not_written_when_only_one_side_is_free():
    """R8, R9: with one free corner the side is no choice: not written; typed anyway it
    is checked (the other side is refused) and dropped, as for a card played."""
    b = board(TL="Au 6 5", TR="Su 1 2 3", BL="Wi 1 2")
    state = play(position(hands={0: "Su2 Au6"}, boards={0: b}), "W", "XSu2", "XAu6")
    assert legal(state) == (
        [f"WSp{v}" for v in range(1, 7)] + ["WSu4", "WSu5", "WSu6"]
        + ["WAu1", "WAu2", "WAu3", "WAu4", "WWi3", "WWi4", "WWi5", "WWi6"]
    )
    assert fd.format_move(state, fd.parse_move(state, "WSp4R")) == "WSp4"
    assert refused(state, "WSp4L").clause == "15 Days: Take 1 wild card"
    assert refused(state, "WAu4R").clause == "15 Days: Take 1 wild card"  # Autumn is left
    assert fd.format_move(state, fd.parse_move(state, "WAu4L")) == "WAu4"
    state = play(state, "WSp4")
    assert corners(state)["BR"] == "Sp 4*"


def test_wild_any_a_corner_holding_only_a_wild():
    """A corner whose season holds only a wild is not empty (no -2) and scores its run
    of 1 (R18); it is that season's corner: its cards go there, no side is chosen, and
    the wild counts as its value in the order (R10)."""
    b = board(TL="Au 6 5", TR="Su 1 2 3", BL="Wi 3*")
    out = scored(3, {0: b})
    assert out.standings[0].player == "ann" and out.standings[0].score == 2 + 3 + 1 - 2
    v = fd.view(position(boards={0: b}), 0)
    wi = v.players[0].corners[2]
    assert (wi.season, wi.cards, wi.run, wi.complete) == ("Wi", ("Wi3*",), 1, False)
    assert v.players[0].wilds == 1 and v.players[0].score == 4
    text = fd.render(v, Style(unicode=True))
    assert "Winter  3*" in text and max(len(line) for line in text.splitlines()) <= 72
    # The picture: the lone wild drawn in its corner, outlined as the last move
    # WWi3L (the side written after the card).
    svg = fd.draw(v, Scene("15 Days", NAMES[:3], "ann", "ann", 1, ("ann", "WWi3L"),
                           fd.standing(position(boards={0: b})), False))
    assert "Winter 3 (a wild card)" in svg and svg.count('class="last"') == 1
    state = position(hands={0: "Wi2 Wi5 Sp1 Sp2 Sp3"}, boards={0: b})
    assert "PWi2" in legal(state) and "PWi2L" not in legal(state)
    assert fd.format_move(state, fd.parse_move(state, "PWi2L")) == "PWi2"
    assert refused(state, "PWi2R").clause == "15 Days: Play cards"
    after = play(state, "PWi2")  # the new lowest of a descending corner: 1 card
    assert after.phase == "pay" and after.owe == 1
    after = play(state, "PWi5")  # higher than the 3*: 2 cards
    assert after.phase == "pay" and after.owe == 2


def test_wild_any_the_real_card_replaces_a_lone_wild():
    """R11: the real card of a lone wild's value takes its place (1 card: the wild's
    value counts as taken by the card itself) and the wild moves on, here to Spring, new
    to the board, in the one free corner (the right side: no side written)."""
    b = board(TL="Au 6 5", TR="Su 1 2 3", BL="Wi 3*")
    state = position(hands={0: "Wi3 Sp1 Sp2"}, boards={0: b})
    state = play(state, "PWi3")
    assert state.phase == "pay" and state.owe == 1
    state = play(state, "XSp1")
    assert corners(state)["BL"] == "Wi 3" and state.phase == "move-wild"
    assert legal(state) == (
        [f"WSp{v}" for v in range(1, 7)] + ["WSu4", "WSu5", "WSu6"]
        + ["WAu1", "WAu2", "WAu3", "WAu4", "WWi1", "WWi2", "WWi4", "WWi5", "WWi6"]
    )
    state = play(state, "WSp6")
    assert corners(state) == {"TL": "Au 5 6", "TR": "Su 1 2 3", "BL": "Wi 3", "BR": "Sp 6*"}
    assert state.wild_supply == 8 and state.phase == "play"


def test_wild_any_a_replaced_wild_may_move_to_a_new_season():
    """R11 with wild=any: the replaced wild moves to a missing value of any season
    without a wild, a season new to the board included (wild=board: see above)."""
    state = position(hands={0: "Su5 Wi1 Wi2"}, boards={0: board(TR="Su 1 2 3 5*", TL="Au 6 5")})
    state = play(state, "PSu5", "XWi1")
    assert legal(state) == (
        [f"WSp{v}{side}" for v in range(1, 7) for side in "LR"]
        + ["WSu4", "WSu6", "WAu1", "WAu2", "WAu3", "WAu4"]
        + [f"WWi{v}{side}" for v in range(1, 7) for side in "LR"]
    )
    state = play(state, "WWi4L")
    assert corners(state) == {"TR": "Su 1 2 3 5", "TL": "Au 5 6", "BL": "Wi 4*"}
    assert state.phase == "play" and state.wild_supply == 8


def test_wild_any_a_lone_wild_takes_a_corner_from_later_seasons():
    """R9: the wild's corner is its season's; a later new season has the other corners:
    with Winter's wild bottom-left, Spring can only go bottom-right (no side written)."""
    b = board(TL="Au 6 5", TR="Su 1 2 3")
    state = play(position(hands={0: "Su2 Au6 Sp1 Sp2"}, boards={0: b}),
                 "W", "XSu2", "XAu6", "WWi4L")
    assert "PSp1" in legal(state) and "PSp1L" not in legal(state)
    assert refused(state, "PSp1L").clause == "15 Days: Play cards"
    state = play(state, "PSp1", "XSp2")
    assert corners(state)["BR"] == "Sp 1"


def test_wild_rules_version_1_logs_keep_wild_board():
    """Rules version 2 brought the parameter wild; a log pinned to version 1 does not
    record it and is played with wild=board (notation: Rules versions)."""
    from msgspec.structs import replace
    from adjudicator.errors import BadLogError

    log = match.new_log(fd.id, NAMES[:2], "v2")
    assert log.rules == rules.RULES == 2 and log.params["wild"] == "any"
    assert match.start(log)[1].wild_rule == "any"
    old = replace(log, rules=1, params={k: v for k, v in log.params.items() if k != "wild"})
    assert match.start(old)[1].wild_rule == "board"
    with pytest.raises(BadLogError):
        match.start(replace(old, params=log.params))  # version 1 had no such parameter
    for path in EXAMPLES:  # every example log predates version 2
        log = logmod.decode(path.read_bytes(), str(path))
        assert "wild" not in log.params and match.start(log)[1].wild_rule == "board"


# =====================================================================================
# Actions: play cards - corners and payments
# =====================================================================================

PLAY_BOARD = board(TR="Su 2 4", TL="Au 5 3")  # right ascends, left descends


@pytest.mark.parametrize(
    ("card", "cost"),
    [
        ("Su6", 1),  # the new highest of the ascending corner
        ("Su5", 1),
        ("Su3", 2),  # inserted between 2 and 4
        ("Su1", 2),  # lower than 2 in an ascending corner
        ("Au1", 1),  # the new lowest of the descending corner
        ("Au2", 1),
        ("Au4", 2),  # inserted
        ("Au6", 2),  # higher than 5 in a descending corner
    ],
)
def test_play_cost_extending_the_order_or_inserting(card, cost):
    """Play cards: "1 card if the card is the highest value in an ascending corner; 1 card
    if the card is the lowest value in a descending corner; 2 cards otherwise". The
    right corners ascend, the left ones descend."""
    state = position(hands={0: f"{card} Wi1 Wi2 Wi3"}, boards={0: PLAY_BOARD})
    state = play(state, f"P{card}")
    assert state.owe == cost and state.phase == "pay"
    for k in range(cost):
        state = play(state, f"XWi{k + 1}")
    assert state.phase == "play"
    assert hand(state) == [f"Wi{k}" for k in range(cost + 1, 4)]
    assert discards(state) == [f"Wi{k}" for k in range(1, cost + 1)]


def test_play_on_an_empty_corner_costs_one_and_the_side_is_chosen():
    """Play cards: "1 card for each card placed on an empty corner"; "The right corners
    have to be arranged in ascending order, and vice versa" (R9: a new season goes to
    the side named, its top corner first; with a free corner on each side the side
    must be said)."""
    state = position(hands={0: "Wi3 Sp1"}, boards={0: PLAY_BOARD})
    with pytest.raises(AmbiguousMoveError) as info:
        play(state, "PWi3")
    assert info.value.candidates == ("PWi3L", "PWi3R")
    assert info.value.clause == "15 Days: Play cards"
    assert {"PWi3L", "PWi3R"} <= set(legal(state))
    left = play(state, "PWi3L")
    assert left.owe == 1 and corners(left)["BL"] == "Wi 3"
    right = play(state, "play winter 3 right")
    assert corners(right)["BR"] == "Wi 3"


def test_play_first_card_of_the_game_goes_to_a_top_corner():
    """R9: on an empty board the left side means the top-left corner."""
    state = play(position(hands={0: "Su4 Wi1"}), "PSu4L", "XWi1")
    assert corners(state) == {"TL": "Su 4"}
    state = play(position(hands={0: "Su4 Wi1"}), "PSu4R", "XWi1")
    assert corners(state) == {"TR": "Su 4"}


def test_play_the_side_is_not_written_when_only_one_side_is_free():
    """Notation: a detail that changes nothing is not written: with both left corners
    taken, a new season can only go right: PWi3 (PWi3R is read and recorded so)."""
    b = board(TL="Au 5", BL="Su 2", TR="Sp 1")
    state = position(hands={0: "Wi3 Sp3"}, boards={0: b})
    assert fd.format_move(state, fd.parse_move(state, "PWi3R")) == "PWi3"
    assert "PWi3" in legal(state) and "PWi3R" not in legal(state)
    assert refused(state, "PWi3L").clause == "15 Days: Play cards"
    assert corners(play(state, "PWi3"))["BR"] == "Wi 3"


def test_play_a_season_goes_to_its_own_corner():
    """Play cards: "All Seasons must be in different corners": a Summer card goes to the
    Summer corner; a side that is not its corner's is refused, the right one dropped."""
    state = position(hands={0: "Su6 Wi1"}, boards={0: PLAY_BOARD})
    assert refused(state, "PSu6L").clause == "15 Days: Play cards"
    assert fd.format_move(state, fd.parse_move(state, "PSu6R")) == "PSu6"
    assert corners(play(state, "PSu6", "XWi1"))["TR"] == "Su 2 4 6"


def test_play_one_card_of_each_value():
    """Play cards: "A Season cannot hold multiple cards with the same value."""
    state = position(hands={0: "Su4 Wi1 Wi2"}, boards={0: PLAY_BOARD})
    assert refused(state, "PSu4").clause == "15 Days: Play cards"
    assert not any("Su4" in t for t in legal(state))


def test_play_needs_enough_cards_to_pay():
    """Play cards: the cost is paid from the hand, not with the card played: Su3 costs 2
    and only one other card is held."""
    state = position(hands={0: "Su3 Su6"}, boards={0: PLAY_BOARD})
    assert refused(state, "PSu3").clause == "15 Days: Play cards"
    assert "PSu3" not in legal(state) and "PSu6" in legal(state)


def test_play_a_card_not_held_is_refused():
    state = position(hands={0: "Su3 Wi1"}, boards={0: PLAY_BOARD})
    assert refused(state, "PSu6").clause == "15 Days: Play cards"


def test_play_several_cards_in_one_action_then_end():
    """R10: one Play action may place several cards, each paid in turn; E ends it.
    Su5 (1), then Su6 (1): four cards used, one action."""
    state = position(hands={0: "Su5 Su6 Wi1 Wi2 Au1"}, boards={0: PLAY_BOARD})
    state = play(state, "PSu5", "XWi1", "PSu6", "XWi2")
    assert state.actions == 0 and state.phase == "play"
    assert "E" in legal(state)
    state = play(state, "E")
    assert state.actions == 1 and corners(state)["TR"] == "Su 2 4 5 6"
    assert hand(state) == ["Au1"]


def test_play_payment_goes_to_the_discard_pile_in_order():
    """R10: each card paid goes on top of the discard pile, so the last one paid is the
    one the next player can take."""
    state = position(hands={0: "Su3 Wi1 Au2"}, boards={0: PLAY_BOARD}, discard="Sp6")
    state = play(state, "PSu3", "XAu2", "XWi1")
    assert discards(state) == ["Sp6", "Au2", "Wi1"]


def test_play_while_paying_nothing_else_is_possible():
    state = play(position(hands={0: "Su3 Wi1 Au2"}, boards={0: PLAY_BOARD}), "PSu3")
    for text in ("D1", "Ta", "E", "PSu6", "W"):
        assert isinstance(refused(state, text), IllegalMoveError)
    assert legal(state) == ["XAu2", "XWi1"]


def test_play_a_wild_counts_as_its_value_in_the_order():
    """R10: a wild stands for its value: with Su 2 4*, Su3 is not the highest (2
    cards) but Su5 is (1 card)."""
    b = board(TR="Su 2 4*")
    assert play(position(hands={0: "Su3 Wi1 Wi2"}, boards={0: b}), "PSu3").owe == 2
    assert play(position(hands={0: "Su5 Wi1 Wi2"}, boards={0: b}), "PSu5").owe == 1


def test_play_with_the_frog_one_card_off_per_action():
    """Frog (green token) power: "Your Play cards action has a discount of 1, per
    action." R10: it comes off the action's first card: Su3 costs 2 - 1 = 1, then Su1
    in the same action costs the full 2."""
    state = position(hands={0: "Su3 Su1 Wi1 Wi2 Wi3"}, boards={0: PLAY_BOARD}, animals={SU: 0})
    state = play(state, "PSu3")
    assert state.owe == 1
    state = play(state, "XWi1", "PSu1")
    assert state.owe == 2


def test_play_with_the_frog_an_empty_corner_is_free():
    """Frog: a card on an empty corner costs 1 - 1 = 0, even with no other card."""
    state = position(hands={0: "Wi3"}, boards={0: PLAY_BOARD}, animals={SU: 0})
    assert "PWi3L" in legal(state)
    state = play(state, "PWi3L")
    assert state.phase == "play" and hand(state) == [] and corners(state)["BL"] == "Wi 3"


def test_play_with_a_feather_for_the_frog():
    """Feather Tokens: FPSu3 spends the feather; the Frog's discount applies to this
    action's first card."""
    state = position(hands={0: "Su3 Wi1"}, boards={0: PLAY_BOARD})
    assert "PSu3" not in legal(state) and "FPSu3" in legal(state)
    state = play(state, "FPSu3")
    assert state.owe == 1 and state.feathers[0] == 0 and state.feather_supply == 3


def test_play_action_needs_a_card():
    """R10: a Play action places at least one card: E cannot end an action not begun."""
    state = position(hands={0: "Su6 Wi1"}, boards={0: PLAY_BOARD})
    assert refused(state, "E").clause == "15 Days: Actions"


# =====================================================================================
# Animal Tokens
# =====================================================================================


def test_animal_first_to_three_cards_takes_the_token():
    """Animal Tokens: "The first player to have 3 cards in any Season takes the
    corresponding animal token from the supply." Summer: the Frog."""
    state = position(hands={0: "Su3 Wi1"}, boards={0: board(TR="Su 1 2")})
    state = play(state, "PSu3", "XWi1")
    assert state.animals[FROG] == 0 and state.feathers == (1, 1, 1)


def test_animal_two_cards_are_not_enough():
    state = position(hands={0: "Su3 Wi1"}, boards={0: board(TR="Su 1")})
    assert play(state, "PSu3", "XWi1").animals[FROG] == -1


def test_animal_wilds_do_not_count():
    """R12: only real cards count: Su 1 2* and a real Su3 make 2 cards, not 3."""
    state = position(hands={0: "Su3 Wi1"}, boards={0: board(TR="Su 1 2*")})
    assert play(state, "PSu3", "XWi1").animals[FROG] == -1


def test_animal_taken_on_equal_count_and_the_feather_given():
    """Animal Tokens: "Any player who has equal or higher number of Season cards than the
    current owner of the animal token takes it from them. The player who loses the
    animal token then receives a feather token from the supply (if available)." bob
    holds the Squirrel with 3 Autumn cards; ann plays her 3rd."""
    state = position(
        hands={0: "Au4 Wi1"},
        boards={0: board(TL="Au 6 5"), 1: board(TR="Au 1 2 3")},
        animals={AU: 1},
        feathers=(0, 0, 1),
        feather_supply=2,
    )
    state = play(state, "PAu4", "XWi1")
    assert state.animals[SQUIRREL] == 0
    assert state.feathers == (0, 1, 1) and state.feather_supply == 1


def test_animal_not_taken_with_fewer_cards():
    """Animal Tokens: fewer cards than the holder: the token stays."""
    state = position(
        hands={0: "Au4 Wi1"},
        boards={0: board(TL="Au 6 5"), 1: board(TR="Au 1 2 3 5")},
        animals={AU: 1},
    )
    assert play(state, "PAu4", "XWi1").animals[SQUIRREL] == 1


def test_animal_lost_without_a_feather_left():
    """Animal Tokens: "(if available)": no feather in the supply, none given."""
    state = position(
        hands={0: "Au4 Wi1"},
        boards={0: board(TL="Au 6 5"), 1: board(TR="Au 1 2 3")},
        animals={AU: 1},
        feathers=(2, 2, 1),
        feather_supply=0,
    )
    state = play(state, "PAu4", "XWi1")
    assert state.animals[SQUIRREL] == 0 and state.feathers == (2, 2, 1)


def test_animal_won_in_the_first_action_powers_the_second():
    """R12: a power belongs to an action from its start: the Squirrel taken in the
    first action lets the second action draw 3."""
    state = position(hands={0: "Au4 Wi1"}, boards={0: board(TL="Au 6 5")})
    state = play(state, "PAu4", "XWi1", "E")
    assert state.animals[SQUIRREL] == 0
    state = play(state, "D1", "D1")
    assert "E" in legal(state)
    assert len(play(state, "D2").hands[0]) == 3


def test_animal_won_during_a_play_action_gives_no_discount_in_it():
    """R12: the Frog won by a card of this Play action does not discount the rest of it."""
    state = position(hands={0: "Su3 Su5 Wi1 Wi2"}, boards={0: board(TR="Su 1 2")})
    state = play(state, "PSu3", "XWi1")
    assert state.animals[FROG] == 0
    assert play(state, "PSu5").owe == 1  # the new highest: 1, not 0


# =====================================================================================
# Feather Tokens
# =====================================================================================


def test_feather_not_for_an_animal_you_hold():
    """Feather Tokens / R13: a feather buys the power of a token you do not hold."""
    state = position(animals={AU: 0})
    assert refused(state, "FD1").clause == "15 Days: Feather Tokens"
    assert "FD1" not in legal(state)


def test_feather_needs_a_feather():
    state = position(feathers=(0, 1, 1), feather_supply=3)
    assert refused(state, "FD1").clause == "15 Days: Feather Tokens"
    assert not any(t.startswith("F") for t in legal(state))


def test_feather_is_spent_before_the_action_not_during_it():
    """Feather Tokens: "The power will be active for the next action": after the first
    card drawn it is too late."""
    state = play(position(), "D1")
    assert refused(state, "FD2").clause == "15 Days: Feather Tokens"


def test_feather_one_per_turn_by_default():
    """R13 (parameter feathers=one-per-turn): "On a turn, a player may discard a Feather
    token": one, even with two in hand."""
    state = position(feathers=(2, 0, 0), feather_supply=1, discard="Au1")
    state = play(state, "FD1", "D1", "D1")
    assert state.actions == 1
    assert refused(state, "FTd").clause == "15 Days: Feather Tokens"
    assert not any(t.startswith("F") for t in legal(state))


def test_feather_one_per_action_when_the_parameter_says_so():
    """R13 (feathers=one-per-action): a feather before each action."""
    state = position(feathers=(2, 0, 0), feather_supply=1, discard="Au1", rule="one-per-action")
    state = play(state, "FD1", "D1", "D1")
    state = play(state, "FTd", "Ta")
    assert state.feathers[0] == 0 and state.feather_supply == 3
    assert hand(state) == ["Sp3", "Au1", "Wi4", "Wi5", "Wi6"]


# =====================================================================================
# End of turn: the hand limit
# =====================================================================================


def test_hand_limit_discard_down_to_five():
    """End of turn: "At the end of your second action, you must discard down to 5 cards."
    Four cards in hand, draw 2 + draw 2: 8 cards, so 3 discards, one at a time, on the
    discard pile; then the next player."""
    state = position(hands={0: "Su1 Su2 Su3 Su4"})
    state = play(state, "D1", "D1", "D2", "D2")
    assert state.phase == "limit" and len(state.hands[0]) == 8
    assert legal(state) == ["XSu1", "XSu2", "XSu3", "XSu4", "XAu1", "XAu2", "XWi5", "XWi6", "FO"]
    state = play(state, "XSu1", "XWi6")
    assert state.seat == 0
    state = play(state, "XAu2")
    assert state.seat == 1 and hand(state) == ["Su2", "Su3", "Su4", "Au1", "Wi5"]
    assert discards(state) == ["Su1", "Wi6", "Au2"]


def test_hand_limit_not_reached_no_discard():
    state = play(position(hands={0: "Su1"}), "D1", "D1", "D2", "D2")
    assert state.seat == 1 and len(state.hands[0]) == 5


def test_hand_limit_is_eight_with_the_otter():
    """Otter (orange token) power: "Your hand size limit is increased from 5 to 8."
    Eight cards: kept; nine: discard one."""
    state = position(hands={0: "Su1 Su2 Su3 Su4"}, animals={SP: 0})
    assert play(state, "D1", "D1", "D2", "D2").seat == 1
    state = position(hands={0: "Su1 Su2 Su3 Su4 Su5"}, animals={SP: 0})
    state = play(state, "D1", "D1", "D2", "D2")
    assert state.phase == "limit" and "FO" not in legal(state)
    state = play(state, "XSu5")
    assert state.seat == 1 and len(state.hands[0]) == 8


def test_hand_limit_feather_for_the_otter():
    """Feather Tokens + Otter (R13): a feather spent at the hand limit (FO) makes the
    limit 8 for this turn."""
    state = play(position(hands={0: "Su1 Su2 Su3 Su4"}), "D1", "D1", "D2", "D2")
    state = play(state, "FO")
    assert state.seat == 1 and len(state.hands[0]) == 8
    assert state.feathers[0] == 0 and state.feather_supply == 3


def test_hand_limit_feather_for_the_otter_only_at_the_limit():
    """R13: the Otter's power is no action's: its feather is spent at the hand limit."""
    assert refused(position(), "FO").clause == "15 Days: Feather Tokens"


def test_hand_limit_otter_feather_counts_as_the_turns_feather():
    """R13, one-per-turn: a feather spent on the Squirrel leaves none for the Otter."""
    state = position(hands={0: "Su1 Su2"}, feathers=(2, 0, 0), feather_supply=1)
    state = play(state, "FD1", "D1", "D1", "D2", "D2")
    assert state.phase == "limit" and "FO" not in legal(state)
    assert refused(state, "FO").clause == "15 Days: Feather Tokens"


def test_hand_limit_one_per_action_lets_a_feather_go_on_the_otter_too():
    state = position(hands={0: "Su1 Su2"}, feathers=(2, 0, 0), feather_supply=1,
                     rule="one-per-action")
    state = play(state, "FD1", "D1", "D1", "D2", "D2")
    state = play(state, "FO")
    assert state.seat == 1 and len(state.hands[0]) == 7


# =====================================================================================
# End game and Scoring: the end
# =====================================================================================

NEARLY_DONE = board(
    TL="Au 6 5 4 3 2 1", TR="Su 1 2 3 4 5", BL="Wi 6 5 4 3 2 1*", BR="Sp 1 2 3 4 5 6"
)


def test_end_all_four_sets_completed_ends_the_game_at_the_end_of_the_action():
    """End game: "Either a player completes all 4 Season sets" (R15: at the end of that
    action: no second action, no hand limit, no last round). Su6 completes ann's board;
    she holds 6 cards after paying and keeps them (more than the limit of 5)."""
    state = position(hands={0: "Su6 Wi1 Wi2 Wi3 Wi4 Wi5 Wi6 Au1"}, boards={0: NEARLY_DONE})
    state = play(state, "PSu6", "XAu1")
    assert fd.outcome(state) is not None and fd.to_move(state) is None
    assert len(state.hands[0]) == 6 and state.actions == 0
    assert fd.legal_moves(state) == ()
    err = refused(state, "D1")
    assert err.clause == "15 Days: End game and Scoring"
    out = fd.outcome(state)
    assert out.details[0] == "the game ended when ann completed all four Season sets"


def test_end_a_wild_may_complete_the_last_set():
    """R15: a wild counts as the value it replaces, so a wild can complete the board."""
    b = board(TL="Au 6 5 4 3 2 1", TR="Su 1 2 3 4 6", BL="Wi 6 5 4 3 2 1", BR="Sp 1 2 3 4 5 6")
    state = position(hands={0: "Su6 Au1"}, boards={0: b})
    state = play(state, "W", "XSu6", "XAu1", "WSu5")
    assert state.ended == "sets" and fd.outcome(state).winners


def test_end_a_pile_emptied_then_the_bonus_wild_and_the_last_round():
    """End game: "any one draw pile is emptied. In the latter case, the active player
    finishes their turn and takes a bonus wild card if there are any left. The remaining
    players then take one last turn." ann (seat 0 of 3) empties pile 1 with her first
    draw, draws on from pile 2, plays her second action, takes the bonus wild; bob and
    cy play one turn each; then the game is over."""
    state = position(
        hands={0: "Su5 Wi1", 1: "Su1", 2: "Su2"},
        boards={0: board(TR="Su 1 2 3")},
        piles=("Wi6", PILE2),
        wild="board",  # the bonus wild only on Summer (wild=any: see below)
    )
    state = play(state, "D1", "D2")
    assert state.trigger == 0 and state.actions == 1 and state.seat == 0
    assert legal(state)[:1] == ["D2"], "the other pile can still be drawn"
    state = play(state, "PSu5", "XWi1", "E")
    assert state.phase == "bonus"
    assert set(legal(state)) == {"WSu4", "WSu6"}
    state = play(state, "WSu4")
    assert corners(state)["TR"] == "Su 1 2 3 4* 5" and state.wild_supply == 7
    assert state.seat == 1 and state.turns_left == 2
    state = play(state, "D2", "D2", "D2", "D2")
    assert state.seat == 2 and state.phase == "act", "bob gets no bonus wild"
    assert fd.outcome(state) is None
    state = play(state, "Ta", "Tb")
    assert fd.to_move(state) is None and state.ended == "pile"
    out = fd.outcome(state)
    assert out.details[0] == ("a draw pile was emptied on ann's turn; every other player "
                              "then took one last turn")


def test_end_the_bonus_wild_may_open_a_season_with_wild_any():
    """End game with wild=any: the bonus wild is placed like any wild (R16), so also
    in a season new to the board."""
    state = position(hands={0: "Su5 Wi1", 1: "Su1", 2: "Su2"},
                     boards={0: board(TR="Su 1 2 3")}, piles=("Wi6", PILE2))
    state = play(state, "D1", "D2", "PSu5", "XWi1", "E")
    assert state.phase == "bonus"
    assert legal(state) == (
        [f"WSp{v}{side}" for v in range(1, 7) for side in "LR"] + ["WSu4", "WSu6"]
        + [f"W{season}{v}{side}" for season in ("Au", "Wi") for v in range(1, 7)
           for side in "LR"]
    )
    state = play(state, "WAu6L")
    assert corners(state) == {"TR": "Su 1 2 3 5", "TL": "Au 6*"}
    assert state.seat == 1 and state.wild_supply == 7


def test_end_the_bonus_wild_comes_after_the_hand_limit():
    """R16: the turn is finished first (its hand limit included), then the bonus wild."""
    state = position(hands={0: "Su1 Su2 Su3 Su4", 1: "Su1"}, boards={0: board(TR="Su 1 2 3")},
                     piles=("Wi6", PILE2))
    state = play(state, "D1", "D2", "D2", "D2")
    assert state.phase == "limit"
    state = play(state, "XSu1", "XSu2", "XSu3")
    assert state.phase == "bonus"


def test_end_no_bonus_wild_when_none_is_left():
    """End game: "takes a bonus wild card if there are any left"."""
    state = position(hands={0: "Su5", 1: "Su1"}, boards={0: board(TR="Su 1 2 3")},
                     piles=("Wi6", PILE2), wilds=0)
    state = play(state, "D1", "D2", "D2", "D2")
    assert state.seat == 1 and state.wild_supply == 0 and state.turns_left == 2


def test_end_a_pile_emptied_by_a_rebuild_triggers_the_end():
    """End game: a pile is emptied however its last card goes, a market rebuild too."""
    state = position(market=("Su5", "Sp4 Sp5 Sp6", "Su1 Su2 Su3"), piles=("Wi6", PILE2))
    state = play(state, "Ta", "R1")
    assert state.trigger == 0
    state = play(state, "R2", "R2")
    assert column(state, 0) == ["Wi6", "Au1", "Au2"]


def test_end_two_players_last_round_is_one_turn():
    state = position(2, hands={0: "Su5", 1: "Su1"}, piles=("Wi6", PILE2), wilds=0)
    state = play(state, "D1", "D2", "D2", "D2")
    assert state.seat == 1
    state = play(state, "D2", "D2", "D2", "D2")
    assert state.ended == "pile" and fd.to_move(state) is None


def test_end_the_bonus_wild_can_complete_the_board():
    """R15: the bonus wild completing all four sets ends the game at once."""
    b = board(TL="Au 6 5 4 3 2 1", TR="Su 1 2 3 4 6", BL="Wi 6 5 4 3 2 1", BR="Sp 1 2 3 4 5 6")
    state = position(hands={0: "Wi1", 1: "Su1"}, boards={0: b}, piles=("Wi6", PILE2))
    state = play(state, "D1", "D2", "D2", "D2")
    assert legal(state) == ["WSu5"]
    state = play(state, "WSu5")
    assert state.ended == "sets" and fd.to_move(state) is None


def test_end_a_player_who_cannot_act_loses_the_action():
    """R17: with both piles empty, an empty market and discard pile and nothing to play,
    a player cannot act: the turn passes (the last round goes on)."""
    state = position(
        hands={0: "Su1", 1: "Su6"},
        boards={1: board(TR="Su 6")},
        piles=("Wi6", ""),
        market=("", "", ""),
        animals={SU: 0},  # ann's Frog: her Su1 costs nothing, the discard pile stays empty
    )
    state = play(state, "D1", "PSu1R", "E")
    assert state.phase == "bonus"
    state = play(state, "WSu2")
    # bob's Su6 is on his board already and he has no other card: no action at all,
    # so his turn passes; cy (no cards either) likewise; the game is over.
    assert state.ended == "pile"
    assert hand(state, 1) == ["Su6"] and discards(state) == []


# =====================================================================================
# End game and Scoring: scoring and tie-breaks
# =====================================================================================


def scored(players: int, boards: dict, **kw):
    state = position(players, boards=boards, **kw)
    state = msgspec.structs.replace(state, seat=-1, phase="over", ended="pile", trigger=0,
                                    turns_left=0)
    return fd.outcome(state)


def test_scoring_runs_animals_and_empty_corners():
    """Scoring: "1 point per card in the longest uninterrupted sequence, per Season; 2
    points per animal token; -2 points per empty corner". ann: Autumn 6 5 4 . 2 -> 3;
    Summer 1 2 3* . 5 6 -> 3 (the wild counts); Winter 3 -> 1; an empty corner -2; the
    Frog +2: 3 + 3 + 1 - 2 + 2 = 7. bob: Spring 1-6 -> 6 and three empty corners:
    6 - 6 = 0."""
    out = scored(2, {
        0: board(TL="Au 6 5 4 2", TR="Su 1 2 3* 5 6", BL="Wi 3"),
        1: board(BR="Sp 1 2 3 4 5 6"),
    }, animals={SU: 0})
    assert [(s.player, s.score, s.place) for s in out.standings] == [("ann", 7, 1), ("bob", 0, 2)]
    assert out.winners == ("ann",)
    assert ("ann 7: longest runs Autumn 3, Summer 3, Winter 1; Frog +2; 1 empty corner -2 "
            "(0 cards in hand, 1 wild on the board)") in out.details


def test_scoring_every_animal_is_two_points():
    out = scored(2, {0: board(TL="Au 1"), 1: board()}, animals={SP: 0, SU: 0, AU: 0, WI: 1})
    assert [s.score for s in out.standings] == [1 - 6 + 6, -8 + 2]


def test_scoring_tie_most_cards_in_hand_wins():
    """Scoring: "In the case of a tie, the player with the most cards in hand is the
    winner." Both score 1 - 6 = -5; bob holds 3 cards, ann 1."""
    out = scored(2, {0: board(TL="Au 1"), 1: board(TR="Su 4")},
                 hands={0: "Wi1", 1: "Wi1 Wi2 Wi3"})
    assert [(s.player, s.score, s.place) for s in out.standings] == [("bob", -5, 1), ("ann", -5, 2)]
    assert out.winners == ("bob",)
    assert out.details[-1] == ("bob and ann both have -5 points: bob holds more cards in hand "
                               "(3 to 1) (15 Days: End game and Scoring)")


def test_scoring_tie_cards_in_hand_come_before_wilds():
    """Scoring: the wilds only break a tie left by the cards in hand: ann (3 cards, no
    wild) beats bob (1 card, 1 wild) on -4 points each."""
    out = scored(2, {0: board(TL="Au 1 2"), 1: board(TL="Au 1 2*")},
                 hands={0: "Wi1 Wi2 Wi3", 1: "Wi4"})
    assert [(s.player, s.score, s.place) for s in out.standings] == [("ann", -4, 1), ("bob", -4, 2)]


def test_scoring_tie_then_most_wilds_played():
    """Scoring: "If players are still tied, whoever played the most wild cards is the
    winner" (R19: the wilds on the board at the end). Both: runs of 2 with 3 empty
    corners = -4, 2 cards in hand; cy's run includes a wild."""
    out = scored(3, {0: board(TL="Au 1 2"), 1: board(), 2: board(TL="Au 1 2*")},
                 hands={0: "Wi1 Wi2", 2: "Wi1 Wi2"})
    top_two = [(s.player, s.score, s.place) for s in out.standings][:2]
    assert top_two == [("cy", -4, 1), ("ann", -4, 2)]
    assert out.winners == ("cy",)
    assert ("cy and ann both have -4 points: both hold 2 cards; cy played more wild cards "
            "(1 to 0) (15 Days: End game and Scoring)") in out.details


def test_scoring_still_tied_share_the_place():
    """R19: tied on points, hand and wilds: a shared place (both win if first)."""
    out = scored(3, {0: board(TL="Au 1"), 1: board(TL="Su 1"), 2: board()})
    assert [(s.player, s.place) for s in out.standings] == [("ann", 1), ("bob", 1), ("cy", 3)]
    assert out.winners == ("ann", "bob")
    assert any("they share 1st place" in d for d in out.details)


def test_scoring_standing_during_play_is_the_score_so_far():
    state = position(2, boards={0: board(TL="Au 6 5")}, animals={AU: 0})
    so_far = fd.standing(state)
    assert [(s.player, s.score) for s in so_far.standings] == [("ann", 2 - 6 + 2), ("bob", -8)]
    assert fd.outcome(state) is None


# =====================================================================================
# Notation
# =====================================================================================


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("D1", "D1"), ("draw 2", "D2"), ("d pile 1", "D1"), ("fd1", "FD1"),
        ("feather draw 2", "FD2"), ("Ta", "Ta"), ("take c", "Tc"), ("take discard", "Td"),
        ("t x", "Td"), ("F T B", "FTb"), ("W", "W"), ("wild", "W"), ("w su 4", "WSu4"),
        ("wild autumn 1", "WAu1"), ("PSu4", "PSu4"), ("p fa 4", "PAu4"),
        ("play spring 2", "PSp2"), ("x wi6", "XWi6"), ("pay wi 6", "XWi6"),
        ("discard winter 6", "XWi6"), ("R2", "R2"), ("rebuild 1", "R1"), ("e", "E"),
        ("end", "E"), ("done", "E"), ("FO", "FO"), ("feather otter", "FO"),
        ("fp su-4", "FPSu4"),
    ],
)  # fmt: skip
def test_notation_tolerant_input(typed, canonical):
    """notation/fifteen-days.md "Tolerant input"."""
    state = position(hands={0: "Su4"}, boards={0: board(TR="Su 1")})
    assert fd.format_move(state, fd.parse_move(state, typed)) == canonical


def test_notation_side_written_for_a_new_season():
    state = position(hands={0: "Su4"})
    for typed, canonical in [("play su4 left", "PSu4L"), ("psu4r", "PSu4R"),
                             ("f p su 4 r", "FPSu4R")]:
        assert fd.format_move(state, fd.parse_move(state, typed)) == canonical


@pytest.mark.parametrize("text", ["", "D3", "Te", "P", "PSu7", "XSu", "hello", "R3", "FW",
                                  "FX Su4", "FE", "W Su 0"])
def test_notation_unreadable(text):
    with pytest.raises(MoveError) as info:
        fd.apply(position(), fd.parse_move(position(), text))
    assert isinstance(info.value, NotationError)


def test_notation_document_examples_replay():
    """The ```moves block of notation/fifteen-days.md, by the shared doc test."""
    import test_notation_docs as docs

    found = [b for b in docs.blocks("moves") if b[0] == "fifteen-days.md"]
    assert found
    for doc, line, body in found:
        docs.test_move_examples(doc, line, body)


def test_notation_moves_do_not_depend_on_hidden_cards():
    """Hidden information: D1 is the same text whatever the pile holds, and the legal
    moves of the player to move are the same whatever the others hold."""
    a = position(hands={0: "Su1", 1: "Au1"}, piles=(PILE1, PILE2))
    b = position(hands={0: "Su1", 1: "Wi3"}, piles=("Wi1 Au1", "Au6 Sp3"))
    assert legal(a) == legal(b)


# =====================================================================================
# Views: what each player sees
# =====================================================================================


def test_view_shows_own_hand_only_and_never_the_piles_faces():
    """R20: a player sees their own hand, every board, the market, the discard pile,
    the piles' sizes and the backs of their top cards, the hand sizes; never another
    hand nor a card of a pile."""
    state = position(
        hands={0: "Su1 Sp2/Au", 1: "Au3 Au4 Au5", 2: ""},
        boards={1: board(TR="Su 1 2 4*")},
        piles=("Sp6/Wi Wi5", "Au1 Au2"),
        market=("Su1 Su2 Su3", "Su4 Su5 Su6", "Wi1 Wi2 Wi3"),
        discard="Au6",
    )
    v = fd.view(state, 0)
    assert v.players[0].hand == ("Sp2", "Su1")
    assert v.players[1].hand is None and v.players[2].hand is None
    assert [p.hand_size for p in v.players] == [2, 3, 0]
    assert v.piles == (2, 2) and v.pile_backs == ("Wi", "Au")
    assert v.players[1].corners[1].cards == ("Su1", "Su2", "Su4*")
    assert v.market == (("Su1", "Su2", "Su3"), ("Su4", "Su5", "Su6"), ("Wi1", "Wi2", "Wi3"))
    assert v.discard == ("Au6",)
    text = json.dumps(msgspec.to_builtins(v))
    for hidden in ("Au3", "Au4", "Au5", "Sp6", "Wi5", "Au1", "Au2"):
        assert hidden not in text, f"{hidden} is hidden from ann"
    spectator = fd.view(state, None)
    assert all(p.hand is None for p in spectator.players)


def test_view_is_the_same_whatever_the_hidden_cards_are():
    """R20: two positions that differ only in bob's hand and the piles below their top
    cards (same sizes, same top backs) look the same to ann and to a spectator."""
    a = position(hands={0: "Su1", 1: "Wi3 Wi4"}, piles=("Au6 Wi5 Wi4", "Wi1 Au2"))
    b = position(hands={0: "Su1", 1: "Su5 Sp1"}, piles=("Au2 Sp1 Au4", "Wi6 Su6"))
    assert fd.view(a, 0) == fd.view(b, 0)
    assert fd.view(a, None) == fd.view(b, None)
    assert fd.view(a, 1) != fd.view(b, 1)


@pytest.mark.parametrize("seed", ["v0", "v1"])
def test_view_redeal_keeps_sizes_and_top_backs(seed):
    """redeal: everything ann cannot see is shuffled together; sizes, pile-top backs and
    ann's own hand stay; the cards of the game are the same."""
    state = fd.setup(DEFAULTS, NAMES[:3], seed)
    state = play(state, "D1", "D2", "Ta")
    seat = state.seat
    other = fd.redeal(state, seat, "r")
    assert other.hands[seat] == state.hands[seat]
    assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
    assert [p[-1] // 24 for p in other.piles] == [p[-1] // 24 for p in state.piles]
    assert all_cards(other) == all_cards(state)
    assert other != state
    assert fd.view(other, seat) == fd.view(state, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_consistent_rebuilds_every_view(players):
    """consistent: from any view (every seat's and the spectator's) at random
    positions of random games, a state whose view is that view again, dealt
    the same from the same seed; the rules carry on from it."""
    for k, (feathers, wild) in enumerate((("one-per-turn", "any"), ("one-per-action", "board"))):
        seed = f"consistent/{players}/{k}"
        log = match.simulate(fd.id, NAMES[:players], seed, {"feathers": feathers, "wild": wild},
                             max_moves=160)
        states = list(match.validate(log, keep=True).states)
        for ply in range(0, len(states), 9):
            state = states[ply]
            for seat in (None, *range(players)):
                seen = fd.view(state, seat)
                for s in ("a", "b"):
                    rebuilt = fd.consistent(seen, log.params, s)
                    assert fd.view(rebuilt, seat) == seen, (seed, ply, seat, s)
                    assert fd.consistent(seen, log.params, s) == rebuilt
                    assert fd.to_move(rebuilt) == fd.to_move(state)
                    # Every card of the deck is somewhere, once (on a board, by its face).
                    kinds = Counter(c % 24 for c in all_cards(rebuilt).elements())
                    kinds.update(season * 6 + v for b in rebuilt.boards
                                 for season, mask, _ in b for v in range(6) if mask >> v & 1)
                    assert kinds == Counter(c % 24 for c in rules.DECK)
                    for move in fd.legal_moves(rebuilt)[:3]:
                        fd.apply(rebuilt, move)


def test_render_shows_corners_wilds_tokens_market_piles_and_score():
    state = position(
        hands={0: "Su1 Wi2"},
        boards={0: board(TL="Au 6 5 3*", TR="Su 1 2"), 1: board(BR="Wi 2 3 4")},
        animals={WI: 1},
        discard="Au1 Sp4",
    )
    text = fd.render(fd.view(state, 0), Style(unicode=True))
    assert "Autumn  6 5 3*" in text and "Summer  1 2" in text and "Winter  2 3 4" in text
    assert "hand (2): Su1 Wi2" in text and "hand: 0 cards" in text
    assert "Rabbit" in text and "1 feather" in text
    assert "a: Sp1 Sp2 Sp3" in text and "Au1 Sp4" in text
    assert "1: 10 cards, Winter back on top" in text
    assert "ann  score 0" in text  # runs Autumn 2 (6 5) + Summer 2, two empty corners -4
    ascii_text = fd.render(fd.view(state, None), Style(unicode=False))
    assert ascii_text.isascii() and "Su1 Wi2" not in ascii_text


# =====================================================================================
# Resignation and abandonment (notation/fifteen-days.md, the events of notation/README.md)
# =====================================================================================


def sample_log():
    """The log of the notation document's example moves (seed 2, ann, bob, cy)."""
    import test_notation_docs as docs

    [(_, _, body)] = [b for b in docs.blocks("moves") if b[0] == "fifteen-days.md"]
    texts = []
    for raw in body.splitlines()[1:]:
        text = raw.split("#", 1)[0].strip()
        if text and not (text[0] in "x?=" and text[1:2] == " "):
            texts.append(text.partition("->")[2].strip() or text)
    log = match.new_log(fd.id, NAMES[:3], "2")
    for text in texts:
        log = match.extend(log, [text])
    return log


def test_resigning_ranks_the_others_by_the_standing_and_the_resigner_last():
    """notation/fifteen-days.md, Resigning: after the example moves the standing is ann
    0, bob -1, cy -1 (bob ahead of cy on cards in hand); bob resigns: ann 1st (the
    winner), cy 2nd, bob 3rd, the standing's lines kept, tie-break line included."""
    log = sample_log()
    before = match.validate(log)
    assert [(r.player, r.score, r.place) for r in fd.standing(before.state).standings] == [
        ("ann", 0, 1), ("bob", -1, 2), ("cy", -1, 3)]
    log = match.extend(log, ["@resign"], as_player="bob")
    assert [(r.player, r.score, r.place) for r in log.result.standings] == [
        ("ann", 0, 1), ("cy", -1, 2), ("bob", -1, 3)]
    assert log.result.winners == ("ann",)
    assert log.result.details[-1] == "bob resigned: ranked last"
    assert "bob and cy both have -1 points: bob holds more cards in hand (1 to 0) " \
        "(15 Days: End game and Scoring)" in log.result.details
    with pytest.raises(MoveError):
        match.extend(log, ["D1"])  # the game is over


def test_resigning_mid_action_and_out_of_turn():
    """Resigning: at any time, here by cy while ann is paying for her first card (a
    corner of 1 against bob's and cy's four empty corners): ann 1st, bob 2nd, cy 3rd
    though cy's score equals bob's."""
    log = match.new_log(fd.id, NAMES[:3], "resign", {"first-player": "seat-0"})
    state = match.start(log)[1]
    plays = [fd.format_move(state, m) for m in fd.legal_moves(state) if m.op == "P"]
    assert plays, "ann can play a card at once"
    log = match.extend(log, [plays[0]])
    assert match.validate(log).state.phase == "pay"
    log = match.extend(log, ["@resign"], as_player="cy")
    assert [(r.player, r.score, r.place) for r in log.result.standings] == [
        ("ann", -5, 1), ("bob", -8, 2), ("cy", -8, 3)]
    assert log.result.winners == ("ann",) and log.result.details[-1] == "cy resigned: ranked last"


def test_abandoning_by_agreement_has_no_result():
    log = match.new_log(fd.id, NAMES[:3], "abandon")
    log = match.extend(log, ["@abandon"], as_player="ann")
    log = match.extend(log, ["@accept"], as_player="bob")
    assert log.result is None
    log = match.extend(log, ["@accept"], as_player="cy")
    assert log.result.standings == () and log.result.winners == ()
    assert log.result.details == ("abandoned by agreement: no result",)


# =====================================================================================
# Conformance, examples, CLI
# =====================================================================================


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "params", [{}, {"first-player": "seat-0"}, {"feathers": "one-per-action"}],
    ids=["default", "seat-0", "one-per-action"],
)
@pytest.mark.parametrize("seed", volume.seeds(1, 2))
def test_random_play_conforms(players, params, seed):
    """The generic conformance check (tests/test_conformance.py) on 15 Days."""
    play_and_check(fd.id, players, params, seed)


ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "fifteen-days").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_validate(path):
    log = logmod.decode(path.read_bytes(), str(path))
    rep = match.validate(log)
    assert rep.game is fd and log.result is not None


def test_examples_cover_both_ends_and_every_player_count():
    ends, counts = set(), set()
    for path in EXAMPLES:
        rep = match.validate(logmod.decode(path.read_bytes(), str(path)))
        ends.add(rep.state.ended)
        counts.add(len(rep.players))
    assert ends == {"sets", "pile"} and counts == {2, 3, 4}


def test_cli_three_players_play_a_whole_game(tmp_path):
    """Done when: a three-player game can be played to the end through the CLI. Moves
    are typed as players might (lower case); a whole turn goes in one extend call."""
    runner = CliRunner()
    path = tmp_path / "game.json"
    r = runner.invoke(app, ["new", fd.id, "--players", "ann,bob,cy", "--seed", "cli",
                            "-o", str(path)])
    assert r.exit_code == 0, r.output
    rng = Chance("cli", "test")
    calls = 0
    while True:
        r = runner.invoke(app, ["legal", str(path), "--json"])
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        if data["player"] is None:
            break
        # A whole turn at once: replay locally to choose the moves of this turn.
        log = logmod.decode(path.read_bytes())
        rep = match.validate(log)
        state, mover, texts = rep.state, data["player"], []
        while fd.to_move(state) is not None and state.players[state.seat] == mover:
            moves = fd.legal_moves(state)
            m = moves[rng.below(len(moves))]
            texts.append(fd.format_move(state, m).lower())
            state = fd.apply(state, m)
        r = runner.invoke(app, ["extend", str(path), *texts, "--as", mover, "--ascii"])
        assert r.exit_code == 0, r.output
        calls += 1
    assert calls > 10
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 0, r.output
    final = logmod.decode(path.read_bytes())
    assert final.result is not None and len(final.result.standings) == 3
    r = runner.invoke(app, ["show", str(path), "--ascii"])
    assert r.exit_code == 0 and "Game over" in r.stdout


def test_cli_refused_move_is_one_line_naming_the_rule(tmp_path):
    runner = CliRunner()
    path = tmp_path / "game.json"
    runner.invoke(app, ["new", fd.id, "--players", "ann,bob", "--seed", "cli",
                        "-P", "first-player=seat-0", "-o", str(path)])
    before = path.read_bytes()
    r = runner.invoke(app, ["extend", str(path), "D1", "E"])
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        "Error: move 2 (ann) 'E': draw two cards: the action takes two (three with the "
        "Squirrel) (15 Days: Take 2 face-down Season cards)"
    )
    assert path.read_bytes() == before
