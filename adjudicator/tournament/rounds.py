"""A round's games, started in the mail referee's directory, and the event's
games found again.

A round seats the players (:mod:`.seating`) from the rounds before it and
their standings, then writes each table's refereed game into the referee's
``games/`` (``ID-rN-tK.json`` and its secret) under the event's referee key,
with the event's time control and the tags ``event``, ``round`` and
``table``, and lists its players in ``roster.toml``. The referee, started
again (or at its next ``--once``), mails every player their first view.

Nothing else is stored: the seating of every round, the byes and the
standings are read back from the logs, so the archive holds all of it.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import msgspec

from .. import files, log as logmod, seal, signing, starting
from ..log import Log, Secret
from .event import Tournament, TournamentError
from .report import Played, Standings
from .seating import Round, seat


def referee_dir(t: Tournament, root: Path) -> Path:
    """The mail referee's directory of the event in ``root``."""
    return root / t.referee


def game_name(t: Tournament, number: int, table: int) -> str:
    return f"{t.id}-r{number}-t{table}"


def event_logs(t: Tournament, games: Path) -> list[tuple[str, int, int, Log]]:
    """The event's games in a directory of logs: (name, round, table, log), in order."""
    return event_logs_of(t, {p.name.removesuffix(".json"): files.read(str(p))
                             for p in games.glob(f"{t.id}-r*-t*.json")}, str(games))


def event_logs_of(t: Tournament, found: dict[str, bytes],
                  where: str = "games") -> list[tuple[str, int, int, Log]]:
    """The event's games among logs by name: (name, round, table, log), in order."""
    pattern = re.compile(re.escape(t.id) + r"-r([0-9]+)-t([0-9]+)")
    out = []
    for name, data in found.items():
        matched = pattern.fullmatch(name)
        if matched is None:
            continue
        out.append((name, int(matched[1]), int(matched[2]),
                    logmod.decode(data, f"{where}/{name}.json")))
    return sorted(out, key=lambda g: (g[1], g[2]))


def history(t: Tournament, logs: list[tuple[str, int, int, Log]]) -> list[Round]:
    """The rounds seated so far, read back from their games (seat order is the log's)."""
    numbers = sorted({r for _, r, _, _ in logs})
    out = []
    for n in numbers:
        tables = tuple(log.players for _, r, _, log in logs if r == n)
        sat = {p for t_ in tables for p in t_}
        out.append(Round(number=n, tables=tables,
                         byes=tuple(p for p in t.players if p not in sat)))
    return out


def judged(t: Tournament, logs: list[tuple[str, int, int, Log]]) -> list[Played]:
    from .standings import judge

    return [judge(t, name, r, k, log) for name, r, k, log in logs]


def current(t: Tournament, logs: list[tuple[str, int, int, Log]], *, rated: bool = True) -> Standings:
    """The standings after the games in ``logs``."""
    from . import ratings
    from .standings import standings

    played = judged(t, logs)
    rounds = history(t, logs)
    history_ = ratings.rate(played) if rated else ()
    return standings(t, played, len(rounds), {r.number: r.byes for r in rounds}, history_)


def refereed(t: Tournament, players: tuple[str, ...], signing_key: str, tags: dict[str, str],
             started: str | None) -> tuple[Log, Secret]:
    """A refereed game of the event under ``signing_key`` (the event's key:
    a parameter, so a long-term referee key can take its place)."""
    from .. import clock

    seed = seal.new_secret_seed()  # secret: never drawn from the public tournament seed
    open_log = starting.new_log(t.game, players, seed, t.params, tags=tags,
                                time=clock.parse(t.time) if t.time else None,
                                started=started)
    salt = seal.new_salt()
    commitment = seal.commit(seed, salt)
    log = msgspec.structs.replace(open_log, seed=None, commitment=commitment,
                                  referee=seal.public_key(signing_key))
    secret = Secret(format=logmod.SECRET_FORMAT, version=logmod.VERSION, game=log.game,
                    players=log.players, commitment=commitment, seed=seed, salt=salt,
                    signing_key=signing_key)
    starting.start(signing.unlock(log, secret))  # the deal must work
    return signing.sign(log, secret), secret


def start_round(t: Tournament, root: Path, signing_key: str, *,
                now: datetime | None = None) -> Round:
    """Seat the next round and start its games in the referee's directory.

    Refused while a game of the round before is still being played (its
    results seat this one), and once every round is seated.
    """
    from .. import clock

    if t.key and seal.public_key(signing_key) != t.key:
        raise TournamentError("the event's key file does not hold the key named in the "
                              "tournament file (key = ...)")
    ref = referee_dir(t, root)
    if not (ref / "referee.toml").is_file():
        raise TournamentError(f"{ref}: no referee.toml: set up the mail referee's directory "
                              "first (README: \"A referee by mail\")")
    games = ref / "games"
    logs = event_logs(t, games)
    _check_roster(ref, [name for name, _, _, _ in logs])
    done = history(t, logs)
    number = len(done) + 1
    if number > t.rounds:
        raise TournamentError(f"all {t.rounds} rounds are seated: adjudicator tournament "
                              "standings DIR, then archive")
    going = [name for name, _, _, log in logs if log.result is None]
    if going:
        raise TournamentError(f"round {number - 1} is not over: {', '.join(going)} still "
                              f"being played")
    scores = {r.player: r.points for r in current(t, logs, rated=False).rows}
    seating = seat(list(t.players), t.tables, number, t.seed, history=done, scores=scores,
                   fmt=t.format, rounds=t.rounds)
    started = clock.stamp(now) if now is not None else None
    roster = []
    games.mkdir(parents=True, exist_ok=True)
    made = []
    for k, players in enumerate(seating.tables, 1):
        name = game_name(t, number, k)
        tags = {"event": t.name, "round": str(number), "table": str(k)}
        log, secret = refereed(t, players, signing_key, tags, started)
        made.append((name, log, secret))
    for name, log, secret in made:  # every game made before any is written
        files.write(str(games / f"{name}.secret.json"), logmod.encode(secret), replace=False,
                    private=True)
        files.write(str(games / f"{name}.json"), logmod.encode(log), replace=False)
        roster.append(f"\n[{name}]")
        roster += [f'"{p}" = "{t.players[p]}"' for p in log.players]
    path = ref / "roster.toml"
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    files.write(str(path), (before + "\n".join(roster) + "\n").encode("utf-8"))
    return seating


def _check_roster(ref: Path, names: list[str]) -> None:
    """Every game of the event is in the roster (a round cut short between
    writing its games and the roster is said, not seated over)."""
    import tomllib

    path = ref / "roster.toml"
    try:
        listed = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise TournamentError(f"{path}: {' '.join(str(e).split())}") from None
    missing = [name for name in names if name not in listed]
    if missing:
        raise TournamentError(f"{path}: {', '.join(missing)} not in it: a round was cut short; "
                              "list their players there, or remove their files from games/")


def new_key() -> logmod.KeyFile:
    """A new event key (a key file, like ``adjudicator key new``'s)."""
    private = seal.new_signing_key()
    return logmod.KeyFile(format=logmod.KEY_FORMAT, version=logmod.VERSION,
                          public=seal.public_key(private), private=private)


def read_key(path: Path) -> str:
    """The private half of the event's key file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise TournamentError(f"{path}: no such file: the event's key (tournament new writes "
                              "it)") from None
    return logmod.decode_key(data, str(path)).private
