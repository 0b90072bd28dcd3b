"""Atlas: Enchanted Lands (J. Alex Kevern, Renegade Game Studios, 2017), 2-4 players.

The game as the engine sees it (:class:`adjudicator.engine.GameSpec`): the
cards and the game's names in :mod:`.cards`, the rules in :mod:`.rules`, the
notation in :mod:`.notation`, the board as text in :mod:`.text` and as a
picture in :mod:`.picture`, what a move did in :mod:`.narration`, the
unchecked paths of validation and self-play in :mod:`.fast`, and how the
bots play their own seat in their play-outs in :mod:`.playout`. The notation
and every ruling are in ``notation/atlas.md``.
"""

from __future__ import annotations

from ...engine import GameSpec
from . import cards, narration, notation, rules, text

GAME = GameSpec(
    id=cards.ID,
    title=cards.TITLE,
    players=cards.PLAYERS,
    params=cards.PARAMS,
    rules_version=1,
    turn_clause=cards.TURN_CLAUSE,
    end_clause=cards.END_CLAUSE,
    notation_doc=cards.NOTATION,
    rules=rules,
    notation=notation,
    text=text,
    narration=narration,
    picture_module=f"{__name__}.picture",
    fast_module=f"{__name__}.fast",
    playout_module=f"{__name__}.playout",
    bot_plies=100_000,
)
