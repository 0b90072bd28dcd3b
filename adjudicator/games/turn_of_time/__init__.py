"""Turn of Time (Nicholas Hjelmberg, Nova Suecia Games), solo and 2-4 players.

The layers: ``rules`` (state, setup, placement, flips, legal moves, apply,
scoring, views; the components are in ``cards``), ``notation`` (reading and
writing moves), ``text`` (the board as text), ``narration`` (a move told in
the rule card's words), ``picture`` (the board as SVG) and ``fast`` (the
unchecked paths, read from the tables of ``tables``). The notation and every
ruling are in ``notation/turn-of-time.md``.
"""

from __future__ import annotations

from ...engine import GameSpec
from . import narration, notation, rules, text

GAME = GameSpec(
    id=rules.ID,
    title=rules.TITLE,
    players=rules.PLAYERS,
    params=rules.PARAMS,
    rules_version=rules.RULES,
    turn_clause=rules.TURN_CLAUSE,
    end_clause=rules.END_CLAUSE,
    notation_doc=rules.NOTATION,
    rules=rules,
    notation=notation,
    text=text,
    narration=narration,
    picture_module=f"{__name__}.picture",
    fast_module=f"{__name__}.fast",
    bot_plies=110_000,
)
