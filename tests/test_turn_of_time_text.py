"""Turn of Time as text: every line fits a mail message."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine import Style
from adjudicator.games.turn_of_time import GAME


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_render_fits_mail_at_every_position(n):
    """Every line at most 72 columns in both styles, printable ASCII in the
    ASCII style, for every viewer, with the longest names a log allows."""
    names = ("A" * 24, "b" * 24, "C" * 23 + "x", "d")[:n] if n > 1 else ("S" * 24,)
    for seed in range(5):
        p = {"absent-doubles": "example" if seed % 2 else "own-season", "goal": "dominance"}
        state = GAME.setup(p, names, f"width-{seed}")
        rng = random.Random(f"width/{n}/{seed}")
        while True:
            for seat in (None, *range(n)):
                v = GAME.view(state, seat)
                for style in (Style(unicode=True), Style(unicode=False)):
                    text = GAME.render(v, style)
                    for line in text.splitlines():
                        assert len(line) <= 72, line
                        if not style.unicode:
                            assert line.isascii() and line.isprintable(), line
            if state.seat < 0:
                break
            state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
