"""Games as logs: start, replay, validate, extend and self-play.

This is the library behind every CLI command. It knows logs and the engine
contract, never a particular game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from . import games
from .chance import Chance
from .engine import Game, Outcome, Value
from .errors import (
    BadLogError,
    ChainError,
    IllegalMoveError,
    MoveError,
    NotationError,
    ParameterError,
    UsageError,
)
from . import events, seal
from .log import FORMAT, SECRET_FORMAT, VERSION, Log, MoveEntry, Secret

def valid_name(name: str) -> bool:
    """A letter of any script, then up to 23 letters, digits, '_', '.' or '-',
    NFC-normalised: one word on a command line (``Zoë``, ``José``, ``Ελένη``)."""
    known = _NAMES.get(name)
    if known is None:
        import unicodedata

        known = (
            0 < len(name) <= 24
            and name[0].isalpha()
            and all(ch.isalnum() or ch in "_.-" for ch in name)
            and unicodedata.normalize("NFC", name) == name
        )
        if len(_NAMES) < 10_000:
            _NAMES[name] = known
    return known


#: Names already checked: bulk validation sees the same few thousands of times.
_NAMES: dict[str, bool] = {}


def check_players(game: Game, players: Sequence[str]) -> tuple[str, ...]:
    """The player names, validated for ``game``: their count, spelling, uniqueness."""
    players = tuple(players)
    if len(players) not in game.PLAYERS:
        counts = ", ".join(str(n) for n in game.PLAYERS)
        raise ParameterError(
            f"{game.ID} is played by {counts} players, not {len(players)}"
        )
    seen: set[str] = set()
    for name in players:
        if not valid_name(name):
            raise ParameterError(
                f"player name {name!r}: use a letter then up to 23 letters, digits, '_', '.' or "
                "'-' (of any script)"
            )
        if name.casefold() in seen:
            raise ParameterError(f"player name {name!r} is used twice")
        seen.add(name.casefold())
    return players


def resolve_params(
    game: Game, given: Mapping[str, Any], *, complete: bool = False, rules: int | None = None
) -> dict[str, Value]:
    """Every parameter of ``game``, validated, in declaration order.

    With ``complete`` (a log's header, pinned to rules version ``rules``)
    every parameter must be given, except one that rules version did not
    have yet: it takes its ``legacy`` value, the behaviour the log was played
    under. Otherwise missing ones take their defaults.
    """
    pinned = 1 if rules is None else rules
    known = {p.name: p for p in game.PARAMS}
    for name in given:
        if name not in known:
            names = ", ".join(known) or "none"
            raise ParameterError(
                f"{game.ID} has no parameter {name!r} (its parameters: {names})"
            )
    out: dict[str, Value] = {}
    for p in game.PARAMS:
        if p.name in given and complete and pinned < p.since:
            raise ParameterError(
                f"parameter {p.name!r} came with rules version {p.since}, "
                f"but the log is played under version {pinned}"
            )
        if p.name in given:
            out[p.name] = p.coerce(given[p.name])
        elif complete and pinned < p.since and p.legacy is not None:
            out[p.name] = p.legacy
        elif complete:
            raise ParameterError(
                f"parameter {p.name!r} is missing (the log must record every parameter; "
                f"the default is {p.default!r})"
            )
        else:
            out[p.name] = p.default
    return out


def new_log(
    game_id: str,
    players: Sequence[str],
    seed: str | None = None,
    params: Mapping[str, Any] | None = None,
    keys: Mapping[str, str] | None = None,
    *,
    tags: Mapping[str, str] | None = None,
    clock: bool = False,
    deadline: int | None = None,
    started: str | None = None,
) -> Log:
    """A log of a game not yet begun; a random seed when none is given.

    ``keys`` maps players who will sign their moves to their public keys;
    ``tags`` are PGN-style tags (event, site, round, date, ...). With
    ``clock`` every entry is stamped with the time it was recorded, and
    ``deadline`` gives the hours a player has for each move (it implies the
    clock).
    """
    return _new_log(game_id, players, seed, params, keys, tags=tags, clock=clock,
                    deadline=deadline, started=started)[0]


def _new_log(
    game_id: str,
    players: Sequence[str],
    seed: str | None = None,
    params: Mapping[str, Any] | None = None,
    keys: Mapping[str, str] | None = None,
    *,
    tags: Mapping[str, str] | None = None,
    clock: bool = False,
    deadline: int | None = None,
    started: str | None = None,
) -> tuple[Log, Game, Any]:
    """:func:`new_log`, and the game and starting state it checked it with."""
    game, players, resolved = _checked_players_and_params(game_id, tuple(players), params or {})
    if seed is None:
        seed = seal.new_secret_seed()[:16]
    if not seed:
        raise ParameterError("the seed must not be empty")
    log = Log(
        format=FORMAT,
        version=VERSION,
        game=game.ID,
        params=resolved,
        players=players,
        seed=seed,
        salt=None,
        commitment=None,
        keys=dict(sorted((keys or {}).items())),
        rules=getattr(game, "RULES", 1),
        tags=dict(sorted((tags or {}).items())),
        clock=clock or deadline is not None,
        deadline=deadline,
        started=(started or now_stamp()) if (clock or deadline is not None) else None,
        moves=(),
        result=None,
    )
    try:
        check_keys(log)
        check_tags(log)
        check_times(log)
    except BadLogError as e:
        raise ParameterError(str(e).removeprefix("header: ")) from None
    game, state = start(log)  # the game must be able to set itself up with these
    return log, game, state


def _checked_players_and_params(
    game_id: str, players: tuple[str, ...], params: Mapping[str, Any]
) -> tuple[Game, tuple[str, ...], dict[str, Value]]:
    """The game, the player names (NFC) and every parameter of a new log,
    checked. Kept per game, names and parameters given (their types too, as
    True == 1): self-play starts log after log with the same few. What is
    refused, or cannot be a key, is not kept."""
    try:
        key = (game_id, players, tuple(params.items()), tuple(map(type, params.values())))
        checked = _NEW_LOGS.get(key)
    except TypeError:  # a name or a parameter that is no key: checked, not kept
        key = checked = None
    if checked is None:
        import unicodedata

        game = games.get(game_id)
        names = check_players(game, [unicodedata.normalize("NFC", p) for p in players])
        if any(p.casefold() == events.REFEREE for p in names):
            raise ParameterError(f"player name {events.REFEREE!r} is kept for a game's referee")
        checked = (game, names, resolve_params(game, params))
        if key is not None:
            if len(_NEW_LOGS) >= 1000:
                _NEW_LOGS.clear()
            _NEW_LOGS[key] = checked
    game, names, resolved = checked
    return game, names, dict(resolved)


_NEW_LOGS: dict[tuple, tuple[Game, tuple[str, ...], dict[str, Value]]] = {}


def new_refereed(
    game_id: str,
    players: Sequence[str],
    seed: str | None = None,
    params: Mapping[str, Any] | None = None,
    keys: Mapping[str, str] | None = None,
    **header: Any,
) -> tuple[Log, Secret]:
    """A refereed game: the public log holds a commitment to the seed and the
    referee's public key, and is signed; the secret file (for the referee
    alone) holds the seed, the salt and the signing key.

    Every shuffle and draw comes from the seed *and* the salt
    (:func:`seal.deal_seed`), so a seed a person typed gives nothing away.
    """
    seed = seal.new_secret_seed() if seed is None else seed
    open_log = new_log(game_id, players, seed, params, keys, **header)
    salt = seal.new_salt()
    commitment = seal.commit(seed, salt)
    signing_key = seal.new_signing_key()
    log = msgspec.structs.replace(
        open_log, seed=None, commitment=commitment, referee=seal.public_key(signing_key)
    )
    secret = Secret(
        format=SECRET_FORMAT,
        version=VERSION,
        game=log.game,
        players=log.players,
        commitment=commitment,
        seed=seed,
        salt=salt,
        signing_key=signing_key,
    )
    start(unlock(log, secret))  # the deal must work
    return sign(log, secret), secret


def signed_items(log: Log) -> list[str]:
    """What the referee's signature of a log covers: the chain head (which
    covers the header and every entry) and the result."""
    head = log.moves[-1].digest if log.moves else head_digest(log).hex()
    result = "" if log.result is None else msgspec.json.encode(log.result, order="deterministic").decode()
    return [seal.LOG_SIGN_DOMAIN, head, result]


def sign(log: Log, secret: Secret) -> Log:
    """``log`` signed by its referee (after every write of a refereed log)."""
    if secret.signing_key is None:
        if log.version >= 2:
            raise BadLogError("the secret file holds no signing key (it is of version 1)")
        return log
    if log.referee != seal.public_key(secret.signing_key):
        raise BadLogError("the secret file belongs to another game (its signing key differs)")
    return msgspec.structs.replace(log, signature=seal.sign(secret.signing_key, signed_items(log)))


def check_signature(log: Log) -> None:
    """A version 2 refereed log must carry its referee's signature over its
    chain head and result; an open log must carry none."""
    if log.version < 2:
        if log.referee is not None or log.keys or log.signature is not None or any(
            e.signature is not None for e in log.moves
        ):
            raise BadLogError("header: keys and signatures need version 2")
        return
    if log.commitment is None:
        if log.referee is not None or log.signature is not None:
            raise BadLogError("header: an open game has no referee key or signature")
        return
    if log.referee is None or not seal.valid_public_key(log.referee):
        raise BadLogError("header: a refereed game of version 2 must name its referee's key")
    if not seal.verify(log.referee, log.signature, signed_items(log)):
        what = "has no" if log.signature is None else "does not carry a valid"
        raise BadLogError(
            f"signature: the log {what} signature of its referee over its "
            f"{len(log.moves)} moves and result: it was changed after the referee wrote it"
        )


def unlock(log: Log, secret: Secret | None) -> Log:
    """``log`` with the seed filled in from the referee's ``secret``, for replay.

    The secret must belong to the log: the same commitment, and a seed and
    salt that hash to it. An open or revealed log needs no secret.
    """
    if secret is None or log.seed is not None:
        return log
    if log.commitment is None:
        raise BadLogError("header: the log has neither a seed nor a commitment")
    if secret.commitment != log.commitment or secret.game != log.game:
        raise BadLogError("the secret file belongs to another game (its commitment differs)")
    if seal.commit(secret.seed, secret.salt) != secret.commitment:
        raise BadLogError("the secret file is damaged: its seed and salt do not give its commitment")
    return msgspec.structs.replace(log, seed=secret.seed, salt=secret.salt)


def publish(log: Log, like: Log) -> Log:
    """``log`` as it may be written where ``like`` was: a seed kept secret there stays out."""
    if like.seed is None and log.seed is not None:
        return msgspec.structs.replace(log, seed=None, salt=None)
    return log


def reveal(log: Log, secret: Secret) -> Log:
    """The log with its seed and salt published, so anyone can check every move."""
    if log.commitment is None:
        raise BadLogError("this is an open game: its seed is in the log already")
    return unlock(log, secret)


class SecretSeedError(BadLogError):
    """A refereed log whose seed is still secret, used where the seed is needed."""


def check_rules(log: Log, game: Game) -> None:
    """The log's rules version must be one this engine plays; version 2 fields
    need version 2."""
    if log.version < 2:
        if (log.rules, log.tags, log.clock, log.deadline, log.started) != (None, {}, False, None, None):
            raise BadLogError("header: rules, tags and the clock need version 2")
        return
    known = getattr(game, "RULES", 1)
    if log.rules is None or not 1 <= log.rules <= known:
        raise BadLogError(
            f"header: played under rules version {log.rules} of {game.TITLE}, but this tool "
            f"knows versions 1 to {known}: use a newer adjudicator")
    check_tags(log)


def start(log: Log) -> tuple[Game, Any]:
    """The game of a log and its starting state, after checking the header.

    A refereed log must have been unlocked with the referee's secret (or
    revealed); a revealed seed must match the commitment.
    """
    game, state, _ = _start(log)
    return game, state


def _start(log: Log) -> tuple[Game, Any, tuple | None]:
    """:func:`start`, and the key its checks are kept under (None: not kept)."""
    # The checks of the game, the rules, the players and the parameters are
    # kept for a header without tags or start time, keyed by every field
    # they read (the type of each parameter too, as True == 1): bulk
    # validation meets the same few again and again. A header refused is not kept.
    key = None
    checked = None
    if log.started is None and not log.tags:
        key = (log.game, log.version, log.rules, log.clock, log.deadline, log.players,
               tuple(log.params.items()), tuple(map(type, log.params.values())))
        checked = _STARTS.get(key)
    if checked is None:
        game = games.get(log.game)
        check_rules(log, game)
        try:
            check_players(game, log.players)
            params = _log_params(game, log)
        except ParameterError as e:
            raise BadLogError(f"header: {e}") from None
        if key is not None:
            if len(_STARTS) >= 1000:
                _STARTS.clear()
            _STARTS[key] = (game, params)
    else:
        game, params = checked
    if log.commitment is None and log.salt is not None:
        raise BadLogError("header: an open game has no salt (only a refereed game has one)")
    if log.seed is None:
        if log.commitment is None:
            raise BadLogError("header: the log has neither a seed nor a commitment")
        raise SecretSeedError(
            "this refereed game's seed is secret: the referee can give --secret FILE; "
            "a player uses the view file the referee sent"
        )
    if not log.seed:
        raise BadLogError("header: the seed must not be empty")
    if log.commitment is not None and (
        log.salt is None or seal.commit(log.seed, log.salt) != log.commitment
    ):
        raise BadLogError("header: the seed and salt do not match the commitment")
    return game, game.setup(dict(params), log.players, chance_seed(log)), key


_STARTS: dict[tuple, tuple[Game, dict[str, Value]]] = {}


def _log_params(game: Game, log: Log) -> dict[str, Value]:
    """``resolve_params`` of a log's header, kept: bulk validation meets the
    same few headers again and again. Keyed by the type of each value too
    (True == 1); a header that is refused is not kept."""
    key = (game.ID, log.rules, tuple(log.params.items()), tuple(map(type, log.params.values())))
    params = _PARAMS.get(key)
    if params is None:
        params = resolve_params(game, log.params, complete=True, rules=log.rules)
        if len(_PARAMS) >= 1000:
            _PARAMS.clear()
        _PARAMS[key] = params
    return dict(params)


_PARAMS: dict[tuple, dict[str, Value]] = {}


def chance_seed(log: Log) -> str:
    """The seed the game's chance streams are drawn from (``notation/README.md``)."""
    assert log.seed is not None
    if log.commitment is not None and log.version >= 2 and log.salt is not None:
        return seal.deal_seed(log.seed, log.salt)
    return log.seed


def head_digest(log: Log) -> bytes:
    """The digest the first move entry is chained to."""
    return seal.header_digest(
        log.format, log.version, log.game, log.params, log.players, log.seed, log.commitment,
        log.referee, log.keys, rules=log.rules, tags=log.tags, clock=log.clock,
        deadline=log.deadline, started=log.started,
    )


TAG = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")


def check_tags(log: Log) -> None:
    """Tags: names of a letter and up to 31 letters, digits, '_' or '-'; values
    of one printable line."""
    for name, value in log.tags.items():
        if not TAG.fullmatch(name):
            raise BadLogError(f"header: tag {name!r}: a letter then up to 31 letters, digits, "
                              "'_' or '-'")
        if not value.isprintable() or len(value) > 200:
            raise BadLogError(f"header: tag {name}: one printable line of at most 200 characters")


def check_keys(log: Log) -> None:
    """Player keys: only for players of the game, each a well-formed public key."""
    for name, key in log.keys.items():
        if name not in log.players:
            raise BadLogError(f"header: a key for {name!r}, who is not a player")
        if not seal.valid_public_key(key):
            raise BadLogError(f"header: {name}'s key is not an ed25519 public key")


def check_player_signatures(log: Log) -> None:
    """Every entry by a player who has a key must carry their signature."""
    if not log.keys:
        if any(e.signature is not None for e in log.moves):
            raise BadLogError("a move carries a signature but the header lists no player key")
        return
    for number, entry in enumerate(log.moves, 1):
        key = log.keys.get(entry.by)
        if key is None:
            if entry.signature is not None:
                raise IllegalMoveError(f"{entry.by} has no key in the header, yet the move is "
                                       "signed").at(number, entry.by, entry.move)
            continue
        if not seal.verify(key, entry.signature, [seal.MOVE_SIGN_DOMAIN, entry.digest]):
            what = "unsigned" if entry.signature is None else "signed with another key"
            raise IllegalMoveError(
                f"{what}: {entry.by} signs their moves (their key is in the header)"
            ).at(number, entry.by, entry.move)


def sign_move(entry: MoveEntry, private: str) -> MoveEntry:
    """``entry`` signed by its player."""
    return msgspec.structs.replace(
        entry, signature=seal.sign(private, [seal.MOVE_SIGN_DOMAIN, entry.digest])
    )


def check_chain(log: Log, upto: int | None = None) -> bytes:
    """Check the digest chain of the first ``upto`` entries; the last digest.

    The first entry whose digest does not follow raises, located at that move.
    """
    digest = head_digest(log)
    entries = log.moves if upto is None else log.moves[:upto]
    for number, entry in enumerate(entries, 1):
        digest = _chained(digest, entry, number)
    return digest


def _chained(previous: bytes, entry: MoveEntry, number: int) -> bytes:
    digest = seal.entry_digest(previous, entry.by, entry.move, entry.comment, entry.at)
    if digest.hex() != entry.digest:
        raise _broken(entry, number)
    return digest


def _broken(entry: MoveEntry, number: int) -> ChainError:
    return ChainError(
        "the digest chain breaks here: this entry, an earlier one or the header "
        "was changed after it was written"
    ).at(number, entry.by, entry.move)


#: A time stamp: UTC, to the second.
STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


def now_stamp() -> str:
    """The time now, as the log writes it."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def check_stamp(text: str) -> bool:
    from datetime import datetime

    if not STAMP.fullmatch(text):
        return False
    try:
        datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True


def check_times(log: Log) -> None:
    """A log with a clock stamps every entry, in order; a log without, none."""
    if not log.clock:
        if log.started is not None or log.deadline is not None:
            raise BadLogError("header: a start time or a deadline needs the clock")
        for number, entry in enumerate(log.moves, 1):
            if entry.at is not None:
                raise BadLogError(f"move {number}: a time stamp in a log without a clock")
        return
    if log.version < 2:
        raise BadLogError("header: the clock needs version 2")
    if log.started is None or not check_stamp(log.started):
        raise BadLogError("header: a log with a clock needs its start time (UTC, "
                          "2026-11-23T09:15:00Z)")
    if log.deadline is not None and not 1 <= log.deadline <= 100_000:
        raise BadLogError("header: the deadline is a number of hours from 1 to 100000")
    last = log.started
    for number, entry in enumerate(log.moves, 1):
        if entry.at is None or not check_stamp(entry.at):
            raise BadLogError(f"move {number}: needs its time stamp (UTC, 2026-11-23T09:15:00Z)")
        if entry.at < last:
            raise BadLogError(f"move {number}: stamped {entry.at}, before the entry before it")
        last = entry.at


def sealed(log: Log, entries: Iterable[tuple[str, str, str | None]],
           at: str | None = None) -> tuple[MoveEntry, ...]:
    """Move entries (by, move, comment) appended to ``log``'s, with their
    digests (and the time stamp ``at`` where the log has a clock)."""
    digest = bytes.fromhex(log.moves[-1].digest) if log.moves else head_digest(log)
    out = list(log.moves)
    if log.clock and at is None:
        at = now_stamp()
    stamp = at if log.clock else None
    for by, move, comment in entries:
        digest = seal.entry_digest(digest, by, move, comment, stamp)
        out.append(MoveEntry(by=by, move=move, comment=comment, at=stamp, digest=digest.hex()))
    return tuple(out)


@dataclass(frozen=True)
class Replay:
    """A log played through: its game, its final state and, if kept, every state.

    ``ended`` is the result when an event ended the game (a resignation, an
    abandonment); ``pending`` a proposal waiting for answers.
    """

    log: Log
    game: Game
    state: Any
    states: tuple[Any, ...] = ()
    ended: Outcome | None = None
    pending: events.Pending | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return self.log.players

    def seat(self) -> int | None:
        """The seat to move now, or None once the game is over."""
        return None if self.ended is not None else self.game.to_move(self.state)

    def to_move(self, state: Any = None) -> str | None:
        if state is None:
            seat = self.seat()
        else:
            seat = self.game.to_move(state)
        return None if seat is None else self.log.players[seat]

    @property
    def outcome(self) -> Outcome | None:
        """The final result, however the game ended."""
        return self.ended if self.ended is not None else self.game.outcome(self.state)

    def legal(self) -> tuple[str, ...]:
        """The legal moves of the player to move, in canonical notation."""
        if self.seat() is None:
            return ()
        return tuple(self.game.format_move(self.state, m) for m in self.game.legal_moves(self.state))


def _replay_of(log: Log, game: Game, state: Any) -> Replay:
    """``Replay(log, game, state)`` without the frozen dataclass's __init__
    (a setattr through ``object`` per field), which bulk validation feels."""
    rep = object.__new__(Replay)
    rep.__dict__.update(log=log, game=game, state=state, states=(), ended=None, pending=None)
    return rep


def _out_of_turn(game: Game, players: tuple[str, ...], seat: int | None, by: str) -> MoveError | None:
    if seat is None:
        return IllegalMoveError("the game is already over", game.END_CLAUSE)
    if by == players[seat]:
        return None
    if by not in players:
        return IllegalMoveError(
            f"{by!r} is not a player of this game (players: {', '.join(players)})"
        )
    return IllegalMoveError(f"it is {players[seat]}'s turn, not {by}'s", game.TURN_CLAUSE)


class _Events:
    """The state of the log's events during a replay (rarely used: kept off
    the hot path)."""

    def __init__(self, log: Log, game: Game) -> None:
        self.log, self.game = log, game
        self.ended: Outcome | None = None
        self.pending: events.Pending | None = None

    def apply(self, state: Any, history: list[Any], by: str, text: str) -> Any:
        """The state after the event ``text`` by ``by``; ``history`` holds the
        state before each game move still in force, and the state now."""
        game, players = self.game, self.log.players
        kind, count = events.parse(text)
        if self.ended is not None or game.to_move(state) is None:
            raise IllegalMoveError("the game is already over", game.END_CLAUSE)
        referee = by == events.REFEREE and kind in ("accept", "reject")
        if by not in players and not referee:
            raise IllegalMoveError(
                f"{by!r} is not a player of this game (players: {', '.join(players)})")
        if kind == "resign":
            self.ended = events.resigned(game.standing(state), players, by)
            self.pending = None
            return state
        if kind in ("takeback", "abandon"):
            if self.pending is not None:
                raise IllegalMoveError(f"a proposal is waiting for answers: "
                                       f"{self.pending.words()}", events.CLAUSE)
            if kind == "takeback" and count > len(history) - 1:
                raise IllegalMoveError(
                    f"only {len(history) - 1} moves can be taken back", events.CLAUSE)
            self.pending = events.Pending(kind, by, count)
            done = len(players) == 1
        else:
            proposal = self.pending
            self.pending, done = events.answer(self.pending, kind, by, players,
                                               self.log.refereed)
            if done:
                self.pending = proposal
        if not done:
            return state
        proposal, self.pending = self.pending, None
        assert proposal is not None
        if proposal.kind == "abandon":
            self.ended = events.ABANDONED
            return state
        del history[len(history) - proposal.count:]
        return history[-1]


def _batch(log: Log, game: Game, state: Any, entries: Sequence[MoveEntry], batch: Any) -> Replay | None:
    """The whole log through the game's ``fast_play``, or None to take the
    entry-by-entry path (an event, a broken link, a refused move, a move out
    of turn: that path finds the first and says what is wrong)."""
    texts = [e.move for e in entries]
    for text in texts:
        if text[:1] == "@":
            return None
    if seal.followed(head_digest(log), entries) != len(entries):
        return None
    seats, after = batch(state, texts)
    if len(seats) != len(texts):
        return None
    players = log.players
    for entry, seat in zip(entries, seats):
        if entry.by != players[seat]:
            return None
    return Replay(log, game, after)


def replay(log: Log, *, upto: int | None = None, keep: bool = False) -> Replay:
    """Play the entries of ``log`` (the first ``upto`` of them), checking each.

    Every entry must follow the digest chain; a move must be by the player
    to move, legal, and written in canonical notation; an event (``@...``)
    must be one the log's rules allow (:mod:`adjudicator.events`). The first
    that is not raises a :class:`MoveError` located at that entry.
    """
    game, state = start(log)
    entries = log.moves if upto is None else log.moves[:upto]
    players = log.players
    batch = getattr(game, "fast_play", None)
    if batch is not None and not keep:
        done = _batch(log, game, state, entries, batch)
        if done is not None:
            return done
    states = [state] if keep else None
    history = [state]  # the state before each game move in force, then now
    digest = head_digest(log)
    extra: _Events | None = None
    # The hot path of bulk validation: bind the contract's functions once.
    to_move, parse, fmt, apply = game.to_move, game.parse_move, game.format_move, game.apply
    fast = getattr(game, "fast_apply", None)
    link = seal.entry_digest
    record = history.append
    for number, entry in enumerate(entries, 1):
        text = entry.move
        digest = link(digest, entry.by, text, entry.comment, entry.at)
        if digest.hex() != entry.digest:
            raise _broken(entry, number)
        if text[:1] == "@" or extra is not None:
            if extra is None:
                extra = _Events(log, game)
            if text[:1] == "@":
                try:
                    state = extra.apply(state, history, entry.by, text)
                except MoveError as e:
                    raise e.at(number, entry.by, text) from None
                if states is not None:
                    states.append(state)
                continue
            if extra.ended is not None:
                raise IllegalMoveError("the game is already over", events.CLAUSE).at(
                    number, entry.by, text)
            extra.pending = None  # playing on drops a proposal
        seat = to_move(state)
        if seat is None or entry.by != players[seat]:
            raise _out_of_turn(game, players, seat, entry.by).at(number, entry.by, text)  # type: ignore[union-attr]
        if fast is not None:
            after = fast(state, text)
            if after is not None:
                state = after
                record(state)
                if states is not None:
                    states.append(state)
                continue
        try:
            move = parse(state, text)
            after = apply(state, move)
            canonical = fmt(state, move)
        except MoveError as e:
            raise e.at(number, entry.by, text) from None
        if canonical != text:
            raise NotationError(
                f"not written in canonical notation, which is {canonical!r} "
                f"({game.NOTATION})"
            ).at(number, entry.by, text)
        state = after
        record(state)
        if states is not None:
            states.append(state)
    return Replay(log, game, state, tuple(states) if states is not None else (),
                  None if extra is None else extra.ended,
                  None if extra is None else extra.pending)


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


def describe(outcome: Outcome | None) -> str:
    """An outcome in a few words: ``ann 7, bob 5 (winner: ann)``."""
    if outcome is None:
        return "no result"
    if not outcome.standings:
        return "; ".join(outcome.details) or "no result"
    scores = ", ".join(f"{s.player} {s.score}" for s in outcome.standings)
    winners = ", ".join(outcome.winners) or "none"
    return f"{scores} (winner: {winners})"


def check_result(rep: Replay) -> None:
    """The stored result must be exactly what the moves give."""
    actual = rep.outcome
    stored = rep.log.result
    if actual == stored:
        return
    if actual is None:
        raise BadLogError("result: the log has a result but the game is not over")
    if stored is None:
        raise BadLogError(
            f"result: the game is over but the log records no result; it is {describe(actual)}"
        )
    said, given = describe(stored), describe(actual)
    if said != given:
        raise BadLogError(f"result: the log says {said}, but the moves give {given}")
    if stored.standings != actual.standings:
        places = lambda o: ", ".join(f"{s.player} {s.place}" for s in o.standings)  # noqa: E731
        raise BadLogError(
            f"result: the log's places are {places(stored)}, but the moves give {places(actual)}"
        )
    # The scores and places agree; say which line of the details does not.
    pairs = zip(
        stored.details + ("",) * len(actual.details), actual.details + ("",) * len(stored.details)
    )
    said, given = next((repr(a), repr(b)) for a, b in pairs if a != b)
    raise BadLogError(f"result: the log's details say {said}, but the moves give {given}")


def validate(log: Log, *, keep: bool = False) -> Replay:
    """Replay ``log`` and check its stored result and its signatures; raise
    on the first problem."""
    if not keep:
        rep = _plain_valid(log)
        if rep is not None:
            return rep
    check_times(log)
    rep = replay(log, keep=keep)
    check_result(rep)
    check_seals(log)
    return rep


def _plain_valid(log: Log) -> Replay | None:
    """:func:`validate` at once for the common log, or None to take the full
    path (which then finds the first problem, in its order, and says what it is).

    The common log is an open game without a clock, keys or signatures, of
    a game with ``fast_play``, and holds no event. For it every check of the
    time stamps and of the signatures comes down to fields being empty, and
    those are checked in the one loop over the entries; the digest chain,
    the moves and the result are checked as :func:`replay` and
    :func:`check_result` do, and any failure hands the log to them.
    """
    if (log.clock or log.started is not None or log.deadline is not None or log.keys
            or log.commitment is not None or log.referee is not None
            or log.signature is not None):
        return None
    try:
        game, state, key = _start(log)
    except Exception:  # a bad header: the full path says what is wrong, in its order
        return None
    batch = getattr(game, "fast_play", None)
    if batch is None:
        return None
    # The fields of a plain header follow from what start() keyed its
    # checks by (no tags, no start time; and checked above: no clock,
    # deadline, keys, commitment or referee); kept under that key.
    parts = None if key is None else _PLAIN_HEADS.get(key)
    if parts is None:
        parts = seal.header_parts(log.format, log.version, log.game, log.params, log.players,
                                  True, None, {}, log.rules, log.tags, log.clock, log.deadline)
        if key is not None:
            if len(_PLAIN_HEADS) >= 1000:
                _PLAIN_HEADS.clear()
            _PLAIN_HEADS[key] = parts
    head = seal.header_digest_of(parts, log.seed or "", log.started)
    chained = seal.chained_moves(head, log.moves)
    if chained is None:
        return None
    texts, bys = chained
    # No event (an event starts with "@", which no game's canonical move holds
    # anywhere: so one look at all the texts at once).
    if "@" in "".join(texts):
        return None
    seats, after = batch(state, texts)
    # Every move by the player to move (fast_play says which seat played each).
    if list(map(log.players.__getitem__, seats)) != bys:
        return None
    if game.outcome(after) != log.result:
        return None
    return _replay_of(log, game, after)


_PLAIN_HEADS: dict[tuple, tuple[bytes, bytes | None]] = {}


def check_seals(log: Log) -> None:
    """The signatures: the referee's over a refereed log, the players' over their moves."""
    check_keys(log)
    check_signature(log)
    check_player_signatures(log)


def check_public(log: Log) -> None:
    """Everything that can be checked without the seed: the header, the
    digest chain and every signature. For a refereed log of version 2 this
    proves that the moves and the result are the ones its referee signed."""
    check_header(log)
    check_times(log)
    check_chain(log)
    check_seals(log)


def extend(
    log: Log,
    texts: Iterable[str],
    *,
    as_player: str | None = None,
    comment: str | None = None,
    player_key: str | None = None,
    sign: bool = True,
    at: str | None = None,
) -> Log:
    """``log`` with the moves ``texts`` appended, all or nothing.

    Moves are read tolerantly and recorded in canonical notation; with
    ``as_player`` every move must be that player's. A text starting with
    ``@`` is an event (:mod:`adjudicator.events`), recorded on its own for
    ``as_player``. In a log with a clock, entries are stamped ``at`` (default:
    now). A player whose key is in
    the header signs their moves with ``player_key`` (their private key).
    The result is written once the game is over. A refereed log must then
    be signed again by its referee (:func:`sign`).
    """
    try:
        rep = validate(log)
    except (BadLogError, MoveError) as e:
        raise BadLogError(f"cannot extend an invalid log: {e}") from None
    game, state, players = rep.game, rep.state, log.players
    if as_player is not None and as_player not in players and not (
            as_player == events.REFEREE and log.refereed):
        raise UsageError(
            f"--as {as_player!r}: no such player (players: {', '.join(players)})"
        )
    added: list[tuple[str, str, str | None]] = []
    texts = list(texts)
    if not texts:
        raise UsageError("no move given")
    if any(t.strip().startswith("@") for t in texts):
        return _event(log, texts, as_player, comment, player_key, sign, at)
    if rep.ended is not None:
        raise IllegalMoveError("the game is already over", events.CLAUSE).at(
            len(log.moves) + 1, as_player, texts[0])
    for text in texts:
        number = len(log.moves) + len(added) + 1
        seat = game.to_move(state)
        if seat is None:
            raise IllegalMoveError("the game is already over", game.END_CLAUSE).at(
                number, as_player, text
            )
        by = as_player if as_player is not None else players[seat]
        problem = _out_of_turn(game, players, seat, by)
        if problem is not None:
            raise problem.at(number, by, text)
        try:
            move = game.parse_move(state, text)
            after = game.apply(state, move)
            canonical = game.format_move(state, move)
        except MoveError as e:
            raise e.at(number, by, text) from None
        added.append((by, canonical, None))
        state = after
    if comment is not None:
        added[-1] = (added[-1][0], added[-1][1], comment)
    entries = list(sealed(log, added, at))
    for i in range(len(log.moves), len(entries) if sign else 0):
        entries[i] = sign_own(log, entries[i], player_key)
    return _with(log, entries, game.outcome(state))


def _event(log: Log, texts: list[str], by: str | None, comment: str | None,
           player_key: str | None, sign: bool, at: str | None) -> Log:
    """``log`` with one event appended (:mod:`adjudicator.events`)."""
    number = len(log.moves) + 1
    if len(texts) != 1:
        raise ParameterError("an event (@...) is recorded on its own, not with moves")
    text = "@" + " ".join(texts[0].strip()[1:].lower().split())
    if by is None:
        raise UsageError(f"say who records {text} (--as PLAYER)")
    try:
        events.parse(text)
    except MoveError as e:
        raise e.at(number, by, texts[0]) from None
    entries = list(sealed(log, [(by, text, comment)], at))
    if sign and by in log.players:
        entries[-1] = sign_own(log, entries[-1], player_key)
    candidate = _with(log, entries, None)
    rep = replay(candidate)
    return _with(log, entries, rep.outcome)


def sign_own(log: Log, entry: MoveEntry, player_key: str | None) -> MoveEntry:
    """``entry`` signed by its player if the header lists their key."""
    key = log.keys.get(entry.by)
    if key is None:
        return entry
    if player_key is None:
        raise UsageError(f"{entry.by} signs their moves: give their key file (--key FILE)")
    if seal.public_key(player_key) != key:
        raise ParameterError(f"the key given is not {entry.by}'s (it is not the key in the header)")
    return sign_move(entry, player_key)


def _with(log: Log, entries: Sequence[MoveEntry], result: Outcome | None) -> Log:
    # A new chain head: any earlier referee signature no longer applies.
    return msgspec.structs.replace(log, moves=tuple(entries), result=result, signature=None)


def simulate(
    game_id: str,
    players: Sequence[str],
    seed: str,
    params: Mapping[str, Any] | None = None,
    *,
    play_seed: str | None = None,
    max_moves: int | None = None,
) -> Log:
    """A game of uniformly random legal moves, as a complete log.

    The moves are chosen with :class:`Chance` over ``play_seed`` (default: the
    game's seed) and the label ``"simulate"``, so the same arguments always
    give the same log.
    """
    log, game, state = _new_log(game_id, players, seed, params)
    rng = Chance(seed if play_seed is None else play_seed, "simulate")
    entries: list[tuple[str, str, str | None]] = []
    to_move, legal, fmt, apply = game.to_move, game.legal_moves, game.format_move, game.apply
    # The text of a legal move is canonical, so fast_apply plays it as apply
    # plays the move; fast_step spells and plays it at once (the games'
    # tests compare them with format_move and apply).
    fast = getattr(game, "fast_apply", None)
    step = getattr(game, "fast_step", None)
    players = log.players
    while (seat := to_move(state)) is not None:
        if max_moves is not None and len(entries) >= max_moves:
            break
        moves = legal(state)
        move = moves[rng.below(len(moves))]
        done = None if step is None else step(state, move)
        if done is None:
            text = fmt(state, move)
            after = None if fast is None else fast(state, text)
            state = apply(state, move) if after is None else after
        else:
            text, state = done
        entries.append((players[seat], text, None))
    return _with(log, sealed(log, entries), game.outcome(state))


def check_header(log: Log) -> Game:
    """The header checks that need no seed: the game, the players, the parameters."""
    game = games.get(log.game)
    check_rules(log, game)
    try:
        check_players(game, log.players)
        resolve_params(game, log.params, complete=True, rules=log.rules)
    except ParameterError as e:
        raise BadLogError(f"header: {e}") from None
    if log.seed is None and log.commitment is None:
        raise BadLogError("header: the log has neither a seed nor a commitment")
    if log.commitment is None and log.salt is not None:
        raise BadLogError("header: an open game has no salt (only a refereed game has one)")
    if log.commitment is not None and (log.seed is None) != (log.salt is None):
        raise BadLogError("header: a refereed game's seed and salt are revealed together")
    return game


class AuditItem(msgspec.Struct, frozen=True):
    what: str
    ok: bool
    text: str


class AuditReport(msgspec.Struct, frozen=True):
    passed: bool
    items: tuple[AuditItem, ...]


def audit(log: Log, secret: Secret | None = None) -> AuditReport:
    """Check a log as an organiser settling a dispute would, item by item.

    The header, the seed (against the commitment of a refereed game), the
    digest chain, every move and the stored result; an item that cannot be
    checked fails the audit.
    """
    items: list[AuditItem] = []

    def item(what: str, ok: bool, text: str) -> bool:
        items.append(AuditItem(what, ok, text))
        return ok

    try:
        game = check_header(log)
        item("header", True, f"{game.TITLE}, {len(log.players)} players: {', '.join(log.players)}")
    except BadLogError as e:
        item("header", False, str(e))
        return AuditReport(False, tuple(items))
    unlocked = log
    if log.commitment is None:
        item("seed", True, "an open game: the seed is in the log")
    elif log.seed is not None:
        ok = log.salt is not None and seal.commit(log.seed, log.salt) == log.commitment
        item("seed", ok, "revealed, and it matches the commitment" if ok else
             "revealed, but it does not match the commitment made at the start")
    elif secret is not None:
        try:
            unlocked = unlock(log, secret)
            item("seed", True, "secret; the referee's file matches the commitment")
        except BadLogError as e:
            item("seed", False, str(e))
    else:
        item("seed", False, "secret: the moves cannot be checked until the referee reveals it "
                            "(adjudicator reveal) or gives --secret")
    try:
        check_chain(log)
        item("digest chain", True, f"intact over {len(log.moves)} entries")
    except MoveError as e:
        item("digest chain", False, str(e))
    try:
        check_seals(log)
        said = []
        if log.referee is not None:
            said.append("the referee's signature covers every move and the result")
        if log.keys:
            said.append(f"every move of {', '.join(sorted(log.keys))} is signed by its player")
        item("signatures", True, "; ".join(said) if said else "none: an open, unsigned game")
    except (BadLogError, MoveError) as e:
        item("signatures", False, str(e))
    if all(i.ok for i in items):
        try:
            rep = replay(unlocked)
            item("moves", True, f"all {len(log.moves)} by the player to move, legal and canonical")
            try:
                check_result(rep)
                over = rep.game.outcome(rep.state)
                item("result", True, f"matches: {describe(over)}" if over is not None else
                     f"none yet: the game goes on, {rep.to_move()} to move")
            except BadLogError as e:
                item("result", False, str(e))
        except (BadLogError, MoveError) as e:
            item("moves", False, str(e))
    return AuditReport(all(i.ok for i in items), tuple(items))


def diff(a: Log, b: Log, name_a: str = "A", name_b: str = "B") -> tuple[bool, list[str]]:
    """Whether two copies hold the same game and moves; lines saying how they differ."""
    for field in ("game", "players", "params", "commitment", "referee", "keys"):
        if getattr(a, field) != getattr(b, field):
            return False, [f"different games: {field} differs ({name_a}: {getattr(a, field)!r}, "
                           f"{name_b}: {getattr(b, field)!r})"]
    if a.seed is not None and b.seed is not None and a.seed != b.seed:
        return False, [f"different games: the seed differs ({name_a}: {a.seed!r}, {name_b}: {b.seed!r})"]
    common = 0
    for x, y in zip(a.moves, b.moves):
        if x != y:
            break
        common += 1
    na, nb = len(a.moves), len(b.moves)
    if common == na == nb:
        if a.result != b.result:
            return False, [f"the same {na} moves, but the stored results differ"]
        return True, [f"the same game: {na} identical moves"]
    if common == min(na, nb):
        short, long_, n = (name_a, name_b, na) if na < nb else (name_b, name_a, nb)
        extra = (b if na < nb else a).moves[n]
        return False, [f"the same game; {short} stops after move {n}, {long_} goes on to move "
                       f"{max(na, nb)} (move {n + 1}: {extra.by} {extra.move})"]

    def show(entry: MoveEntry | None) -> str:
        return "nothing" if entry is None else f"{entry.by} {entry.move!r}"

    x = a.moves[common] if common < na else None
    y = b.moves[common] if common < nb else None
    return False, [
        f"the copies part at move {common + 1}, after {common} identical moves",
        f"  {name_a}: {show(x)} ({na} moves)",
        f"  {name_b}: {show(y)} ({nb} moves)",
    ]
