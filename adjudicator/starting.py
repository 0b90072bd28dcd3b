"""Starting a log: the players, the parameters, the header's checks, the
seed, and a new game open or refereed.

A header is checked here once for all that reads it (replay, validation,
audit); the starting state comes from the game's ``setup`` and the seed
(:mod:`adjudicator.chance`).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from . import dealing, events, games, seal
from . import names as naming
from .chain import check_stamp, now_stamp
from .engine import GameSpec, Value
from .errors import BadLogError, ParameterError
from .log import FORMAT, SECRET_FORMAT, VERSION, Log, Secret, TimeControl
from .signing import check_keys, sign, unlock


def valid_name(name: str) -> bool:
    """A player's name as a log holds it (:func:`adjudicator.names.valid`):
    ``Zoë``, ``José``, ``Ελένη``, ``Ann Smith``."""
    return naming.valid(name)

def check_players(game: GameSpec, players: Sequence[str]) -> tuple[str, ...]:
    """The player names, validated for ``game``: their count, spelling,
    uniqueness (case and spaces do not count: :func:`adjudicator.names.key`)."""
    players = tuple(players)
    if len(players) not in game.players:
        counts = ", ".join(str(n) for n in game.players)
        raise ParameterError(
            f"{game.id} is played by {counts} players, not {len(players)}"
        )
    seen: dict[str, str] = {}
    for name in players:
        if not valid_name(name):
            raise ParameterError(f"player name {name!r}: use {naming.RULE}")
        if naming.key(name) in seen:
            other = seen[naming.key(name)]
            raise ParameterError(f"player name {name!r} is used twice" + (
                "" if other == name else f" ({other!r}: case and spaces do not count)"))
        seen[naming.key(name)] = name
    return players

def typed_params(game: GameSpec, given: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters as a person types them (``--param``), read as the log
    records them: a name in either spelling (``tie-order`` or ``tie_order``),
    a text value in any case (``disks=4q,6d,6o``, ``goal=Balance``)."""
    known = {p.name: p for p in game.params}
    out: dict[str, Any] = {}
    for name, value in given.items():
        p = known.get(name) or known.get(name.replace("-", "_")) or known.get(
            name.replace("_", "-"))
        if p is None:
            out[name] = value
            continue
        if isinstance(value, str) and p.kind is str:
            text = value.strip()
            same = [c for c in p.choices if isinstance(c, str) and c.lower() == text.lower()]
            if same:
                text = same[0]
            elif p.check is not None and p.check(text) and not p.check(text.upper()):
                text = text.upper()
            value = text
        out[p.name] = value
    return out


def resolve_params(
    game: GameSpec, given: Mapping[str, Any], *, complete: bool = False, rules: int | None = None
) -> dict[str, Value]:
    """Every parameter of ``game``, validated, in declaration order.

    With ``complete`` (a log's header, pinned to rules version ``rules``)
    every parameter must be given, except one that rules version did not
    have yet: it takes its ``legacy`` value, the behaviour the log was played
    under. Otherwise missing ones take their defaults.
    """
    pinned = 1 if rules is None else rules
    known = {p.name: p for p in game.params}
    if not complete:
        given = typed_params(game, given)
    for name in given:
        if name not in known:
            names = ", ".join(p.label for p in game.params) or "none"
            raise ParameterError(
                f"{game.id} has no parameter {name!r} (its parameters: {names})"
            )
    out: dict[str, Value] = {}
    for p in game.params:
        if p.name in given and complete and pinned < p.since:
            raise ParameterError(
                f"parameter {p.label!r} came with rules version {p.since}, "
                f"but the log is played under version {pinned}"
            )
        if p.name in given:
            out[p.name] = p.coerce(given[p.name])
        elif complete and pinned < p.since and p.legacy is not None:
            out[p.name] = p.legacy
        elif complete:
            raise ParameterError(
                f"parameter {p.label!r} is missing (the log must record every parameter; "
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
    time: TimeControl | None = None,
) -> Log:
    """A log of a game not yet begun; a random seed when none is given.

    ``keys`` maps players who will sign their moves to their public keys;
    ``tags`` are PGN-style tags (event, site, round, date, ...). With
    ``clock`` every entry is stamped with the time it was recorded, and
    ``deadline`` gives the hours a player has for each move (it implies the
    clock); or ``time``, a time control the referee keeps
    (:mod:`adjudicator.clock`; it implies the clock too).
    """
    return new_log_and_state(game_id, players, seed, params, keys, tags=tags, clock=clock,
                    deadline=deadline, started=started, time=time)[0]

def new_log_and_state(
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
    time: TimeControl | None = None,
    checked: Callable[[str, tuple[str, ...], Mapping[str, Any]],
                      tuple[GameSpec, tuple[str, ...], dict[str, Value]]] | None = None,
) -> tuple[Log, GameSpec, Any]:
    """:func:`new_log`, and the game and starting state it checked it with.

    ``checked`` stands in for :func:`checked_players_and_params` (self-play
    passes the remembered twin, :func:`adjudicator.accelerated.checked_new`).
    """
    check = checked_players_and_params if checked is None else checked
    game, players, resolved = check(game_id, tuple(players), params or {})
    if seed is None:
        seed = seal.new_secret_seed()[:16]
    if not seed:
        raise ParameterError("the seed must not be empty")
    log = Log(
        format=FORMAT,
        version=VERSION,
        game=game.id,
        params=resolved,
        players=players,
        seed=seed,
        salt=None,
        commitment=None,
        keys=dict(sorted((keys or {}).items())),
        rules=game.rules_version,
        tags=dict(sorted((tags or {}).items())),
        clock=clock or deadline is not None or time is not None,
        deadline=deadline,
        started=((started or now_stamp()) if (clock or deadline is not None or time is not None)
                 else None),
        time=time,
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

def checked_players_and_params(
    game_id: str, players: tuple[str, ...], params: Mapping[str, Any]
) -> tuple[GameSpec, tuple[str, ...], dict[str, Value]]:
    """The game, the player names (cleaned: :func:`adjudicator.names.clean`)
    and every parameter of a new log, checked."""
    game = games.get(game_id)
    names = check_players(game, [naming.clean(p) for p in players])
    if any(naming.key(p) == events.REFEREE for p in names):
        raise ParameterError(f"player name {events.REFEREE!r} is kept for a game's referee")
    return game, names, resolve_params(game, params)

def new_refereed(
    game_id: str,
    players: Sequence[str],
    seed: str | None = None,
    params: Mapping[str, Any] | None = None,
    keys: Mapping[str, str] | None = None,
    *,
    deal: Sequence[str] = (),
    words: Sequence[str] = (),
    signing_key: str | None = None,
    **header: Any,
) -> tuple[Log, Secret]:
    """A refereed game: the public log holds a commitment to the seed and the
    referee's public key, and is signed; the secret file (for the referee
    alone) holds the seed, the salt and the signing key.

    Every shuffle and draw comes from the seed *and* the salt
    (:func:`seal.deal_seed`), so a seed a person typed gives nothing away;
    and from the values of the players named in ``deal`` (with the tool)
    and ``words`` (by mail), when there are any (:mod:`adjudicator.dealing`).
    ``signing_key`` is the referee's long-term key (``key new-referee``);
    without it the game gets a key of its own.
    """
    seed = seal.new_secret_seed() if seed is None else seed
    open_log = new_log(game_id, players, seed, params, keys, **header)
    salt = seal.new_salt()
    commitment = seal.commit(seed, salt)
    if signing_key is None:
        signing_key = seal.new_signing_key()
    try:
        referee = seal.public_key(signing_key)
    except ValueError as e:
        raise ParameterError(f"the referee's key: {e}") from None
    log = msgspec.structs.replace(
        open_log, seed=None, commitment=commitment, referee=referee
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
    if deal or words:
        log = dealing.begin(log, deal, words)
    return sign(log, secret), secret

class SecretSeedError(BadLogError):
    """A refereed log whose seed is still secret, used where the seed is needed."""

def check_rules(log: Log, game: GameSpec) -> None:
    """The log's rules version must be one this engine plays; version 2 fields
    need version 2."""
    if log.version < 2:
        if (log.rules, log.tags, log.clock, log.deadline, log.started, log.time) != (
                None, {}, False, None, None, None):
            raise BadLogError("header: rules, tags and the clock need version 2")
        return
    known = game.rules_version
    if log.rules is None or not 1 <= log.rules <= known:
        raise BadLogError(
            f"header: played under rules version {log.rules} of {game.title}, but this tool "
            f"knows versions 1 to {known}: use a newer adjudicator")
    check_tags(log)

def game_and_params(log: Log) -> tuple[GameSpec, dict[str, Value]]:
    """The game of a log and every parameter of it, after checking its rules
    version, its players and its parameters (the first checks of
    :func:`start`)."""
    game = games.get(log.game)
    check_rules(log, game)
    try:
        check_players(game, log.players)
        params = resolve_params(game, log.params, complete=True, rules=log.rules)
    except ParameterError as e:
        raise BadLogError(f"header: {e}") from None
    return game, params


def start(log: Log) -> tuple[GameSpec, Any]:
    """The game of a log and its starting state, after checking the header.

    A refereed log must have been unlocked with the referee's secret (or
    revealed); a revealed seed must match the commitment.
    """
    game, params = game_and_params(log)
    check_seed(log)
    dealing.check_deal(log)
    dealing.check_ready(log)
    return game, game.setup(params, log.players, chance_seed(log))


def check_seed(log: Log) -> None:
    """The seed of a log to be played: there (a refereed log unlocked), not
    empty, and matching the commitment of a refereed game."""
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

def chance_seed(log: Log) -> str:
    """The seed the game's chance streams are drawn from (``notation/README.md``)."""
    assert log.seed is not None
    if log.commitment is not None and log.version >= 2 and log.salt is not None:
        return dealing.chance_seed(log, seal.deal_seed(log.seed, log.salt))
    return log.seed

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

#: How far ahead of this machine's clock a time stamp may be.
FUTURE_SLACK = timedelta(minutes=10)


def check_times(log: Log, now: datetime | None = None) -> None:
    """A log with a clock stamps every entry, in order and not after ``now``
    (default: this machine's clock); a log without, none."""
    if not log.clock:
        if log.started is not None or log.deadline is not None or log.time is not None:
            raise BadLogError("header: a start time, a deadline or a time control needs "
                              "the clock")
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
    from . import clock

    clock.check_header(log)
    # A clock may be a little ahead of this machine's; not a day.
    future = clock.stamp((datetime.now(UTC) if now is None else now) + FUTURE_SLACK)
    if log.started > future:
        raise BadLogError(f"header: the game starts {log.started}, in the future")
    last = log.started
    for number, entry in enumerate(log.moves, 1):
        if entry.at is None or not check_stamp(entry.at):
            raise BadLogError(f"move {number}: needs its time stamp (UTC, 2026-11-23T09:15:00Z)")
        if entry.at < last:
            raise BadLogError(f"move {number}: stamped {entry.at}, before the entry before it")
        if entry.at > future:
            raise BadLogError(f"move {number}: stamped {entry.at}, in the future")
        last = entry.at

def check_header(log: Log) -> GameSpec:
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
    dealing.check_deal(log)
    return game
