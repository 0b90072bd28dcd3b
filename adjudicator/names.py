"""Players' names: what a name may be, its one spelling, when two names are
the same, and how a name that holds a space is written among other words.

A name is one or more words of letters and digits of any script, ``_``,
``.`` or ``-``, one space between two words, at most 24 characters, that
starts with a letter (``ann``, ``Zoë``, ``Ann Smith``, ``Ελένη Π.``). What
a person types is cleaned first (:func:`clean`): spaces at either end are
taken off and every run of white space inside is one space, so
``"  Ann   Smith "`` is ``Ann Smith``; a log holds names only as cleaned.

Two names are the same name when they differ only in case or in spaces
(:func:`key`): ``ann smith``, ``Ann Smith`` and ``AnnSmith`` cannot sit at
one table, so in the organiser's acts and the deal's lines a name typed in
any of these spellings finds its player (:func:`find`). ``--as`` takes a
name as the log spells it, but for the spaces at its ends and inside.

Where a name stands among other words on one line (the referee's acts in a
log, ``@stand-in "Ann Smith"``, and the organiser's acts by mail) a name
with a space is written in double quotes (:func:`quote`), which no name
holds; a name without one is written as it is, so every log and act of a
name without a space reads exactly as before. Specified in
``notation/README.md`` ("Player names").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

__all__ = ["MAX", "RULE", "clean", "find", "fit", "join", "key", "leading", "quote", "split", "valid"]

#: The longest name: every layout of a board or a list leaves room for it.
MAX = 24
#: What a name may be, in one line for an error message.
RULE = ("a letter, then up to 23 letters, digits, '_', '.', '-' or single spaces "
        "(of any script)")
_WORD = re.compile(r'"([^"]*)"|(\S+)')


def clean(text: str) -> str:
    """A name as typed, in its one spelling: NFC, no space at either end,
    every run of white space inside (tabs and non-breaking spaces too) one
    space. Not checked: see :func:`valid`.

    >>> clean("  Ann \\t  Smith ")
    'Ann Smith'
    """
    return " ".join(unicodedata.normalize("NFC", text).split())


def valid(name: str) -> bool:
    """Whether ``name`` is a name as a log holds it: cleaned, and made of
    words of letters, digits, ``_``, ``.`` and ``-`` after a first letter.

    >>> [valid(n) for n in ("Ann Smith", "Zoë", "Ann  Smith", " ann", "ann\\"", "3W")]
    [True, True, False, False, False, False]
    """
    return (
        0 < len(name) <= MAX
        and name[0].isalpha()
        and all(ch.isalnum() or ch in "_.- " for ch in name)
        and clean(name) == name
    )


def key(name: str) -> str:
    """What two names are compared by: case and spaces do not count.

    >>> key("Ann Smith") == key("annsmith")
    True
    """
    return name.casefold().replace(" ", "")


def find(text: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that ``text`` spells (any case, any spaces),
    or None.

    >>> find("ann  SMITH", ["bob", "Ann Smith"])
    'Ann Smith'
    """
    wanted = key(clean(text))
    return next((n for n in names if key(n) == wanted), None)


def quote(name: str) -> str:
    """``name`` as one word of a line of words: in double quotes if it holds
    a space.

    >>> quote("ann"), quote("Ann Smith")
    ('ann', '"Ann Smith"')
    """
    return f'"{name}"' if " " in name else name


def join(words: Iterable[str]) -> str:
    """Words as one line, each that holds a space quoted (:func:`quote`)."""
    return " ".join(quote(w) for w in words)


def split(line: str) -> list[str]:
    """The words of a line as :func:`join` writes it: split at white
    space, but a text in double quotes (straight or typographic) is one
    word, without its quotes.

    >>> split('@replace "Ann Smith" Dee')
    ['@replace', 'Ann Smith', 'Dee']
    """
    line = line.replace("\u201c", '"').replace("\u201d", '"')
    return [clean(q) if q else w for q, w in _WORD.findall(line)]


def fit(words: Sequence[str], shape: Sequence[str], players: Sequence[str]) -> list[list[str]]:
    """Every reading of the words ``words`` (as :func:`split` gives them)
    as the arguments ``shape`` names: ``PLAYER``, one of ``players``,
    ``NEW``, a new name, each in one word or several (any case and spaces
    for a player); ``[a|b]``, one of these words or none; anything else,
    one word. A player's name comes back as the log spells it.

    >>> fit(["ann", "SMITH", "back"], ["PLAYER", "[move|back]"], ["Ann Smith", "bob"])
    [['Ann Smith', 'back']]
    """
    if not shape:
        return [] if words else [[]]
    slot, later = shape[0], shape[1:]
    out: list[list[str]] = []
    if slot.startswith("["):
        choices = slot.strip("[]").split("|")
        if words and words[0].lower() in choices:
            out += [[words[0].lower(), *rest] for rest in fit(words[1:], later, players)]
        out += fit(words, later, players)
        return out
    if slot not in ("PLAYER", "NEW"):
        return [[words[0], *rest] for rest in fit(words[1:], later, players)] if words else []
    for n in range(1, len(words) + 1):
        typed = clean(" ".join(words[:n]))
        name = find(typed, players) if slot == "PLAYER" else typed if valid(typed) else None
        if name is not None:
            out += [[name, *rest] for rest in fit(words[n:], later, players)]
    return out


def leading(text: str, players: Iterable[str]) -> tuple[str, str] | None:
    """The one of ``players`` a text starts with (quoted, or in words that
    spell it: the most words that do) and the text after it as written; None
    if it starts with none.

    >>> leading('ann smith 3f9a  b', ["ann", "Ann Smith"])
    ('Ann Smith', '3f9a  b')
    >>> leading('"ann" smith', ["ann", "Ann Smith"])
    ('ann', 'smith')
    """
    players = list(players)
    text = text.lstrip()
    m = re.match(r'["\u201c]([^"\u201d]*)["\u201d]\s*', text)
    if m:
        found = find(m.group(1), players)
        return None if found is None else (found, text[m.end():])
    best = None
    for m in re.finditer(r"\S+", text):
        found = find(text[:m.end()], players)
        if found is not None:
            best = (found, text[m.end():].lstrip())
    return best
