"""The refereeing protocol: view files issued, moves taken back, logs signed.

A refereed game has a public log and the referee's secret file (the seed,
the salt, the signing key). The referee sends each player, when it is their
turn, a *view file*: the public log, what that player may see, their legal
moves, and the referee's ``proof``, an Ed25519 signature binding the game,
the player, the position (the chain head), the view and the listed moves.
The player records one of the listed moves in it and sends it back; the
referee takes the move into the log only if the proof is the referee's own
and the file answers the current position. The view file is what
authorises a move for its player, for that turn only.

Every function here is the whole of one step, so every front end (the CLI,
a mail referee) does the same thing. Errors never quote hidden state: a
file is refused before any move in it reaches the rules engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import msgspec

from . import games, match, reading, seal
from .errors import (AdjudicatorError, BadLogError, IllegalMoveError, MoveError,
                     NotationError, UsageError, one_line)
from .log import VERSION, VIEW_FORMAT, Log, MoveEntry, Secret, ViewFile
from .played import Replay


class ViewFileError(AdjudicatorError):
    """A view file the referee will not take a move from."""


def signed(log: Log, secret: Secret) -> Log:
    """The log signed by the referee; every write of a refereed log goes through it."""
    return match.sign(log, secret)


def record(
    log: Log,
    secret: Secret,
    moves: Sequence[str],
    *,
    as_player: str | None = None,
    comment: str | None = None,
    player_key: str | None = None,
    at: str | None = None,
) -> Log:
    """The referee records moves typed directly (not from a view file),
    signed; ``at`` stamps them in a log with a clock (default: now)."""
    unlocked = match.unlock(log, secret)
    if unlocked.version >= 2 and unlocked.refereed and secret.signing_key is None:
        raise BadLogError("the secret file holds no signing key")
    new = match.extend(unlocked, moves, as_player=as_player, comment=comment,
                       player_key=player_key, at=at)
    return signed(match.publish(new, log), secret)


def view_items(vf: ViewFile) -> list[str]:
    """What the referee's proof of a view file covers: the chain head it answers, the player and the view."""
    head = vf.log.moves[-1].digest if vf.log.moves else match.head_digest(vf.log).hex()
    return [
        seal.VIEW_SIGN_DOMAIN,
        vf.log.game,
        vf.log.commitment or "",
        vf.player,
        vf.to_move or "",
        str(len(vf.log.moves)),
        head,
        _compact(vf.view),
        str(len(vf.legal or ())),
        *(vf.legal or ()),
        # Version 2 files that tell the player more: covered too, and left
        # out when empty so that files issued before stay valid.
        *(["since", str(len(vf.since)), *vf.since] if vf.since else []),
        *(["notes", str(len(vf.notes)), *vf.notes] if vf.notes else []),
    ]


def _compact(raw: msgspec.Raw) -> str:
    """The view's JSON without white space: what the proof covers, however
    the file was indented."""
    try:
        return msgspec.json.format(bytes(raw), indent=-1).decode("utf-8")
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        return bytes(raw).decode("utf-8", "replace")


def issue_view(log: Log, secret: Secret | None, player: str,
               notes: Sequence[str] = ()) -> ViewFile:
    """The view file of ``player``: the public log, what they may see, what
    happened since they last moved, their legal moves when it is their turn,
    the referee's ``notes`` to them, and the referee's proof."""
    return issue_views(log, secret, [player], {player: notes})[player]


def issue_views(log: Log, secret: Secret | None, players: Sequence[str],
                notes: Mapping[str, Sequence[str]] | None = None, *,
                replayed: Replay | None = None) -> dict[str, ViewFile]:
    """The view files of several ``players`` from one replay (see :func:`issue_view`).

    ``replayed`` is a replay of the same moves that kept its states (what
    :func:`take` gives), so the log is not replayed again; a replay of other
    moves is not used.
    """
    unlocked = match.unlock(log, secret)
    if replayed is not None and _replays(replayed, unlocked):
        rep = msgspec.structs.replace(replayed, log=unlocked)
    else:
        rep = match.validate(unlocked, keep=True)
    public = match.publish(unlocked, log)
    to_move = rep.seat()
    out = {}
    for player in players:
        if player not in rep.players:
            raise UsageError(f"--as {player!r}: no such player (players: {', '.join(rep.players)})")
        seat = rep.players.index(player)
        legal = rep.legal() if to_move is not None and to_move == seat else None
        vf = ViewFile(
            format=VIEW_FORMAT,
            version=VERSION,
            player=player,
            to_move=None if to_move is None else rep.players[to_move],
            log=public,
            view=msgspec.Raw(msgspec.json.encode(rep.game.view(rep.state, seat))),
            legal=legal,
            move=None,
            since=match.since(rep, seat),
            notes=tuple(one_line(n) for n in (notes or {}).get(player, ())),
        )
        if secret is not None and secret.signing_key is not None:
            vf = msgspec.structs.replace(vf, proof=seal.sign(secret.signing_key, view_items(vf)))
        out[player] = vf
    return out


def _replays(rep: Replay, log: Log) -> bool:
    """Whether ``rep`` kept the states of exactly the entries of ``log``."""
    return (len(rep.states) == len(log.moves) + 1 and rep.log.moves[-1:] == log.moves[-1:]
            and len(rep.log.moves) == len(log.moves) and rep.log.seed == log.seed)


def check_view(vf: ViewFile, source: str = "view file") -> msgspec.Struct:
    """The view in a view file, once the file is checked as the player can
    check it: the embedded log is intact and signed, and the proof is its
    referee's. Raises :class:`BadLogError` for an edited or damaged file."""
    game = games.get(vf.log.game)
    try:
        match.check_public(vf.log)
    except (BadLogError, IllegalMoveError) as e:
        raise BadLogError(f"{source}: its log is damaged: {e}") from None
    except AdjudicatorError as e:
        raise BadLogError(f"{source}: its log is damaged: {e}") from None
    if vf.player not in vf.log.players:
        raise BadLogError(f"{source}: made for {vf.player!r}, who is not a player of this game")
    if vf.log.referee is not None and not seal.verify(vf.log.referee, vf.proof, view_items(vf)):
        raise BadLogError(
            f"{source}: the referee's proof does not match: the file was edited or not "
            "issued by this game's referee"
        )
    if vf.log.referee is None:
        _check_unsigned(vf, source)
    try:
        return msgspec.json.decode(vf.view, type=game.view_type)
    except (msgspec.DecodeError, RecursionError) as e:
        raise BadLogError(f"{source}: its view does not fit {game.title}: {e}") from None


def _check_unsigned(vf: ViewFile, source: str) -> None:
    """A view file that no referee signed (an open game, or a refereed game of
    version 1) proves nothing by itself, and its text reaches a terminal: with
    the seed in its log, it must show exactly what the log gives; without,
    it must at least hold plain text."""
    if vf.log.seed is not None:
        try:
            expected = issue_view(vf.log, None, vf.player)
        except AdjudicatorError as e:
            raise BadLogError(f"{source}: its log is damaged: {e}") from None
        if (decoded_view(vf.view, vf.log.game), vf.legal, vf.to_move, vf.since, vf.notes) != (
                decoded_view(expected.view, vf.log.game), expected.legal, expected.to_move,
                expected.since, ()):
            raise BadLogError(f"{source}: what it shows does not follow from its log: "
                              "the file was edited")
        return
    try:
        texts = _texts(msgspec.json.decode(vf.view))
    except (msgspec.DecodeError, RecursionError):
        texts = []  # then it does not fit the game's view either: reported as such
    texts += [vf.to_move or "", *(vf.legal or ()), *vf.since, *vf.notes]
    if any(one_line(text) != text for text in texts):
        raise BadLogError(f"{source}: it holds control characters: the file was edited")


def decoded_view(raw: msgspec.Raw, game_id: str) -> object:
    """A view as its game reads it, so that a file written before a field
    with a default was added to the view reads as the same view."""
    try:
        return msgspec.json.decode(raw, type=games.get(game_id).view_type)
    except (msgspec.DecodeError, RecursionError):
        return _compact(raw)


def _texts(value: object) -> list[str]:
    """Every string in a decoded JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in (k, *_texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


#: Moves a player may queue after the one they record (a 15 Days turn is a
#: handful; a long queue only makes the referee replay the game once more
#: for each).
MAX_QUEUE = 32


def choose(vf: ViewFile, typed: str | Sequence[str], comment: str | None = None,
           player_key: str | None = None, source: str = "view file", *,
           view: msgspec.Struct | None = None, at: str | None = None) -> ViewFile:
    """The player records their move in their view file, and may queue more.

    The first move is read with the game's tolerant reader and must be one
    of the listed legal moves; it is chained to the embedded log, and signed
    if the player signs. Further moves are queued as typed (the player's tool
    cannot know the positions they will meet): the referee applies them in
    order while each is still legal and still the player's to make.
    """
    texts = [typed] if isinstance(typed, str) else list(typed)
    if not texts:
        raise UsageError("no move given")
    first, rest = texts[0], texts[1:]
    if view is None:  # a caller that checked the file gives its view
        view = check_view(vf, source)  # an edited file is refused before anything else
    game = games.get(vf.log.game)
    number = len(vf.log.moves) + 1
    if len(rest) > MAX_QUEUE:
        raise UsageError(f"{len(rest)} moves queued: at most {MAX_QUEUE} after the first")
    if vf.move is not None:
        raise ViewFileError(f"the view file already holds {vf.player}'s move {vf.move.move!r}: "
                            "send it to the referee")
    if vf.legal is None:
        who = f"it is {vf.to_move}'s turn" if vf.to_move else "the game is over"
        raise IllegalMoveError(f"{who}, not {vf.player}'s").at(number, vf.player, first)
    try:
        chosen = reading.read_listed(game, view, vf.legal, first, vf.log.params)
    except MoveError as e:
        raise e.at(number, vf.player, first) from None
    queued = []
    for i, text in enumerate(rest, number + 1):
        text = " ".join(text.split())
        if not text or one_line(text) != text:
            raise NotationError("a queued move must be one line of text").at(i, vf.player, text)
        queued.append(text)
    entry = match.sealed(vf.log, [(vf.player, chosen, comment)], at)[-1]
    entry = match.sign_own(vf.log, entry, player_key)
    return msgspec.structs.replace(vf, move=entry, queued=tuple(queued))


#: The events a player may record in their view file for the referee: a
#: resignation, a proposal, an answer to one.
PLAYER_EVENTS = frozenset({"resign", "takeback", "abandon", "accept", "reject"})


def _event_kind(text: str) -> str | None:
    """``resign`` for ``@resign``, ``takeback`` for ``@takeback 2``; None for a move."""
    return text[1:].split(" ", 1)[0] if text.startswith("@") else None


def choose_event(vf: ViewFile, event: str, comment: str | None = None,
                 player_key: str | None = None, source: str = "view file", *,
                 at: str | None = None) -> ViewFile:
    """The player records an event (``@resign``, ``@takeback N``,
    ``@abandon``, ``@accept``, ``@reject``) in their view file, chained to
    its log and signed if they sign, for the referee to record as it is
    (:func:`take_event`). It need not be their turn; whether the event may
    be made (a proposal to answer) is checked when the referee records it."""
    check_view(vf, source)
    if _event_kind(event) not in PLAYER_EVENTS:
        raise UsageError(f"{event!r}: a player records @resign, @takeback N, @abandon, @accept "
                         "or @reject")
    if vf.move is not None:
        raise ViewFileError(f"the view file already holds {vf.player}'s {vf.move.move!r}: "
                            "send it to the referee")
    if vf.log.result is not None:
        raise ViewFileError(f"{source}: the game is over")
    entry = match.sealed(vf.log, [(vf.player, event, comment)], at)[-1]
    entry = match.sign_own(vf.log, entry, player_key)
    return msgspec.structs.replace(vf, move=entry, queued=())


def take_event(log: Log, secret: Secret, vf: ViewFile, source: str = "view file", *,
               checked: bool = False, at: str | None = None) -> Log:
    """The referee records the event a player recorded (and signed) in their
    view file of the current position (:func:`choose_event`), the player's
    entry as it is: the new log, signed. ``checked``: as for :func:`take`."""
    if not checked:
        current(log, secret, vf, source)
    entry = vf.move
    if entry is None or _event_kind(entry.move) not in PLAYER_EVENTS:
        raise ViewFileError(f"{source}: {vf.player} has recorded no event in it")
    if entry.by != vf.player:
        raise ViewFileError(f"{source}: the event is recorded as {entry.by}'s, but the file is "
                            f"{vf.player}'s")
    if entry.signature is not None and log.clock:
        at = signed_stamp(entry, at, log.time is not None, source)
    rep = match.record(match.unlock(log, secret), [entry.move], as_player=vf.player,
                       comment=entry.comment, sign=False, at=at)
    return signed(match.publish(_with_signature(rep.log, entry), log), secret)


@dataclass(frozen=True)
class Taken:
    """What the referee took from a view file: the new log, the moves applied
    (the recorded one first, then queued ones) and the queued moves dropped,
    each with the reason, in words that name nothing hidden."""

    log: Log
    player: str
    applied: tuple[str, ...]
    dropped: tuple[tuple[str, str], ...]
    #: The new log unlocked and played through, every state kept: what
    #: :func:`issue_views` needs, so the game is replayed once per move taken.
    replayed: Replay

    def notes(self) -> tuple[str, ...]:
        """The report for the player, one line each (their next view file's notes)."""
        out = [f"applied: {', '.join(self.applied)}"]
        out += [f"dropped {text!r}: {why}" for text, why in self.dropped]
        return tuple(out)


def take(log: Log, secret: Secret, vf: ViewFile, source: str = "view file", *,
         checked: bool = False, at: str | None = None, relaid: bool = False) -> Taken:
    """The referee takes the move a player recorded in their view file and
    then the moves they queued after it, in order, while each is still the
    player's to make and legal in the position it meets (read with the
    game's tolerant reader from the player's own view there). The first that
    is not stops the queue; it and every one after it are reported dropped.
    Nothing typed is lost silently: :meth:`Taken.notes` says what happened.

    ``checked``: the caller has already found ``vf`` to be this referee's
    file of the current position (:func:`current`), or (``relaid``) of the
    position before acts of the clock that did not change it, after which
    the move is recorded. ``at`` stamps the entries in a log with a clock
    (default: now). An event the player recorded instead (:func:`choose_event`)
    is taken as :func:`take_event` takes it.
    """
    if vf.move is not None and _event_kind(vf.move.move) is not None:
        new = take_event(log, secret, vf, source, checked=checked, at=at)
        return Taken(new, vf.player, (vf.move.move,), (),
                     match.validate(match.unlock(new, secret), keep=True))
    rep = _accepted(log, secret, vf, source, checked, at, relaid)
    applied, dropped = [rep.log.moves[-1].move], []
    queue = list(vf.queued)
    for i, text in enumerate(queue):
        seat = rep.seat()
        why = None
        if seat is None:
            why = "the game is over"
        elif rep.players[seat] != vf.player:
            why = f"it is {rep.players[seat]}'s turn"
        else:
            try:
                move = reading.read_listed(rep.game, rep.game.view(rep.state, seat), rep.legal(), text,
                                           rep.log.params)
                rep = match.record(rep.log, [move], as_player=vf.player, sign=False, replayed=rep,
                                   at=at)
                applied.append(move)
                continue
            except MoveError as e:
                why = e.reason if e.clause is None else f"{e.reason} ({e.clause})"
        dropped.append((text, why))
        dropped += [(t, "a queued move before it was dropped") for t in queue[i + 1:]]
        break
    new = signed(match.publish(rep.log, log), secret)
    return Taken(new, vf.player, tuple(applied), tuple(dropped), rep)


def accept(log: Log, secret: Secret, vf: ViewFile, source: str = "view file") -> Log:
    """The referee takes the move a player recorded in their view file
    (only that one: :func:`take` goes on with the moves queued after it).

    Refused, each with one line that names nothing hidden: a file of another
    game, a file whose proof is not this referee's (made up or edited), a
    file for a position that is not the current one, a file of a player who
    is not to move, a file with no move, a move not on its list.
    """
    return signed(match.publish(_accepted(log, secret, vf, source, False).log, log), secret)


def _accepted(log: Log, secret: Secret, vf: ViewFile, source: str, checked: bool,
              at: str | None = None, relaid: bool = False) -> Replay:
    """:func:`accept`'s checks and move: the unlocked new log's replay, every state kept."""
    if not checked:
        current(log, secret, vf, source)
    if vf.move is None:
        raise ViewFileError(f"{source}: {vf.player} has not recorded a move in it yet")
    if vf.legal is None or vf.move.move not in vf.legal:
        raise ViewFileError(
            f"{source}: {vf.player}'s move {vf.move.move!r} is not one of the moves listed "
            "for them; nothing recorded"
        )
    if vf.move.by != vf.player:
        raise ViewFileError(f"{source}: the move is recorded as {vf.move.by}'s, but the file is "
                            f"{vf.player}'s")
    unlocked = match.unlock(log, secret)
    rep = match.validate(unlocked, keep=True)
    seat = rep.seat()
    if seat is None or rep.players[seat] != vf.player:
        raise ViewFileError(f"{source}: it is not {vf.player}'s turn")
    if vf.move.signature is not None and log.clock and not relaid:
        # The player's signature covers the entry's stamp (its digest does):
        # the entry is recorded with the stamp they signed, if it is fair.
        at = signed_stamp(vf.move, at, log.time is not None, source)
    rep = match.record(unlocked, [vf.move.move], as_player=vf.player, comment=vf.move.comment,
                       sign=False, replayed=rep, at=at)
    return msgspec.structs.replace(rep, log=_with_signature(rep.log, vf.move, relaid))


def current(log: Log, secret: Secret, vf: ViewFile, source: str = "view file") -> None:
    """Check that ``vf`` is a view file this referee issued for this game, to
    its player, at the game's current position: what a player shows to act
    (a move, or an event such as a resignation sent by mail). Raises
    :class:`ViewFileError` with one line that names nothing hidden."""
    if secret.commitment != log.commitment:
        raise BadLogError("the secret file belongs to another game (its commitment differs)")
    same_game = (vf.log.game, vf.log.players, vf.log.commitment, vf.log.referee, vf.log.params) == (
        log.game, log.players, log.commitment, log.referee, log.params)
    if not same_game:
        raise ViewFileError(f"{source}: this view file belongs to another game")
    if secret.signing_key is not None and not seal.verify(
            seal.public_key(secret.signing_key), vf.proof, view_items(vf)):
        raise ViewFileError(
            f"{source}: not a view file this referee issued (its proof does not match: "
            "made up or edited); nothing recorded"
        )
    # The proof covers the chain head, not the log's result and signature:
    # those must still be the referee's own.
    try:
        match.check_public(vf.log)
    except AdjudicatorError as e:
        raise ViewFileError(f"{source}: its log was edited: {e}; nothing recorded") from None
    n_file, n_log = len(vf.log.moves), len(log.moves)
    if vf.log.moves != log.moves[:n_file] or n_file > n_log:
        raise ViewFileError(f"{source}: its moves differ from the game's: it was made from another copy")
    if n_file < n_log:
        raise ViewFileError(
            f"{source}: made after move {n_file}, but the game is at move {n_log}: "
            f"it answers an old position; send {vf.player} a new view file"
        )


#: How far a signed move's stamp may lie ahead of the referee's clock (the
#: player's clock runs a little fast), and in a game with a time control how
#: far behind it (the mail's way to the referee): a player cannot backdate a
#: move across a deadline by more than this.
SKEW_AHEAD = timedelta(minutes=5)
SKEW_BEHIND = timedelta(hours=1)


def signed_stamp(entry: MoveEntry, at: str | None, timed: bool, source: str) -> str | None:
    """The stamp a signed move is recorded with: the one its player signed,
    refused with one line when it lies ahead of the referee's clock ``at``
    (default: now) by more than :data:`SKEW_AHEAD`, or, in a game with a time
    control, behind it by more than :data:`SKEW_BEHIND`."""
    from .chain import check_stamp, now_stamp

    now_text = at if at is not None else now_stamp()
    if entry.at is None or not check_stamp(entry.at):
        raise ViewFileError(f"{source}: the signed move carries no valid time stamp; "
                            "nothing recorded")
    when, now = (datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ") for t in (entry.at, now_text))
    if when > now + SKEW_AHEAD:
        raise ViewFileError(f"{source}: the signed move is stamped {entry.at}, after the "
                            f"referee's clock ({now_text}): check your clock and sign it "
                            "again; nothing recorded")
    if timed and when < now - SKEW_BEHIND:
        raise ViewFileError(f"{source}: the signed move is stamped {entry.at}, more than an "
                            f"hour before the referee's clock ({now_text}): sign it again "
                            "and send it at once; nothing recorded")
    return entry.at


def _with_signature(log: Log, entry: MoveEntry, relaid: bool = False) -> Log:
    """The log whose last entry carries the player's own signature from the view file."""
    last = log.moves[-1]
    if relaid and entry.signature is None:
        # The file was issued before acts of the clock that leave the
        # position as it was (postal.decision.proof): the move the player
        # chose is recorded after them, and nothing of theirs is carried over.
        return log
    if entry.signature is None and last.digest != entry.digest and entry.at != last.at:
        # Unsigned, and stamped by the player's clock, not the referee's: the
        # referee's stamp stands, once the entry is found chained as it was.
        try:
            own = match.sealed(msgspec.structs.replace(log, moves=log.moves[:-1]),
                               [(entry.by, entry.move, entry.comment)], entry.at)[-1]
        except AdjudicatorError:
            own = None
        if own is not None and own.digest == entry.digest:
            return log
    if last.digest != entry.digest:
        raise ViewFileError("the move in the view file is not chained to the game's log")
    moves = log.moves[:-1] + (msgspec.structs.replace(last, signature=entry.signature),)
    out = msgspec.structs.replace(log, moves=moves)
    try:
        match.check_player_signatures(out)
    except IllegalMoveError as e:
        raise ViewFileError(f"the move in the view file: {e.reason}") from None
    return out
