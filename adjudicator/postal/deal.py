"""The deal nobody chooses, run by mail (:mod:`adjudicator.dealing`).

A game in the referee's directory whose header asks for contributions is
not dealt until every one is in. Its first mail (the announcement) asks
each player with the tool to commit; the commitments ride on the replies
(``commit NAME HEX``, as ``adjudicator deal commit`` prints it). The mail
that records the last commitment goes to every player with the log holding
them all, and asks for the reveals (``reveal NAME VALUE``) and the
mail-only players' words (``words TEXT``). The mail that records the last
of those deals: it carries every player's first view. Each step is one
:class:`~.decision.Decision`, so the journal records it exactly once, with
its mails; a crash after the last reveal is received deals once. A timed
game begins at its deal (:func:`begun`), so the clock holds nobody to the
time the deal took; the organiser drops a part never sent (:func:`drop`).

A contribution is taken from its player's address alone (no view file
exists before the deal); a forged commitment cannot bias the deal while
one contribution is honest, and the player's own tool refuses to reveal
against a commitment it did not make.

Nothing here reads or writes a file, as in :mod:`.decision`.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from email.message import Message

from .. import dealing, log as logmod, names
from ..errors import AdjudicatorError, one_line
from ..log import Log, Secret
from .commands import Refused
from .compose import Composer, public_text
from .decision import Decision, fill, position_mails, stamp_now

__all__ = ["WORDS", "call_mails", "decide", "drop", "line_of", "stage", "waiting_line"]

#: The mail commands of the deal.
WORDS = ("commit", "reveal", "words")


def stage(log: Log) -> str | None:
    """Where a game's deal stands: ``"commit"`` (commitments wait),
    ``"reveal"`` (values and words wait), or None (dealt, or no deal)."""
    if not dealing.pending(log):
        return None
    return "commit" if dealing.uncommitted(log) else "reveal"


def waiting_line(log: Log) -> str:
    """What the deal waits for, in a few words (for ``status`` and ``games``)."""
    at = stage(log)
    who = dealing.uncommitted(log) if at == "commit" else dealing.pending(log)
    return f"the deal waits for {', '.join(who)} to {'commit' if at == 'commit' else 'reveal'}"


def line_of(word: str, args: Sequence[str], player: str) -> str:
    """The line :func:`adjudicator.dealing.record` takes, from a mail's
    ``commit [NAME] HEX``, ``reveal [NAME] VALUE`` or ``words [NAME] TEXT``
    sent by ``player``: the name, when given, must be the sender's own (a
    leading own name in words is taken as the name). A name of several
    words may be quoted or not (``commit Ann Smith HEX``)."""
    own = names.leading(" ".join(args), [player])
    rest = own[1].split() if own is not None else list(args)
    if own is None and word != "words" and len(rest) > 1:
        raise Refused(f"{word}: you play {player}; send your own part only")
    if not rest:
        example = {"commit": "the line 'adjudicator deal commit' prints",
                   "reveal": "the line 'adjudicator deal reveal' prints",
                   "words": "e.g. 'words three blue horses'"}[word]
        raise Refused(f"{word}: what? send {example}")
    if word != "words" and len(rest) != 1:
        raise Refused(f"{word}: one value after your name")
    return f"{word} {names.quote(player)} {' '.join(rest)}"


def rewrapped(word: str, args: Sequence[str], body: str, player: str | None = None
              ) -> tuple[str, ...]:
    """The words after ``commit`` or ``reveal`` with the value a mail client
    moved to the next line (``commit ann`` and 64 hex digits pass 72
    columns): the next line of ``body``, when it is one word. The words
    before it are one word, or ``player``'s name of several."""
    alone = len(args) == 1 or (player is not None and (own := names.leading(
        " ".join(args), [player])) is not None and not own[1])
    if word not in ("commit", "reveal") or not alone or not body:
        return tuple(args)
    lines = body.splitlines()
    for i, text in enumerate(lines[:-1]):
        first = text.split()
        if first and first[0].lower() == word and first[1:] == list(args):
            nxt = lines[i + 1].split()
            if len(nxt) == 1 and not lines[i + 1].lstrip().startswith(">"):
                return (*args, nxt[0])
            break
    return tuple(args)


def _asks(name: str, log: Log, player: str) -> list[str]:
    """What ``player`` is asked for, at the deal's stage: paragraphs."""
    at = stage(log)
    part = log.deal.get(player)
    commit_wait = ", ".join(dealing.uncommitted(log))
    if part is None:
        return [f"You do not contribute to this deal. It waits for "
                f"{', '.join(dealing.pending(log))}; your first view comes once it is dealt."]
    if at == "commit":
        if part.words:
            return ["You contribute a few words of your own, once every player with the tool "
                    f"has committed (waiting for {commit_wait}): you will get a mail asking "
                    "for them."]
        if part.commitment is not None:
            return [f"Your commitment is recorded. Waiting for {commit_wait} to commit; then "
                    "you will be asked to reveal."]
        return ["Save the attached log as " + f"{name}.txt and run",
                f"  adjudicator deal commit {name}.txt --as {shlex.quote(player)}",
                "then reply to this mail with the line it prints (commit ...) on the first "
                "line. Your value stays on your machine until you reveal it."]
    if part.value is not None:
        return [f"Your part is recorded. Waiting for {', '.join(dealing.pending(log))}; your "
                "first view comes once the deal is complete."]
    if part.words:
        return ["Every commitment is in. Reply to this mail with 'words' and a few words of "
                "your choosing on the first line, e.g. 'words three blue horses': they become "
                "part of the deal."]
    return ["Every commitment is in (see the attached log). Save it as " + f"{name}.txt and run",
            f"  adjudicator deal reveal {name}.txt --as {shlex.quote(player)}",
            "then reply to this mail with the line it prints (reveal ...) on the first line. "
            "Your tool refuses if the log changed your commitment."]


def begun(log: Log, secret: Secret, composer: Composer) -> Log:
    """A game just dealt, its clock started now: a timed game's ``started``
    (when the game began, with the clock) is the deal's time, not the
    announcement's, so the time the deal took is on nobody's clock. The
    header is signed anew; no entry exists yet to chain from it."""
    if log.time is None or log.started is None:
        return log
    import msgspec

    from ..signing import sign

    return sign(msgspec.structs.replace(log, started=stamp_now(composer)), secret)


def call_mail(name: str, log: Log, player: str, composer: Composer, *, seed: str,
              reply_to: Message | None = None, news: str | None = None) -> bytes:
    """The mail to ``player`` of game ``name``, whose deal waits: where it
    stands and what to send, with the log attached."""
    from ..games import get

    at = stage(log)
    title = get(log.game).title
    body = [fill(f"{title}, {name}: the deal is made by the players, so that nobody, the "
                 "referee included, chooses it (notation/README.md, 'A deal nobody chooses').")]
    if news is not None:
        body += ["", fill(news)]
    for paragraph in _asks(name, log, player):
        body += ["", paragraph if paragraph.startswith("  ") else fill(paragraph)]
    subject = (f"[{name}] The deal: {'commit' if at == 'commit' else 'reveal'} "
               f"({title})")
    return composer.mail(composer.roster[name][player], subject, "\n".join(body), game=name,
                         seed=f"{seed}:{player}", reply_to=reply_to,
                         attachments=[(f"{name}.txt", "text/plain", public_text(log))],
                         auto="auto-replied" if reply_to is not None else "auto-generated")


def call_mails(name: str, log: Log, composer: Composer, *, seed: str,
               news: str | None = None) -> list[bytes]:
    """The mail to every player of game ``name`` whose deal waits."""
    return [call_mail(name, log, p, composer, seed=seed, news=news) for p in log.players]


def drop(name: str, raw: bytes, log: Log, secret: Secret, args: Sequence[str],
         composer: Composer, *, seed: str) -> Decision:
    """The organiser's ``admin drop GAME PLAYER``: the part of a player who
    never committed dropped (:func:`adjudicator.dealing.drop`), the header
    signed anew, and every player told; the game is dealt now if nothing
    else waits. Raises :class:`AdjudicatorError` with one line."""
    if len(args) != 1:
        raise Refused("write: drop GAME PLAYER")
    new = dealing.drop(log, secret, args[0])
    if stage(new) is None:
        new = begun(new, secret, composer)
    said = f"the organiser dropped {args[0]}'s part of the deal: they never sent it"
    if stage(new) is None:
        mails = position_mails(name, new, secret, composer, seed=seed,
                               notes={p: (said,) for p in new.players})
    else:
        mails = call_mails(name, new, composer, seed=seed, news=said[0].upper() + said[1:] + ".")
    return Decision(said, tuple(mails), name, raw, logmod.encode(new))


def decide(word: str, args: Sequence[str], name: str, player: str, message: Message,
           raw: bytes, log: Log, secret: Secret, composer: Composer, seed: str,
           body: str = "") -> Decision:
    """A player's part of the deal by mail: recorded and the game's log
    signed anew, or refused with one line. The sender alone is answered
    until a stage is done; the last commitment mails every player the log
    to reveal against, the last value deals and sends every first view."""
    try:
        if word not in WORDS:
            raise Refused(f"{word}: {waiting_line(log)}; nothing is played before the deal")
        if stage(log) is None:
            raise Refused("the deal is complete: nothing more is taken for it")
        new = dealing.record(log, secret, line_of(word, rewrapped(word, args, body, player), player))
    except AdjudicatorError as e:
        return Decision(f"{name}: refused {player}'s {word}: {one_line(str(e))}",
                        (composer.error_mail(message, f"{name}: {e}", name, seed),))
    if stage(new) is None:  # the last part: dealt, and the clock starts
        new = begun(new, secret, composer)
    after = logmod.encode(new)
    if stage(new) is None:
        notes = {p: ("the deal is complete: every contribution is in",) for p in new.players}
        mails = position_mails(name, new, secret, composer, seed=seed, notes=notes,
                               by=player, reply_to=message)
        return Decision(f"{name}: {player}: {word}; the deal is complete", tuple(mails), name,
                        raw, after)
    if stage(new) != stage(log):  # the last commitment: everyone reveals
        mails = [call_mail(name, new, p, composer, seed=seed,
                           reply_to=message if p == player else None) for p in new.players]
        return Decision(f"{name}: {player}: {word}; every commitment is in", tuple(mails),
                        name, raw, after)
    return Decision(f"{name}: {player}: {word}; {waiting_line(new)}",
                    (call_mail(name, new, player, composer, seed=seed, reply_to=message),),
                    name, raw, after)

