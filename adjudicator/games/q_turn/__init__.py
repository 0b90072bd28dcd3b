"""Q-Turn (Andrew Looney, Looney Labs), 2-4 players.

The game as the engine sees it (:class:`adjudicator.engine.GameSpec`): the
rules in :mod:`.rules`, the notation in :mod:`.notation`, the board as text
in :mod:`.text` and as a picture in :mod:`.picture`, what a move did in
:mod:`.narration`, and the unchecked paths of validation and self-play in
:mod:`.fast`. The notation and every ruling are in ``notation/q-turn.md``.
"""

from __future__ import annotations

from ...engine import GameSpec
from . import narration, notation, rules, text

GAME = GameSpec(
    id=rules.ID,
    title=rules.TITLE,
    players=rules.PLAYERS,
    params=rules.PARAMS,
    rules_version=1,
    turn_clause=rules.TURN_CLAUSE,
    end_clause=rules.END_CLAUSE,
    notation_doc=rules.NOTATION,
    rules=rules,
    notation=notation,
    text=text,
    narration=narration,
    picture_module=f"{__name__}.picture",
    fast_module=f"{__name__}.fast",
    bot_plies=120_000,
)
