"""The text form of a log: the PGN of adjudicator.

A log (or a view file) written as plain ASCII text that survives mail bodies
and forum posts: tag lines first (``[Game "atlas"]``), then the numbered
moves (`` 3. cy  5D+2T {a comment}``), then the chain head, between two
marker lines. It is specified in ``notation/text-form.md``.

Strict out, forgiving in (the PGN model): :func:`dumps` writes one exact
text, every line ASCII and at most 72 columns; :func:`loads` reads it back
byte for byte (``log.encode(loads(dumps(x))) == log.encode(x)``) after
whatever a mail client does to it: quoting (``> ``), re-wrapping at spaces,
joined lines, CRLF, trailing spaces, tabs, typographic quotes and dashes,
text before and after. Entry digests are not written: :func:`loads`
recomputes the digest chain and checks it against the ``[Head ...]`` line,
so a damaged or edited paste is refused, with one line naming the line.

The fields are not listed here: every field of the msgspec Structs
(:class:`~adjudicator.log.Log`, :class:`~adjudicator.log.MoveEntry`,
:class:`~adjudicator.log.ViewFile`) is written according to its type, so a
field added later round-trips without a change here.

>>> from adjudicator import log, match
>>> game = match.simulate("q-turn", ["ann", "bob"], "7", max_moves=2)
>>> print(dumps(game), end="")
-----BEGIN ADJUDICATOR LOG-----
[Version 2]
[Game "q-turn"]
[Rules 1]
[Param disks "4Q,6D,6O"]
[Param round-limit 100]
[Players "ann" "bob"]
[Seed "7"]
[Salt null]
[Commitment null]
1. ann d1
2. ann NS
[Result null]
[Head 9031c5a0066036405449cb705e7d20496a46f42e0373c557c95aa8de15bb7537]
[Check d089db1cff7644a3]
-----END ADJUDICATOR LOG-----
>>> log.encode(loads(dumps(game))) == log.encode(game)
True
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import inspect
import itertools
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, Literal, NoReturn, Union

import msgspec

from . import chain, seal
from .errors import BadLogError
from .log import Log, MoveEntry, ViewFile, decode, decode_view, encode, kind_of

WIDTH = 72
KINDS: dict[str, type] = {"LOG": Log, "VIEW": ViewFile}
_KIND_OF: dict[type, str] = {cls: kind for kind, cls in KINDS.items()}
_DECODERS: dict[type, Callable[[bytes | str, str], Log | ViewFile]] = {Log: decode, ViewFile: decode_view}
_FORMATS: dict[str, type] = {"adjudicator-log": Log, "adjudicator-view": ViewFile}

__all__ = ["EMPHASIS", "FORUM_STYLES", "STRONG", "WIDTH", "Damaged", "ForumDamageError", "Found",
           "check_sum", "dumps", "find_all", "forum",
           "loads", "pick",
           "pick_found", "scan", "settle"]


def begin_line(kind: str = "LOG") -> str:
    return f"-----BEGIN ADJUDICATOR {kind}-----"


def end_line(kind: str = "LOG") -> str:
    return f"-----END ADJUDICATOR {kind}-----"


# --- The fields, from the Structs' own declarations ---------------------------------------

_NoneType = type(None)


def _union_args(tp: Any) -> tuple[Any, ...]:
    if typing.get_origin(tp) in (Union, types.UnionType):
        return typing.get_args(tp)
    return (tp,)


def _is_scalar(tp: Any) -> bool:
    if tp in (str, int, bool, float, _NoneType):
        return True
    if typing.get_origin(tp) is Literal:
        return True
    args = _union_args(tp)
    return len(args) > 1 and all(_is_scalar(a) for a in args)


def _seq_item(tp: Any) -> Any:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is list and len(args) == 1:
        return args[0]
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return args[0]
    return None


@dataclass(frozen=True)
class _Field:
    name: str  # the attribute
    key: str  # its name in JSON
    tag: str  # its name in the text form
    kind: str  # implied, scalar, seq, map, json, raw, entry, block, moves
    type: Any
    required: bool
    default: Any


def _classify(tp: Any, owner: type) -> str:
    if typing.get_origin(tp) is Literal and len(typing.get_args(tp)) == 1:
        return "implied"
    if _is_scalar(tp):
        return "scalar"
    args = _union_args(tp)
    rest = [a for a in args if a is not _NoneType]
    if len(rest) != 1:
        return "json"
    t = rest[0]
    optional = len(rest) != len(args)
    if t in _KIND_OF and not optional:
        return "block"
    if t is MoveEntry:
        return "entry"
    if t is msgspec.Raw and not optional:
        return "raw"
    item = _seq_item(t)
    if item is MoveEntry and owner is Log and not optional:
        return "moves"
    if item is not None and _is_scalar(item) and _NoneType not in _union_args(item):
        return "seq"
    if typing.get_origin(t) is dict and not optional:
        k, v = typing.get_args(t)
        if k is str and _is_scalar(v):
            return "map"
    return "json"


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def _norm(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


@cache
def _spec(cls: type) -> tuple[_Field, ...]:
    out = []
    for f in msgspec.structs.fields(cls):
        kind = _classify(f.type, cls)
        tag = _camel(f.name)
        if kind == "map" and tag.endswith("s"):
            tag = tag[:-1]  # one tag per entry: [Param goal "dominance"]
        if f.default is not msgspec.NODEFAULT:
            required, default = False, f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            required, default = False, f.default_factory()
        else:
            required, default = True, None
        out.append(_Field(f.name, f.encode_name, tag, kind, f.type, required, default))
    return tuple(out)


@cache
def _tags(cls: type) -> dict[str, _Field]:
    out: dict[str, _Field] = {}
    for f in _spec(cls):
        for alias in (f.name, f.tag, _camel(f.name)):
            out.setdefault(_norm(alias), f)
    return out


@cache
def _entry_fields() -> dict[str, _Field]:
    return {_norm(f.name): f for f in _spec(MoveEntry) if f.name not in ("by", "move")}


@cache
def _digest_extras() -> tuple[str, ...]:
    """Fields of an entry, beyond by, move and comment, that the digest covers:
    those that :func:`seal.entry_digest` takes by name."""
    names = {f.name for f in _spec(MoveEntry)}
    params = list(inspect.signature(seal.entry_digest).parameters)[4:]
    return tuple(p for p in params if p in names)


def _entry_digest(previous: bytes, entry: dict[str, Any]) -> bytes:
    extras = {name: entry.get(name) for name in _digest_extras()}
    return seal.entry_digest(previous, entry["by"], entry["move"], entry.get("comment"), **extras)


_HEX64 = re.compile(r"[0-9a-f]{64}")


def _next(computed: bytes, stored: str) -> bytes:
    # The chain goes on from the digest the log holds; one that is not a digest
    # at all (a broken log, written as it is) is passed over.
    return bytes.fromhex(stored) if _HEX64.fullmatch(stored) else computed


def _chain_end(lg: Log) -> bytes:
    digest = chain.head_digest(lg)
    for e in lg.moves:
        computed = _entry_digest(digest, _entry_dict(e))
        digest = _next(computed, e.digest)
    return digest


def _entry_dict(e: MoveEntry) -> dict[str, Any]:
    return {f.name: getattr(e, f.name) for f in _spec(MoveEntry)}


def _log_head(lg: Log) -> str:
    return lg.moves[-1].digest if lg.moves else chain.head_digest(lg).hex()


def check_sum(value: Log | ViewFile) -> str:
    """The ``[Check ...]`` of a block: the first 16 hex digits of the SHA-256
    of its canonical JSON encoding. It covers what the chain does not (the
    result, signatures, tags, time stamps), so a lost line is always found."""
    return hashlib.sha256(encode(value)).hexdigest()[:16]


def _head(value: Log | ViewFile) -> str:
    if isinstance(value, ViewFile):
        return value.move.digest if value.move is not None else _log_head(value.log)
    return _log_head(value)


# --- Writing --------------------------------------------------------------------------------

_BREAK_AFTER = "-/"  # a mail client may break a line after these, inside a word
_BARE = re.compile(r"[A-Za-z0-9!#$%&'()*+,./:;<=?@^_`|~-]+")
_KEY = re.compile(r"[A-Za-z0-9_.+@:][A-Za-z0-9_.+@:-]*")


def _bare(text: str, limit: int = 40) -> bool:
    return (
        0 < len(text) <= limit
        and _BARE.fullmatch(text) is not None
        and text[0] != "-"
        and text[-1] not in _BREAK_AFTER
    )


# Text that needs no escape: printable ASCII but \ > and the delimiter, with
# single spaces between words.
_PLAIN_STRING = re.compile(r"[!#-=?-\[\]-~]+(?: [!#-=?-\[\]-~]+)*")
_PLAIN_COMMENT = re.compile(r"[!-=?-\[\]-|~]+(?: [!-=?-\[\]-|~]+)*")


def _pieces(s: str, delim: str) -> list[list[str]]:
    """``s`` escaped, as pieces separated by the spaces written as spaces, each
    a list of atoms (a character or an escape: never split)."""
    plain = _PLAIN_STRING if delim == '"' else _PLAIN_COMMENT
    if plain.fullmatch(s) and "- " not in s and "/ " not in s:
        return [list(word) for word in s.split(" ")]
    return _escaped_pieces(s, delim)


def _escaped_pieces(s: str, delim: str) -> list[list[str]]:
    pieces: list[list[str]] = [[]]
    n = len(s)
    for i, c in enumerate(s):
        if c == " ":
            # Only a single space between two characters (not after a place
            # where a mail client may break a word) is written as a space: a
            # reader turns any run of white space into one space.
            if 0 < i < n - 1 and s[i + 1] != " " and s[i - 1] not in " " + _BREAK_AFTER:
                pieces.append([])
                continue
            atom = "\\s"
        elif c == "\\":
            atom = "\\\\"
        elif c == delim:
            atom = "\\" + c
        elif c == "\n":
            atom = "\\n"
        elif c == "\t":
            atom = "\\t"
        elif c == "\r":
            atom = "\\r"
        elif c == ">":
            atom = "\\u003e"  # never a '>' that a reader could take for mail quoting
        elif " " < c < "\x7f":
            atom = c
        else:
            o = ord(c)
            atom = f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}"
        pieces[-1].append(atom)
    return pieces


def _quoted(s: str) -> str:
    return '"' + " ".join("".join(p) for p in _pieces(s, '"')) + '"'


def _compact(v: Any) -> str:
    if isinstance(v, str):
        return _quoted(v)
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_quoted(str(k))}: {_compact(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_compact(x) for x in v) + "]"
    return msgspec.json.encode(v).decode()


class _Fill:
    """Lines filled up to WIDTH columns, broken only where a reader allows it."""

    def __init__(self, indent: int, first: str = "") -> None:
        self.lines: list[str] = []
        self.indent = indent
        self.cur = first or " " * indent

    def fresh(self) -> bool:
        return not self.cur.strip()

    def newline(self) -> None:
        self.lines.append(self.cur.rstrip())
        self.cur = " " * self.indent

    def word(self, text: str, sep: str = " ") -> None:
        """An unbreakable word, after a place where the line may break."""
        if self.fresh():
            sep = ""
        elif len(self.cur) + len(sep) + len(text) > WIDTH:
            self.newline()
            sep = ""
        self.cur += sep + text

    def text(self, pre: str, s: str, delim: str, post: str, sep: str = " ") -> None:
        """A string or comment: ``pre`` opens it (``"``, ``{``, ``name="``),
        ``post`` closes it; it breaks at its spaces, else with a ``\\`` at the
        end of a line (a soft break, which a reader removes)."""
        pieces = _pieces(s, delim)
        last = len(pieces) - 1
        for i, atoms in enumerate(pieces):
            first = i == 0
            self._piece(pre if first else "", atoms, post if i == last else "",
                        sep if first else " ")

    def _piece(self, pre: str, atoms: list[str], post: str, sep: str) -> None:
        whole = pre + "".join(atoms) + post
        if self.fresh():
            sep = ""
        if len(self.cur) + len(sep) + len(whole) <= WIDTH:
            self.cur += sep + whole
            return
        if not self.fresh() and (
            self.indent + len(whole) <= WIDTH or len(self.cur) + len(sep) + len(pre) + 8 > WIDTH
        ):
            self.newline()
            sep = ""
        if len(self.cur) + len(sep) + len(whole) <= WIDTH:
            self.cur += sep + whole
            return
        self.cur += sep + pre
        for atom in atoms:
            if len(self.cur) + len(atom) + 1 > WIDTH:
                self._soft()
            self.cur += atom
        if len(self.cur) + len(post) > WIDTH:
            self._soft()
        self.cur += post

    def _soft(self) -> None:
        self.lines.append(self.cur + "\\")
        self.cur = " " * self.indent

    def done(self) -> list[str]:
        if not self.fresh():
            self.lines.append(self.cur.rstrip())
        return self.lines


_COMPOUND = (dict, list, tuple)


def _json_lines(v: Any, prefix: str, indent: int, close: str) -> list[str]:
    """A JSON-like value laid out within WIDTH columns, ``prefix`` before it."""
    flat = _compact(v)
    if len(prefix) + len(flat) + len(close) <= WIDTH:
        return [prefix + flat + close]
    if isinstance(v, str):
        fill = _Fill(indent + 2, prefix)
        fill.text('"', v, '"', '"' + close, sep="")
        return fill.done()
    if isinstance(v, dict) and v and not any(isinstance(x, _COMPOUND) for x in v.values()):
        fill = _Fill(indent + 2, prefix + "{")
        for i, (k, x) in enumerate(v.items()):
            post = "," if i < len(v) - 1 else "}" + close
            sep = " " if i else ""
            key = _quoted(str(k)) + ": "
            if isinstance(x, str):
                fill.text(key + '"', x, '"', '"' + post, sep)
            else:
                fill.word(key + _compact(x) + post, sep)
        return fill.done()
    if isinstance(v, dict) and v:
        out = [prefix + "{"]
        items = list(v.items())
        for i, (k, x) in enumerate(items):
            member = " " * (indent + 2) + _quoted(str(k)) + ": "
            out += _json_lines(x, member, indent + 2, "," if i < len(items) - 1 else "")
        out.append(" " * indent + "}" + close)
        return out
    if isinstance(v, (list, tuple)) and v:
        if not any(isinstance(x, _COMPOUND) for x in v):
            fill = _Fill(indent + 2, prefix + "[")
            for i, x in enumerate(v):
                post = "," if i < len(v) - 1 else "]" + close
                sep = " " if i else ""
                if isinstance(x, str):
                    fill.text('"', x, '"', '"' + post, sep)
                else:
                    fill.word(_compact(x) + post, sep)
            return fill.done()
        out = [prefix + "["]
        for i, x in enumerate(v):
            out += _json_lines(x, " " * (indent + 2), indent + 2, "," if i < len(v) - 1 else "")
        out.append(" " * indent + "]" + close)
        return out
    return [prefix + flat + close]


def _scalar(fill: _Fill, v: Any, post: str = "") -> None:
    if isinstance(v, str):
        fill.text('"', v, '"', '"' + post)
    else:
        fill.word(_compact(v) + post)


def _token(fill: _Fill, s: str, limit: int = 40, pattern: re.Pattern[str] | None = None) -> None:
    """A name or a move: bare when it can be, else quoted."""
    if _bare(s, limit) and (pattern is None or pattern.fullmatch(s)):
        fill.word(s)
    else:
        fill.text('"', s, '"', '"')


def _raw_value(raw: msgspec.Raw) -> tuple[bool, Any]:
    """The view as a value, if writing it back gives the same JSON; else its text."""
    data = bytes(raw)
    try:
        value = msgspec.json.decode(data)
        compact = msgspec.json.format(data, indent=-1)
    except (msgspec.DecodeError, RecursionError):
        return False, data.decode("utf-8", "replace")
    try:
        same = msgspec.json.encode(value) == compact
    except (msgspec.EncodeError, OverflowError, ValueError):
        same = False
    return (True, value) if same else (False, compact.decode("utf-8"))


def dumps(value: Log | ViewFile) -> str:
    """The text form of a log or a view file: ASCII, lines of at most 72 columns."""
    if type(value) not in _KIND_OF:
        raise TypeError(f"dumps() takes a Log or a ViewFile, not {type(value).__name__}")
    lines: list[str] = []
    _write_block(value, lines)
    return "\n".join(lines) + "\n"


#: The markup a forum post may be written in (``convert --to forum --style``).
FORUM_STYLES = ("markdown", "bbcode")
_CODE_END = re.compile(r"\[/code\]", re.I)


def forum(value: Log | ViewFile, style: str = "markdown") -> str:
    """The text form in a code block of a forum's markup, which a forum shows
    as it is: no soft break, escape or list number is eaten on the way.

    ``markdown`` (Reddit, Discourse, Discord, GitHub) fences it with
    backticks, more than any run of them inside; ``bbcode`` (phpBB,
    BoardGameGeek) puts it in ``[code]``, with any ``[/code]`` inside a
    comment written ``\\u005b/code]`` (the same text to the reader; a
    BBCode parser closes the block at ``\\[/code]`` too).

    >>> from adjudicator import match
    >>> print(forum(match.simulate("q-turn", ["ann", "bob"], "7", max_moves=1)), end="")
    ... # doctest: +ELLIPSIS
    ```text
    -----BEGIN ADJUDICATOR LOG-----
    ...
    -----END ADJUDICATOR LOG-----
    ```
    """
    text = dumps(value)
    if style == "bbcode":
        return "[code]\n" + _CODE_END.sub(lambda m: "\\u005b" + m[0][1:], text) + "[/code]\n"
    if style != "markdown":
        raise ValueError(f"forum style {style!r}: {' or '.join(FORUM_STYLES)}")
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * max(3, 1 + max(runs, default=0))
    return f"{fence}text\n{text}{fence}\n"


def _write_block(value: Any, lines: list[str]) -> None:
    cls: type = type(value)
    kind = _KIND_OF[cls]
    lines.append(begin_line(kind))
    for f in _spec(cls):
        v = getattr(value, f.name)
        if f.kind == "implied" or (not f.required and _same(v, f.default)):
            continue
        if f.kind == "block":
            _write_block(v, lines)
        elif f.kind == "moves":
            _write_moves(value, lines)
        elif f.kind == "map":
            if not v and not f.required:
                lines.append(f"[{f.tag}]")  # explicitly empty (the default is not)
            for k in sorted(v):
                fill = _Fill(2, f"[{f.tag}")
                _token(fill, k, 30, _KEY)
                _scalar(fill, v[k], "]")
                lines += fill.done()
        elif f.kind == "seq":
            if v is None:
                lines.append(f"[{f.tag} null]")
            elif not v:
                lines.append(f"[{f.tag}]")
            else:
                fill = _Fill(2, f"[{f.tag}")
                for i, x in enumerate(v):
                    _scalar(fill, x, "]" if i == len(v) - 1 else "")
                lines += fill.done()
        elif f.kind == "scalar":
            fill = _Fill(2, f"[{f.tag}")
            _scalar(fill, v, "]")
            lines += fill.done()
        elif f.kind == "entry":
            if v is None:
                lines.append(f"[{f.tag} null]")
            else:
                lg = next(getattr(value, g.name) for g in _spec(cls) if g.kind == "block")
                previous = _chain_end(lg)
                lines += _entry_lines(v, len(lg.moves) + 1, previous, f"[{f.tag} ", 0, 0, "]")
        elif f.kind == "raw":
            as_value, x = _raw_value(v)
            if as_value:
                lines += _json_lines(x, f"[{f.tag} ", 0, "]")
            else:
                fill = _Fill(2, f"[{f.tag} json")
                fill.text('"', x, '"', '"]')
                lines += fill.done()
        else:
            lines += _json_lines(msgspec.to_builtins(v), f"[{f.tag} ", 0, "]")
    head = _head(value)
    if _bare(head, 64):
        lines.append(f"[Head {head}]")
    else:  # not a digest at all: a broken log, written as it is
        fill = _Fill(2, "[Head")
        fill.text('"', head, '"', '"]')
        lines += fill.done()
    lines.append(f"[Check {check_sum(value)}]")
    lines.append(end_line(kind))


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:  # noqa: BLE001 - a default that cannot be compared is never omitted
        return False


def _write_moves(lg: Log, lines: list[str]) -> None:
    digest = chain.head_digest(lg)
    n = len(lg.moves)
    width = len(str(n))
    by_width = max((len(_aligned(e.by) or "") for e in lg.moves), default=0)
    for number, e in enumerate(lg.moves, 1):
        written, computed = _listed(e, number, digest, width, by_width)
        lines += written
        digest = _next(computed, e.digest)


def _aligned(by: str) -> str | None:
    """How the player of a move is written when the moves are lined up
    after it: a bare name, or a name quoted for its spaces alone (``"Ann
    Smith"``); None for any other (quoted with escapes, not lined up)."""
    if _bare(by, 24):
        return by
    written = _quoted(by)
    return written if " " in by and "\\" not in written else None


@lru_cache(maxsize=8192)
def _listed(e: MoveEntry, number: int, previous: bytes, width: int,
            by_width: int) -> tuple[tuple[str, ...], bytes]:
    """Entry ``number`` of a log's moves, written, and its digest worked out.
    Kept for the next time (entries are immutable): the referee by mail
    writes every entry of a game again in each of its mails, and writing a
    long game's entries was most of the time a move took."""
    return (tuple(_entry_lines(e, number, previous, "", width, by_width, "")),
            _entry_digest(previous, _entry_dict(e)))


def _entry_lines(
    e: MoveEntry, number: int, previous: bytes, prefix: str, width: int, by_width: int, close: str
) -> list[str]:
    head = f"{prefix}{number:>{width}}. "
    fill = _Fill(len(head) + by_width + 1, head.rstrip())
    _token(fill, e.by, 24)
    written = _aligned(e.by)
    if written is not None:
        fill.cur += " " * (by_width - len(written))
    _token(fill, e.move, 40)
    fields = _entry_dict(e)
    computed = _entry_digest(previous, fields)
    for f in _spec(MoveEntry):
        v = fields[f.name]
        if f.name in ("by", "move"):
            continue
        if f.name == "digest":
            if v == computed.hex():
                continue
        elif not f.required and _same(v, f.default):
            continue
        if f.name == "comment" and isinstance(v, str):
            fill.text("{", v, "}", "}")
        elif isinstance(v, str):
            if len(fill.cur) + len(_quoted(v)) + len(f.name) + 2 > WIDTH:
                fill.newline()  # a signature on lines of its own
            fill.text(f'{f.name}="', v, '"', '"')
        else:
            fill.word(f"{f.name}={_compact(msgspec.to_builtins(v))}")
    if close:
        fill.word(close, sep="")
    return fill.done()


# --- Reading --------------------------------------------------------------------------------

# What a mail client puts in for what the text form holds. The text form is
# pure ASCII, so any of these in a block was put there on the way.
_NORMALIZE = str.maketrans(
    {
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u301d\u301e\uff02", '"'),
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4\uff07", "'"),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
        **dict.fromkeys(
            "\t\x0b\x0c\x85\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
            "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000>",
            " ",
        ),
        **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", None),
        "\u2026": "...",
    }
)
_QUOTE_PREFIX = re.compile(r"[ \t]*((?:>[ \t]*)*)")
_MARKER = re.compile(r"-+ *(BEGIN|END)[ \n]+ADJUDICATOR[ \n]+([A-Za-z]+) *-+", re.I)
_BEGIN = re.compile(r"-+ *BEGIN[ \n]+ADJUDICATOR[ \n]+([A-Za-z]+) *-+", re.I)
_END = re.compile(r"-+ *END[ \n]+ADJUDICATOR[ \n]+([A-Za-z]+) *-+", re.I)
_MOVE_CHARS = frozenset(chr(c) for c in range(0x21, 0x7F)) - set('"[\\]{}')
_VALUE_CHARS = _MOVE_CHARS - set(",:")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_ENTRY_NUMBER = re.compile(r"([0-9]+)\.")
_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "s": " ", "b": "\b", "f": "\f",
            "\\": "\\", '"': '"', "{": "{", "}": "}", "/": "/", "[": "[", "]": "]"}
_MAX_DEPTH = 64
#: What a rendered page's emphasis is written as for the reader of a
#: rendered post (scan's "html"): <em> and <strong> (and their end tags),
#: which Markdown made of a "*" or "_" each side, or two. The reader tells
#: which (the check sum deciding); elsewhere they are refused.
EMPHASIS, STRONG = "\ue000", "\ue001"
_MARKS = {EMPHASIS: 1, STRONG: 2}
#: Characters that mean themselves in a string ('"') or a comment ("}").
_RUNS = {'"': re.compile(r'[!#-\[\]-~]+'), "}": re.compile(r"[!-\[\]-|~]+")}
#: What may follow the end of a string ('"') or a comment ("}").
_ENDS_AFTER = {'"': frozenset(["", " ", "\n", "]", ",", ":", "}"]), "}": frozenset(["", " ", "\n", "]"])}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


class Word(str):
    """A bare word as read: a literal (``true``, ``null``, ``12``) or text,
    whichever the field takes."""


@dataclass(frozen=True)
class Found:
    """A log or view file found in a text: where it starts (``line``, 1-based),
    how deeply that line is quoted in mail (``depth``, 0 for none), whether
    it was the text form or JSON (``form``), and a phrase for messages."""

    value: Log | ViewFile
    line: int
    depth: int
    form: str
    where: str


def _literal(word: str) -> tuple[bool, Any]:
    if word == "null":
        return True, None
    if word in ("true", "false"):
        return True, word == "true"
    if _NUMBER.fullmatch(word):
        try:
            return True, msgspec.json.decode(word.encode())
        except (msgspec.DecodeError, ValueError):
            return False, None
    return False, None


def _plain(v: Any) -> Any:
    if isinstance(v, Word):
        ok, value = _literal(v)
        return value if ok else str(v)
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


class _Reader:
    """A recursive-descent reader over the normalized text of a message."""

    def __init__(self, text: str, starts: list[int], source: str, markdown: str = "") -> None:
        self.t = text
        self.n = len(text)
        self.starts = starts
        self.src = source
        self.pos = 0
        # The text of a rendered Markdown post (see _read_block): with "soft",
        # as a browser shows it, every "\" of a soft break eaten, its line
        # break kept and the other line breaks joined with spaces; with
        # "page", as the page holds it (each <br> given its "\" back);
        # "html", the same known to come from a rendered page.
        self.markdown = markdown
        self.eaten = markdown == "soft"
        #: The deviations from the likeliest reading of each place where
        #: Markdown may have eaten a "\" (position -> True), and the places
        #: met in this reading, with the cost of deviating there.
        self.deviate: dict[int, bool] = {}
        self.trail: list[tuple[int, int]] = []
        #: Signs of a Markdown rendering met: moves without their numbers
        #: (the list it made of them), which a mail client never drops; and
        #: the soft breaks read, written ("\" at the end of a line) and
        #: eaten (none written and some eaten: as a browser shows a post).
        self.signs = 0
        self.breaks = [0, 0]
        #: The lines that start with white space (before any quoting).
        self.indented: frozenset[int] = frozenset()
        self.checked = False

    # -- positions and errors

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos)

    def fail(self, message: str, pos: int | None = None) -> NoReturn:
        where = self.pos if pos is None else pos
        raise BadLogError(f"{self.src}: line {self.line(where)}: {message}")

    def choose(self, pos: int, cost: int) -> bool:
        """Whether to deviate, at ``pos``, from the likeliest reading of a
        place where a forum's Markdown may have eaten a ``\\``."""
        self.trail.append((pos, cost))
        return self.deviate.get(pos, False)

    def skip(self) -> None:
        t, n, pos = self.t, self.n, self.pos
        while pos < n and (t[pos] == " " or t[pos] == "\n"):
            pos += 1
        self.pos = pos

    def peek(self) -> str:
        return self.t[self.pos] if self.pos < self.n else ""

    def marker(self) -> re.Match[str] | None:
        return _MARKER.match(self.t, self.pos)

    def unexpected(self, what: str) -> NoReturn:
        c = self.peek()
        if not c:
            self.fail(f"the text ends where {what} should be: it was cut short")
        if not " " < c < "\x7f":
            self.fail(f"character U+{ord(c):04X} {c!r} where {what} should be: the text form "
                      "is plain ASCII (was it changed on the way?)")
        word = re.match(r"\S{1,20}", self.t[self.pos:])
        self.fail(f"{word[0] if word else c!r} where {what} should be")

    # -- tokens

    def word(self, chars: frozenset[str]) -> str:
        t, n = self.t, self.n
        start = pos = self.pos
        out = []
        while True:
            begin = pos
            while pos < n and t[pos] in chars:
                pos += 1
            out.append(t[begin:pos])
            # A word a mail client broke after a hyphen or slash goes on.
            if pos > begin and t[pos - 1] in _BREAK_AFTER:
                j = pos
                while j < n and t[j] in " \n":
                    j += 1
                if j > pos and j < n and t[j] in chars and not _MARKER.match(t, j):
                    pos = j
                    continue
            break
        self.pos = pos
        if pos == start:
            self.unexpected("a word")
        return "".join(out)

    def text(self, close: str) -> str:
        """The rest of a string or comment, after its opening delimiter."""
        t, n = self.t, self.n
        start = self.pos - 1
        out: list[str] = []
        hyphen = False
        pos = self.pos
        run = _RUNS[close].match
        while True:
            m = run(t, pos)  # ordinary characters, taken at once
            if m:
                word = m[0]
                out.append(word)
                hyphen = word[-1] in _BREAK_AFTER
                pos = m.end()
            if pos >= n:
                self.fail("a text that opens here is never closed (cut short?)", start)
            c = t[pos]
            if c in _MARKS and self.markdown:
                out.append(("_" if self.choose(pos, 1) else "*") * _MARKS[c])
                pos += 1
                hyphen = False
                continue
            if c == close and self.markdown:
                # The end, or a "\}" or '\"' whose "\" Markdown ate.
                nxt = t[pos + 1] if pos + 1 < n else ""
                ends = nxt in _ENDS_AFTER[close]
                if not ends:
                    cost = 1
                elif close == "}":  # a comment's end: at the end of its line, or before a field
                    cost = 3 if nxt != " " or _FIELD.match(t, pos + 2) else 1
                else:
                    cost = 4
                if ends != self.choose(pos, cost):
                    pos += 1
                    break
                out.append(c)
                pos += 1
                hyphen = False
                continue
            if c == close:
                pos += 1
                break
            if c == "\\" and self.markdown:
                nxt = t[pos + 1] if pos + 1 < n else ""
                if nxt == "\n":  # a soft break, or a "\\" (eaten to "\") before a line break
                    # (As a browser shows the post, a soft break is a bare line break.)
                    literal = self.eaten != self.choose(pos, 1)
                elif nxt == " " or not nxt:
                    literal = True  # never written: what is left of a "\\"
                elif not nxt.isalnum():  # Markdown eats a "\" before punctuation: a "\\"
                    literal = not self.choose(pos, 2)
                elif self.escape_at(pos):
                    literal = self.choose(pos, 2)
                else:
                    literal = True
                if literal:
                    out.append("\\")
                    pos += 1
                    hyphen = False
                    continue
            if c == "\\":
                nxt = t[pos + 1] if pos + 1 < n else ""
                if nxt in (" ", "\n"):  # a soft line break: nothing
                    self.breaks[0] += 1
                    pos += 1
                    while pos < n and t[pos] in " \n":
                        pos += 1
                    continue
                if nxt in _ESCAPES:
                    out.append(_ESCAPES[nxt])
                    pos += 2
                elif nxt in ("u", "U"):
                    size = 4 if nxt == "u" else 8
                    digits = t[pos + 2:pos + 2 + size]
                    if len(digits) != size or not all(d in _HEX_DIGITS for d in digits):
                        self.fail(f"'\\{nxt}' must be followed by {size} hex digits", pos)
                    code = int(digits, 16)
                    pos += 2 + size
                    if 0xD800 <= code < 0xDC00 and t[pos:pos + 2] == "\\u":
                        low = t[pos + 2:pos + 6]
                        if len(low) == 4 and all(d in _HEX_DIGITS for d in low) and (
                            0xDC00 <= int(low, 16) < 0xE000
                        ):
                            code = 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)
                            pos += 6
                    if code > 0x10FFFF or 0xD800 <= code < 0xE000:
                        self.fail(f"'\\{nxt}{digits}' is not a character", pos - 2 - size)
                    out.append(chr(code))
                else:
                    self.fail(f"unknown escape '\\{nxt}'", pos)
                hyphen = False
            elif c == "\n" and self.eaten and t[pos - 1] != " ":
                # (The writer breaks a long line so, and indents the next.)
                line = self.line(pos)
                if pos - self.starts[line - 1] >= 48 and line + 1 not in self.indented:
                    self.breaks[1] += 1
                while pos < n and t[pos] in " \n":  # a soft break whose "\" was eaten
                    pos += 1
            elif c == " " or c == "\n":
                while pos < n and t[pos] in " \n":
                    pos += 1
                if not hyphen:  # else a mail client broke the line after a hyphen
                    out.append(" ")
                hyphen = False
            elif " " < c < "\x7f":
                out.append(c)
                hyphen = c in _BREAK_AFTER
                pos += 1
            else:
                self.pos = pos
                self.unexpected("text")
        self.pos = pos
        return "".join(out)

    def escape_at(self, pos: int) -> bool:
        """Whether the ``\\`` at ``pos`` starts an escape the text form writes."""
        t = self.t
        nxt = t[pos + 1:pos + 2]
        if nxt in ("u", "U"):
            digits = t[pos + 2:pos + (6 if nxt == "u" else 10)]
            return len(digits) == (4 if nxt == "u" else 8) and all(d in _HEX_DIGITS for d in digits)
        return nxt in _ESCAPES

    def name_or_text(self) -> tuple[str, int]:
        """A player's name, a move or a key: bare or quoted."""
        self.skip()
        start = self.pos
        if self.peek() == '"':
            self.pos += 1
            return self.text('"'), start
        if self.marker():
            self.unexpected("a name or a move")
        return self.word(_MOVE_CHARS), start

    def value(self, depth: int = 0) -> Any:
        """A value: a string, a bare word, or a JSON-like object or array."""
        if depth > _MAX_DEPTH:
            self.fail("values nested too deeply")
        self.skip()
        c = self.peek()
        if c == '"':
            self.pos += 1
            return self.text('"')
        if c == "{":
            start = self.pos
            self.pos += 1
            obj: dict[str, Any] = {}
            while True:
                self.skip()
                if self.peek() == "}":
                    self.pos += 1
                    return obj
                kpos = self.pos
                key = self.value(depth + 1)
                if not isinstance(key, str):
                    self.fail("an object's key must be a string", kpos)
                self.skip()
                if self.peek() != ":":
                    self.unexpected("':'")
                self.pos += 1
                if str(key) in obj:
                    self.fail(f"the key {str(key)!r} is given twice", kpos)
                obj[str(key)] = self.value(depth + 1)
                self.skip()
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != "}":
                    if not self.peek():
                        self.fail("an object that opens here is never closed", start)
                    self.unexpected("',' or '}'")
        if c == "[":
            start = self.pos
            self.pos += 1
            arr: list[Any] = []
            while True:
                self.skip()
                if self.peek() == "]":
                    self.pos += 1
                    return arr
                arr.append(self.value(depth + 1))
                self.skip()
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != "]":
                    if not self.peek():
                        self.fail("an array that opens here is never closed", start)
                    self.unexpected("',' or ']'")
        if c and c in _VALUE_CHARS and not self.marker():
            return Word(self.word(_VALUE_CHARS))
        self.unexpected("a value")

    # -- the grammar

    def block(self, kind: str, begin: int) -> Any:
        cls = KINDS[kind]
        tags = _tags(cls)
        spec = _spec(cls)
        got: dict[str, tuple[Any, int]] = {}
        maps: dict[str, dict[str, Any]] = {}
        entries: list[tuple[dict[str, Any], int]] = []
        head: tuple[str, int] | None = None
        check: tuple[str, int] | None = None
        has_moves = any(f.kind == "moves" for f in spec)
        while True:
            self.skip()
            if self.pos >= self.n:
                self.fail(f"the {kind} block that begins here has no END line: it was cut short",
                          begin)
            m = self.marker()
            if m:
                what, inner = m[1].upper(), m[2].upper()
                if what == "END":
                    if inner != kind:
                        self.fail(f"an END {inner} line inside a {kind} block")
                    end = self.pos
                    self.pos = m.end()
                    break
                field = next(
                    (f for f in spec if f.kind == "block" and _KIND_OF[f.type] == inner), None
                )
                if field is None:
                    self.fail(f"a {kind} block holds no {inner} block (was an END line lost?)")
                if field.name in got:
                    self.fail(f"a second {inner} block in one {kind} block")
                start = self.pos
                self.pos = m.end()
                got[field.name] = (self.block(inner, start), start)
                continue
            c = self.peek()
            if c == "[":
                start = self.pos
                self.pos += 1
                self.skip()
                name = self.word(_NAME_CHARS) if self.peek() in _NAME_CHARS else ""
                if not name:
                    self.unexpected("a tag's name")
                if _norm(name) in ("head", "check"):
                    special = "Head" if _norm(name) == "head" else "Check"
                    if (head if special == "Head" else check) is not None:
                        self.fail(f"a second [{special}] line", start)
                    value = self.value()
                    if not isinstance(value, str):
                        self.fail(f"[{special}] takes a string of hex digits", start)
                    if special == "Head":
                        head = (str(value), start)
                    else:
                        check = (str(value), start)
                    self.close_tag(name, start)
                    continue
                field = tags.get(_norm(name))
                if field is None:
                    known = ", ".join(
                        f"[{f.tag}]" for f in spec if f.kind not in ("implied", "block", "moves")
                    )
                    self.fail(f"unknown tag [{name}] (a {kind} block takes {known}, [Head], "
                              "[Check])", start)
                self.tag(field, name, start, got, maps)
                continue
            if c.isdigit() and has_moves:
                entries.append(self.entry(len(entries) + 1))
                continue
            if c in _MOVE_CHARS and has_moves:
                # A move without its number: a forum's Markdown made the
                # moves a numbered list and its rendering dropped the numbers.
                self.signs += 1
                entries.append(self.entry(len(entries) + 1, numbered=False))
                continue
            self.unexpected("a tag, a numbered move or the END line")
        try:
            if cls is Log:
                value = self.finish_log(got, maps, entries, head, begin, end)
            else:
                value = self.finish_view(cls, got, maps, head, begin, end)
            if check is None:
                self.fail("no [Check ...] line: the text was cut short or a line was lost", end)
            if check[0].lower() != check_sum(value):
                self.fail("the check sum does not match what the text holds: a line was lost or "
                          "changed on the way (ask for it again)", check[1])
        except BadLogError:
            self.checked = True  # it parsed: what it holds is not what was written
            raise
        return value

    def close_tag(self, name: str, start: int) -> None:
        self.skip()
        if self.peek() != "]":
            if not self.peek() or self.marker():
                self.fail(f"the tag [{name} that opens here is never closed", start)
            self.unexpected(f"the ']' closing [{name}")
        self.pos += 1

    def tag(self, f: _Field, name: str, start: int, got: dict[str, tuple[Any, int]],
            maps: dict[str, dict[str, Any]]) -> None:
        if f.kind == "map":
            entries = maps.setdefault(f.name, {})
            self.skip()
            if self.peek() == "]":
                self.pos += 1
                return
            key, _ = self.name_or_text()
            raw = self.value()
            self.close_tag(name, start)
            if key in entries:
                self.fail(f"[{f.tag} {key}] is given twice", start)
            mapping = next(a for a in _union_args(f.type) if a is not _NoneType)
            item_type = typing.get_args(mapping)[1]
            entries[key] = self.convert(raw, item_type, f"[{f.tag} {key}]", start)
            return
        if f.name in got or (f.kind == "block"):
            what = f"[{f.tag}] is given twice" if f.name in got else f"[{name}] is not a tag"
            self.fail(what, start)
        if f.kind == "entry":
            self.skip()
            if self.t.startswith("null", self.pos) and not (
                self.pos + 4 < self.n and self.t[self.pos + 4] in _MOVE_CHARS
            ):
                self.pos += 4
                value: Any = None
            else:
                value, _ = self.entry(None)
            self.close_tag(name, start)
            got[f.name] = (value, start)
            return
        values: list[Any] = []
        while True:
            self.skip()
            if self.peek() == "]":
                self.pos += 1
                break
            if not self.peek() or self.marker():
                self.fail(f"the tag [{name} that opens here is never closed", start)
            values.append(self.value())
        label = f"[{f.tag}]"
        if f.kind == "implied":
            literal = typing.get_args(f.type)[0]
            if [_plain(v) for v in values] != [literal]:
                self.fail(f"{label} must be {literal!r} in this block", start)
            return
        if f.kind == "seq":
            if len(values) == 1 and isinstance(values[0], Word) and values[0] == "null":
                got[f.name] = (self.convert(values[0], f.type, label, start), start)
            else:
                got[f.name] = (self.convert(values, f.type, label, start), start)
            return
        if f.kind == "raw":
            if len(values) == 2 and values[0] == "json" and isinstance(values[0], Word) and (
                isinstance(values[1], str) and not isinstance(values[1], Word)
            ):
                data = values[1].encode("utf-8", "surrogatepass")
            elif len(values) == 1:
                try:
                    data = msgspec.json.encode(_plain(values[0]))
                except (msgspec.EncodeError, OverflowError, ValueError, TypeError) as e:
                    self.fail(f"{label}: {e}", start)
            else:
                self.fail(f"{label} takes one JSON value", start)
            try:
                msgspec.json.decode(data)
            except (msgspec.DecodeError, RecursionError) as e:
                self.fail(f"{label} is not JSON: {e}", start)
            got[f.name] = (msgspec.Raw(data), start)
            return
        if len(values) != 1:
            self.fail(f"{label} takes one value, not {len(values)}", start)
        got[f.name] = (self.convert(values[0], f.type, label, start), start)

    def convert(self, raw: Any, tp: Any, label: str, pos: int) -> Any:
        words: list[Any] | str | None
        if isinstance(raw, list) and not isinstance(raw, Word):
            plain: Any = [_plain(x) for x in raw]
            words = [str(x) if isinstance(x, Word) else _plain(x) for x in raw]
        else:
            plain = _plain(raw)
            words = str(raw) if isinstance(raw, Word) else None
        try:
            return msgspec.convert(plain, tp)
        except msgspec.ValidationError as e:
            # A bare word is text where the field takes no literal: [Game atlas].
            if words is not None and words != plain:
                try:
                    return msgspec.convert(words, tp)
                except msgspec.ValidationError:
                    pass
            self.fail(f"{label}: {e}", pos)

    def entry(self, expected: int | None, numbered: bool = True) -> tuple[dict[str, Any], int]:
        """``N. by move [{comment}] [name=value ...]``; without ``numbered``,
        ``by move ...``, the move ``expected``."""
        start = self.pos
        if not numbered and expected is not None:
            number = f"{expected}."
        else:
            number = self.word(_MOVE_CHARS)
        m = _ENTRY_NUMBER.fullmatch(number)
        if not m:
            self.fail(f"{number!r} where a move number ('12.') should be", start)
        if expected is not None and int(m[1]) != expected:
            if int(m[1]) > expected:
                self.fail(f"move {m[1]} where move {expected} should be: "
                          f"{'a move is' if int(m[1]) == expected + 1 else 'moves are'} "
                          "missing (a line was lost?)", start)
            self.fail(f"move {m[1]} where move {expected} should be", start)
        entry: dict[str, Any] = {"number": int(m[1])}
        entry["by"], _ = self.name_or_text()
        entry["move"], _ = self.name_or_text()
        fields = _entry_fields()
        while True:
            self.skip()
            c = self.peek()
            if c == "{":
                if "comment" in entry:
                    self.fail("a second comment on one move")
                self.pos += 1
                entry["comment"] = self.text("}")
                continue
            fm = _FIELD.match(self.t, self.pos)
            if not fm:
                break
            fpos = self.pos
            f = fields.get(_norm(fm[1]))
            if f is None:
                self.fail(f"a move has no field {fm[1]!r}", fpos)
            if f.name in entry:
                self.fail(f"{f.name}= is given twice on one move", fpos)
            self.pos = fm.end()
            if self.peek() in ("", " ", "\n"):
                self.fail(f"{f.name}= without a value", fpos)
            entry[f.name] = self.convert(self.value(), f.type, f"{f.name}=", fpos)
        return entry, start

    def finish_log(self, got: dict[str, tuple[Any, int]], maps: dict[str, dict[str, Any]],
                   entries: list[tuple[dict[str, Any], int]], head: tuple[str, int] | None,
                   begin: int, end: int) -> Log:
        data = self.header(Log, got, maps, end)
        moves_key = next(f.key for f in _spec(Log) if f.kind == "moves")
        data[moves_key] = []
        header = self.decode(Log, data, begin)
        header_digest = chain.head_digest(header)
        digest = header_digest
        digests: list[str] = []
        for entry, _ in entries:
            computed = _entry_digest(digest, entry)
            stored = entry["digest"] if "digest" in entry else computed.hex()
            entry["digest"] = stored
            digests.append(stored)
            digest = _next(computed, stored)
        data[moves_key] = [self.entry_json(e) for e, _ in entries]
        lg = self.decode(Log, data, begin)
        self.check_head(head, digests, header_digest.hex(), end, entries)
        return lg

    def finish_view(self, cls: type, got: dict[str, tuple[Any, int]],
                    maps: dict[str, dict[str, Any]], head: tuple[str, int] | None,
                    begin: int, end: int) -> Any:
        entry_field = next((f for f in _spec(cls) if f.kind == "entry"), None)
        block_field = next((f for f in _spec(cls) if f.kind == "block"), None)
        chain: list[str] = []
        base = ""
        entries: list[tuple[dict[str, Any], int]] = []
        if block_field is not None and block_field.name in got:
            lg = got[block_field.name][0]
            base = _log_head(lg)
            if entry_field is not None and entry_field.name in got and got[entry_field.name][0]:
                entry, pos = got[entry_field.name]
                expected = len(lg.moves) + 1
                if entry["number"] != expected:
                    self.fail(f"the move is numbered {entry['number']}, but the log holds "
                              f"{len(lg.moves)} moves: it should be {expected}", pos)
                computed = _entry_digest(_chain_end(lg), entry)
                entry["digest"] = entry["digest"] if "digest" in entry else computed.hex()
                chain = [entry["digest"]]
                entries = [(entry, pos)]
                got[entry_field.name] = (self.entry_json(entry), pos)
        data = self.header(cls, got, maps, end)
        value = self.decode(cls, data, begin)
        self.check_head(head, chain, base, end, entries, view=True)
        return value

    def header(self, cls: type, got: dict[str, tuple[Any, int]], maps: dict[str, dict[str, Any]],
               end: int) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in _spec(cls):
            if f.kind == "implied":
                data[f.key] = typing.get_args(f.type)[0]
            elif f.kind == "moves":
                continue
            elif f.kind == "map":
                if f.name in maps:
                    data[f.key] = maps[f.name]
                elif f.required:
                    data[f.key] = {}
            elif f.name in got:
                data[f.key] = got[f.name][0]
            elif f.required:
                what = f"{_KIND_OF[f.type]} block" if f.kind == "block" else f"[{f.tag}] tag"
                self.fail(f"the {_KIND_OF[cls]} block has no {what} (was a line lost?)", end)
        return data

    @staticmethod
    def entry_json(entry: dict[str, Any]) -> dict[str, Any]:
        keys = {f.name: f.key for f in _spec(MoveEntry)}
        return {keys[k]: v for k, v in entry.items() if k in keys}

    def decode(self, cls: type, data: dict[str, Any], begin: int) -> Any:
        try:
            raw = msgspec.json.encode(data)
        except (msgspec.EncodeError, OverflowError, ValueError, TypeError) as e:
            self.fail(f"cannot be written as JSON: {e}", begin)
        return _DECODERS[cls](raw, f"{self.src}: line {self.line(begin)}")

    def check_head(self, head: tuple[str, int] | None, digests: list[str], base: str, end: int,
                   entries: list[tuple[dict[str, Any], int]], view: bool = False) -> None:
        if head is None:
            self.fail("no [Head ...] line: the chain head is missing (was the text cut short?)",
                      end)
        text, pos = head
        actual = digests[-1] if digests else base
        if text.lower() == actual:
            return
        what = "the move in it" if view else f"the {len(digests)} moves above"
        if not view:
            earlier = [base, *digests[:-1]]
            if text.lower() in earlier:
                i = earlier.index(text.lower())
                self.fail(f"the chain head is that of move {i}, but the log holds {len(digests)} "
                          f"moves: the moves from line {self.line(entries[i][1])} on were added "
                          "or changed by hand", pos)
        self.fail(f"the chain head does not follow from the header and {what}: the text was "
                  "changed or damaged on the way (ask for it again)", pos)


# --- Finding logs in a text -----------------------------------------------------------------

_JSON_START = re.compile(r'\{\s*"format"\s*:\s*"(adjudicator-log|adjudicator-view)"')


def _json_end(text: str, start: int) -> int | None:
    """Where the JSON value opening at ``start`` ends (brackets matched, strings skipped)."""
    depth = 0
    in_string = escaped = False
    for i in range(start, len(text)):
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _rejoin(text: str) -> str:
    """JSON whose strings a mail client broke across lines, joined again."""
    out: list[str] = []
    in_string = escaped = False
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
            elif c == "\n":
                while i + 1 < n and text[i + 1] in " \t":
                    i += 1
                if out and out[-1] not in " " + _BREAK_AFTER:
                    out.append(" ")
                i += 1
                continue
        elif c == '"':
            in_string = True
        out.append(c)
        i += 1
    return "".join(out)


def _split_lines(text: str) -> list[str]:
    return re.split(r"\r\n|\r|\n", text)


@dataclass(frozen=True)
class Damaged:
    """A copy that could not be read: the error, and where it starts."""

    error: BadLogError
    line: int
    depth: int


def scan(text: str, source: str = "text", *, json_too: bool = True,
         damaged: list[Damaged] | None = None,
         markdown: tuple[str, ...] = ("soft", "page")) -> list[Found]:
    """Every log and view file in ``text``, in the order they appear: text-form
    blocks (quoted in mail or not) and, with ``json_too``, JSON files pasted
    in it.

    A damaged copy raises :class:`BadLogError` (see :func:`settle`); with
    ``damaged`` given, damaged copies are added to it instead, for a caller
    that reads several texts (the parts of a mail) to settle at the end.
    A block that does not read is read again as a rendered Markdown post
    would have it (``markdown``): ``"soft"``, as a browser shows the post
    (only soft breaks are line breaks), ``"page"``, as the page holds it
    (with the ``\\`` of each soft break's ``<br>`` put back), ``"html"``,
    the same from a page known to be a rendered post; ``()`` for a text
    known to be no such post (the HTML source of a page).
    """
    try:
        found, problems = _scan(text, source, json_too)
        if not found and not problems and not _may_hold(text):
            pass  # nothing names a log: no second reading can find one
        elif problems or not found:
            # A chat paste: a text form posted in several messages comes back
            # with the chat's own lines inside it. Read again without them
            # (blanked, so that line numbers stay those of the paste).
            quiet = _without_chat_lines(text)
            if quiet != text:
                again, still = _scan(quiet, source, json_too)
                if len(again) > len(found) or (len(again) == len(found) and len(still) < len(problems)):
                    found, problems = again, still
        budget = [_SEARCH_CHARS]  # for every reading below
        for way in markdown:
            if not (problems or not found) or not _may_hold(text):
                break
            # The text of a rendered Markdown post (_read_block): as a
            # browser shows it, a line break inside a string is a soft break
            # whose "\" was eaten; as the page holds it, not. Either way, the
            # "\" of escapes may have been eaten (the check sum tells).
            again, still = _scan(text, source, json_too, markdown=way, budget=budget)
            if len(again) > len(found) or (len(again) == len(found) and (
                    len(still) < len(problems) or (len(still) == len(problems) and _forum(still)
                                                   and not _forum(problems)))):
                found, problems = again, still
    except BadLogError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError,
            UnicodeError, msgspec.MsgspecError) as e:  # pragma: no cover - a safety net
        raise BadLogError(f"{source}: unreadable ({type(e).__name__}: {e})") from None
    if damaged is None:
        settle(found, problems)
    else:
        damaged.extend(problems)
    return found


# The lines a chat puts into a paste of several messages: a code fence
# (```text, ~~~) and the header a copied message starts with, as Discord
# writes it ("ann — Today at 10:02", "ann — 11/26/2026 10:02 PM",
# "ann Yesterday at 9:15 AM"); and the "[10:02] ann: " of its compact mode,
# before the first line of a message.
_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})[A-Za-z0-9_+.-]*[ \t]*")
_CHAT_HEADER = re.compile(
    r"[ \t]*[^\s\[\]{}\\\"]\S{0,39}(?: \S{1,40}){0,2}[ \t]+(?:[\u2014\u2013-]+[ \t]+)?"
    r"(?:(?:Today|Yesterday) at |\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?[ \t]+)?"
    r"\d{1,2}:\d{2}(?:[ \t]?[AaPp]\.?[Mm]\.?)?[ \t]*")
_CHAT_PREFIX = re.compile(r"[ \t]*\[\d{1,2}:\d{2}(?:[ \t]?[AaPp][Mm])?\][ \t]+[^:\s]{1,40}:[ \t]")


def _without_chat_lines(text: str) -> str:
    """``text`` with the fences and message headers of a chat paste blanked."""
    out = []
    for line in _split_lines(text):
        if _FENCE_LINE.fullmatch(line) or (_CHAT_HEADER.fullmatch(line) and "(" not in line
                                            and not _ENTRY_NUMBER.match(line.strip())):
            out.append("")
        else:
            m = _CHAT_PREFIX.match(line)
            out.append(line[m.end():] if m else line)
    return "\n".join(out)


def settle(found: list[Found], damaged: list[Damaged]) -> None:
    """Raise the error of the first damaged copy that could be the one meant:
    one quoted no more deeply than every intact copy. A damaged copy in a
    quote below an intact one (the previous mail, clipped by a mail client)
    is passed over."""
    top = min((f.depth for f in found), default=None)
    for d in sorted(damaged, key=lambda d: d.line):
        if top is None or d.depth <= top:
            raise d.error


#: Characters reading drops from a line (_NORMALIZE): one could split the word.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"


def _may_hold(text: str) -> bool:
    """Whether ``text`` may hold a log or a view file at all: every copy, text
    form or JSON, names ``adjudicator`` (a BEGIN line, a format). A large
    file that does not is refused at the cost of one search, not of reading
    it line by line (seconds and hundreds of MB for 50 MB of anything)."""
    # (lower() and a plain search: many times faster than a search ignoring case.)
    return any(ch in text for ch in _INVISIBLE) or "adjudicator" in text.lower()


def _scan(text: str, source: str, json_too: bool, markdown: str = "",
          budget: list[int] | None = None) -> tuple[list[Found], list[Damaged]]:
    if not _may_hold(text):
        return [], []
    if text.startswith("\ufeff"):
        text = text[1:]
    stripped: list[str] = []
    depths: list[int] = []
    indented: set[int] = set()
    for number, raw in enumerate(_split_lines(text), 1):
        m = _QUOTE_PREFIX.match(raw)
        assert m is not None  # the pattern matches the empty string too
        depths.append(m[1].count(">"))
        stripped.append(raw[m.end():])
        if len(m[0]) - len(m[0].rstrip(" \t")) > (1 if m[1] else 0):  # ("> " is quoting)
            indented.add(number)
    starts = [0]
    for s in stripped[:-1]:
        starts.append(starts[-1] + len(s) + 1)
    plain = "\n".join(stripped)

    def line_of(pos: int) -> int:
        return bisect.bisect_right(starts, pos)

    # A whole JSON file (an attachment) may list its fields in any order.
    if json_too and text.lstrip().startswith("{"):
        cls = _FORMATS.get(kind_of(text) or "")
        if cls is not None:
            try:
                return [Found(_DECODERS[cls](text, source), 1, 0, "json", "line 1")], []
            except BadLogError as e:
                return [], [Damaged(e, 1, 0)]

    spans: list[tuple[int, int, int, str]] = []  # JSON: start, end, line, format
    for m in _JSON_START.finditer(plain):
        if spans and m.start() < spans[-1][1]:
            continue
        end = _json_end(plain, m.start())
        spans.append((m.start(), len(plain) if end is None else end, line_of(m.start()), m[1]))
    json_lines = [(line, line_of(end - 1)) for _, end, line, _ in spans]

    norm = [s.translate(_NORMALIZE) for s in stripped]
    nstarts = [0]
    for s in norm[:-1]:
        nstarts.append(nstarts[-1] + len(s) + 1)
    reader = _Reader("\n".join(norm), nstarts, source, markdown)
    reader.indented = frozenset(indented)
    found: list[Found] = []
    damaged: list[Damaged] = []
    blocks: list[tuple[int, int]] = []  # lines
    block_spans: list[tuple[int, int]] = []  # offsets
    pos = 0
    while m := _BEGIN.search(reader.t, pos):
        line = reader.line(m.start())
        pos = m.end()
        if any(a <= line <= b for a, b in json_lines):
            continue
        try:
            kind = m[1].upper()
            if kind not in KINDS:
                reader.fail(f"a BEGIN ADJUDICATOR {m[1]} line: this tool reads LOG and VIEW "
                            "blocks", m.start())
            value = _read_block(reader, kind, m.start(), m.end(), budget or [0])
        except BadLogError as e:
            # Read on after the BEGIN line: a copy below may be intact.
            damaged.append(Damaged(e, line, depths[line - 1]))
            continue
        block_spans.append((m.start(), reader.pos))
        found.append(Found(value, line, depths[line - 1], "text", f"line {line}"))
        blocks.append((line, reader.line(max(reader.pos - 1, 0))))
        pos = reader.pos

    # An END line outside every block is what is left of a block whose start
    # was lost: refused, rather than reading a log nested in a lost view.
    for m in _END.finditer(reader.t):
        line = reader.line(m.start())
        if any(a <= line <= b for a, b in json_lines) or any(
            start <= m.start() < end for start, end in block_spans
        ):
            continue
        try:
            reader.fail(f"an END ADJUDICATOR {m[1].upper()} line without its BEGIN line (was "
                        "the start of the block lost?)", m.start())
        except BadLogError as e:
            damaged.append(Damaged(e, line, depths[line - 1]))

    if json_too:
        for start, end, line, fmt in spans:
            if any(a <= line <= b for a, b in blocks):
                continue
            try:
                value = _json_at(plain, start, end, fmt, f"{source}: line {line}")
            except BadLogError as e:
                damaged.append(Damaged(e, line, depths[line - 1]))
                continue
            found.append(Found(value, line, depths[line - 1], "json", f"line {line}"))
    found.sort(key=lambda f: f.line)
    return found, damaged


class ForumDamageError(BadLogError):
    """A text form that a forum's Markdown damaged beyond repair."""


def _forum(damaged: list[Damaged]) -> bool:
    return any(isinstance(d.error, ForumDamageError) for d in damaged)


#: Bounds on the search for what Markdown ate from a block (_read_block):
#: readings tried for one block, and characters read by them all in one
#: call of scan (some 0.3 s). A hostile post
#: costs at most that, then is refused like any damaged one.
_SEARCH_TRIES = 32
_SEARCH_CHARS = 300_000


def _read_block(reader: _Reader, kind: str, begin: int, after: int, budget: list[int]) -> Any:
    """The block whose BEGIN line is at ``begin`` (its text from ``after``).

    In a rendered Markdown post (``reader.markdown``) a ``\\`` may have been
    eaten before punctuation: ``\\"`` and ``\\}`` became ``"`` and ``}``, and
    ``\\\\`` became ``\\``. Where the likeliest reading of each such place
    fails (it does not parse, or the digest chain or the check sum do not
    match), readings that deviate from it at a few places are tried, the
    cheapest first (a best-first search over the places the failed readings
    met, each deviation with a cost for how unlikely it is); a wrong
    reading is always caught by the check sum, so the first one that passes
    is the text that was written. The search is bounded (_SEARCH_TRIES,
    _SEARCH_CHARS). A block it cannot mend, with the signs of a Markdown
    rendering, is refused with a :class:`ForumDamageError` that says so."""
    reader.pos, reader.deviate, reader.trail, reader.signs, reader.checked = after, {}, [], 0, False
    reader.breaks = [0, 0]
    if not reader.markdown:
        return reader.block(kind, begin)
    try:
        return reader.block(kind, begin)
    except BadLogError as e:
        first = e
    if not (reader.signs or reader.markdown == "html" or reader.breaks[1] and not reader.breaks[0]):
        raise first
    heap: list[tuple[int, int, int, dict[int, bool], int]] = []
    order = itertools.count()

    def grow(cost: int, deviate: dict[int, bool], last: int) -> None:
        failed = reader.pos
        budget[0] -= max(failed - after, 1)
        checked = reader.checked
        for pos, step in reader.trail:
            if pos > last:  # each set of deviations is tried once, in the order met
                # Near where the reading failed first; once it parses, near
                # the last deviation (damage comes in clusters: one comment).
                near = pos - last if checked else failed - pos
                heapq.heappush(heap, (cost + step, near, next(order), {**deviate, pos: True}, pos))

    grow(0, {}, -1)
    tries = 0
    while heap and tries < _SEARCH_TRIES and budget[0] > 0:
        cost, _, _, deviate, last = heapq.heappop(heap)
        tries += 1
        reader.pos, reader.deviate, reader.trail, reader.checked = after, deviate, [], False
        try:
            return reader.block(kind, begin)
        except BadLogError:
            grow(cost, deviate, last)
    raise ForumDamageError(f"{first}; the text looks damaged by a forum's Markdown (posted "
                           "outside a code block, some of it was taken for markup): post it "
                           "with 'adjudicator convert LOG --to forum'") from None


def _json_at(plain: str, start: int, end: int, fmt: str, source: str) -> Log | ViewFile:
    decoder = _DECODERS[_FORMATS[fmt]]
    body = plain[start:end]
    try:
        return decoder(body, source)
    except BadLogError as first:
        if _json_end(plain, start) is None:
            raise BadLogError(f"{source}: a JSON {fmt.removeprefix('adjudicator-')} file that "
                              "is cut short (its braces never close)") from None
        try:
            return decoder(_rejoin(body), source)
        except BadLogError:
            raise first from None


def find_all(text: str, source: str = "text") -> list[Log | ViewFile]:
    """Every log and view file in ``text`` (text form or JSON), in order."""
    return [f.value for f in scan(text, source)]


def loads(text: str, source: str = "text") -> Log | ViewFile:
    """The log or view file that ``text`` holds in the text form.

    Text around the block (a greeting, a signature, the previous mail quoted
    below it) is passed over; copies quoted in a reply are resolved as by
    :func:`pick`. Anything wrong is one :class:`BadLogError` line naming the
    line of the text.
    """
    if not isinstance(text, str):
        raise BadLogError(f"{source}: the text form is text, not {type(text).__name__}")
    found = [f for f in scan(text, source, json_too=False) if f.form == "text"]
    if not found:
        if not text.strip():
            raise BadLogError(f"{source}: the text is empty")
        raise BadLogError(f"{source}: no '{begin_line()}' line: not the text form of a log")
    return pick(found, source)


# --- Choosing one of several copies ---------------------------------------------------------


def _log_of(value: Log | ViewFile) -> Log:
    return value.log if isinstance(value, ViewFile) else value


def _position(value: Log | ViewFile) -> tuple[str, ...]:
    moves = tuple(e.digest for e in _log_of(value).moves)
    if isinstance(value, ViewFile) and value.move is not None:
        moves += (value.move.digest,)
    return moves


def describe(found: Found) -> str:
    """``line 12: ann's view file of atlas (ann, bob) after move 5``"""
    lg = _log_of(found.value)
    what = f"{found.value.player}'s view file of " if isinstance(found.value, ViewFile) else ""
    n = len(_position(found.value))
    return f"{found.where}: {what}{lg.game} ({', '.join(lg.players)}) after move {n}"


def pick(found: list[Found], source: str) -> Log | ViewFile:
    """The one log or view file meant, from every copy found in a message
    (see :func:`pick_found`)."""
    return pick_found(found, source).value


def pick_found(found: list[Found], source: str) -> Found:
    """The copy meant, from every copy found in a message, with where it was
    found and in which form (``"text"`` or ``"json"``).

    - The message's own copies win: those least deeply quoted (an attachment
      or the unquoted text), so a reply is read, not the mail it quotes.
    - Copies that are the same file count as one.
    - Copies of one game where each is the other's beginning (an older and a
      newer copy) give the newest: the one every other leads up to; a view
      file wins over a log at the same move.
    - Anything else is refused, never chosen silently: two games, view files
      of two players, two copies that part (a fork), two different copies of
      the same position.
    """
    if not found:
        raise BadLogError(f"{source}: holds no adjudicator log or view file (no JSON log and no "
                          f"'{begin_line()}' block)")
    top = min(f.depth for f in found)
    distinct: dict[bytes, Found] = {}
    for f in found:
        if f.depth == top:
            distinct.setdefault(encode(f.value), f)
    items = list(distinct.values())
    if len(items) == 1:
        return items[0]
    games: dict[bytes, Found] = {}
    for f in items:
        games.setdefault(chain.head_digest(_log_of(f.value)), f)
    if len(games) > 1:
        listed = "; ".join(describe(f) for f in games.values())
        raise BadLogError(f"{source}: holds {len(games)} different games ({listed}): send one "
                          "at a time")
    players = sorted({f.value.player for f in items if isinstance(f.value, ViewFile)})
    if len(players) > 1:
        raise BadLogError(f"{source}: holds view files of {len(players)} players "
                          f"({', '.join(players)}): send one at a time")
    best = max(items, key=lambda f: (len(_position(f.value)), isinstance(f.value, ViewFile)))
    bp = _position(best.value)
    for f in items:
        p = _position(f.value)
        if bp[: len(p)] != p:
            k = next(i for i, (a, b) in enumerate(zip(p, bp)) if a != b) + 1
            raise BadLogError(f"{source}: holds two copies of one game that part at move {k} "
                              f"({describe(f)}; {describe(best)}): which one is meant?")
    ties = [f for f in items if _position(f.value) == bp]
    views = [f for f in ties if isinstance(f.value, ViewFile)]
    if len(ties) > 1 and len(views) != 1:
        listed = "; ".join(describe(f) for f in ties)
        raise BadLogError(f"{source}: holds {len(ties)} different copies of one game at the same "
                          f"move ({listed}): send one")
    return views[0] if views else best


