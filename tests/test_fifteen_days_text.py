"""15 Days: the text of a view fits in mail, in both styles.

Random positions of every player count, with the longest names the log
allows (24 characters) and with short ones, seen by every player and by a
spectator: every line of ``render`` is at most 72 columns, and the ASCII
style is printable ASCII only.
"""

from __future__ import annotations

import pytest

from adjudicator.chance import Chance
from adjudicator.engine import Style
from adjudicator.games.fifteen_days import GAME as fd

SHORT = ("ann", "bob", "cy", "dee")
LONG = tuple(c * 24 for c in "WXYZ")  # as long as a name may be


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short-names", "long-names"])
def test_render_fits_in_72_columns(players, names):
    for k in range(3):
        seed = f"text/{players}/{k}"
        params = {"first-player": "drawn",
                  "feathers": "one-per-action" if k % 2 else "one-per-turn"}
        state = fd.setup(params, names[:players], seed)
        rng = Chance(seed, "play")
        ply = 0
        while True:
            over = fd.to_move(state) is None
            if ply % 4 == 0 or over:
                for seat in [None, *range(players)]:
                    seen = fd.view(state, seat)
                    for style in (Style(unicode=True), Style(unicode=False)):
                        text = fd.render(seen, style)
                        for line in text.splitlines():
                            assert len(line) <= 72, (seed, ply, seat, line)
                        if not style.unicode:
                            assert text.isascii(), (seed, ply, seat)
                            assert all(line.isprintable() for line in text.splitlines())
                    # Colour changes the bytes, not the layout.
                    coloured = fd.render(seen, Style(unicode=True, color=True))
                    assert len(coloured.splitlines()) == len(
                        fd.render(seen, Style(unicode=True)).splitlines())
            if over:
                break
            moves = fd.legal_moves(state)
            state = fd.apply(state, moves[rng.below(len(moves))])
            ply += 1


def test_long_lists_wrap_at_cards():
    """A long discard pile and a big hand are wrapped, card by card, aligned."""
    state = fd.setup({"first-player": "seat-0", "feathers": "one-per-turn"}, LONG[:2], "wrap")
    rng = Chance("wrap", "play")
    while len(state.discard) < 40 and fd.to_move(state) is not None:
        moves = fd.legal_moves(state)
        state = fd.apply(state, moves[rng.below(len(moves))])
    text = fd.render(fd.view(state, None), Style(unicode=False))
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  d: discard pile"))
    cards = []
    for line in lines[start + 1:]:
        if not line.startswith("     "):
            break
        assert line[5] != " " and len(line) <= 72
        cards += line.split()
    assert len(cards) == len(state.discard)
