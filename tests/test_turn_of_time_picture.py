"""Turn of Time pictures: what is drawn, and that it is drawn from the view alone."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from adjudicator import drawing, match
from adjudicator.games.turn_of_time import GAME

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ("ann", "bob", "cy", "dee")


def positions(n: int, seed: str):
    """(state, ply, last move) along a random game."""
    log = match.simulate("turn-of-time", NAMES[:n] if n > 1 else ("sol",), seed)
    rep = match.replay(log, keep=True)
    for ply, state in enumerate(rep.states):
        entry = log.moves[ply - 1] if ply else None
        yield state, ply, None if entry is None else (entry.by, entry.move)


def draw(state, ply, last, seat):
    players = state.players
    scene = drawing.scene(GAME, players, state, ply, last, seat)
    return GAME.draw(GAME.view(state, seat), scene)


def groups(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == cls]


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_picture_is_svg_and_shows_what_the_view_holds(n):
    for state, ply, last in positions(n, f"pic-{n}"):
        v = GAME.view(state, None)
        svg = draw(state, ply, last, None)
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg" and float(root.get("width")) == 800
        assert len(groups(svg, "card")) == len(v.board)  # every card on the grid
        assert len(groups(svg, "open")) == len(v.open)  # every square open to the next card
        hands = sum(len(h) for h in v.hands) + (v.drawn is not None)
        assert len(groups(svg, "hand-card")) == hands
        texts = [t.text for t in root.iter(f"{SVG}text")]
        for square, card in v.board.items():
            assert square in texts and card[:2] in texts and f"back {card[2:]}" in texts
        framed = groups(svg, "last")
        assert len(framed) == (1 if last else 0)
        if last:  # the frame is on the card whose title names the square placed on
            square = last[1].split("-")[1][:2]
            card = next(g for g in groups(svg, "card") if g.find(f"{SVG}title").text.startswith(square))
            assert card.find(f"{SVG}rect[@class='last']") is not None


def test_solo_picture_shows_the_drawn_card_and_the_deck_face_down():
    state, ply, last = next(positions(1, "pic-solo"))
    svg = draw(state, ply, last, 0)
    texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "15 face down" in texts and "Goal: dominance" in texts
    assert len(groups(svg, "face-down")) == 4  # a stack, not the cards


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_picture_of_a_seat_is_the_same_whatever_it_cannot_see(n):
    """Drawn from the view only: re-dealing what a seat cannot see (the solo
    deck below the drawn card) leaves its picture byte for byte."""
    rng = random.Random(n)
    for state, ply, last in positions(n, f"redeal-{n}"):
        if rng.random() > 0.4:
            continue
        for seat in (None, *range(n)):
            svg = draw(state, ply, last, seat)
            assert draw(state, ply, last, seat) == svg
            for k in range(2):
                other = GAME.redeal(state, seat, f"redeal/{ply}/{k}")
                assert draw(other, ply, last, seat) == svg
