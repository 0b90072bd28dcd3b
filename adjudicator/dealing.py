"""A deal nobody chooses: the players' contributions to the deal of a
refereed game, committed before any is revealed (Keybase's coin flip).

The referee's seed is committed in the header before anyone contributes.
Each player with the tool then commits to a random value of their own
(:func:`player_commit`); once every commitment is in the header, each
reveals it (:func:`player_reveal`), and a player with only a mail client
sends a few words instead. Every shuffle and draw comes from the referee's
seed and all the values (:func:`adjudicator.seal.joint_seed`), so the deal
is fair if any one of them was chosen honestly: nobody, the referee
included, can know it before the last value is revealed, and by then every
other part is fixed. Specified in ``notation/README.md`` ("A deal nobody
chooses").

The player's tool keeps its value, and the commitments it revealed against,
in the user's data directory (:mod:`adjudicator.userdata`), and
:func:`check_kept` holds every later copy of the game to them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from . import names, seal
from .errors import BadLogError, ParameterError, UsageError
from .log import Contribution, Log, Secret

HEX = re.compile(r"[0-9a-f]{64}")
VALUE = re.compile(r"[0-9a-f]{32}")
MAX_WORDS = 200
KEPT_FORMAT = "adjudicator-contribution"


class DealPendingError(BadLogError):
    """A refereed game whose deal still waits for contributions."""


def pending(log: Log) -> tuple[str, ...]:
    """The contributors whose value is not in the header yet, in seat order."""
    return tuple(p for p in log.players if p in log.deal and log.deal[p].value is None)


def uncommitted(log: Log) -> tuple[str, ...]:
    """The contributors with the tool who have not committed yet, in seat order."""
    return tuple(p for p in log.players if p in log.deal and not log.deal[p].words
                 and log.deal[p].commitment is None)


def words_text(text: str) -> str:
    """A mail-only player's words, as the header holds them: one line, spaces
    folded; refused when empty, too long or not printable."""
    folded = " ".join(text.split())
    if not folded or len(folded) > MAX_WORDS or not folded.isprintable():
        raise ParameterError(f"words: one printable line of 1 to {MAX_WORDS} characters")
    return folded


def check_deal(log: Log) -> None:
    """The contributions in a header: players of a refereed game of version 2,
    each value matching its commitment, no value before every commitment,
    and no move before every value."""
    if not log.deal:
        return
    if log.version < 2 or log.commitment is None:
        raise BadLogError("header: deal: contributions need a refereed game of version 2")
    for name, part in log.deal.items():
        if name not in log.players:
            raise BadLogError(f"header: deal: a contribution of {name!r}, who is not a player")
        if part.words:
            if part.commitment is not None:
                raise BadLogError(f"header: deal: {name} contributes words, which carry no "
                                  "commitment")
            if part.value is not None and words_text(part.value) != part.value:
                raise BadLogError(f"header: deal: {name}'s words are not one folded line")
            continue
        if part.commitment is not None and not HEX.fullmatch(part.commitment):
            raise BadLogError(f"header: deal: {name}'s commitment is not 64 hex digits")
        if part.value is not None and (
                part.commitment is None
                or seal.contribution_commit(name, part.value) != part.commitment):
            raise BadLogError(f"header: deal: {name}'s value does not match their commitment")
    if uncommitted(log) and any(part.value is not None for part in log.deal.values()):
        raise BadLogError("header: deal: a value was revealed before every commitment was in")
    if log.moves and pending(log):
        raise BadLogError(f"header: deal: moves made before {', '.join(pending(log))} "
                          "contributed")


def check_ready(log: Log) -> None:
    """Refuse to deal a game whose deal waits for contributions."""
    waiting = pending(log)
    if waiting:
        step = "commit" if uncommitted(log) else "reveal"
        raise DealPendingError(
            f"the deal waits for {', '.join(waiting)} to contribute (adjudicator deal {step})")


def chance_seed(log: Log, deal: str) -> str:
    """The seed of every shuffle and draw of ``log``, from the referee's deal
    seed ``deal`` (:func:`seal.deal_seed`) and the players' values."""
    if not log.deal:
        return deal
    return seal.joint_seed(deal, [(name, part.value or "") for name, part in log.deal.items()])


def begin(log: Log, players: Sequence[str], words: Sequence[str] = ()) -> Log:
    """``log`` (refereed, no moves yet) with ``players`` asked to contribute
    with the tool and ``words`` by mail."""
    for name in [*players, *words]:
        if name not in log.players:
            raise UsageError(f"--deal {name!r}: no such player (players: {', '.join(log.players)})")
    if set(players) & set(words):
        raise UsageError("a player contributes with the tool or in words, not both")
    parts = {name: Contribution() for name in players}
    parts.update({name: Contribution(words=True) for name in words})
    return msgspec.structs.replace(log, deal=dict(sorted(parts.items())))


# --- the referee records what the players send --------------------------------------------------


def record(log: Log, secret: Secret, line: str) -> Log:
    """The referee records one line a player sent: ``commit NAME HEX``,
    ``reveal NAME VALUE`` or ``words NAME TEXT...``; the log signed anew.
    NAME may be of several words, quoted or not (``commit Ann Smith HEX``:
    :func:`adjudicator.names.leading`)."""
    from .signing import sign

    if log.commitment is None or secret.commitment != log.commitment:
        raise BadLogError("the secret file belongs to another game (its commitment differs)")
    parts = line.split(None, 2)
    if len(parts) < 3 or parts[0].lower() not in ("commit", "reveal", "words"):
        raise UsageError(f"{line!r}: give 'commit NAME HEX', 'reveal NAME VALUE' or "
                         "'words NAME TEXT'")
    kind, name, text = parts[0].lower(), parts[1], parts[2].strip()
    after = names.leading(line.split(None, 1)[1], log.deal)
    if after is not None and after[1].strip():
        name, text = after[0], after[1].strip()
    if name not in log.deal:
        raise ParameterError(f"{name!r} does not contribute to this deal "
                             f"(contributors: {', '.join(log.deal) or 'none'})")
    if log.moves:
        raise ParameterError("the game has begun: its deal is fixed")
    part = log.deal[name]
    if kind == "commit":
        if part.words:
            raise ParameterError(f"{name} contributes words, which carry no commitment")
        if part.commitment is not None:
            raise ParameterError(f"{name} has committed already: a commitment is made once")
        if any(p.value is not None for p in log.deal.values()):
            raise ParameterError("values are being revealed: it is too late to commit")
        if not HEX.fullmatch(text.lower()):
            raise ParameterError(f"{name}'s commitment: 64 hex digits")
        part = msgspec.structs.replace(part, commitment=text.lower())
    else:
        if part.value is not None:
            raise ParameterError(f"{name} has contributed already")
        if (kind == "words") != part.words:
            how = "in words (words NAME TEXT)" if part.words else "with the tool (reveal NAME VALUE)"
            raise ParameterError(f"{name} contributes {how}")
        waiting = uncommitted(log)
        if waiting:
            raise ParameterError(f"{', '.join(waiting)} must commit before anyone reveals "
                                 "or sends words")
        if kind == "words":
            part = msgspec.structs.replace(part, value=words_text(text))
        else:
            if seal.contribution_commit(name, text) != part.commitment:
                raise ParameterError(f"{name}'s value does not match their commitment")
            part = msgspec.structs.replace(part, value=text)
    new = msgspec.structs.replace(log, deal={**log.deal, name: part})
    check_deal(new)
    return sign(new, secret)


def drop(log: Log, secret: Secret, name: str) -> Log:
    """The organiser drops the part of ``name``, who never committed (or
    never sent words), before any value is revealed: ``log`` without it,
    signed anew. Fair then: every value in is still hidden, so nobody can
    tell what dropping it does to the deal; later, withholding a part would
    choose between two deals, so it is refused."""
    from .signing import sign

    if log.commitment is None or secret.commitment != log.commitment:
        raise BadLogError("the secret file belongs to another game (its commitment differs)")
    if name not in log.deal:
        raise ParameterError(f"{name!r} does not contribute to this deal "
                             f"(contributors: {', '.join(log.deal) or 'none'})")
    if log.moves:
        raise ParameterError("the game has begun: its deal is fixed")
    if any(p.value is not None for p in log.deal.values()):
        raise ParameterError("values are being revealed: a part is dropped only before any is")
    if log.deal[name].commitment is not None:
        raise ParameterError(f"{name} has committed: their part stays, to be revealed")
    new = msgspec.structs.replace(log, deal={n: p for n, p in log.deal.items() if n != name})
    check_deal(new)
    return sign(new, secret)


# --- the player's side -------------------------------------------------------------------------


class Kept(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True,
           omit_defaults=True):
    """What a player's tool keeps of their contribution: the game (by the
    referee's commitment), the player, their value and commitment and, once
    revealed, every commitment they revealed against."""

    format: str = KEPT_FORMAT
    version: int = 1
    game: str
    player: str
    value: str
    commitment: str
    seen: dict[str, str] | None = None


def _kept_name(log: Log, player: str) -> str:
    """The file of a player's contribution: by the game and a digest of the
    name (a name may be in any script; a file name had better be ASCII)."""
    import hashlib

    assert log.commitment is not None
    who = hashlib.sha256(player.encode("utf-8")).hexdigest()[:16]
    return f"deal/{log.commitment[:32]}-{who}.json"


def kept(log: Log, player: str) -> Kept | None:
    """The contribution this player's tool keeps for this game, if any."""
    from . import userdata

    if log.commitment is None:
        return None
    data = userdata.read(_kept_name(log, player))
    if data is None:
        return None
    try:
        got = msgspec.json.decode(data, type=Kept)
    except msgspec.DecodeError:
        raise BadLogError(f"{userdata.path(_kept_name(log, player))}: damaged") from None
    return got if got.game == log.commitment else None


def _keep(log: Log, value: Kept) -> None:
    from . import userdata

    data = msgspec.json.format(msgspec.json.encode(value), indent=2) + b"\n"
    userdata.update(_kept_name(log, value.player), lambda old: data)


def _contributor(log: Log, player: str) -> Contribution:
    from .replaying import check_public

    if log.commitment is None:
        raise ParameterError("an open game: its seed is in the log, there is no deal to contribute to")
    check_public(log)  # the referee's own log, unchanged
    part = log.deal.get(player)
    if part is None:
        raise ParameterError(f"{player} does not contribute to this deal "
                             f"(contributors: {', '.join(log.deal) or 'none'})")
    if part.words:
        raise ParameterError(f"{player} contributes in words: send them to the referee by mail")
    return part


def player_commit(log: Log, player: str) -> str:
    """A fresh random value for ``player``'s part of the deal, kept in the
    data directory; the line to send the referee (``commit NAME HEX``). The
    same line again if the player committed already."""
    part = _contributor(log, player)
    have = kept(log, player)
    if have is not None:
        if part.commitment not in (None, have.commitment):
            raise BadLogError(f"the log holds a commitment of {player}'s that is not the one "
                              "this tool made: the referee changed it")
        return f"commit {names.quote(player)} {have.commitment}"
    if part.commitment is not None:
        raise ParameterError(f"the log holds a commitment of {player}'s that this tool did not make")
    value = seal.new_salt()  # 128 random bits
    commitment = seal.contribution_commit(player, value)
    assert log.commitment is not None
    _keep(log, Kept(game=log.commitment, player=player, value=value, commitment=commitment))
    return f"commit {names.quote(player)} {commitment}"


def player_reveal(log: Log, player: str) -> str:
    """The line revealing ``player``'s value (``reveal NAME VALUE``), given
    only once every contributor's commitment is in the referee's signed log;
    the commitments seen are kept, and every later copy is held to them."""
    part = _contributor(log, player)
    have = kept(log, player)
    if have is None:
        raise ParameterError(f"this tool holds no value of {player}'s for this game "
                             "(adjudicator deal commit first)")
    if part.commitment != have.commitment:
        raise BadLogError(f"the log does not hold {player}'s commitment as made: "
                          "the referee changed it; do not reveal")
    waiting = uncommitted(log)
    if waiting:
        raise ParameterError(f"not yet: {', '.join(waiting)} must commit before anyone reveals")
    seen = {name: "words" if p.words else p.commitment or "" for name, p in log.deal.items()}
    if have.seen is not None and have.seen != seen:
        raise BadLogError("the commitments differ from those you revealed against: "
                          "the referee changed them; keep both copies")
    _keep(log, msgspec.structs.replace(have, seen=seen))
    return f"reveal {names.quote(player)} {have.value}"


def check_kept(log: Log, player: str) -> str | None:
    """Hold a copy of a game to what ``player``'s tool kept of their
    contribution: their commitment, the commitments they revealed against
    and their value once recorded. Raises :class:`BadLogError` for a copy
    that departs from them; gives a line saying what was checked."""
    have = kept(log, player)
    if have is None:
        return None
    part = log.deal.get(player)
    if part is None or part.commitment != have.commitment:
        raise BadLogError(f"this copy does not carry {player}'s commitment as made: "
                          "the deal was changed")
    if part.value is not None and part.value != have.value:
        raise BadLogError(f"this copy records a value for {player} that is not theirs")
    if have.seen is not None:
        seen = {name: "words" if p.words else p.commitment or "" for name, p in log.deal.items()}
        if seen != have.seen:
            raise BadLogError(f"this copy's commitments differ from those {player} revealed "
                              "against: the deal was changed after they revealed")
        return f"{player}'s value is in the deal, against the commitments they saw"
    return f"{player}'s commitment is in the deal"
