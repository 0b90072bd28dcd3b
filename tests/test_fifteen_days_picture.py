"""15 Days: pictures of the table (``draw``), drawn from a view alone.

Random positions of every player count: the SVG is well-formed, and the
picture a player (or a spectator) gets is byte for byte the same whatever
the cards they cannot see are (``redeal``). Then a few positions checked
for what is drawn: hands face up for their owner only, piles, corners,
wilds, tokens, and the last move's highlight read from its text.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import msgspec
import pytest

from adjudicator import drawing
from adjudicator.chance import Chance
from adjudicator.games.fifteen_days import GAME as fd

NAMES = ("ann", "bob", "cy", "dee")
SVG = "{http://www.w3.org/2000/svg}"
DEFAULTS = {"first-player": "seat-0", "feathers": "one-per-turn"}


def picture(state, seat, last=None, ply=0, names=NAMES):
    names = names[: len(state.players)]
    scene = drawing.scene(fd, names, state, ply, last, seat)
    return fd.draw(fd.view(state, seat), scene)


def classes(svg: str) -> list[str]:
    return [e.get("class") for e in ET.fromstring(svg).iter() if e.get("class")]


def texts(svg: str) -> list[str]:
    return [e.text for e in ET.fromstring(svg).iter(f"{SVG}text") if e.text]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pictures_are_svg_and_show_nothing_hidden(players):
    for k in range(2):
        seed = f"picture/{players}/{k}"
        state = fd.setup(DEFAULTS, NAMES[:players], seed)
        rng = Chance(seed, "play")
        ply, last = 0, None
        while True:
            over = fd.to_move(state) is None
            if ply % 25 == 0 or over:
                for seat in [None, *range(players)]:
                    svg = picture(state, seat, last, ply)
                    root = ET.fromstring(svg)
                    assert root.tag == f"{SVG}svg" and root.get("width") == "800"
                    for r in range(2):
                        other = fd.redeal(state, seat, f"{seed}/{ply}/{r}")
                        assert picture(other, seat, last, ply) == svg, (seed, ply, seat)
            if over:
                break
            moves = fd.legal_moves(state)
            move = moves[rng.below(len(moves))]
            last = (NAMES[fd.to_move(state)], fd.format_move(state, move))
            state = fd.apply(state, move)
            ply += 1


def test_picture_is_deterministic():
    state = fd.setup(DEFAULTS, NAMES[:3], "same")
    assert picture(state, 1) == picture(fd.setup(DEFAULTS, NAMES[:3], "same"), 1)


def test_own_hand_face_up_others_face_down():
    """Gameplay: each player starts with 2 cards; only the viewer's show."""
    state = fd.setup(DEFAULTS, NAMES[:3], "hands")
    mine = classes(picture(state, 1))
    assert mine.count("card face-up hand") == 2
    assert mine.count("card face-down hand") == 4
    public = classes(picture(state, None))
    assert public.count("card face-up hand") == 0
    assert public.count("card face-down hand") == 6


def test_piles_market_discard_and_supply_are_drawn():
    state = fd.setup(DEFAULTS, NAMES[:2], "table")
    svg = picture(state, None)
    found = classes(svg)
    assert found.count("pile") == 2 and found.count("card market") == 9
    assert "discard empty" in found
    words = texts(svg)
    assert "31 left" in words  # 2 players: piles of 31 and 31 (R3)
    assert {"Otter", "Frog", "Squirrel", "Rabbit"} <= set(words)  # all in the supply
    assert "empty: \u22122" in words  # an empty corner scores -2


def test_corners_show_seasons_runs_and_wilds():
    """Take 1 wild card: a wild stands for a missing value, drawn dashed with a star."""
    state = fd.setup(DEFAULTS, NAMES[:2], "corners")
    board = ((2, 0b101100, 0b000010), (-1, 0, 0), (-1, 0, 0), (1, 0b111111, 0))
    state = msgspec.structs.replace(state, boards=(board, state.boards[1]), animals=(-1, 0, -1, -1))
    svg = picture(state, 0)
    words = texts(svg)
    assert "\u2193 Autumn" in words and "\u2191 Summer" in words
    assert "run 6" in words and "\u2713 set" in words
    assert "Au \u2605" in words  # the wild standing for Au2
    assert "Frog" in words  # ann holds the Summer token


@pytest.mark.parametrize(("text", "what"), [
    ("D2", "pile"), ("FD1", "pile"), ("R1", "pile"),
    ("Tb", "take"), ("Td", "take"), ("XSu1", "paid"),
])
def test_last_move_highlight_from_its_text(text, what):
    state = fd.setup(DEFAULTS, NAMES[:2], "last")
    state = msgspec.structs.replace(state, discard=(24 + 6,))
    svg = picture(state, 0, ("ann", text), ply=5)
    assert classes(svg).count("last") == 1, what
    assert "Last move: ann " + text in texts(svg)


def test_last_move_played_card_is_outlined_on_the_mover_board_only():
    state = fd.setup(DEFAULTS, NAMES[:2], "played")
    board = ((2, 0b001100, 0), (-1, 0, 0), (-1, 0, 0), (-1, 0, 0))
    state = msgspec.structs.replace(state, boards=(board, board))
    root = ET.fromstring(picture(state, 1, ("ann", "PAu4"), ply=9))
    outlined = [e for e in root.iter(f"{SVG}rect") if e.get("class") == "last"]
    assert len(outlined) == 1  # on ann's Au4, not bob's
    assert not ET.fromstring(picture(state, 1, ("bob", "E"), ply=9)).findall(
        f".//{SVG}rect[@class='last']")


def test_long_names_stay_left_of_the_corners():
    names = tuple(ch * 24 for ch in "WXYZ")
    state = fd.setup(DEFAULTS, names, "long")
    root = ET.fromstring(picture(state, 0, names=names))
    squeezed = [e for e in root.iter(f"{SVG}text") if e.get("textLength")]
    assert len(squeezed) == 4 and all(float(e.get("textLength")) <= 204 for e in squeezed)


# --- what a covered card and a view file's footer show (issue #26) ----------------------------


def test_a_market_card_under_another_shows_its_value_and_season_in_the_strip_left() -> None:
    """The market's columns overlap downwards: of a card with another dealt
    over it only the top 22 px show, so its value and season go there."""
    state = fd.setup({**DEFAULTS, "wild": "any"}, NAMES[:3], "0")
    v = fd.view(state, None)
    assert any(len(column) > 1 for column in v.market)
    root = ET.fromstring(picture(state, None))
    strip = 22  # the market's step down a column
    cards = [g for g in root.iter(f"{SVG}g") if g.get("class") == "card market"]
    assert len(cards) == sum(len(column) for column in v.market)
    for g in cards:
        rect = g.find(f"{SVG}rect")
        column = v.market[round((float(rect.get("x")) - 140) / 56)]
        k = round((float(rect.get("y")) - 40) / strip)
        card, top = column[k], float(rect.get("y"))
        highest: dict[str, float] = {}
        for t in g.iter(f"{SVG}text"):
            highest[t.text] = min(highest.get(t.text, 1e9), float(t.get("y")))
        assert card[2] in highest and card[:2] in highest
        if k < len(column) - 1:  # value and season both in the strip left in sight
            assert highest[card[2]] <= top + strip and highest[card[:2]] <= top + strip, highest


def test_a_view_files_footer_points_at_the_scores_the_panels_show() -> None:
    """A view file carries no standing (drawing.Scene.standing is None); its
    picture's panels still show each player's score: the footer says where."""
    state = fd.setup({**DEFAULTS, "wild": "any"}, NAMES[:2], "0")
    scene = msgspec.structs.replace(drawing.scene(fd, NAMES[:2], state, 0, None, 0), standing=None)
    svg = fd.draw(fd.view(state, 0), scene)
    assert "not shown" not in svg
    assert "in each player's panel" in texts(svg)
    assert sum(t.startswith("score ") for t in texts(svg)) == 2
