"""Games as logs: the library's API for programs, gathered in one place.

Each concern has a module of its own, and this one re-exports their public
names so that ``from adjudicator import match`` keeps giving every one of them:

* :mod:`adjudicator.starting`: a new log (open or refereed), its header's
  checks and its starting state;
* :mod:`adjudicator.signing`: the referee's and the players' signatures, and
  unlocking a refereed log with its secret;
* :mod:`adjudicator.chain`: the digest chain and time stamps;
* :mod:`adjudicator.replaying`: replay and validation (the one checked loop);
* :mod:`adjudicator.recording`: moves and events appended to a log;
* :mod:`adjudicator.narrating`: what happened since a player last moved;
* :mod:`adjudicator.auditing`: audit and diff;
* :mod:`adjudicator.selfplay`: games of random legal moves.

None of them knows a particular game.
"""

from __future__ import annotations

from .auditing import AuditItem, AuditReport, Comparison, audit, compare, diff
from .chain import STAMP, check_chain, check_stamp, head_digest, now_stamp, sealed
from .narrating import since
from .played import Replay
from .recording import extend, record
from .replaying import check_public, check_result, describe, out_of_turn, replay, validate
from .selfplay import simulate
from .signing import (
    check_keys, check_player_signatures, check_seals, check_signature, publish, reveal, sign,
    sign_move, sign_own, signed_items, unlock,
)  # fmt: skip
from .starting import (
    TAG, SecretSeedError, chance_seed, check_header, check_players, check_rules, check_tags,
    check_times, new_log, new_refereed, resolve_params, start, valid_name,
)  # fmt: skip

__all__ = [
    "AuditItem", "AuditReport", "Comparison", "Replay", "STAMP", "SecretSeedError", "TAG",
    "audit", "chance_seed", "check_chain", "check_header", "check_keys", "check_player_signatures",
    "check_players", "check_public", "check_result", "check_rules", "check_seals", "check_signature",
    "check_stamp", "check_tags", "check_times", "compare", "describe", "diff", "extend",
    "head_digest", "new_log", "new_refereed", "now_stamp", "out_of_turn", "publish", "record", "replay",
    "resolve_params", "reveal", "sealed", "sign", "sign_move", "sign_own", "signed_items", "simulate",
    "since", "start", "unlock", "valid_name", "validate",
]  # fmt: skip
