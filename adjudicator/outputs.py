"""What the command line prints for programs (``--json``), as msgspec Structs.

Every JSON output has one Struct here, so its shape is stable (the same keys
whether a log is valid or not) and its JSON Schema is generated, printed by
``adjudicator schema NAME`` and kept in ``notation/schemas/``. A program
written against the schemas reads every output of every command without a
special case.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from .engine import Outcome
from .errors import (
    AdjudicatorError,
    AmbiguousMoveError,
    BadLogError,
    ChainError,
    IllegalMoveError,
    MoveError,
    NotationError,
    ParameterError,
    UsageError,
)
from .log import Log, MoveEntry, ViewFile


class _Out(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class ParamInfo(_Out):
    """One parameter of a game: its type, default and what it accepts."""

    name: str
    type: Literal["string", "integer", "boolean"]
    default: str | int | bool
    choices: list[str | int | bool] | None  # null: any value of the type (within bounds)
    minimum: int | None
    maximum: int | None
    accepts: str  # the same in words
    applies: str
    help: str


class GameInfo(_Out):
    """One game (``games --json`` prints a list of them)."""

    id: str
    title: str
    players: list[int]
    rules: int  # the newest rules version this tool plays
    notation: str
    params: list[ParamInfo]


class Position(_Out):
    """One position (``show --json``; each of ``replay --json``'s positions).

    ``view`` is what ``viewer`` may see, in the game's own view format
    (``game`` says which); ``legal`` lists the moves only when the viewer is
    the player to move; ``standing`` is the score so far, ``result`` the
    final result once the game is over. ``proposal`` is a takeback or
    abandonment waiting for answers; ``answer_by`` the deadline of the
    player to move (UTC). ``since`` tells, one line per entry, what happened
    since the viewer last moved, as they saw it (``show --as``; empty
    otherwise). ``tags`` are the log's tags (event, round, ...). ``said``
    is what the last move did, in the rule text's words, as the viewer saw
    it (``None`` at the start).
    """

    game: str
    tags: dict[str, str]
    ply: int
    move: MoveEntry | None
    to_move: str | None
    viewer: str | None
    view: Any
    legal: list[str] | None
    standing: Outcome
    result: Outcome | None
    proposal: str | None
    answer_by: str | None
    since: list[str]
    said: str | None = None


class Legal(_Out, omit_defaults=True):
    """``legal --json``: the player to move and their moves (empty once over);
    with ``--explain``, ``words`` says what each move would do, in the same
    order (``null`` without it)."""

    player: str | None
    moves: list[str]
    words: list[str] | None = None


class HintMove(_Out):
    """One move a bot weighed: its value for the mover (0 to 1; null when not
    simulated) and the simulations that went through it."""

    move: str
    value: float | None
    visits: int


class Hint(_Out):
    """``hint --json``: the player to move and the moves a bot weighed, best first."""

    game: str
    player: str
    number: int  # the move number the hint is for
    bot: str
    best: str
    iterations: int
    plies: int
    moves: list[HintMove]


class Replay(_Out):
    """``replay --json``: every position from the start to the last entry."""

    game: str
    tags: dict[str, str]
    players: list[str]
    positions: list[Position]
    result: Outcome | None


class ErrorInfo(_Out):
    """An error as data: ``code`` says what kind, ``move`` and ``player``
    locate it where there is a move, ``message`` is the one line a person
    reads."""

    code: Literal["bad-log", "chain", "illegal-move", "notation", "ambiguous", "parameter",
                  "usage", "file"]
    move: int | None
    player: str | None
    message: str


class Checked(_Out):
    """One log of ``validate --json`` (a list of them, in the order given).

    ``valid`` is true when every check that could be made holds;
    ``unchecked`` says what could not be checked (a refereed game's moves
    while its seed is secret), null when everything was.
    """

    file: str
    valid: bool
    game: str | None
    moves: int | None
    to_move: str | None
    result: Outcome | None
    unchecked: str | None
    error: ErrorInfo | None


class AuditItem(_Out):
    """One check of ``audit``: ``ok`` when it was made and holds; ``status``
    says ``ok``, ``failed``, or ``unchecked`` (it needs the seed of a refereed
    game, still secret: the seed, the moves and the result wait for its reveal)."""

    what: str
    ok: bool
    text: str
    status: Literal["ok", "failed", "unchecked"]


class Audit(_Out):
    """``audit --json``: each check with its verdict; ``passed`` only if every
    check was made and holds. ``status`` is ``passed``, ``failed``, or
    ``pending``: nothing failed, but a refereed game's seed is still secret,
    so what needs it waits for the reveal (the exit status is then 0)."""

    passed: bool
    items: list[AuditItem]
    status: Literal["passed", "failed", "pending"]


class Audited(_Out):
    """One log of ``audit --json`` when it audits many (a list of them, in
    the order found): each check with its verdict as ``audit`` gives them
    for one log (none when the file could not be read: then ``error``)."""

    file: str
    passed: bool
    items: list[AuditItem]
    error: ErrorInfo | None
    #: As ``audit --json`` for one log: ``passed``, ``failed`` or ``pending``.
    status: Literal["passed", "failed", "pending"] = "failed"


class Diff(_Out):
    """``diff --json``: whether two copies hold the same game and moves, the
    first entry where they part (null when one is a prefix of the other or
    they are different games), and the lines ``diff`` prints."""

    same: bool
    same_game: bool
    parted_at: int | None
    lines: list[str]


def error_info(e: AdjudicatorError) -> ErrorInfo:
    """An error as :class:`ErrorInfo`."""
    if isinstance(e, ChainError):
        code = "chain"
    elif isinstance(e, AmbiguousMoveError):
        code = "ambiguous"
    elif isinstance(e, NotationError):
        code = "notation"
    elif isinstance(e, (IllegalMoveError, MoveError)):
        code = "illegal-move"
    elif isinstance(e, UsageError):
        code = "usage"
    elif isinstance(e, ParameterError):
        code = "parameter"
    elif isinstance(e, BadLogError):
        code = "bad-log"
    else:
        code = "file"
    move = player = None
    if isinstance(e, MoveError):
        move, player = e.number, e.player
    return ErrorInfo(code=code, move=move, player=player, message=str(e))  # type: ignore[arg-type]


#: ``adjudicator schema NAME``: the name, the type printed, and a title.
SCHEMAS: dict[str, tuple[Any, str]] = {
    "log": (Log, "a game log (the file players exchange)"),
    "view": (ViewFile, "a player's view file of a refereed game"),
    "games": (list[GameInfo], "adjudicator games --json"),
    "show": (Position, "adjudicator show LOG --json"),
    "legal": (Legal, "adjudicator legal LOG --json"),
    "hint": (Hint, "adjudicator hint LOG --json"),
    "replay": (Replay, "adjudicator replay LOG --json"),
    "validate": (list[Checked], "adjudicator validate LOG... --json"),
    "audit": (Audit, "adjudicator audit LOG --json"),
    "audits": (list[Audited], "adjudicator audit LOGS... --json (more than one log)"),
    "diff": (Diff, "adjudicator diff A B --json"),
    # Imported when asked for: the tournament's modules are not loaded at start-up.
    "standings": ("tournament.report.Standings", "adjudicator tournament standings DIR --json"),
}


def _kind(kind: Any) -> Any:
    """The type of a :data:`SCHEMAS` entry; a dotted name under this package
    is imported when first asked for."""
    if not isinstance(kind, str):
        return kind
    import importlib

    module, _, name = kind.rpartition(".")
    return vars(importlib.import_module(f"{__package__}.{module}"))[name]


def schema(name: str) -> dict:
    """The JSON Schema of output ``name``; a game's view is any game's view."""
    from . import games
    from .log import FORMAT, VERSION

    kind, title = SCHEMAS[name]
    kind = _kind(kind)
    views = [g.view_type for g in games.GAMES.values()]
    (main, *view_refs), defs = msgspec.json.schema_components([kind, *views])
    doc: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"adjudicator: {title}",
    }
    if name == "log":
        doc["description"] = (f"A game log, format {FORMAT!r} version {VERSION}. "
                              "Specified in notation/README.md.")
    uses_views = name in ("show", "replay", "view")
    if uses_views:
        # Position.view (typed Any) is the view of one of the games.
        pos = defs.get("Position")
        if pos is not None:
            pos["properties"]["view"] = {"anyOf": view_refs}
        if name == "view":
            defs["ViewFile"]["properties"]["view"] = {"anyOf": view_refs}
    else:
        for g in views:
            defs.pop(g.__name__, None)
    doc.update(main)
    doc["$defs"] = _reachable(main, defs)
    return doc


def _reachable(root: dict, defs: dict) -> dict:
    """The definitions ``root`` needs, and no other."""
    seen: dict[str, Any] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        for ref in _refs(node):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen and name in defs:
                seen[name] = defs[name]
                todo.append(defs[name])
    return dict(sorted(seen.items()))


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        out = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        for value in node.values():
            out += _refs(value)
        return out
    if isinstance(node, list):
        return [r for item in node for r in _refs(item)]
    return []


def schema_text(name: str) -> str:
    """The schema as stable, indented JSON text with a trailing newline."""
    import json  # only for printing a schema

    return json.dumps(schema(name), indent=2, sort_keys=True) + "\n"


def encode(value: Any) -> bytes:
    """An output as indented JSON."""
    return msgspec.json.format(msgspec.json.encode(value), indent=2)
