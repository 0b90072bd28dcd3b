"""Time Palatrix as text for mail: every line of every view fits in 72
columns, in plain printable ASCII when asked, at random positions of every
player count and both sides of the boards, with short names and with the
longest names a log allows (24 characters)."""

from __future__ import annotations

import random
import re

import pytest

from adjudicator.engine import Style
from adjudicator.games.time_palatrix import GAME

NAME_SETS = {
    "short": ("ann", "bob", "cy", "dee"),
    "medium": ("alexandra", "bartholomew", "christophe", "dominique"),
    "longest": tuple(f"{c}{'x' * 22}{i}" for i, c in enumerate("abcd")),
}


def positions(players: tuple[str, ...], locations: int, seed: str, every: int):
    """Every ``every``-th position of a random game, and its end."""
    rng = random.Random(seed)
    state = GAME.setup({"locations": locations}, players, seed)
    ply = 0
    while GAME.to_move(state) is not None:
        if ply % every == 0:
            yield state
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        ply += 1
    yield state


@pytest.mark.parametrize("names", list(NAME_SETS))
@pytest.mark.parametrize("locations", [3, 4])
@pytest.mark.parametrize("players", [3, 4])
def test_every_line_fits_in_72_columns(players, locations, names):
    for state in positions(NAME_SETS[names][:players], locations, f"width/{names}", 5):
        for seat in (None, *range(players)):
            v = GAME.view(state, seat)
            for style in (Style(unicode=False), Style(unicode=True)):
                text = GAME.render(v, style)
                for line in text.splitlines():
                    assert len(line) <= 72, line
                    if not style.unicode:
                        assert line.isascii() and (line.isprintable() or not line), line


def test_colour_does_not_count_towards_the_width():
    """ANSI colours take no column: the coloured text breaks where the plain does."""
    state = next(p for i, p in enumerate(positions(NAME_SETS["short"], 4, "colour", 1)) if i == 30)
    v = GAME.view(state, 0)
    plain = GAME.render(v, Style(unicode=True))
    painted = GAME.render(v, Style(unicode=True, color=True))
    assert "\x1b[" in painted
    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == plain


def test_the_table_keeps_whole_names_while_they_fit():
    """With 4 locations and names of up to 10 letters no name is cut: the
    follow suits move under the table instead."""
    names = ("alexandra", "bartholomew", "christophe", "dominique")
    for state in positions(names, 4, "whole", 7):
        text = GAME.render(GAME.view(state, None), Style(unicode=False))
        for name in names:
            assert name in text
