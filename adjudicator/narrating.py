"""Moves in the rule text's words: what happened since a player last moved,
as that player saw it (each game's narration reads only that player's
views), what one entry of a log did, and what each legal move would do
(:func:`explained`, from the game's ``describe``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import events
from .engine import GameSpec
from .log import Log
from .played import Replay


_EVENT_WORDS = {
    "resign": "resigned",
    "abandon": "proposed abandoning the game",
    "accept": "accepted the proposal",
    "reject": "rejected the proposal",
}

def since(rep: Replay, seat: int) -> tuple[str, ...]:
    """What happened since seat ``seat`` last moved, one line per entry:
    ``12. bob Wi-f4: <what it did>``, in the words of the rule text and as
    that seat saw it (the game's ``narrate`` reads only that seat's views).

    ``rep`` must keep its states (``replay(..., keep=True)``). Before the
    seat's first move it tells the whole game so far.
    """
    log, game = rep.log, rep.game
    player = log.players[seat]
    if not rep.states:
        raise ValueError("since() needs a replay that kept its states")
    entries = log.moves[:len(rep.states) - 1]
    last = max((i for i, e in enumerate(entries) if e.by == player), default=-1)
    out: list[str] = []
    for i in range(last + 1, len(entries)):
        entry = entries[i]
        if events.act_of(entry.move) is not None:
            out.append(f"{i + 1}. {events.act_words(entry.move)}")
            continue
        head = f"{i + 1}. {entry.by} {entry.move}"
        words = said(game, log, i, rep.states[i], rep.states[i + 1], seat)
        out.append(f"{head}: {words}" if words else head)
    return tuple(out)


def said(game: GameSpec, log: Log, index: int, before: Any, after: Any,
         seat: int | None) -> str:
    """What entry ``index`` of ``log`` did, in words, as seat ``seat`` saw it
    (``None``: every player alike); ``before`` and ``after`` are the states
    around it. Empty where there is nothing to say beyond the move itself.
    Behind :func:`since`, ``show``'s last move, ``extend``'s answer and the
    HTML replay's description of each move."""
    entry = log.moves[index]
    if events.act_of(entry.move) is not None:
        return events.act_words(entry.move)
    if entry.move[:1] == "@":
        kind, count = events.parse(entry.move)
        if kind == "takeback":
            words = f"proposed taking back the last {count} move{'s' * (count != 1)}"
        else:
            words = _EVENT_WORDS[kind]
        if kind == "accept" and before is not after and before != after:
            words += ": the moves are taken back"
        return words
    if entry.by not in log.players:
        return ""
    by = log.players.index(entry.by)
    return game.narrate(game.view(before, seat), game.view(after, seat), by, entry.move)


def explained(game: GameSpec, view: Any, moves: Sequence[str]) -> list[tuple[str, str]]:
    """Each legal move of ``moves`` (canonical notation) with what it would
    do, in the rule text's words, told from ``view``, the view of the player
    to move (:meth:`GameSpec.describe`): the list ``legal --explain`` and
    ``show`` print, the referee mails and the HTML replay shows.

    >>> from adjudicator import games
    >>> g = games.get("atlas")
    >>> explained(g, None, ["3D+2T"])
    [('3D+2T', 'play the 3 of Day, predicting Time with 2 chips')]
    """
    return [(move, game.describe(view, move)) for move in moves]
