"""What happened since a player last moved, in the rule text's words, as
that player saw it (each game's narration reads only that player's views)."""

from __future__ import annotations

from . import events
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
        before, after = rep.states[i], rep.states[i + 1]
        head = f"{i + 1}. {entry.by} {entry.move}"
        if events.act_of(entry.move) is not None:
            out.append(f"{i + 1}. {events.act_words(entry.move)}")
            continue
        if entry.move[:1] == "@":
            kind, count = events.parse(entry.move)
            if kind == "takeback":
                s = "s" * (count != 1)
                words = f"proposed taking back the last {count} move{s}"
            else:
                words = _EVENT_WORDS[kind]
            if before is not after and kind == "accept":
                words += ": the moves are taken back"
            out.append(f"{head}: {words}")
            continue
        by = log.players.index(entry.by)
        words = game.narrate(game.view(before, seat), game.view(after, seat), by, entry.move)
        out.append(f"{head}: {words}" if words else head)
    return tuple(out)
