"""Time Palatrix as a picture: well-formed SVG, drawn from the view alone (so
it never shows a hidden card), and the table as it lies: boards, pawns,
bids, tricks, the viewer's hand face up and the others face down."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from adjudicator import drawing, match
from adjudicator.games.time_palatrix import GAME, cards

NAMES = ("ann", "bob", "cy", "dee")
SVG = "{http://www.w3.org/2000/svg}"
CARD = re.compile(r"\b[POGB](?:1[0-2]|[1-9])\b")


def draw(state, seat, last=None, ply=0):
    names = state.players
    return GAME.draw(GAME.view(state, seat), drawing.scene(GAME, names, state, ply, last, seat))


def classes(svg: str) -> list[str]:
    return [e.get("class", "") for e in ET.fromstring(svg).iter()]


def texts(svg: str) -> str:
    root = ET.fromstring(svg)
    return " ".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))


def random_positions(players: int, locations: int, seed: str, every: int):
    rng = random.Random(seed)
    state = GAME.setup({"locations": locations}, NAMES[:players], seed)
    ply = 0
    while GAME.to_move(state) is not None:
        if ply % every == 0:
            yield state
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        ply += 1
    yield state


@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_sees_the_same_picture_whatever_the_hidden_cards(players, locations):
    """Drawn from the view alone: re-dealing what a seat cannot see leaves its
    picture byte for byte; and every picture is well-formed SVG."""
    for k, state in enumerate(random_positions(players, locations, f"pic/{players}", 23)):
        for seat in (None, *range(players)):
            svg = draw(state, seat)
            assert ET.fromstring(svg).tag == f"{SVG}svg"
            v = GAME.view(state, seat)
            seen = {c for board in v.boards for c in board if c} | set(v.my_cards or ())
            seen |= {c for t in v.tricks_played for c in t.cards}
            assert set(CARD.findall(svg)) <= seen
            for r in range(2):
                other = GAME.redeal(state, seat, f"pic/{k}/{r}")
                assert draw(other, seat) == svg


def test_the_viewer_holds_their_cards_face_up_and_sees_only_backs_of_the_others():
    state = GAME.setup({"locations": 3}, NAMES, "hands")
    for seat in range(4):
        svg = draw(state, seat)
        assert classes(svg).count("card hand") == 12
        assert classes(svg).count("backs") == 3
        hand = {c for c in CARD.findall(svg)}
        assert hand == set(GAME.view(state, seat).my_cards)
    public = draw(state, None)
    assert "card hand" not in classes(public) and classes(public).count("backs") == 4
    assert not CARD.findall(public) and "12 cards" in texts(public)


def test_a_placed_card_its_follow_pawn_and_the_last_move():
    """The cards on the boards face up, the small pawn on the card that set a
    location's follow suit, and the last move outlined, read from its text."""
    log = match.extend(match.new_log(GAME.id, NAMES[:3], "105"), ["6", "3+", "3", "B9-3", "G8-1"])
    state = match.replay(log).state
    svg = draw(state, None, last=("bob", "G8-1"), ply=5)
    assert classes(svg).count("card board") == 2
    assert classes(svg).count("follow-pawn") == 2  # ann set location 3, bob location 1
    assert classes(svg).count("start-pawn") == 1
    assert classes(svg).count("last") == 1
    root = ET.fromstring(svg)
    outlined = [g for g in root.iter(f"{SVG}g") if g.get("class") == "location"
                and any(e.get("class") == "last" for e in g.iter())]
    assert not outlined  # the outline is drawn over the card, not inside the slot
    titles = [e.text for e in root.iter(f"{SVG}title")]
    assert "bob's G8 set the follow suit of location 1" in titles
    assert "follow green" in texts(svg) and "follow blue" in texts(svg)
    assert set(CARD.findall(svg)) == {"B9", "G8"}


def test_bids_spare_chips_and_a_bid_as_the_last_move():
    state = GAME.apply(GAME.apply(GAME.setup({"locations": 3}, NAMES[:3], "bids"), cards.Bid(3, True)),
                     cards.Bid(0))
    svg = draw(state, None, last=(GAME.view(state, None).players[0], "3+"), ply=2)
    assert classes(svg).count("bid") == 2 and classes(svg).count("spare") == 1
    assert classes(svg).count("last") == 1
    assert "not yet" in texts(svg)


def test_the_tricks_of_the_hand_lead_and_winner():
    """After a round: every trick with each card, the lead in brackets and the
    winner boxed; the scoring of finished hands once there is one."""
    rng = random.Random(5)
    state = GAME.setup({"locations": 3}, NAMES[:3], "tricks")
    while not GAME.view(state, None).results:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    v = GAME.view(state, None)
    svg = draw(state, None)
    assert classes(svg).count("trick-card won") == len(v.tricks_played) == 12
    assert classes(svg).count("trick-card") == 12 * 2
    assert len(re.findall(r"\[[POGB][0-9]+\]", texts(svg))) == 12
    assert "Scores by hand" in texts(svg) and "Tricks of hand 1 (the hand just ended)" in texts(svg)


def test_the_picture_is_deterministic():
    state = next(s for i, s in enumerate(random_positions(4, 4, "det", 1)) if i == 40)
    assert draw(state, 2, last=("bob", "x"), ply=40) == draw(state, 2, last=("bob", "x"), ply=40)
