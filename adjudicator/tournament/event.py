"""The tournament file (``tournament.toml``): read, checked, written.

Read with the standard library's ``tomllib``; written by :func:`dump`, a
small writer for this one shape (strings, integers and lists of them, and
three tables), so no TOML writer is needed. Every problem is one line that
names the file and the key::

    tournament.toml: rounds: a whole number from 1 to 50, not 0
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec

from .. import names as naming
from ..errors import AdjudicatorError, ParameterError

FILE = "tournament.toml"
#: The event's referee key (a key file, private): its public half is ``key`` in the file.
KEY_FILE = "event.key.json"
FORMATS = ("auto", "round-robin", "swiss")
TIEBREAKS = ("wins", "opponents", "score", "first-seats")
ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,23}")
_KEYS = ("name", "id", "game", "seed", "rounds", "tables", "format", "time", "tiebreaks",
         "referee", "key", "bye", "params", "points", "players")


class TournamentError(AdjudicatorError):
    """A tournament file, or a tournament act, that cannot be carried out."""


class Tournament(msgspec.Struct, frozen=True, kw_only=True):
    """An event: one game, its players, how they are seated and ranked."""

    #: What players read ("Club Atlas, spring 2026"): the ``event`` tag of every game.
    name: str
    #: The prefix of its games' names in the referee's directory (``atlas26-r1-t2``).
    id: str
    game: str
    #: Seating is drawn from it alone: the same file seats the same rounds.
    seed: str
    rounds: int
    #: Table sizes allowed, the preferred first (``[4, 3]``).
    tables: tuple[int, ...]
    format: str = "auto"
    #: The time control of every game, in ``--time`` words (``per-move=72h
    #: expiry=stand-in stand-in=greedy``); empty: no clock.
    time: str = ""
    tiebreaks: tuple[str, ...] = ("wins", "opponents", "score")
    #: The mail referee's directory, relative to the tournament's.
    referee: str = "referee"
    #: The event's referee public key: every game is signed under it.
    key: str = ""
    #: Points for a round sat out.
    bye: int = 3
    params: dict[str, Any] = {}
    #: Points by place at a table of each size: ``{3: (6, 3, 0)}``.
    points: dict[int, tuple[int, ...]] = {}
    #: Players and their mail addresses, in seeding order.
    players: dict[str, str] = {}

    def points_for(self, size: int, place: int) -> int:
        """The points of ``place`` (1 best) at a table of ``size``."""
        table = self.points.get(size) or default_points(size)
        return table[min(place, len(table)) - 1]


def default_points(size: int) -> tuple[int, ...]:
    """6 for first, 0 for last, evenly between: a win is worth as much at any table."""
    if size < 2:
        return (6,)
    return tuple(round(6 * (size - place) / (size - 1)) for place in range(1, size + 1))


def load(path: Path) -> Tournament:
    """The tournament file at ``path`` (a file, or a directory holding ``tournament.toml``)."""
    if path.is_dir():
        path = path / FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such file (adjudicator tournament new DIR makes one)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise TournamentError(f"{path}: {e}") from None
    return parse(text, str(path))


def parse(text: str, source: str = FILE) -> Tournament:
    """A tournament from its TOML text; one line per problem."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TournamentError(f"{source}: {' '.join(str(e).split())}") from None
    return check(data, source)


def check(data: dict[str, Any], source: str = FILE) -> Tournament:
    """The tournament of ``data`` (the TOML as read), every field checked."""
    from .. import clock, games, starting
    from ..seal import valid_public_key

    def bad(key: str, why: str) -> TournamentError:
        return TournamentError(f"{source}: {key}: {why}")

    for key in data:
        if key not in _KEYS:
            raise bad(key, f"not a key of a tournament file (its keys: {', '.join(_KEYS)})")
    for key in ("name", "id", "game", "seed", "rounds", "tables", "players"):
        if key not in data:
            raise TournamentError(f"{source}: {key} is missing")

    def text(key: str, default: str = "") -> str:
        value = data.get(key, default)
        if not isinstance(value, str):
            raise bad(key, f"a string in quotes, not {value!r}")
        return value

    def number(key: str, low: int, high: int, default: int | None = None) -> int:
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise bad(key, f"a whole number from {low} to {high}, not {value!r}")
        return value

    name = text("name")
    if not name.strip() or not name.isprintable() or len(name) > 100:
        raise bad("name", "one printable line of at most 100 characters")
    event_id = text("id")
    if not ID.fullmatch(event_id):
        raise bad("id", f"lower-case letters, digits, '-' and '_', at most 24, not {event_id!r}")
    try:
        game = games.get(text("game"))
    except AdjudicatorError as e:
        raise bad("game", str(e)) from None
    seed = text("seed")
    if not seed:
        raise bad("seed", "must not be empty (the seating is drawn from it)")
    rounds = number("rounds", 1, 50)
    tables = data["tables"]
    if isinstance(tables, int) and not isinstance(tables, bool):
        tables = [tables]
    if (not isinstance(tables, list) or not tables
            or not all(isinstance(t, int) and not isinstance(t, bool) for t in tables)):
        raise bad("tables", f"a table size or a list of them, preferred first ([4, 3]), not {tables!r}")
    for size in tables:
        if size not in game.players:
            counts = ", ".join(map(str, game.players))
            raise bad("tables", f"{game.id} is played by {counts} players, not {size}")
    if len(set(tables)) != len(tables):
        raise bad("tables", "a size is listed twice")
    fmt = text("format", "auto")
    if fmt not in FORMATS:
        raise bad("format", f"one of {', '.join(FORMATS)}, not {fmt!r}")
    time = text("time")
    if time:
        try:
            clock.parse(time)
        except AdjudicatorError as e:
            raise bad("time", str(e)) from None
    tiebreaks = data.get("tiebreaks", list(TIEBREAKS[:3]))
    if not isinstance(tiebreaks, list) or not all(t in TIEBREAKS for t in tiebreaks):
        raise bad("tiebreaks", f"a list of {', '.join(TIEBREAKS)}, not {tiebreaks!r}")
    referee = text("referee", "referee")
    if not referee or Path(referee).is_absolute() or ".." in Path(referee).parts:
        raise bad("referee", f"a directory inside the tournament's, not {referee!r}")
    key = text("key")
    if key and not valid_public_key(key):
        raise bad("key", f"{key!r} is not a public key (ed25519:...)")
    bye = number("bye", 0, 1000, 3)
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise bad("params", "a table of the game's parameters")
    try:
        starting.resolve_params(game, params)
    except ParameterError as e:
        raise bad("params", str(e)) from None
    points: dict[int, tuple[int, ...]] = {}
    raw_points = data.get("points", {})
    if not isinstance(raw_points, dict):
        raise bad("points", 'a table of places\' points by table size: "3" = [6, 3, 0]')
    for size_text, row in raw_points.items():
        if not size_text.isdigit() or int(size_text) not in tables:
            raise bad("points", f"{size_text!r} is not one of the table sizes {tables}")
        size = int(size_text)
        if (not isinstance(row, list) or len(row) != size
                or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in row)
                or list(row) != sorted(row, reverse=True)):
            raise bad("points", f"{size_text}: {size} points from first to last, none rising, "
                                f"not {row!r}")
        points[size] = tuple(row)
    players = data["players"]
    if not isinstance(players, dict):
        raise bad("players", 'a table of players and their addresses: ann = "ann@example.org"')
    seen: dict[str, str] = {}
    cleaned: dict[str, Any] = {}
    for typed, address in players.items():
        player = naming.clean(typed)
        if not starting.valid_name(player) or naming.key(player) == "referee":
            raise bad("players", f"{typed!r} is not a player's name ({naming.RULE})")
        if naming.key(player) in seen:
            raise bad("players", f"{typed!r} is listed twice (case and spaces do not count)")
        if not isinstance(address, str) or "@" not in address or any(c.isspace() for c in address):
            raise bad("players", f"{player}: {address!r} is not a mail address")
        seen[naming.key(player)] = address
        cleaned[player] = address
    players = cleaned
    if address_twice := _first_duplicate([a.lower() for a in players.values()]):
        raise bad("players", f"{address_twice} plays two seats")
    if len(players) < min(tables):
        raise bad("players", f"{len(players)} players cannot fill a table of {min(tables)}")
    return Tournament(name=name, id=event_id, game=game.id, seed=seed, rounds=rounds,
                      tables=tuple(tables), format=fmt, time=time, tiebreaks=tuple(tiebreaks),
                      referee=referee, key=key, bye=bye, params=dict(params), points=points,
                      players=dict(players))


def _first_duplicate(items: list[str]) -> str | None:
    seen: set[str] = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _value(name)


def dump(t: Tournament) -> str:
    """The file's text: ``parse(dump(t)) == t``."""
    lines = [f"{k} = {_value(getattr(t, k))}" for k in
             ("name", "id", "game", "seed", "rounds", "tables", "format", "time", "tiebreaks",
              "referee", "key", "bye")]
    if t.params:
        lines += ["", "[params]"] + [f"{_key(k)} = {_value(v)}" for k, v in t.params.items()]
    if t.points:
        lines += ["", "[points]"] + [f'"{k}" = {_value(v)}' for k, v in sorted(t.points.items())]
    lines += ["", "[players]"] + [f"{_key(k)} = {_value(v)}" for k, v in t.players.items()]
    return "\n".join(lines) + "\n"
