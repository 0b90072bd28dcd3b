"""Turn of Time: scenario tests, one rule-card clause at a time (DATC style).

Each test names the clause of ``shared/rules/turn-of-time.txt`` it checks
(and the project's rulings where the card is silent). Expected results are
worked out by hand from the rule text, or by the small rules oracle below,
which is written from the text (clause 4 table, 5.1a/5.1b placement, 5.2/5.3
meetings, 6 scoring) and shares no code with the engine.

Positions are built with :func:`position` from a dict of squares to cards,
``{"d4": "FaSp"}`` (the face shown first, then the back).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import msgspec
import pytest

from pathlib import Path

from adjudicator import log as logmod, match
from adjudicator.errors import AmbiguousMoveError, IllegalMoveError, NotationError
from adjudicator.games.turn_of_time import GAME, rules
from adjudicator.games.turn_of_time.cards import DECK, Move, SQUARES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "turn-of-time"

# --- vocabulary --------------------------------------------------------------------

SEASONS = ("Sp", "Su", "Fa", "Wi")  # seasonal order: Spring 0 ... Winter 3
SP, SU, FA, WI = range(4)
NAMES = ("ann", "bob", "cy", "dee")
DEFAULTS = {"absent-doubles": "own-season", "goal": "dominance", "tie_order": "players"}
# Keyword arguments of the helpers below -> parameter names.
PARAM_NAMES = {"absent_doubles": "absent-doubles", "goal": "goal", "tie_order": "tie_order"}

# Clause 4, as a table read off the text: (x, y) means a card showing x flips a
# card showing y. "Spring is flipped by Summer, Summer by Fall etc." and
# "Opposite seasons flip each other".
FLIPS = {
    ("Su", "Sp"), ("Fa", "Su"), ("Wi", "Fa"), ("Sp", "Wi"),  # the later flips the earlier
    ("Sp", "Fa"), ("Fa", "Sp"), ("Su", "Wi"), ("Wi", "Su"),  # opposites
}  # fmt: skip

DIRECTIONS = {"n": (1, 0), "e": (0, 1), "s": (-1, 0), "w": (0, -1)}  # (rank, file) steps


def sq(name: str) -> int:
    return SQUARES.index(name)


def season(text: str) -> int:
    return SEASONS.index(text)


def code(card: str) -> int:
    """A card on the table, 'FaSp' -> face * 4 + back."""
    return season(card[:2]) * 4 + season(card[2:])


def kind(card: str) -> int:
    """A card in hand: its two seasons, lower first."""
    a, b = season(card[:2]), season(card[2:])
    return min(a, b) * 4 + max(a, b)


def text(c: int) -> str:
    return SEASONS[c >> 2] + SEASONS[c & 3]


def turned(card: str) -> str:
    return card[2:] + card[:2]


def table(state) -> dict[str, str]:
    """The cards on the table, square -> 'FaSp'."""
    return {name: text(c) for name, c in zip(SQUARES, state.board) if c >= 0}


def face_counts(cards: dict[str, str]) -> Counter:
    return Counter(c[:2] for c in cards.values())


def step(name: str, d: str) -> str | None:
    dr, dc = DIRECTIONS[d]
    f, r = "abcdefg".index(name[0]) + dc, int(name[1:]) + dr
    return f"{'abcdefg'[f]}{r}" if 0 <= f < 7 and 1 <= r <= 7 else None


def largest_groups(cards: dict[str, str]) -> dict[str, int]:
    """Each season's largest orthogonally connected group of face-up cards."""
    best = dict.fromkeys(SEASONS, 0)
    seen: set[str] = set()
    for start, card in cards.items():
        if start in seen:
            continue
        s, todo, size = card[:2], [start], 0
        seen.add(start)
        while todo:
            here = todo.pop()
            size += 1
            for d in DIRECTIONS:
                there = step(here, d)
                if there in cards and there not in seen and cards[there][:2] == s:
                    seen.add(there)
                    todo.append(there)
        best[s] = max(best[s], size)
    return best


def turn_rank(state, tie_order: str) -> dict[str, tuple[int, int]]:
    """6, "then by checking who was first in turn order": each season's key in that
    last tie-break, lower first. Seat i plays the i-th season drawn (2 players: seat 0
    the 1st and 3rd, seat 1 the 2nd and 4th); a season nobody plays comes after the
    others. tie_order=players: the turn order of the seasons' players, a player's two
    seasons in the order drawn; tie_order=seasons: the order the seasons were drawn."""
    out = {}
    for i, s in enumerate(state.season_order):
        seat = state.owners[s] if state.owners[s] >= 0 else len(NAMES)
        out[SEASONS[s]] = (seat, i) if tie_order == "players" else (i, i)
    return out


def expected_scores(state, tie_order: str) -> tuple[list[str], Counter]:
    """6 by the oracle: the seasons ranked (count, then largest group, then turn order)
    and each player's points (4, 3, 2, 1 by rank; 2 players add their two seasons)."""
    cards = table(state)
    counts, groups = face_counts(cards), largest_groups(cards)
    turn = turn_rank(state, tie_order)
    ranked = sorted(SEASONS, key=lambda s: (-counts[s], -groups[s], turn[s]))
    points = Counter()
    for i, s in enumerate(ranked):
        owner = state.owners[season(s)]
        if owner >= 0:
            points[NAMES[owner]] += 4 - i
    return ranked, points


def deal_backs(*rows: str, files: str = "abcd", top: int = 4) -> dict[str, str]:
    """A full board from rows of faces only ('Fa Sp Sp Wi'); the backs are chosen so
    that the 16 cards are exactly the deck of clause 1 (search, so a face layout the
    deck cannot make fails loudly)."""
    squares, faces = [], []
    for k, row in enumerate(rows):
        for f, face in zip(files, row.split(), strict=True):
            squares.append(f"{f}{top - k}")
            faces.append(face)
    left = Counter(DECK_BY_HAND)

    def place(i: int) -> list[str] | None:
        if i == len(faces):
            return []
        for other in SEASONS:
            k = kind(faces[i] + other)
            if left[k]:
                left[k] -= 1
                rest = place(i + 1)
                if rest is not None:
                    return [faces[i] + other, *rest]
                left[k] += 1
        return None

    cards = place(0)
    assert cards is not None, "the deck cannot show these faces"
    return dict(zip(squares, cards, strict=True))


# Clause 1 by hand: 4 singles, and the 12 doubles are two of each of the 6 pairs.
DECK_BY_HAND = Counter(
    [kind(s + s) for s in SEASONS]
    + [kind(a + b) for a, b in itertools.combinations(SEASONS, 2)] * 2
)


def position(
    cards: dict[str, str],
    hand: list[str] | None = None,
    *,
    players: int = 4,
    seat: int = 0,
    hands: dict[int, list[str]] | None = None,
    order: tuple[str, ...] | None = None,
    deck: list[str] | None = None,
    seed: str = "0",
    **params: str,
):
    """A position: ``cards`` on the table, ``hand`` for the seat to move.

    ``order`` gives the seasons in turn order (seat i plays the i-th; with 3
    players the 4th belongs to nobody; with 2 players seat 0 has the 1st and 3rd,
    as ruled). ``placed`` and the 4x4 box are computed from the cards.
    """
    p = dict(DEFAULTS)
    p.update({PARAM_NAMES[k]: v for k, v in params.items()})
    state = GAME.setup(p, NAMES[:players] if players > 1 else ("solo",), seed)
    board = [-1] * len(state.board)  # the frame's 49 squares (and any padding the engine keeps)
    for name, card in cards.items():
        board[sq(name)] = code(card)
    rows = [sq(n) // 7 for n in cards]
    cols = [sq(n) % 7 for n in cards]
    box = (min(rows), max(rows), min(cols), max(cols)) if cards else (7, -1, 7, -1)
    all_hands = [[] for _ in range(len(state.hands))]
    if hand is not None:
        all_hands[seat] = hand
    for s, h in (hands or {}).items():
        all_hands[s] = h
    changes = dict(
        board=tuple(board),
        hands=tuple(tuple(sorted(kind(c) for c in h)) for h in all_hands),
        placed=len(cards),
        box=box,
        seat=-1 if len(cards) == 16 else seat,
        last=sq("d4") if "d4" in cards else -1,
    )
    if players == 1:
        changes["deck"] = tuple(kind(c) for c in (deck or []))
    if order is not None:
        seq = tuple(season(s) for s in order)
        owners = [-1] * 4
        for i, s in enumerate(seq):
            if players == 4 or (players == 3 and i < 3):
                owners[s] = i
            elif players == 2:
                owners[s] = i % 2
        changes.update(owners=tuple(owners), season_order=seq)
    return msgspec.structs.replace(state, **changes)


def play(state, move_text: str):
    return GAME.apply(state, GAME.parse_move(state, move_text))


def refused(state, move_text: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        play(state, move_text)
    return info.value


# --- the rules oracle (written from the text, not from the engine) --------------------


def meet(placed: str, neighbours: dict[str, str], order: str) -> tuple[str, dict[str, str]]:
    """5.2/5.3: the placed card meets each neighbour once, in ``order``; once it
    has flipped it meets the rest with its new face; a flipped neighbour meets
    nothing else (no chain reactions)."""
    cur, out = placed, dict(neighbours)
    for d in order:
        mine, theirs = cur[:2], out[d][:2]
        if (mine, theirs) in FLIPS:
            out[d] = turned(out[d])
        if (theirs, mine) in FLIPS:
            cur = turned(cur)
    return cur, out


def open_squares(cards: dict[str, str]) -> set[str]:
    """5.1a and 5.1b: next to a card, and all cards still inside some 4x4 box."""
    if not cards:
        return {"d4"}
    out = set()
    for f in "abcdefg":
        for r in range(1, 8):
            name = f"{f}{r}"
            if name in cards or not any(step(name, d) in cards for d in DIRECTIONS):
                continue
            files = {n[0] for n in cards} | {f}
            ranks = {int(n[1:]) for n in cards} | {r}
            if max(map("abcdefg".index, files)) - min(map("abcdefg".index, files)) < 4 and (
                max(ranks) - min(ranks) < 4
            ):
                out.add(name)
    return out


def expected_outcomes(state) -> set[tuple[str, str, frozenset]]:
    """Every (card as placed, square, table after) a player may bring about."""
    cards = table(state)
    playable = state.deck[:1] if len(state.players) == 1 else state.hands[state.seat]
    out = set()
    for k in set(playable):
        a, b = SEASONS[k >> 2], SEASONS[k & 3]
        for card in {a + b, b + a}:
            for square in open_squares(cards):
                around = {d: cards[n] for d in DIRECTIONS if (n := step(square, d)) in cards}
                for order in itertools.permutations(around):
                    out.add((card, square, table_after(cards, card, square, around, order)))
    return out


def table_after(cards: dict[str, str], card: str, square: str, around: dict[str, str],
                order) -> frozenset:
    """The table once ``card`` is placed on ``square`` and has met ``around`` in ``order``."""
    final, flipped = meet(card, around, "".join(order))
    new = dict(cards)
    new[square] = final
    for d, c in flipped.items():
        new[step(square, d)] = c
    return frozenset(new.items())


def engine_outcomes(state) -> list[tuple[str, str, frozenset]]:
    out = []
    for m in GAME.legal_moves(state):
        after = GAME.apply(state, m)
        out.append(
            (SEASONS[m.face] + SEASONS[m.back], SQUARES[m.square], frozenset(table(after).items()))
        )
    return out


def random_game(players: int, seed: str, **params: str):
    """States of a game played with random legal moves (Python's random, seeded)."""
    p = dict(DEFAULTS)
    p.update({PARAM_NAMES[k]: v for k, v in params.items()})
    state = GAME.setup(p, NAMES[:players] if players > 1 else ("solo",), seed)
    rng = random.Random(f"{players}/{seed}")
    states = [state]
    while state.seat >= 0:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        states.append(state)
    return states


# =====================================================================================
# 1. COMPONENTS
# =====================================================================================


def test_1_components_deck_is_4_singles_and_two_of_each_pair():
    """1: 4 single season cards and 12 double season cards (two of each of the 6 pairs)."""
    deck = Counter(DECK)
    assert len(DECK) == 16
    assert deck == DECK_BY_HAND
    singles = [k for k in DECK if k >> 2 == k & 3]
    assert sorted(singles) == sorted(kind(s + s) for s in SEASONS)
    doubles = [k for k in DECK if k >> 2 != k & 3]
    assert len(doubles) == 12
    assert all(n == 2 for n in Counter(doubles).values()) and len(set(doubles)) == 6


@pytest.mark.parametrize("seed", ["0", "1", "7", "abc"])
def test_1_components_four_player_deal_uses_exactly_the_deck(seed):
    """1 and 3: the four hands of a 4-player game are the 16 cards of the game."""
    state = GAME.setup(DEFAULTS, NAMES, seed)
    assert Counter(k for h in state.hands for k in h) == DECK_BY_HAND
    assert state.placed == 0 and all(c < 0 for c in state.board)


# =====================================================================================
# 3. SETUP
# =====================================================================================


def season_set(s: str) -> Counter:
    """1 single + 3 doubles with your season on one side and the others on the other."""
    return Counter(kind(s + t) for t in SEASONS)


@pytest.mark.parametrize("seed", [str(i) for i in range(12)])
def test_3_setup_four_players_one_single_and_three_doubles_of_own_season(seed):
    """3, 4 players: "Draw 1 single season and take 3 double seasons with your season
    on one side and different seasons on the other side (total 4 each)"."""
    state = GAME.setup(DEFAULTS, NAMES, seed)
    assert sorted(state.season_order) == [0, 1, 2, 3]
    for seat, hand in enumerate(state.hands):
        own = SEASONS[state.season_order[seat]]
        assert state.owners[season(own)] == seat
        assert len(hand) == 4
        cards = [text(k) for k in hand]
        singles = [c for c in cards if c[:2] == c[2:]]
        assert singles == [own + own]
        others = sorted(c.replace(own, "", 1) for c in cards if c not in singles)
        assert others == sorted(s for s in SEASONS if s != own), cards
        assert Counter(hand) == season_set(own)


def three_player_seed(absent: str) -> str:
    for i in range(201):
        state = GAME.setup(DEFAULTS, NAMES[:3], str(i))
        if state.owners[season(absent)] == -1:
            return str(i)
    raise AssertionError(f"no seed in 0..200 leaves {absent} out")


@pytest.mark.parametrize("absent", SEASONS)
def test_3_setup_three_players_undrawn_single_starts_the_grid(absent):
    """3 and 5.1: with 3 players the single card of the undrawn season is placed on
    the table first (on d4), and nobody owns that season."""
    seed = three_player_seed(absent)
    state = GAME.setup(DEFAULTS, NAMES[:3], seed)
    assert table(state) == {"d4": absent + absent}
    assert state.placed == 1 and state.seat == 0
    assert sorted(state.owners) == [-1, 0, 1, 2]
    # The absent single is on the table, not in any hand.
    held = Counter(k for h in state.hands for k in h)
    assert held[kind(absent + absent)] == 0
    assert held + Counter([kind(absent + absent)]) == DECK_BY_HAND


@pytest.mark.parametrize("absent", SEASONS)
def test_3_setup_three_players_own_season_takes_the_absent_double_with_your_season(absent):
    """3, 3 players, absent-doubles=own-season (default): "take 4 double seasons with
    your season on one side (total 5 each)" - the 4th is the absent season's double
    whose other side is your own season."""
    state = GAME.setup(DEFAULTS, NAMES[:3], three_player_seed(absent))
    for seat, hand in enumerate(state.hands):
        own = SEASONS[[s for s in range(4) if state.owners[s] == seat][0]]
        assert len(hand) == 5
        assert all(own in text(k) for k in hand), "every card shows your season on one side"
        assert sum(1 for k in hand if text(k)[:2] == text(k)[2:]) == 1
        assert Counter(hand) == season_set(own) + Counter([kind(absent + own)])


def test_3_setup_three_players_example_deal_fall_player_takes_winter_spring():
    """3, the card's example: "Player 1 starts with Fall, Fall/Spring, Fall/Summer and
    Fall/Winter. With Winter not playing, she also takes Winter/Spring."
    (absent-doubles=example: the next present season after yours.)"""
    seed = three_player_seed("Wi")
    state = GAME.setup({**DEFAULTS, "absent-doubles": "example"}, NAMES[:3], seed)
    extra = {}
    for seat, hand in enumerate(state.hands):
        own = SEASONS[[s for s in range(4) if state.owners[s] == seat][0]]
        rest = Counter(hand) - season_set(own)
        assert sum(rest.values()) == 1 and len(hand) == 5
        extra[own] = text(next(iter(rest)))
    assert extra["Fa"] in ("SpWi", "WiSp")  # the Fall player: Winter/Spring
    assert extra["Sp"] == "SuWi"  # Spring -> next present season is Summer
    assert extra["Su"] == "FaWi"  # Summer -> Fall
    # The other ruling, for contrast: the Fall player would take Winter/Fall.
    plain = GAME.setup(DEFAULTS, NAMES[:3], seed)
    fall_seat = plain.owners[FA]
    assert Counter(plain.hands[fall_seat])[kind("FaWi")] == 2


@pytest.mark.parametrize("absent", ["Sp", "Su", "Fa"])
def test_3_setup_three_players_example_deal_is_cyclic_over_present_seasons(absent):
    """3, absent-doubles=example with another season absent: each player takes the
    absent season's double whose other side is the next present season after theirs."""
    seed = three_player_seed(absent)
    state = GAME.setup({**DEFAULTS, "absent-doubles": "example"}, NAMES[:3], seed)
    present = [s for s in SEASONS if s != absent]
    for seat, hand in enumerate(state.hands):
        own = SEASONS[[s for s in range(4) if state.owners[s] == seat][0]]
        nxt = present[(present.index(own) + 1) % 3]
        assert Counter(hand) - season_set(own) == Counter([kind(absent + nxt)])
    held = Counter(k for h in state.hands for k in h)
    assert held + Counter([kind(absent + absent)]) == DECK_BY_HAND


@pytest.mark.parametrize("seed", [str(i) for i in range(8)])
def test_3_setup_two_players_two_season_sets_each(seed):
    """3, 2 players: "As 4 players but play with 2 season sets each" (8 cards each)."""
    state = GAME.setup(DEFAULTS, NAMES[:2], seed)
    assert sorted(state.owners) == [0, 0, 1, 1]
    for seat, hand in enumerate(state.hands):
        mine = [SEASONS[s] for s in range(4) if state.owners[s] == seat]
        assert len(hand) == 8
        assert Counter(hand) == season_set(mine[0]) + season_set(mine[1])
    assert Counter(k for h in state.hands for k in h) == DECK_BY_HAND


def test_3_setup_seasons_are_drawn_from_the_seed():
    """3: seasons are drawn at random from the game's seed: the same seed gives the
    same draw, different seeds give different draws (every season turns up first)."""
    for n in (2, 3, 4):
        for seed in ("0", "x", "2024"):
            assert GAME.setup(DEFAULTS, NAMES[:n], seed) == GAME.setup(DEFAULTS, NAMES[:n], seed)
        orders = {GAME.setup(DEFAULTS, NAMES[:n], str(i)).season_order for i in range(60)}
        assert len(orders) > 4
        assert {o[0] for o in orders} == {0, 1, 2, 3}
    absent = {three_player_seed(s) for s in SEASONS}
    assert len(absent) == 4  # every season can be the one left out


# =====================================================================================
# 4. FLIPPING SEASONS
# =====================================================================================

# A double card for each season, so that a flip is visible on the table.
SHOWING = {"Sp": "SpSu", "Su": "SuFa", "Fa": "FaWi", "Wi": "WiSp"}


@pytest.mark.parametrize(("mine", "theirs"), list(itertools.product(SEASONS, SEASONS)))
def test_4_flipping_every_pair_of_seasons(mine, theirs):
    """4: "Seasons flip in seasonal order; Spring is flipped by Summer, Summer by Fall
    etc. Opposite seasons flip each other." Equal seasons do nothing."""
    later = {("Su", "Sp"), ("Fa", "Su"), ("Wi", "Fa"), ("Sp", "Wi")}
    opposite = {("Sp", "Fa"), ("Su", "Wi")}
    pair = (mine, theirs)
    flips_theirs = pair in later or pair in opposite or pair[::-1] in opposite
    flips_mine = pair[::-1] in later or pair in opposite or pair[::-1] in opposite
    placed, neighbour = SHOWING[mine], SHOWING[theirs]
    state = position({"d4": neighbour}, [placed])
    after = table(play(state, f"{placed}-d5"))
    assert after["d4"] == (turned(neighbour) if flips_theirs else neighbour)
    assert after["d5"] == (turned(placed) if flips_mine else placed)


def test_4_flipping_table_matches_the_cycle():
    """4: over all 16 pairs: 4 'later flips earlier' + 2 opposite pairs both ways."""
    flipping = {(a, b) for a in SEASONS for b in SEASONS if (a, b) in FLIPS}
    assert len(flipping) == 8
    for a in SEASONS:
        assert (a, a) not in flipping
        # each season flips exactly two seasons and is flipped by exactly two
        assert sum(1 for b in SEASONS if (a, b) in flipping) == 2
        assert sum(1 for b in SEASONS if (b, a) in flipping) == 2


def test_4_example_fall_placed_next_to_spring_both_flip_this_fall_flips_to_spring():
    """4, example: "If Fall is placed adjacent to Spring, both seasons are flipped.
    This specific Fall flips to Spring." (a Fall card with a Spring back)."""
    state = position({"d4": "SpWi"}, ["FaSp"])
    after = table(play(state, "FaSp-e4"))
    assert after["e4"] == "SpFa"  # the placed Fall now shows Spring
    assert after["d4"] == "WiSp"  # the Spring neighbour flipped over too


def test_4_a_flipped_single_card_still_shows_its_season():
    """4 and 1: a single season card has the same season on both sides, so flipping
    it shows that season again (Fall and Spring singles meet: both flip, no change)."""
    state = position({"d4": "SpSp"}, ["FaFa"])
    after = table(play(state, "FaFa-d3"))
    assert after == {"d4": "SpSp", "d3": "FaFa"}


# =====================================================================================
# 5.1 Turn order and the card played
# =====================================================================================


@pytest.mark.parametrize(("players", "moves"), [(4, 16), (3, 15), (2, 16), (1, 16)])
def test_5_1_in_turn_order_each_places_one_card(players, moves):
    """5.1: "In turn order, place 1 season card": seats take turns 0, 1, 2, ...; each
    move puts exactly one card of the mover's hand on the table."""
    states = random_game(players, "turns")
    assert len(states) == moves + 1
    for i, (before, after) in enumerate(itertools.pairwise(states)):
        assert before.seat == i % players
        assert after.placed == before.placed + 1
        assert len(table(after)) == len(table(before)) + 1
        if players > 1:
            gone = Counter(before.hands[before.seat]) - Counter(after.hands[before.seat])
            assert sum(gone.values()) == 1
            (k,) = gone
            new_square = (set(table(after)) - set(table(before))).pop()
            assert kind(table(after)[new_square]) == k, "the card placed is the card gone"
            for other in range(players):
                if other != before.seat:
                    assert after.hands[other] == before.hands[other]
    assert states[-1].seat == -1
    assert all(len(h) == 0 for h in states[-1].hands)


def test_5_1_a_card_must_come_from_the_players_hand():
    """5.1 (and 3): a player places one of *their* season cards; a card held by
    another player, or one already played, is refused."""
    state = GAME.setup(DEFAULTS, NAMES, "0")
    own = SEASONS[state.owners.index(0)]
    others = [s for s in SEASONS if s != own]
    foreign = others[0] + others[1]  # a double without the mover's season
    err = refused(state, f"{foreign}-d4")
    assert err.clause in ("Turn of Time 3", "Turn of Time 5.1")
    after = play(state, f"{own}{own}-d4")
    assert kind(own + own) not in after.hands[0]
    # Seat 0 may not play the same single card again on its next turn.
    s = after
    for _ in (1, 2, 3):
        s = GAME.apply(s, GAME.legal_moves(s)[0])
    assert s.seat == 0
    free = sorted(open_squares(table(s)))[0]
    err = refused(s, f"{own}{own}-{free}")
    assert err.clause in ("Turn of Time 3", "Turn of Time 5.1")


def test_5_1_two_copies_of_a_double_can_both_be_played():
    """3 and 5.1: with 3 players (own-season) a player holds two copies of the
    double pairing their season with the absent one, and may play both, but not a
    third."""
    seed = three_player_seed("Wi")
    state = GAME.setup(DEFAULTS, NAMES[:3], seed)
    assert state.seat == 0
    own = SEASONS[state.owners.index(0)]
    card = own + "Wi"
    assert Counter(state.hands[0])[kind(card)] == 2
    state = position({"d4": "WiWi"}, [card, card, own + own], players=3, seed=seed)
    state = play(state, f"{card}-d5")
    state = msgspec.structs.replace(state, seat=0)
    state = play(state, f"{card}-d6")
    state = msgspec.structs.replace(state, seat=0)
    assert state.hands[0] == (kind(own + own),)
    err = refused(state, f"{card}-d7")
    assert err.clause in ("Turn of Time 3", "Turn of Time 5.1")


def test_5_1_out_of_turn_is_refused_in_the_log():
    """5.1: "In turn order": a move by a player whose turn it is not is refused."""
    log = match.new_log("turn-of-time", NAMES, "0")
    state = GAME.setup(DEFAULTS, NAMES, "0")
    text_ = GAME.format_move(state, GAME.legal_moves(state)[0])
    with pytest.raises(IllegalMoveError) as info:
        match.extend(log, [text_], as_player=NAMES[1])
    assert info.value.clause == "Turn of Time 5.1"
    assert len(match.extend(log, [text_], as_player=NAMES[0]).moves) == 1


def test_5_1_face_of_your_choice():
    """5.1: "place 1 season card ... with the face of your choice up": both faces of a
    double are legal, the single once."""
    state = position({}, ["FaSp", "WiWi"])
    moves = {GAME.format_move(state, m) for m in GAME.legal_moves(state)}
    assert moves == {"FaSp-d4", "SpFa-d4", "WiWi-d4"}
    assert table(play(state, "SpFa-d4")) == {"d4": "SpFa"}


def test_5_1_a_square_already_holding_a_card_is_refused():
    """5.1: a card is placed on the table, never on top of another card."""
    state = position({"d4": "FaFa", "d5": "SpSu"}, ["WiWi"])
    err = refused(state, "WiWi-d5")
    assert err.clause.startswith("Turn of Time 5.1")


# =====================================================================================
# 5.1a Adjacency
# =====================================================================================


@pytest.mark.parametrize("players", [1, 2, 4])
def test_5_1a_the_first_card_goes_anywhere_written_d4(players):
    """5.1a: the 1st card need not be adjacent to anything; the notation names its
    square d4, so every first move is on d4 and any other square is refused."""
    state = GAME.setup(DEFAULTS, NAMES[:players] if players > 1 else ("solo",), "5")
    assert {SQUARES[m.square] for m in GAME.legal_moves(state)} == {"d4"}
    card = text(state.deck[0] if players == 1 else state.hands[0][0])
    err = refused(state, f"{card}-c3")
    assert err.clause == "Turn of Time 5.1a"
    assert table(play(state, f"{card}-d4")) == {"d4": card}


def test_5_1a_orthogonal_neighbour_is_adjacent():
    """5.1a: "Cards must be placed adjacent to at least 1 other card": each of the
    four orthogonal neighbours of the lone d4 card is open."""
    state = position({"d4": "FaFa"}, ["SuSu"])
    for name in ("d5", "e4", "d3", "c4"):
        assert table(play(state, f"SuSu-{name}"))[name] == "SuSu"
    assert {SQUARES[m.square] for m in GAME.legal_moves(state)} == {"d5", "e4", "d3", "c4"}


@pytest.mark.parametrize("name", ["e5", "c3", "e3", "c5", "f4", "d6", "a1"])
def test_5_1a_diagonal_or_distant_square_is_not_adjacent(name):
    """5.1a: adjacency is orthogonal; a square touching a card only at a corner, or not
    at all, is refused (the rule card's "a")."""
    state = position({"d4": "FaFa"}, ["SuSu"])
    err = refused(state, f"SuSu-{name}")
    assert err.clause == "Turn of Time 5.1a"


# =====================================================================================
# 5.1b The 4x4 grid
# =====================================================================================

ROW = {"d4": "FaFa", "e4": "SpSu", "f4": "WiSu", "g4": "SuFa"}
COLUMN = {"d4": "FaFa", "d5": "SpSu", "d6": "WiSu", "d7": "SuFa"}


def test_5_1b_a_fifth_column_is_refused():
    """5.1b: "Cards may not be placed in a way that would exceed a 4x4 card grid": with
    four cards in a row, extending the row is refused (the rule card's "b")."""
    state = position(ROW, ["SpSp"])
    err = refused(state, "SpSp-c4")
    assert err.clause == "Turn of Time 5.1b"


def test_5_1b_a_fifth_row_is_refused():
    """5.1b: four cards in a column; a fifth rank is refused."""
    state = position(COLUMN, ["SpSp"])
    err = refused(state, "SpSp-d3")
    assert err.clause == "Turn of Time 5.1b"


def test_5_1b_open_squares_of_a_full_row_are_above_and_below_it():
    """5.1a + 5.1b: with a full row of four, the open squares are the eight squares
    directly above and below it - and nothing at its ends."""
    state = position(ROW, ["SpSp"])
    expected = {"d5", "e5", "f5", "g5", "d3", "e3", "f3", "g3"}
    assert {SQUARES[m.square] for m in GAME.legal_moves(state)} == expected
    assert table(play(state, "SpSp-g5"))["g5"] == "SpSp"


def test_5_1b_a_fifth_row_is_refused_even_inside_the_columns():
    """5.1b: the limit is on rows and columns: with cards on ranks 4 to 7, a card on
    rank 3 is refused under any of the occupied files."""
    cards = {"d4": "FaFa", "d5": "SpSu", "e5": "SuFa", "e6": "WiSu", "e7": "SpWi"}
    state = position(cards, ["SpSp"])
    assert refused(state, "SpSp-d3").clause == "Turn of Time 5.1b"
    assert "SpSp-c4" in {GAME.format_move(state, m) for m in GAME.legal_moves(state)}


def test_5_1b_the_grid_floats_a_card_may_go_left_of_the_first_card():
    """5.1b (ruling: a floating grid): the 4x4 box is not fixed around the first card;
    three cards going west of d4 reach a4, and then the east side is closed."""
    state = position({"d4": "FaFa", "c4": "SpSu", "b4": "WiSu"}, ["WiFa", "SpSp"])
    state = play(state, "WiFa-a4")  # Winter meets Winter: nothing flips
    assert table(state) == {"d4": "FaFa", "c4": "SpSu", "b4": "WiSu", "a4": "WiFa"}
    state = msgspec.structs.replace(state, seat=0)
    assert refused(state, "SpSp-e4").clause == "Turn of Time 5.1b"
    assert table(play(state, "SpSp-a3"))["a3"] == "SpSp"


def test_5_1b_the_grid_may_grow_in_every_direction_while_it_fits():
    """5.1b: after d4, any of a 4x4 box's placements is allowed, e.g. going south
    to d1 and west to a1 (a box a1-d4)."""
    cards = {"d4": "FaFa", "d3": "SpSu", "d2": "WiSu", "d1": "SuFa", "c1": "SpWi", "b1": "SuWi"}
    state = position(cards, ["SpSp"])
    squares = {SQUARES[m.square] for m in GAME.legal_moves(state)}
    assert squares == open_squares(cards)
    # b-e is 4 files, a-d too; ranks 1-5 would be 5.
    assert {"a1", "e4", "e1", "c4"} <= squares and "d5" not in squares
    assert refused(state, "SpSp-d5").clause == "Turn of Time 5.1b"
    state = play(state, "SpSp-a1")
    state = msgspec.structs.replace(state, seat=0, hands=((kind("WiWi"),), (), (), ()))
    assert refused(state, "WiWi-e4").clause == "Turn of Time 5.1b"  # now a-e: 5 files


# =====================================================================================
# 5.2 and 5.3 Meetings
# =====================================================================================

# The worked example of 5.3 on c3: the Spring card (Fall back) north on c4, a Winter
# card on c5 next to that Spring card but not to c3, a Summer card west on b3. d4 (a
# Summer card with a Winter back) also touches c4 but not c3.
WORKED = {
    "d4": "SuWi",
    "c4": "SpFa",
    "c5": "WiWi",
    "b4": "FaFa",
    "b3": "SuWi",
}


def test_5_3_worked_example_spring_first_then_summer_two_new_fall():
    """5.3, example: "Player 1 plays a Fall with a Spring back. First, she lets Fall and
    Spring meet, flipping her Fall to Spring and the Spring to Fall. [...] Next, she lets
    her newly flipped Spring meet Summer, flipping her Spring back to Fall. Her play gave
    her 2 new Fall on the board." (north = Spring first, then west = Summer)."""
    state = position(WORKED, ["FaSp"])
    before = face_counts(table(state))
    after = table(play(state, "FaSp-c3:nw"))
    assert after["c3"] == "FaSp"  # flipped to Spring, then back to Fall
    assert after["c4"] == "FaSp"  # the Spring neighbour now shows Fall
    assert after["b3"] == "SuWi"  # Summer flipped the placed card; it is not flipped
    assert face_counts(after)["Fa"] - before["Fa"] == 2


def test_5_3_worked_example_no_chain_reaction():
    """5.3: "If the other season is flipped, it does not trigger new flips (i.e. no
    chain reactions)" - "Winter does not flip the new Fall in a chain reaction", and
    the new Fall does not flip the Summer next to it either."""
    state = position(WORKED, ["FaSp"])
    after = table(play(state, "FaSp-c3:nw"))
    assert after["c4"] == "FaSp"  # the Winter on c5 leaves the new Fall alone
    assert after["c5"] == "WiWi"
    assert after["d4"] == "SuWi"  # the new Fall on c4 does not flip d4's Summer
    assert after["b4"] == "FaFa"
    assert {k: v for k, v in after.items() if k not in ("c3", "c4")} == {
        k: v for k, v in WORKED.items() if k != "c4"
    }


def test_5_2_worked_example_the_other_order_gives_another_outcome():
    """5.2: "Resolve seasonal flips against 1 adjacent season at the time in the order
    of your choice": meeting the Summer first, Fall flips Summer (to Winter), then Fall
    and Spring flip each other, leaving the placed card on Spring - 1 new Fall only."""
    state = position(WORKED, ["FaSp"])
    before = face_counts(table(state))
    after = table(play(state, "FaSp-c3:wn"))
    assert after["b3"] == "WiSu"
    assert after["c3"] == "SpFa"
    assert after["c4"] == "FaSp"
    assert face_counts(after)["Fa"] - before["Fa"] == 1
    assert after != table(play(state, "FaSp-c3:nw"))


def test_5_2_the_order_is_required_when_it_matters():
    """5.2: when the order of meetings changes the outcome, a move without it is
    ambiguous; the error names both possible orders."""
    state = position(WORKED, ["FaSp"])
    with pytest.raises(AmbiguousMoveError) as info:
        play(state, "FaSp-c3")
    assert info.value.clause == "Turn of Time 5.2"
    assert set(info.value.candidates) == {"FaSp-c3:nw", "FaSp-c3:wn"}
    outcomes = {frozenset(table(play(state, c)).items()) for c in info.value.candidates}
    assert len(outcomes) == 2


def test_5_2_legal_moves_list_each_order_outcome_once():
    """5.2: the legal moves give the FaSp placed on c3 exactly twice, one per outcome,
    Fall up and Spring up. Spring up: north first, Spring meets Spring (nothing) and
    Summer then turns it to Fall; west first, Summer turns it to Fall, which then
    meets the Spring (both flip) and ends on Spring."""
    state = position(WORKED, ["FaSp"])
    at_c3 = [m for m in GAME.legal_moves(state) if SQUARES[m.square] == "c3"]
    texts = sorted(GAME.format_move(state, m) for m in at_c3)
    assert texts == ["FaSp-c3:nw", "FaSp-c3:wn", "SpFa-c3:nw", "SpFa-c3:wn"]
    nw, wn = table(play(state, "SpFa-c3:nw")), table(play(state, "SpFa-c3:wn"))
    assert (nw["c3"], nw["c4"], nw["b3"]) == ("FaSp", "SpFa", "SuWi")
    assert (wn["c3"], wn["c4"], wn["b3"]) == ("SpFa", "FaSp", "SuWi")


def test_5_2_the_order_must_name_every_neighbour_once():
    """5.2/5.3: the placed card meets *each* adjacent card; an order leaving one out,
    or naming an empty side, is refused."""
    state = position(WORKED, ["FaSp"])
    assert refused(state, "FaSp-c3:n").clause == "Turn of Time 5.2"
    assert refused(state, "FaSp-c3:ne").clause == "Turn of Time 5.2"
    assert refused(state, "FaSp-c3:nws").clause == "Turn of Time 5.2"


def test_5_2_order_omitted_when_it_does_not_matter():
    """5.2: a Fall placed on c4 between two Summers (north c5, east d4): Fall flips
    each Summer and nothing flips the Fall, so any order gives the same table; the
    canonical form has no order, one given is dropped, and the move without one is
    accepted. Shown Spring up instead, the card is flipped to Fall by the first Summer
    and then flips the second: the order matters (two moves)."""
    cards = {"d4": "SuWi", "c5": "SuWi", "d5": "WiWi"}
    state = position(cards, ["FaSp"])
    assert GAME.format_move(state, GAME.parse_move(state, "FaSp-c4:en")) == "FaSp-c4"
    assert GAME.format_move(state, GAME.parse_move(state, "FaSp-c4:ne")) == "FaSp-c4"
    after = table(play(state, "FaSp-c4"))
    assert after == {"d4": "WiSu", "c5": "WiSu", "d5": "WiWi", "c4": "FaSp"}
    assert table(play(state, "FaSp-c4:en")) == after
    at_c4 = [m for m in GAME.legal_moves(state) if SQUARES[m.square] == "c4"]
    assert sorted(GAME.format_move(state, m) for m in at_c4) == [
        "FaSp-c4", "SpFa-c4:en", "SpFa-c4:ne",
    ]  # fmt: skip
    ne, en = table(play(state, "SpFa-c4:ne")), table(play(state, "SpFa-c4:en"))
    assert ne["c4"] == en["c4"] == "FaSp"
    assert (ne["c5"], ne["d4"]) == ("SuWi", "WiSu")  # north turned it to Fall, east flipped
    assert (en["c5"], en["d4"]) == ("WiSu", "SuWi")


def test_5_2_a_placed_single_card_never_needs_an_order():
    """5.2 with 4: a placed single card shows the same season after any flip, so its
    later meetings never change: no order is needed, and one given is dropped."""
    state = position(WORKED, ["FaFa"])
    after = table(play(state, "FaFa-c3"))
    assert after["c3"] == "FaFa" and after["c4"] == "FaSp" and after["b3"] == "WiSu"
    assert GAME.format_move(state, GAME.parse_move(state, "FaFa-c3:wn")) == "FaFa-c3"


def test_5_2_turning_a_single_neighbour_is_not_a_different_outcome():
    """5.2 with 4 (ruling: flipping a single card changes nothing on the table): a
    Spring/Summer card placed Spring up between a Spring single (north) and a Summer
    (west): in either order the card ends on Summer and the table is the same, even
    though only one order turns the Spring single over - so no order is asked for."""
    cards = {"d4": "FaFa", "c4": "SpSp", "b4": "WiWi", "b3": "SuWi"}
    state = position(cards, ["SpSu"])
    nw = table(play(state, "SpSu-c3:nw"))
    wn = table(play(state, "SpSu-c3:wn"))
    assert nw == wn
    assert nw["c3"] == "SuSp" and nw["c4"] == "SpSp" and nw["b3"] == "SuWi"
    assert table(play(state, "SpSu-c3")) == nw
    # Written without an order, and with the face it ends up showing (notation:
    # "One move per outcome").
    assert GAME.format_move(state, GAME.parse_move(state, "SpSu-c3:wn")) == "SuSp-c3"


def test_5_2_equivalent_orders_share_one_canonical_form():
    """5.2: with three neighbours, orders that give the same table are written the
    same way; orders that do not are written differently. FaSp on c3 with a Spring
    (Fall back) north, Summers east and west."""
    cards = {"d4": "SuWi", "c4": "SpFa", "d3": "SuWi", "b4": "WiWi", "b3": "SuFa"}
    state = position(cards, ["FaSp"])
    around = {"n": "SpFa", "e": "SuWi", "w": "SuFa"}
    by_outcome: dict[frozenset, set[str]] = {}
    for order in itertools.permutations("new"):
        o = "".join(order)
        final, after = meet("FaSp", around, o)
        by_outcome.setdefault(frozenset([final, *after.items()]), set()).add(o)
        # the engine agrees with the oracle for every order
        got = table(play(state, f"FaSp-c3:{o}"))
        assert got["c3"] == final
        assert {d: got[step("c3", d)] for d in around} == after
    assert len(by_outcome) == 3
    for orders in by_outcome.values():
        forms = {GAME.format_move(state, GAME.parse_move(state, f"FaSp-c3:{o}")) for o in orders}
        assert len(forms) == 1
        (form,) = forms
        assert form.split(":")[1] in orders
    all_forms = {
        GAME.format_move(state, GAME.parse_move(state, f"FaSp-c3:{''.join(o)}"))
        for o in itertools.permutations("new")
    }
    assert len(all_forms) == 3
    # notation/turn-of-time.md: the canonical order is the first with n < e < s < w.
    assert all_forms == {"FaSp-c3:new", "FaSp-c3:nwe", "FaSp-c3:ewn"}
    at_c3 = [m for m in GAME.legal_moves(state) if SQUARES[m.square] == "c3" and m.face == FA]
    assert {GAME.format_move(state, m) for m in at_c3} == all_forms


@pytest.mark.parametrize(
    ("players", "seed", "params"),
    [(4, "a", {}), (4, "b", {}), (3, "c", {}), (3, "d", {"absent_doubles": "example"}),
     (2, "e", {}), (1, "f", {}), (1, "g", {"goal": "balance"}), (4, "h", {})],
)  # fmt: skip
def test_5_legal_moves_agree_with_the_rules_over_a_whole_game(players, seed, params):
    """5.1a, 5.1b, 5.2, 5.3 and 4 together: at every position of a random game, the
    legal moves give exactly the outcomes the rules allow (every card in hand, each
    face, each open square, each order of meetings), each table once
    (notation/turn-of-time.md, "One move per outcome"); a move is written without an
    order exactly when some face reaches its table in every order."""
    for state in random_game(players, seed, **params)[:-1]:
        got = [(square, after) for _, square, after in engine_outcomes(state)]
        assert len(got) == len(set(got)), "an outcome is listed twice"
        assert set(got) == {(square, after) for _, square, after in expected_outcomes(state)}
        for m in GAME.legal_moves(state):
            square = SQUARES[m.square]
            after = frozenset(table(GAME.apply(state, m)).items())
            assert (not m.order) == orderless(state, m.face, m.back, square, after)


def orderless(state, face: int, back: int, square: str, after: frozenset) -> bool:
    """Whether some face of the card reaches ``after`` in every order of meetings."""
    cards = table(state)
    around = {d: cards[n] for d in DIRECTIONS if (n := step(square, d)) in cards}
    for card in {SEASONS[face] + SEASONS[back], SEASONS[back] + SEASONS[face]}:
        tables = {
            table_after(cards, card, square, around, order)
            for order in itertools.permutations(around)
        }
        if tables == {after}:
            return True
    return False


def test_5_2_two_faces_leaving_the_same_table_are_one_move():
    """5.1/5.2 (notation: one move per outcome): a Spring/Summer card placed Spring up
    beside a Summer is flipped to Summer at once, the same table as placing it Summer
    up; legal lists it once, written with the face it ends up showing."""
    state = position({"d4": "SuWi"}, ["SpSu"])
    spring_up, summer_up = play(state, "SpSu-d5"), play(state, "SuSp-d5")
    assert table(spring_up) == table(summer_up)
    assert table(spring_up)["d5"] == "SuSp"
    at_d5 = [GAME.format_move(state, m) for m in GAME.legal_moves(state) if SQUARES[m.square] == "d5"]
    assert at_d5 == ["SuSp-d5"]
    assert GAME.format_move(state, GAME.parse_move(state, "SpSu-d5")) == "SuSp-d5"


# =====================================================================================
# 6. END OF GAME
# =====================================================================================


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_6_the_game_ends_when_all_16_cards_are_played(players):
    """6: "When all 16 cards have been played" the game is over: no legal moves, any
    further move is refused citing 6, and only then is there an outcome."""
    states = random_game(players, "end")
    for s in states[:-1]:
        assert GAME.outcome(s) is None
        assert GAME.legal_moves(s)
    last = states[-1]
    assert len(table(last)) == 16 and last.seat == -1
    assert GAME.legal_moves(last) == ()
    assert GAME.outcome(last) is not None
    with pytest.raises(IllegalMoveError) as info:
        GAME.apply(last, Move(FA, FA, sq("a1")))
    assert info.value.clause == "Turn of Time 6"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_6_face_up_and_largest_groups_of_every_position(players):
    """6: the counts and largest groups the engine scores (and shows) are those
    counted by hand, in every position of random games."""
    for seed in ("tally-1", "tally-2", "tally-3"):
        for state in random_game(players, seed):
            cards = table(state)
            v = GAME.view(state, None)
            assert v.face_up == {s: face_counts(cards)[s] for s in SEASONS}
            assert v.largest_group == largest_groups(cards)


# The rule card's scoring example: 5 Fall (4 adjacent), 5 Spring (3 adjacent),
# 3 Summer (2 adjacent), 3 Winter (2 adjacent), on a full 4x4 grid a1-d4.
EXAMPLE_FACES = (
    "Fa Sp Sp Wi",
    "Fa Sp Fa Sp",
    "Fa Wi Wi Su",
    "Fa Su Su Sp",
)


def test_6_scoring_example_board_is_as_described():
    """6, example: the board built for the example has the counts and groups the
    rule card gives (checked by hand-written counting, independent of the engine)."""
    cards = deal_backs(*EXAMPLE_FACES)
    assert Counter(kind(c) for c in cards.values()) == DECK_BY_HAND
    assert face_counts(cards) == {"Fa": 5, "Sp": 5, "Su": 3, "Wi": 3}
    assert largest_groups(cards) == {"Fa": 4, "Sp": 3, "Su": 2, "Wi": 2}


def scores(outcome) -> dict[str, tuple[int, int]]:
    return {s.player: (s.score, s.place) for s in outcome.standings}


def test_6_scoring_example_both_tie_breaks():
    """6, example: "5 Fall (4 adjacent): 4 pts, 5 Spring (3 adjacent): 3 pts, 3 Summer
    (2 adjacent): 2 pts, 3 Winter (2 adjacent): 1 pts. Fall has more adjacent seasons
    than Spring and gets 4 points. Summer started before Winter and gets 2 points."
    Turn order: ann Spring, bob Summer, cy Winter, dee Fall - so Spring comes before
    Fall (turn order alone would favour Spring) and Summer before Winter."""
    state = position(deal_backs(*EXAMPLE_FACES), order=("Sp", "Su", "Wi", "Fa"))
    out = GAME.outcome(state)
    assert out is not None
    assert scores(out) == {"dee": (4, 1), "ann": (3, 2), "bob": (2, 3), "cy": (1, 4)}
    assert [s.player for s in out.standings] == ["dee", "ann", "bob", "cy"]
    assert out.winners == ("dee",)
    details = "\n".join(out.details)
    fall_spring = [d for d in out.details if "Fall" in d and "Spring" in d and "group" in d]
    summer_winter = [d for d in out.details if "Summer" in d and "Winter" in d and "turn order" in d]
    assert fall_spring, details
    assert summer_winter, details


def test_6_turn_order_tie_break_follows_turn_order_not_the_seasons():
    """6: "then by checking who was first in turn order": the same board with Winter's
    player before Summer's gives Winter the 2 points."""
    state = position(deal_backs(*EXAMPLE_FACES), order=("Wi", "Sp", "Su", "Fa"))
    out = GAME.outcome(state)
    assert scores(out) == {"dee": (4, 1), "bob": (3, 2), "ann": (2, 3), "cy": (1, 4)}


# A board where the counts decide everything: Winter 6, Fall 5, Summer 3, Spring 2,
# with Summer's largest group (3) larger than Winter's and Fall's.
COUNTS_FACES = (
    "Wi Fa Wi Fa",
    "Su Wi Fa Wi",
    "Su Fa Wi Sp",
    "Su Wi Fa Sp",
)


def test_6_points_4_3_2_1_by_cards_face_up():
    """6: "the most seasons on the board awards 4 points to its player, the 2nd most 3
    points etc." - the count comes before the largest group."""
    cards = deal_backs(*COUNTS_FACES)
    assert face_counts(cards) == {"Wi": 6, "Fa": 5, "Su": 3, "Sp": 2}
    groups = largest_groups(cards)
    assert groups["Su"] > groups["Wi"] and groups["Su"] > groups["Fa"]
    # Turn order: Spring, Summer, Fall, Winter (Winter's player last).
    out = GAME.outcome(position(cards, order=("Sp", "Su", "Fa", "Wi")))
    assert scores(out) == {"dee": (4, 1), "cy": (3, 2), "bob": (2, 3), "ann": (1, 4)}
    assert out.winners == ("dee",)
    assert sorted(s.score for s in out.standings) == [1, 2, 3, 4]


# 3 players: Summer 6, Fall 4, Winter 3, Spring 3 - Winter and Spring tie on count
# and largest group (2 each); Spring belongs to nobody.
THREE_FACES = (
    "Su Su Su Wi",
    "Fa Fa Su Wi",
    "Sp Sp Su Sp",
    "Fa Fa Su Wi",
)


def test_6_three_players_the_unowned_season_loses_the_turn_order_tie_break():
    """6 with 3 players (ruling: a season nobody plays comes after the others in turn
    order): Winter (cy, the last seat) and Spring (nobody) tie on cards and groups;
    Winter takes the 2 points, Spring the 1 that nobody scores."""
    cards = deal_backs(*THREE_FACES)
    assert face_counts(cards) == {"Su": 6, "Fa": 4, "Wi": 3, "Sp": 3}
    groups = largest_groups(cards)
    assert groups["Wi"] == groups["Sp"] == 2
    state = position(cards, players=3, order=("Su", "Fa", "Wi", "Sp"))
    out = GAME.outcome(state)
    assert scores(out) == {"ann": (4, 1), "bob": (3, 2), "cy": (2, 3)}
    assert out.winners == ("ann",)
    assert any("Winter" in d and "Spring" in d and "nobody" in d for d in out.details), out.details


def test_6_three_players_real_setup_marks_the_absent_season_unowned():
    """6 with 3 players: in a dealt game the absent season is last in turn order."""
    seed = three_player_seed("Sp")
    state = position(deal_backs(*THREE_FACES), players=3, seed=seed)
    assert state.season_order[-1] == SP and state.owners[SP] == -1
    out = GAME.outcome(state)
    # Spring (nobody) ties with Winter and loses: whoever plays Winter gets 2.
    winter = NAMES[state.owners[WI]]
    assert scores(out)[winter][0] == 2
    assert sorted(s.score for s in out.standings) == [2, 3, 4]


# 2 players: counts Winter 7, Spring 4, Summer 3, Fall 2.
TWO_FACES = (
    "Wi Sp Wi Su",
    "Sp Wi Fa Wi",
    "Wi Su Wi Sp",
    "Fa Wi Su Sp",
)


def test_6_two_players_score_is_the_sum_of_two_seasons():
    """6 with 2 players: a player's score is the sum of their two seasons' points."""
    cards = deal_backs(*TWO_FACES)
    assert face_counts(cards) == {"Wi": 7, "Sp": 4, "Su": 3, "Fa": 2}
    # ann: Spring and Fall; bob: Winter and Summer.
    out = GAME.outcome(position(cards, players=2, order=("Sp", "Wi", "Fa", "Su")))
    assert scores(out) == {"bob": (4 + 2, 1), "ann": (3 + 1, 2)}
    assert out.winners == ("bob",)


def test_6_two_players_tie_on_totals_goes_to_the_higher_ranked_season():
    """6 with 2 players (ruling): ann holds the 2nd and 3rd seasons (3 + 2), bob the 1st
    and 4th (4 + 1); a tie on 5 goes to bob, who holds the 1st-ranked season - even
    though ann is first in turn order."""
    cards = deal_backs(*TWO_FACES)
    # ann: Spring (2nd) and Summer (3rd); bob: Winter (1st) and Fall (4th).
    out = GAME.outcome(position(cards, players=2, order=("Sp", "Wi", "Su", "Fa")))
    assert scores(out) == {"bob": (5, 1), "ann": (5, 2)}
    assert out.winners == ("bob",)
    assert any("bob" in d and "ann" in d for d in out.details), out.details


def test_6_two_players_turn_order_tie_break_uses_the_order_drawn():
    """6 with 2 players, tie_order=seasons (rules version 1's reading: for the
    turn-order tie-break the seasons are in the order drawn - seat 0's first, seat 1's
    first, seat 0's second, seat 1's second). The example board: Summer and Winter tie
    on 3 cards and groups of 2; Winter was drawn 2nd (bob's first) and Summer 3rd
    (ann's second), so Winter takes 2 points although ann sits first."""
    cards = deal_backs(*EXAMPLE_FACES)
    # ann: Spring and Summer; bob: Winter and Fall.
    state = position(cards, players=2, order=("Sp", "Wi", "Su", "Fa"), tie_order="seasons")
    out = GAME.outcome(state)
    # Fall 4 (bob), Spring 3 (ann), Winter 2 (bob), Summer 1 (ann).
    assert scores(out) == {"bob": (4 + 2, 1), "ann": (3 + 1, 2)}
    assert expected_scores(state, "seasons")[0] == ["Fa", "Sp", "Wi", "Su"]


def test_6_two_players_turn_order_tie_break_follows_the_players():
    """6 with 2 players, tie_order=players (the default): "who was first in turn
    order" is the players' turn order, so ann's Summer beats bob's Winter on the
    same full tie: Fall 4 (bob), Spring 3 (ann), Summer 2 (ann), Winter 1 (bob). The
    totals tie on 5, and bob holds the higher-ranked season (Fall)."""
    cards = deal_backs(*EXAMPLE_FACES)
    state = position(cards, players=2, order=("Sp", "Wi", "Su", "Fa"), tie_order="players")
    out = GAME.outcome(state)
    assert expected_scores(state, "players") == (["Fa", "Sp", "Su", "Wi"], {"bob": 5, "ann": 5})
    assert scores(out) == {"bob": (5, 1), "ann": (5, 2)}
    assert any("Summer ranks above Winter" in d and "turn order" in d for d in out.details)


# 2 players: Spring and Fall tie on 5 cards and largest groups of 3 for the most
# cards; Summer 4 is 3rd, Winter 2 is 4th.
TIE_FACES = (
    "Sp Sp Sp Su",
    "Fa Fa Fa Su",
    "Sp Wi Su Su",
    "Fa Wi Sp Fa",
)


def test_6_two_players_tie_order_decides_the_winner():
    """6 with 2 players: the two readings of "who was first in turn order" give
    different winners. Seasons drawn Summer, Spring, Fall, Winter: ann plays Summer
    and Fall, bob Spring and Winter. Spring (bob's first, drawn 2nd) and Fall (ann's
    second, drawn 3rd) tie on everything for 1st place.
    players: Fall (ann, first in turn order) 4, Spring 3, Summer 2, Winter 1 - ann 6, bob 4.
    seasons: Spring (drawn before Fall) 4, Fall 3, Summer 2, Winter 1 - 5 each, and bob
    holds the 1st-ranked season, so bob wins."""
    cards = deal_backs(*TIE_FACES)
    assert face_counts(cards) == {"Sp": 5, "Fa": 5, "Su": 4, "Wi": 2}
    assert largest_groups(cards) == {"Sp": 3, "Fa": 3, "Su": 4, "Wi": 2}
    order = ("Su", "Sp", "Fa", "Wi")
    players = position(cards, players=2, order=order, tie_order="players")
    seasons = position(cards, players=2, order=order, tie_order="seasons")
    assert expected_scores(players, "players") == (["Fa", "Sp", "Su", "Wi"], {"ann": 6, "bob": 4})
    assert expected_scores(seasons, "seasons") == (["Sp", "Fa", "Su", "Wi"], {"ann": 5, "bob": 5})
    out = GAME.outcome(players)
    assert scores(out) == {"ann": (6, 1), "bob": (4, 2)}
    assert out.winners == ("ann",)
    assert any("Fall ranks above Spring" in d and "turn order" in d for d in out.details), out.details
    out = GAME.outcome(seasons)
    assert scores(out) == {"bob": (5, 1), "ann": (5, 2)}
    assert out.winners == ("bob",)
    assert any("Spring ranks above Fall" in d and "turn order" in d for d in out.details), out.details


def test_6_two_players_a_full_tie_of_one_players_seasons_changes_no_score():
    """6 with 2 players, tie_order=players: Summer and Winter tie on everything and
    both are ann's; the one drawn first ranks first, and the details say the order
    changes no score (ann gets 2 + 1 either way)."""
    cards = deal_backs(*EXAMPLE_FACES)
    state = position(cards, players=2, order=("Su", "Sp", "Wi", "Fa"), tie_order="players")
    out = GAME.outcome(state)
    assert expected_scores(state, "players") == (["Fa", "Sp", "Su", "Wi"], {"bob": 7, "ann": 3})
    assert scores(out) == {"bob": (7, 1), "ann": (3, 2)}
    line = next(d for d in out.details if "Summer ranks above Winter" in d)
    assert "both are ann's" in line and "no score" in line


@pytest.mark.parametrize("players", [3, 4])
def test_6_tie_order_changes_nothing_with_three_or_four_players(players):
    """6: with 3 or 4 players each season has its own player, so the players' turn
    order and the order drawn are the same order: both values give the same result,
    word for word (the example board, Summer and Winter tied)."""
    cards = deal_backs(*EXAMPLE_FACES)
    order = ("Sp", "Su", "Wi", "Fa")
    outs = [
        GAME.outcome(position(cards, players=players, order=order, tie_order=value))
        for value in ("players", "seasons")
    ]
    assert outs[0] == outs[1]
    assert any("Summer ranks above Winter" in d for d in outs[0].details)


def test_6_two_players_random_games_with_a_full_tie_follow_tie_order():
    """6 with 2 players: whole random games ending in a full tie between a season of
    each player are scored as the oracle says under both values of tie_order."""
    found = 0
    for i in range(300):
        last = random_game(2, f"tie-{i}")[-1]
        cards = table(last)
        key = {s: (face_counts(cards)[s], largest_groups(cards)[s]) for s in SEASONS}
        if not any(key[a] == key[b] and last.owners[season(a)] != last.owners[season(b)]
                   for a, b in itertools.combinations(SEASONS, 2)):
            continue
        for value in ("players", "seasons"):
            state = msgspec.structs.replace(last, tie_order=value)
            _, expected = expected_scores(state, value)
            out = GAME.outcome(state)
            assert {s.player: s.score for s in out.standings} == {p: expected[p] for p in NAMES[:2]}
        found += 1
    assert found >= 5


def test_6_tie_order_is_a_rules_version_2_parameter():
    """6 (R7): tie_order came with rules version 2. A new log records it with the
    default, players; a log pinned to rules version 1 (here the example written
    before it existed) does not, and is played with seasons, version 1's reading."""
    param = next(p for p in GAME.params if p.name == "tie_order")
    assert (param.default, param.choices, param.applies, param.since, param.legacy) == (
        "players", ("players", "seasons"), "2 players", 2, "seasons")
    assert rules.RULES == 2
    log = match.new_log("turn-of-time", NAMES[:2], "v2")
    assert log.rules == rules.RULES and log.params["tie_order"] == "players"
    assert match.start(log)[1].tie_order == "players"
    old = logmod.decode((EXAMPLES / "2-players-tie.json").read_bytes())
    assert old.rules is None and "tie_order" not in old.params
    assert match.validate(old).state.tie_order == "seasons"


@pytest.mark.parametrize(
    ("players", "seed", "tie_order"),
    [(4, "s1", "players"), (4, "s2", "seasons"), (3, "s3", "players"), (2, "s4", "players"),
     (2, "s4", "seasons"), (4, "s5", "players")],
)
def test_6_scoring_of_random_games_follows_the_rule(players, seed, tie_order):
    """6: for whole random games, the points are given by count, then largest group,
    then turn order (a season nobody plays last; 2 players: as tie_order says); 2
    players add their two seasons."""
    last = random_game(players, seed, tie_order=tie_order)[-1]
    if players == 3:
        assert SEASONS[last.season_order[-1]] not in {
            SEASONS[s] for s in range(4) if last.owners[s] >= 0
        }
    _, expected = expected_scores(last, tie_order)
    out = GAME.outcome(last)
    assert {s.player: s.score for s in out.standings} == {NAMES[i]: expected[NAMES[i]] for i in range(players)}
    top = max(expected.values())
    assert out.winners[0] in [p for p, v in expected.items() if v == top]


# =====================================================================================
# 7. SOLO RULES
# =====================================================================================


def test_7_solo_deck_is_the_16_cards_shuffled_from_the_seed():
    """7: "Draw and play seasons from a shuffled deck": all 16 cards, in an order that
    depends on the seed only."""
    a = GAME.setup(DEFAULTS, ("solo",), "1")
    assert Counter(a.deck) == DECK_BY_HAND
    assert a == GAME.setup(DEFAULTS, ("solo",), "1")
    decks = {GAME.setup(DEFAULTS, ("solo",), str(i)).deck for i in range(20)}
    assert len(decks) > 15


def test_7_solo_the_drawn_card_must_be_played():
    """7: each turn the top card is drawn and placed (either face up); another card is
    refused citing 7."""
    state = GAME.setup(DEFAULTS, ("solo",), "3")
    drawn = text(state.deck[0])
    other = next(text(k) for k in DECK if k != state.deck[0])
    err = refused(state, f"{other}-d4")
    assert err.clause == "Turn of Time 7"
    faces = {GAME.format_move(state, m) for m in GAME.legal_moves(state)}
    assert faces == {f"{drawn}-d4", f"{turned(drawn)}-d4"}
    after = play(state, f"{turned(drawn)}-d4")
    assert after.deck == state.deck[1:]
    assert table(after) == {"d4": turned(drawn)}
    assert after.seat == 0


# Dominance met: 7 connected Fall (rank 4 and a3-c3), counts not 4 of each.
DOMINANT = ("Fa Fa Fa Fa", "Fa Fa Fa Sp", "Sp Su Wi Sp", "Su Wi Su Wi")
# 7 Fall but only 6 connected: not dominance.
SIX = ("Fa Fa Fa Fa", "Fa Fa Sp Sp", "Sp Su Wi Fa", "Su Wi Su Wi")
# Balance: exactly 4 of each, largest group 4.
BALANCED = ("Sp Sp Su Su", "Sp Sp Su Su", "Fa Fa Wi Wi", "Fa Fa Wi Wi")
# Neither: 5 Spring, 3 Winter, no group of 7.
NEITHER = ("Sp Sp Su Su", "Sp Sp Su Su", "Fa Fa Wi Wi", "Fa Fa Wi Sp")


def solo_end(faces, goal):
    return position(deal_backs(*faces), players=1, goal=goal)


def test_7_solo_boards_are_as_described():
    """7: the boards below are what their names say (hand-written counting). Only 7
    cards carry a given season, so 7 connected is the most dominance can reach."""
    assert largest_groups(deal_backs(*DOMINANT))["Fa"] == 7
    assert face_counts(deal_backs(*SIX))["Fa"] == 7
    assert max(largest_groups(deal_backs(*SIX)).values()) == 6
    assert set(face_counts(deal_backs(*BALANCED)).values()) == {4}
    assert face_counts(deal_backs(*NEITHER)) == {"Sp": 5, "Su": 4, "Fa": 4, "Wi": 3}
    assert max(largest_groups(deal_backs(*NEITHER)).values()) < 7


@pytest.mark.parametrize(
    ("faces", "goal", "won"),
    [
        (DOMINANT, "dominance", True),
        (SIX, "dominance", False),
        (BALANCED, "dominance", False),
        (NEITHER, "dominance", False),
        (DOMINANT, "balance", False),
        (SIX, "balance", False),
        (BALANCED, "balance", True),
        (NEITHER, "balance", False),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_7_solo_goal_met_or_not(faces, goal, won):
    """7: "Dominance: End the game with 7 connected of 1 season." "Balance: End the
    game with 4 of each season." The goal chosen at setup decides the winner."""
    out = GAME.outcome(solo_end(faces, goal))
    assert out is not None
    assert out.winners == (("solo",) if won else ())
    assert [(s.player, s.score) for s in out.standings] == [("solo", int(won))]
    assert any("dominance" in d for d in out.details)
    assert any("balance" in d for d in out.details)


@pytest.mark.parametrize(("seed", "goal"), [("1", "dominance"), ("2", "balance"), ("3", "dominance"), ("4", "balance")])
def test_7_solo_random_game_result_matches_the_goal(seed, goal):
    """7: a whole solo game: 16 draws, then the result is a win exactly when the goal
    chosen is met on the final table (checked by hand-written counting)."""
    last = random_game(1, seed, goal=goal)[-1]
    cards = table(last)
    met = (
        max(largest_groups(cards).values()) >= 7
        if goal == "dominance"
        else all(face_counts(cards)[s] == 4 for s in SEASONS)
    )
    out = GAME.outcome(last)
    assert out.winners == (("solo",) if met else ())


# =====================================================================================
# Notation
# =====================================================================================


@pytest.mark.parametrize("typed", ["fall/spring c3", "FA SP - C3", "Autumn Spring @ c3", "FaSpc3", "fasp-C3"])
def test_notation_tolerant_input_without_order(typed):
    """Notation: case, spaces, '/' between the seasons, '@' and full season names are
    forgiven; the canonical form is FaSp-c3."""
    move = GAME.parse_move(None, typed)
    assert (move.face, move.back, move.square, move.order) == (FA, SP, sq("c3"), ())
    state = position({"d4": "WiWi", "c4": "SuSu"}, ["FaSp"])
    assert GAME.format_move(state, move) == "FaSp-c3"
    assert GAME.parse_move(state, "FaSp-c3") == move


@pytest.mark.parametrize("typed", ["Fa/Sp@c3:NW", "fall/spring c3 nw", "FA SP - C3 : N W", "FaSpc3/nw"])
def test_notation_tolerant_input_with_order(typed):
    """Notation: the order of meetings is read in any case and separator, and kept when
    it matters (the worked example position: north, then west)."""
    move = GAME.parse_move(None, typed)
    assert move.order == (0, 3)  # n, then w
    state = position(WORKED, ["FaSp"])
    canonical = GAME.format_move(state, move)
    assert canonical == "FaSp-c3:nw"
    back = GAME.parse_move(state, canonical)
    assert back == move
    assert table(GAME.apply(state, back)) == table(GAME.apply(state, move))


def test_notation_round_trip_of_every_legal_move():
    """Notation: every legal move's canonical form reads back to a move with the same
    outcome, and is written again the same way."""
    for state in random_game(4, "notation")[:-1]:
        for m in GAME.legal_moves(state):
            written = GAME.format_move(state, m)
            again = GAME.parse_move(state, written)
            assert GAME.format_move(state, again) == written
            assert GAME.apply(state, again) == GAME.apply(state, m)


@pytest.mark.parametrize(
    ("typed", "mentions"),
    [
        ("", None),
        ("hello", None),
        ("FaSp", None),
        ("Fa-c3", "back"),
        ("FaXx-c3", None),
        ("FaSp-h9", "h9"),
        ("FaSp-d8", "d8"),
        ("FaSp-c3:nx", "nx"),
        ("FaSp-c3:nn", "nn"),
        ("FaSp-c3-d4", None),
    ],
)
def test_notation_garbage_is_a_notation_error(typed, mentions):
    """Notation: text that is not a move is refused as a NotationError (not as an
    illegal move), with a one-line message saying what was expected or what is wrong."""
    with pytest.raises(NotationError) as info:
        GAME.parse_move(None, typed)
    err = info.value
    assert not isinstance(err, IllegalMoveError)
    message = str(err)
    assert message and "\n" not in message
    if mentions is None:
        assert "FaSp-c3" in message  # shows the expected form
    else:
        assert mentions in message


# =====================================================================================
# Resignation and abandonment (notation/turn-of-time.md, the events of notation/README.md)
# =====================================================================================

SAMPLE_START = ("SuWi-d4", "WiSp-e4", "SuSu-d5", "FaSp-e5:sw")  # the sample game's first 4 moves


def test_resigning_ranks_the_others_by_the_standing_and_the_resigner_last():
    """notation/turn-of-time.md, Resigning: after the sample game's 4th move Summer
    (cy) leads with 2 cards, Winter (ann) and Fall (dee) have 1 each (Winter earlier in
    turn order), Spring (bob) none. cy resigns: ann 3 points 1st (the winner), dee 2nd,
    bob 3rd, cy last with 4 points; the standing's lines are kept."""
    log = match.extend(match.new_log("turn-of-time", NAMES, "0"), list(SAMPLE_START))
    standing = GAME.standing(match.validate(log).state)
    assert [(r.player, r.score) for r in standing.standings] == [
        ("cy", 4), ("ann", 3), ("dee", 2), ("bob", 1)]
    log = match.extend(log, ["@resign"], as_player="cy")
    assert [(r.player, r.score, r.place) for r in log.result.standings] == [
        ("ann", 3, 1), ("dee", 2, 2), ("bob", 1, 3), ("cy", 4, 4)]
    assert log.result.winners == ("ann",)
    assert log.result.details == (*standing.details, "cy resigned: ranked last")
    assert match.validate(log).outcome == log.result


def test_resigning_solo_misses_the_goal_and_abandoning_has_no_result():
    """notation/turn-of-time.md: a solo player who resigns misses the goal (no
    winner); an abandonment accepted by every other player ends the game with no
    result."""
    solo = match.new_log("turn-of-time", ["sol"], "1")
    state = match.start(solo)[1]
    solo = match.extend(solo, [GAME.format_move(state, GAME.legal_moves(state)[0])])
    solo = match.extend(solo, ["@resign"], as_player="sol")
    assert solo.result.winners == ()
    assert solo.result.details == ("sol resigned: the goal is missed",)
    log = match.extend(match.new_log("turn-of-time", NAMES, "0"), list(SAMPLE_START))
    log = match.extend(log, ["@abandon"], as_player="ann")
    for name in ("bob", "cy"):
        log = match.extend(log, ["@accept"], as_player=name)
        assert log.result is None, "it waits for every other player"
    log = match.extend(log, ["@accept"], as_player="dee")
    assert log.result.standings == () and log.result.winners == ()
    assert log.result.details == ("abandoned by agreement: no result",)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_a_consistent_state_gives_back_the_view(n):
    """rules.consistent: at random positions of random games (every parameter
    choice), a state rebuilt from any seat's view, or a spectator's, gives
    that view back, the same for the same seed; and the rules carry on from it."""
    names = NAMES[:n] if n > 1 else ("sol",)
    rng = random.Random(f"consistent/{n}")
    for k, params in enumerate(({}, {"absent-doubles": "example", "goal": "balance",
                                      "tie_order": "seasons"})):
        for game in range(5):
            full = {**DEFAULTS, **params}
            state = GAME.setup(full, names, f"consistent-{k}-{game}")
            for _ in range(rng.randrange(17)):
                if GAME.to_move(state) is None:
                    break
                state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            for seat in (None, *range(n)):
                v = GAME.view(state, seat)
                for seed in ("a", "b", "reader"):
                    again = rules.consistent(v, full, seed)
                    assert GAME.view(again, seat) == v, (seat, seed)
                    assert rules.consistent(v, full, seed) == again
                    for move in GAME.legal_moves(again)[:3]:
                        GAME.apply(again, move)
