"""The referee's directory settings: ``referee.toml`` and ``roster.toml``."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from ..errors import AdjudicatorError, one_line

__all__ = ["GAME_NAME", "REQUIREMENTS", "Config", "ConfigError", "Server", "load_aliases",
           "load_config", "load_requirements", "load_roster", "read_roster"]

GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")

#: The hosts a server without encryption (``security = "none"``) may be on:
#: this machine, where the password does not cross a network.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def warn_stderr(line: str) -> None:
    print(line, file=sys.stderr)


class ConfigError(AdjudicatorError):
    """A referee directory that cannot be run: a missing or bad setting."""


@dataclass(frozen=True)
class Server:
    """A mail server: ``security`` is ``tls`` (TLS from the start),
    ``starttls`` or ``none`` (a server on this machine)."""

    host: str
    port: int
    security: str = "starttls"
    user: str | None = None
    password: str | None = None
    folder: str = "INBOX"


@dataclass(frozen=True)
class Config:
    address: str
    name: str = "adjudicator referee"
    poll: float = 60.0
    #: The picture attached to each mail, unless the player chose another
    #: (``prefs picture=...``): ``svg`` (the default: a few kilobytes, drawn
    #: in milliseconds), ``png`` (needs resvg, else SVG; ten times the bytes
    #: and the time) or ``none``.
    picture: str = "svg"
    #: Which mails a player gets, unless they chose (``prefs mail=...``):
    #: ``all`` (after every move) or ``turn`` (when it is their move, with
    #: what happened since their last; and the end of the game).
    mail: str = "all"
    smtp: Server | None = None
    imap: Server | None = None
    #: The games anyone may follow by mail (``observe GAME``): their names,
    #: or ``("*",)`` for every game. None by default.
    observers: tuple[str, ...] = ()
    #: The organisers who may act by mail: address -> public key
    #: (``[organisers]`` in referee.toml); their mails must be signed.
    organisers: tuple[tuple[str, str], ...] = ()
    #: Minutes between two rounds beyond which the referee counts itself
    #: down: no clock of any game runs across the gap (recorded as
    #: ``@outage`` in every game with a time control).
    outage: float = 60.0
    #: The daily digest (``[digest]``): whether a player gets it without
    #: asking (``digest on|off`` by mail overrides), and the hour of the day,
    #: in ``digest_zone``, from which the referee's first round sends it.
    digest: bool = False
    digest_hour: int = 8
    digest_zone: str = "UTC"
    #: Where the referee tells what it ignored (mail from addresses that play
    #: no game here, list and automatic mail): ``organiser`` in
    #: referee.toml, else the addresses of ``[organisers]``; at most one mail
    #: per ``notices`` hours.
    organiser: tuple[str, ...] = ()
    notices: float = 24.0
    #: The same answer (an error, help, a view sent again) to the same
    #: sender at most once per ``repeat`` minutes, and at most
    #: ``answers`` answers that record nothing per sender and hour.
    repeat: float = 60.0
    answers: int = 20
    #: Days the players' handled mail (``Maildir/cur``) and the mail the
    #: server refused (``spool/failed``) are kept: each may quote a hand.
    #: 0 keeps them for ever.
    keep: float = 30.0


def _toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {one_line(str(e))}") from None


def _password(section: dict[str, Any], env: str, where: str, root: Path,
              environ: dict[str, str], warn: Callable[[str], None]) -> str | None:
    """A password from the environment or a file named in the config, never
    from the config itself or the command line."""
    if "password" in section:
        raise ConfigError(f"{where}: do not write the password in the file: set {env} or "
                          "password_file")
    if env in environ:
        return environ[env]
    if "password_file" in section:
        from ..files import readable_by_others

        path = root / str(section["password_file"])
        try:
            password = path.read_text(encoding="utf-8").strip()
        except OSError as e:
            raise ConfigError(f"{where}: password_file {path}: {e.strerror or e}") from None
        if readable_by_others(path):
            warn(f"warning: {path} is readable by others: chmod 600 {path}")
        return password
    return None


def _server(section: Any, where: str, default_port: dict[str, int], env: str, root: Path,
            environ: dict[str, str], warn: Callable[[str], None], imap: bool = False) -> Server:
    if not isinstance(section, dict) or not isinstance(section.get("host"), str):
        raise ConfigError(f"{where}: give at least host = \"...\"")
    security = section.get("security", "tls" if imap else "starttls")
    if security not in ("tls", "starttls", "none"):
        raise ConfigError(f"{where}: security is tls, starttls or none, not {security!r}")
    host = section["host"]
    if security == "none" and host.strip().rstrip(".").lower() not in LOOPBACK:
        raise ConfigError(f"{where}: security = \"none\" is for a server on this machine "
                          f"(localhost, 127.0.0.1, ::1), not {host!r}: the login would cross "
                          "the network in clear; use tls or starttls")
    port = section.get("port", default_port[security])
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ConfigError(f"{where}: port {port!r} is not a port number")
    user = section.get("user")
    return Server(host=host, port=port, security=security,
                  user=str(user) if user is not None else None,
                  password=_password(section, env, where, root, environ, warn),
                  folder=str(section.get("folder", "INBOX")))


def load_config(root: Path, environ: dict[str, str] | None = None,
                warn: Callable[[str], None] = warn_stderr) -> Config:
    """``DIR/referee.toml``. Passwords come from ``ADJUDICATOR_SMTP_PASSWORD``
    and ``ADJUDICATOR_IMAP_PASSWORD`` or from a ``password_file`` (``warn``
    is told when others may read it)."""
    environ = dict(os.environ) if environ is None else environ
    path = root / "referee.toml"
    data = _toml(path)
    address = data.get("address")
    if not isinstance(address, str) or "@" not in parseaddr(address)[1]:
        raise ConfigError(f"{path}: give the referee's mail address: address = \"referee@...\"")
    poll = data.get("poll", 60)
    if not isinstance(poll, (int, float)) or poll <= 0:
        raise ConfigError(f"{path}: poll is a number of seconds above 0")
    observers = data.get("observers", [])
    if observers == "all":
        observers = ["*"]
    if not isinstance(observers, list) or not all(isinstance(g, str) for g in observers):
        raise ConfigError(f"{path}: observers is \"all\" or a list of game names")
    organisers = data.get("organisers", {})
    if not isinstance(organisers, dict) or not all(
            isinstance(a, str) and "@" in a and isinstance(k, str) for a, k in organisers.items()):
        raise ConfigError(f"{path}: [organisers] lists \"address\" = \"ed25519:PUBLIC KEY\"")
    from ..seal import valid_public_key

    for who, key in organisers.items():
        if not valid_public_key(key):
            raise ConfigError(f"{path}: [organisers] {who}: {key!r} is not a public key "
                              "(adjudicator key new prints one)")
    outage = data.get("outage", 60)
    if not isinstance(outage, (int, float)) or outage <= 0:
        raise ConfigError(f"{path}: outage is a number of minutes above 0")
    digest = data.get("digest", {})
    if not isinstance(digest, dict) or not set(digest) <= {"default", "hour", "zone"}:
        raise ConfigError(f"{path}: [digest] takes default = true|false, hour = 0-23, "
                          "zone = \"Europe/Stockholm\"")
    default, hour, zone = (digest.get("default", False), digest.get("hour", 8),
                           digest.get("zone", "UTC"))
    if not isinstance(default, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
        raise ConfigError(f"{path}: [digest] default is true or false, hour a whole hour "
                          "from 0 to 23")
    from ..clock import zone as time_zone

    try:
        time_zone(str(zone))
    except ValueError as e:
        raise ConfigError(f"{path}: [digest] {e}") from None
    organiser = data.get("organiser")
    if organiser is not None and (not isinstance(organiser, str)
                                  or "@" not in parseaddr(organiser)[1]):
        raise ConfigError(f"{path}: organiser is the organiser's mail address")
    told = ((parseaddr(organiser)[1].lower(),) if organiser is not None else
            tuple(a.lower() for a in organisers))
    limits: dict[str, float] = {}
    for key, fallback, unit in (("notices", 24, "hours"), ("repeat", 60, "minutes"),
                               ("answers", 20, "answers per sender and hour"),
                               ("keep", 30, "days")):
        value = data.get(key, fallback)
        # repeat = 0: the same answer every time; keep = 0: handled mail for ever
        least = 0 if key in ("repeat", "keep") else 1e-9
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value < least:
            raise ConfigError(f"{path}: {key} is a number of {unit} above 0"
                              + (" (or 0)" if key in ("repeat", "keep") else ""))
        limits[key] = value
    picture = data.get("picture", "svg")
    if picture not in ("png", "svg", "none"):
        raise ConfigError(f"{path}: picture is svg, png or none, not {picture!r}")
    mail = data.get("mail", "all")
    if mail not in ("all", "turn"):
        raise ConfigError(f"{path}: mail is all or turn, not {mail!r}")
    smtp = imap = None
    if "smtp" in data:
        smtp = _server(data["smtp"], f"{path} [smtp]", {"tls": 465, "starttls": 587, "none": 25},
                       "ADJUDICATOR_SMTP_PASSWORD", root, environ, warn)
    if "imap" in data:
        imap = _server(data["imap"], f"{path} [imap]", {"tls": 993, "starttls": 143, "none": 143},
                       "ADJUDICATOR_IMAP_PASSWORD", root, environ, warn, imap=True)
    return Config(address=parseaddr(address)[1].lower(), name=str(data.get("name", Config.name)),
                  poll=float(poll), picture=picture, mail=mail, smtp=smtp, imap=imap,
                  outage=float(outage), observers=tuple(observers),
                  digest=default, digest_hour=hour, digest_zone=str(zone), organiser=told,
                  notices=float(limits["notices"]), repeat=float(limits["repeat"]),
                  answers=int(limits["answers"]), keep=float(limits["keep"]),
                  organisers=tuple((a.lower(), k) for a, k in organisers.items()))


def load_roster(root: Path) -> dict[str, dict[str, str]]:
    """``DIR/roster.toml``: for each game, its players and their addresses
    (lower-cased; a player's first address where more are listed). A
    game's log must exist and name the same players; an address plays one
    seat of a game."""
    return read_roster(root)[0]


def load_aliases(root: Path) -> dict[str, dict[str, tuple[str, ...]]]:
    """The other addresses a player of ``DIR/roster.toml`` may write from
    (``ann = ["ann@example.org", "ann@work.example"]``): game -> player ->
    addresses after the first. Mail goes to the first only."""
    return read_roster(root)[1]


def read_roster(root: Path) -> tuple[dict[str, dict[str, str]],
                                     dict[str, dict[str, tuple[str, ...]]]]:
    """``DIR/roster.toml``: each seat's address, and its aliases."""
    path = root / "roster.toml"
    data = _toml(path)
    roster: dict[str, dict[str, str]] = {}
    aliases: dict[str, dict[str, tuple[str, ...]]] = {}
    for name, players in data.items():
        if not GAME_NAME.fullmatch(name):
            raise ConfigError(f"{path}: [{name}]: a game's name is lower-case letters, digits, "
                              "'-' and '_', at most 40")
        if not isinstance(players, dict) or not players:
            raise ConfigError(f"{path}: [{name}]: list its players: ann = \"ann@example.org\"")
        seats: dict[str, str] = {}
        more: dict[str, tuple[str, ...]] = {}
        taken: set[str] = set()
        for player, given in players.items():
            if isinstance(given, dict):  # ann = { address = "...", require = [...] }
                given = given.get("address", "")
            listed = given if isinstance(given, list) else [given]
            if not listed:
                raise ConfigError(f"{path}: [{name}] {player}: give at least one address")
            addresses = []
            for address in listed:
                addr = parseaddr(str(address))[1].lower()
                if "@" not in addr or not isinstance(address, str):
                    raise ConfigError(f"{path}: [{name}] {player}: {address!r} is not a mail "
                                      "address")
                if addr in taken:
                    raise ConfigError(f"{path}: [{name}]: {addr} plays two seats")
                taken.add(addr)
                addresses.append(addr)
            seats[player] = addresses[0]
            if addresses[1:]:
                more[player] = tuple(addresses[1:])
        roster[name] = seats
        aliases[name] = more
    return roster, aliases


#: What the roster may require of a player's mails that change a game:
#: ``signed``, their own signature on every entry (their key in the game's
#: header); ``dkim``, their provider's DKIM signature on the mail.
REQUIREMENTS = ("signed", "dkim")


def load_requirements(root: Path) -> dict[str, dict[str, frozenset[str]]]:
    """What ``DIR/roster.toml`` requires of each player's mails, where it
    says (``ann = { address = "ann@example.org", require = ["dkim"] }``):
    game -> player -> requirements."""
    path = root / "roster.toml"
    out: dict[str, dict[str, frozenset[str]]] = {}
    for name, players in _toml(path).items():
        for player, entry in (players.items() if isinstance(players, dict) else ()):
            if not isinstance(entry, dict):
                continue
            unknown = set(entry) - {"address", "require"}
            require = entry.get("require", [])
            if isinstance(require, str):
                require = [require]
            if unknown or not isinstance(require, list) or not set(require) <= set(REQUIREMENTS):
                raise ConfigError(f"{path}: [{name}] {player}: write {{ address = \"...\", "
                                  f"require = [...] }}, requiring any of {', '.join(REQUIREMENTS)}")
            if require:
                out.setdefault(name, {})[player] = frozenset(require)
    return out
