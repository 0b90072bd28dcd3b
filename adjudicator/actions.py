"""What each command does, as library functions that return values.

The command line (:mod:`adjudicator.cli`) reads its options, calls one of
these and prints what it returns; a program calls them the same way. Here
live the policies behind the commands: the forms a file may come in, who
records a move in an open and in a refereed game, what validating one log
means, a player's move in their view file, a position as ``show`` reports it.
Nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from . import files, log as logmod, narrating, replaying, signing, starting
from . import names as naming
from .chain import check_chain
from .engine import GameSpec, Scene
from .errors import AdjudicatorError, BadLogError, UsageError, counted, one_line
from .log import VIEW_FORMAT, Log, MoveEntry, Secret, ViewFile
from .outputs import Audited, Checked, Position

if TYPE_CHECKING:
    from . import auditing, bulk, pinning, referee
    from .bulk import Source
    from .played import Replay

# ``show``, the command run most, loads only what it uses: the modules of
# the other commands (audit, the referee's, bulk validation, self-play) are
# imported in the functions that need them.


def source(path: str) -> str:
    """How ``path`` is named in messages (``-`` is standard input)."""
    return "stdin" if path == "-" else path


# --- the files a command reads and writes ----------------------------------------------------


class Found(msgspec.Struct, frozen=True):
    """A log or view file and the form it came in: ``json``, ``text`` (a file
    holding just the text form) or ``mail`` (a message, a pasted body:
    anything else the text form or JSON was found in)."""

    value: Log | ViewFile
    form: str


def found(path: str, data: bytes | None = None) -> Found:
    """The log or view file in ``path`` (or in ``data``, its bytes already read)."""
    data = files.read(path) if data is None else data
    name = source(path)
    if _json_file(logmod.text_of(data, name)):
        # JSON is read strictly, and without loading the mail reader.
        kind = logmod.kind_of(data)
        if kind == VIEW_FORMAT:
            return Found(logmod.decode_view(data, name), "json")
        if kind not in (None, logmod.FORMAT):
            raise BadLogError(f"{name}: a file of format {kind!r}, not a log or a view file")
        return Found(logmod.decode(data, name), "json")
    from . import mailparse

    got = mailparse.extract_found(data, name)
    text = logmod.text_of(data, name).strip()
    whole = (got.form == "text" and text.startswith("-----BEGIN ADJUDICATOR")
             and text.endswith("-----") and got.depth == 0)
    return Found(got.value, "text" if whole else "mail")


def _json_file(text: str) -> bool:
    """Whether ``text`` is a JSON file (to read strictly) rather than text
    that may hold the text form: an object, or an array that is valid JSON.
    A forum post may start with ``[`` too (``[q="ann"]``, ``[b]Round 2[/b]``,
    a Markdown link), and is read as text like any other post."""
    head = text.lstrip()[:1]
    if head != "[":
        return head == "{"
    try:
        msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


def log_of(path: str, got: Found) -> Log:
    """The log of ``got``; a view file is refused, saying what takes one."""
    if isinstance(got.value, ViewFile):
        raise AdjudicatorError(
            f"{source(path)} is a view file: use 'adjudicator show' or 'adjudicator extend' on it"
        )
    return got.value


def read_log(path: str, data: bytes | None = None) -> Log:
    """The log in ``path``: JSON, the text form, or a mail holding either."""
    return log_of(path, found(path, data))


def encoded(value: Log | ViewFile, form: str, path: str) -> bytes:
    """``value`` written in the form its file came in; a file found inside a
    mail is not rewritten (the error says how to go on)."""
    if form == "json":
        return logmod.encode(value)
    if form == "text":
        from . import textform

        return textform.dumps(value).encode("ascii")
    raise AdjudicatorError(
        f"{source(path)}: the game is inside a mail message or other text, which is not "
        f"rewritten: save it first (adjudicator convert {source(path)} --to json -o game.json) "
        "and use that"
    )


def read_secret(path: str | None) -> Secret | None:
    """The referee's secret file at ``path``, if one is named."""
    return None if path is None else logmod.decode_secret(files.read(path), path)


def private_key(path: str | None) -> str | None:
    """The private key in a player's key file, if one is named."""
    return None if path is None else logmod.decode_key(files.read(path), path).private


# --- positions ----------------------------------------------------------------------------------


def as_named(players: Sequence[str], player: str | None) -> str | None:
    """The player ``--as`` names: as typed, spaces at its ends and runs of
    them inside not counting (``--as " Ann  Smith"`` is ``Ann Smith``;
    :func:`adjudicator.names.clean`); case counts, as in the log."""
    if player is None:
        return None
    cleaned = naming.clean(player)
    return cleaned if cleaned in players else player


def seat(rep: Replay, player: str | None) -> int | None:
    """The seat of ``player`` (None for nobody); a name not in the game is a usage error."""
    if player is None:
        return None
    player = as_named(rep.players, player)
    if player not in rep.players:
        raise UsageError(f"--as {player!r}: no such player (players: {', '.join(rep.players)})")
    return rep.players.index(player)


def deadline(log: Log, to_move: str | None = None) -> str | None:
    """When the player to move must answer: the last entry's time plus the
    deadline, or what the time control gives (:mod:`adjudicator.clock`)."""
    from datetime import datetime, timedelta

    if log.time is not None:
        from . import clock

        when = clock.timeline(log, to_move).deadline()
        return None if when is None else clock.stamp(when)
    since = log.moves[-1].at if log.moves else log.started
    if since is None or log.deadline is None:
        return None
    when = datetime.strptime(since, "%Y-%m-%dT%H:%M:%SZ") + timedelta(hours=log.deadline)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def position(rep: Replay, state: Any, ply: int, viewer: int | None, default_viewer: bool,
             since: bool = False, before: Any = None) -> Position:
    """One position as seen by ``viewer``; the player to move when ``default_viewer``.
    With ``since`` (a replay that kept its states up to ``ply``), what
    happened since the viewer last moved. ``before`` is the state before the
    last move (taken from the replay when it kept its states), to say in
    words what that move did."""
    game = rep.game
    if before is None and ply > 0 and len(rep.states) > ply:
        before = rep.states[ply - 1]
    last = ply == len(rep.log.moves) and state is rep.state
    ended = rep.ended if last else None
    to_move = None if ended is not None else game.to_move(state)
    if default_viewer:
        viewer = to_move
    legal = None
    if to_move is not None and viewer == to_move:
        legal = [game.format_move(state, m) for m in game.legal_moves(state)]
    answer_by = None
    if last and to_move is not None and (rep.log.deadline is not None or rep.log.time is not None):
        answer_by = deadline(rep.log, rep.players[to_move])
    return Position(
        game=rep.game.id,
        tags=dict(rep.log.tags),
        ply=ply,
        move=rep.log.moves[ply - 1] if ply > 0 else None,
        to_move=None if to_move is None else rep.players[to_move],
        viewer=None if viewer is None else rep.players[viewer],
        view=game.view(state, viewer),
        legal=legal,
        standing=game.standing(state),
        result=ended if ended is not None else game.outcome(state),
        proposal=rep.pending.words() if last and rep.pending is not None else None,
        answer_by=answer_by,
        since=list(narrating.since(rep, viewer)) if since and viewer is not None else [],
        said=None if before is None or ply == 0 else
        narrating.said(game, rep.log, ply - 1, before, state, viewer) or None,
    )


class Shown(msgspec.Struct, frozen=True):
    """A position of a log (``show``): the game, the log replayed and the position."""

    game: GameSpec
    log: Log
    position: Position


def show(log: Log, secret: Secret | None = None, *, as_player: str | None = None,
         public: bool = False, at: int | None = None, ignore_rest: bool = False) -> Shown:
    """The position after ``at`` moves (the last by default) as ``as_player``
    sees it; without a player, as the player to move sees it, or with
    ``public`` as everybody does. The whole log must be valid, unless
    ``ignore_rest`` (with ``at``: to audit a disputed log)."""
    as_player = as_named(log.players, as_player)
    data = signing.unlock(log, secret)
    if at is not None and not 0 <= at <= len(data.moves):
        raise UsageError(f"--at {at}: the log has moves 0 to {len(data.moves)}")
    if ignore_rest and at is None:
        raise UsageError("--ignore-rest needs --at N")
    # What happened since a player's last move is told to a named player (a
    # plain show stays as cheap as it starts: it is the command run most).
    since = as_player is not None
    if at is None:
        rep = replaying.validate(data, keep=since)
    else:
        if not ignore_rest:
            replaying.validate(data)
        rep = replaying.replay(data, upto=at, keep=since)
    viewer = seat(rep, as_player)
    ply = len(data.moves) if at is None else at
    default = as_player is None and not public
    # The state before the last move, to tell what it did (on the fast path).
    before = replaying.replay(data, upto=ply - 1).state if ply and not since else None
    return Shown(rep.game, data, position(rep, rep.state, ply, viewer, default, since=since,
                                          before=before))


# --- a refereed game whose seed is secret, as anyone may see it -------------------------------


def sealed(log: Log, secret: Secret | None = None) -> bool:
    """Whether ``log`` is a refereed game whose seed is still secret to the
    one looking (no ``secret`` file): its positions cannot be replayed, and
    what anyone may see of it is :func:`spectate`'s."""
    return log.refereed and log.seed is None and secret is None


class Spectated(msgspec.Struct, frozen=True):
    """A refereed game whose seed is still secret, as anyone may see it: the
    public log (checked as far as it can be without the seed: the header,
    the digest chain and the signatures) and how many of its moves are shown.

    The positions depend on the hidden deal, so there is no board, turn or
    score to show: only the header, the moves as recorded, with who made
    them, and the result once the referee has signed one.
    """

    game: GameSpec
    log: Log
    ply: int
    #: Whether the referee's signature vouches for the moves and the result
    #: (a refereed log of version 1 carries none).
    signed: bool


def spectate(log: Log, *, as_player: str | None = None, at: int | None = None,
             ignore_rest: bool = False) -> Spectated:
    """The public view of a refereed game whose seed is secret
    (:func:`sealed`), after ``at`` moves (all by default). A player's own
    view needs their hidden cards: ``as_player`` is refused, in one line that
    says where that view is. The whole log must check, unless
    ``ignore_rest`` (with ``at``): then its header and the chain up to ``at``."""
    if ignore_rest and at is None:
        raise UsageError("--ignore-rest needs --at N")
    if at is not None and not 0 <= at <= len(log.moves):
        raise UsageError(f"--at {at}: the log has moves 0 to {len(log.moves)}")
    as_player = as_named(log.players, as_player)
    if as_player is not None:
        if as_player not in log.players:
            raise UsageError(f"--as {as_player!r}: no such player (players: {', '.join(log.players)})")
        raise AdjudicatorError(
            f"--as {as_player}: what {as_player} sees needs the hidden cards, and this "
            f"refereed game's seed is secret: {as_player} reads the view file the referee "
            "sent (the referee adds --secret FILE); without either, --public shows the moves")
    ply = len(log.moves) if at is None else at
    if ignore_rest:
        game = starting.check_header(log)
        check_chain(msgspec.structs.replace(log, moves=log.moves[:ply]))
    else:
        replaying.check_public(log)
        game = starting.check_header(log)
    return Spectated(game, log, ply, log.referee is not None)


def sealed_json() -> AdjudicatorError:
    """The refusal of ``--json`` on a game that can only be spectated."""
    return AdjudicatorError(
        "--json: a position of this refereed game needs its secret seed; everything public "
        "is in the log itself, which is JSON (adjudicator convert LOG --to json)")


def replay_positions(log: Log, as_player: str | None = None) -> tuple[GameSpec, list[Position]]:
    """Every position of a valid log, from the start, as ``as_player`` sees
    it (by default as each position's player to move does)."""
    rep = replaying.validate(log, keep=True)
    viewer = seat(rep, as_player)
    return rep.game, [position(rep, state, ply, viewer, as_player is None)
                      for ply, state in enumerate(rep.states)]


def legal(got: Found, name: str, secret_path: str | None = None) -> tuple[str | None, list[str]]:
    """The player to move and their legal moves (none once the game is over),
    from a log (the secret file at ``secret_path`` unlocks a refereed one)
    or from the view file of the player to move."""
    player, told = explain(got, name, secret_path, words=False)
    return player, [move for move, _ in told]


def explain(got: Found, name: str, secret_path: str | None = None,
            words: bool = True) -> tuple[str | None, list[tuple[str, str]]]:
    """:func:`legal` with what each move would do, in the rule text's words
    (``legal --explain``), told from the view of the player to move."""
    from . import referee
    value = got.value
    if isinstance(value, ViewFile):
        seen = referee.check_view(value, name)
        if value.legal is None and value.to_move is not None:
            raise AdjudicatorError(f"{name}: it is {value.to_move}'s turn, not {value.player}'s")
        moves = list(value.legal or ())
        if not words:
            return value.to_move, [(m, "") for m in moves]
        from . import games

        try:
            return value.to_move, narrating.explained(games.get(value.log.game), seen, moves)
        except (KeyError, IndexError, ValueError, TypeError, AttributeError):
            raise BadLogError(f"{name}: its view does not describe the position of its "
                              "legal moves") from None
    rep = replaying.validate(signing.unlock(value, read_secret(secret_path)))
    moves = list(rep.legal())
    mover = rep.seat()
    if not words or mover is None:
        return rep.to_move(), [(m, "") for m in moves]
    return rep.to_move(), narrating.explained(rep.game, rep.game.view(rep.state, mover), moves)


def picture(log: Log, secret_path: str | None = None, *, as_player: str | None = None,
            public: bool = False, at: int | None = None) -> tuple[Scene, str]:
    """The scene and the SVG picture of a position of a valid log, drawn from
    the same view as :func:`show`."""
    from . import drawing

    if as_player is not None and public:
        raise UsageError("give --as PLAYER or --public, not both")
    secret = read_secret(secret_path)
    if sealed(log, secret):
        seen = spectate(log, as_player=as_player, at=at)
        return drawing.unseen(seen.game, seen.log, seen.ply)
    data = signing.unlock(log, secret)
    if at is not None and not 0 <= at <= len(data.moves):
        raise UsageError(f"--at {at}: the log has moves 0 to {len(data.moves)}")
    replaying.validate(data)
    ply = len(data.moves) if at is None else at
    rep = replaying.replay(data, upto=ply)
    viewer = seat(rep, as_player) if as_player is not None else (None if public else rep.seat())
    entry = data.moves[ply - 1] if ply else None
    scene = drawing.scene(rep.game, rep.players, rep.state, ply,
                          None if entry is None else (entry.by, entry.move), viewer, rep.ended)
    return scene, rep.game.draw(rep.game.view(rep.state, viewer), scene)


# --- starting a game ----------------------------------------------------------------------------


def players_of(text: str) -> list[str]:
    """Player names from a comma-separated list."""
    return [p.strip() for p in text.split(",") if p.strip()]


def params_of(pairs: Sequence[str]) -> dict[str, str]:
    """Game parameters from ``KEY=VALUE`` pairs (``--param``)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value
    return out


def tags_of(pairs: Sequence[str]) -> dict[str, str]:
    """Tags from ``KEY=VALUE`` pairs (``--tag``)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--tag {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def keys_of(pairs: Sequence[str]) -> dict[str, str]:
    """Players' public keys from ``PLAYER=KEY`` pairs (``--key``): KEY is a
    public key or a key file."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise UsageError(f"--key {pair!r}: write it as PLAYER=KEY (a public key or a key file)")
        value = value.strip()
        if not value.startswith("ed25519:"):
            value = logmod.decode_key(files.read(value), value).public
        out[name.strip()] = value
    return out


class Started(msgspec.Struct, frozen=True):
    """A new game: its log (and, refereed, the secret written next to it),
    and the player to move first (None when the log went nowhere yet)."""

    log: Log
    secret: Secret | None
    secret_path: str | None
    to_move: str | None


def new_game(game: str, players: str, seed: str | None, params: Sequence[str] = (),
             keys: Sequence[str] = (), tags: Sequence[str] = (), *, clock: bool = False,
             deadline: int | None = None, output: str | None = None, refereed: bool = False,
             secret_path: str | None = None, replace: bool = False,
             time: str | None = None, deal: str | None = None, words: str | None = None,
             referee_key: str | None = None) -> Started:
    """Start a game (players comma-separated; parameters, keys and tags as
    ``KEY=VALUE`` pairs) and write its log to ``output`` when given. A
    refereed game keeps its seed secret: the log holds a commitment, and the
    secret goes to ``secret_path`` (by default next to the log,
    NAME.secret.json), readable by its owner alone. ``time`` is a time
    control in its command-line form (:func:`adjudicator.clock.parse`).
    ``deal`` and ``words`` name the players who contribute to the deal
    (comma-separated, or ``all``), with the tool or in words by mail;
    ``referee_key`` is the key file of the referee's long-term key."""
    from . import clock as clocks

    control = None if time is None else clocks.parse(time)
    if not refereed:
        if secret_path is not None:
            raise UsageError("--secret FILE goes with --referee")
        if deal is not None or words is not None or referee_key is not None:
            raise UsageError("--deal, --deal-words and --referee-key go with --referee")
        log = starting.new_log(game, players_of(players), seed, params_of(params), keys_of(keys),
                            tags=tags_of(tags), clock=clock, deadline=deadline, time=control)
        if output is None:
            return Started(log, None, None, None)
        files.write(output, logmod.encode(log), replace=replace)
        return Started(log, None, None, replaying.replay(log).to_move())
    if output is None:
        raise UsageError("--referee needs -o FILE: the log and the secret are two files")
    secret_path = secret_path or str(Path(output).with_suffix("")) + ".secret.json"
    names = players_of(players)

    def listed(text: str | None) -> list[str]:
        if text is None:
            return []
        return list(names) if text.strip().lower() == "all" else players_of(text)

    log, secret = starting.new_refereed(game, names, seed, params_of(params),
                                     keys_of(keys), tags=tags_of(tags), clock=clock,
                                     deadline=deadline, time=control, deal=listed(deal),
                                     words=listed(words), signing_key=private_key(referee_key))
    files.write(secret_path, logmod.encode(secret), replace=replace, private=True)
    files.write(output, logmod.encode(log), replace=replace)
    to_move = None if log.deal else replaying.replay(signing.unlock(log, secret)).to_move()
    return Started(log, secret, secret_path, to_move)


def simulate(game: str, players: str, seed: str | None, params: Sequence[str] = (), *,
             play_seed: str | None = None, max_moves: int | None = None,
             bots: str | None = None) -> Log:
    """A game of random legal moves (self-play), or played by the bots
    ``bots`` (one level for every seat, or one per seat, comma-separated);
    a random seed when none is given."""
    from . import selfplay
    from secrets import token_hex

    names = players_of(players)
    seed = token_hex(8) if seed is None else seed
    if bots is None:
        return selfplay.simulate(game, names, seed, params_of(params), play_seed=play_seed,
                              max_moves=max_moves)
    from . import bots as players_
    from .selfplay import bot_game

    levels = [level.strip() for level in bots.split(",")]
    if len(levels) == 1:
        levels *= len(names)
    if len(levels) != len(names):
        raise UsageError(f"--bot: {len(levels)} levels for {len(names)} players "
                         "(give one for all, or one per player)")
    seats = [players_.get(level) for level in levels]
    log, _ = bot_game(game, names, seed, seats, params_of(params), play_seed=play_seed,
                      max_moves=max_moves)
    return log


def hint(got: Found, name: str, as_player: str | None = None, secret_path: str | None = None,
         *, level: str = "standard", seconds: float | None = None,
         seed: str = "hint") -> tuple[GameSpec, str, int, Any, Any]:
    """What a bot thinks of the moves of the player to move: the game, the
    player, the move number, the bot's :class:`adjudicator.bots.Decision`
    (its moves ranked) and the player's view (to say the moves in words). From a log (open, or refereed with its secret) or from the view
    file of the player to move; ``seconds`` sets a search's budget in CPU
    seconds instead of ``level``."""
    from . import bots, games, referee

    bot = bots.get(f"search:{seconds}s" if seconds is not None else level)
    value = got.value
    as_player = as_named(value.log.players if isinstance(value, ViewFile) else value.players,
                      as_player)
    if isinstance(value, ViewFile):
        view = referee.check_view(value, name)
        if value.legal is None or value.to_move != value.player:
            raise AdjudicatorError(f"{name}: it is {value.to_move or 'nobody'}'s turn, "
                                   f"not {value.player}'s: there is nothing to hint")
        if as_player is not None and as_player != value.player:
            raise UsageError(f"--as {as_player!r}: this view file is {value.player}'s")
        game = games.get(value.log.game)
        players = value.log.players
        position = bots.Position(game, value.log.params, players, players.index(value.player),
                                 view, tuple(value.legal), seed)
        return game, value.player, len(value.log.moves) + 1, bots.ask(bot, position), view
    rep = replaying.validate(signing.unlock(value, read_secret(secret_path)))
    mover = rep.seat()
    if mover is None:
        raise AdjudicatorError(f"{name}: the game is over: there is nothing to hint")
    if as_player is not None and seat(rep, as_player) != mover:
        raise AdjudicatorError(f"it is {rep.players[mover]}'s move, not {as_player}'s: "
                               "a hint is for the player to move")
    view = rep.game.view(rep.state, mover)
    position = bots.Position(rep.game, rep.log.params, rep.players, mover, view, rep.legal(),
                             seed)
    return rep.game, rep.players[mover], len(rep.log.moves) + 1, bots.ask(bot, position), view


# --- recording moves ----------------------------------------------------------------------------


class Recorded(msgspec.Struct, frozen=True):
    """Moves or an event recorded in a log file (:func:`record`).

    ``output`` is the new log when it goes to standard output instead of a
    file (then nothing else was done). Otherwise the file was replaced;
    ``taken`` is what the referee took from a view file, ``reply`` the file
    the player's next view file was written to, and ``position`` the
    position now, as the last mover sees it (the public view to a referee).
    ``said`` tells, one line per entry added, what it did in words, as typed
    (a Turn of Time card placed on one face and flipped at once is told so).
    """

    log: Log
    added: tuple[MoveEntry, ...]
    output: bytes | None
    taken: referee.Taken | None = None
    reply: str | None = None
    game: GameSpec | None = None
    position: Position | None = None
    said: tuple[str, ...] = ()


def _said(log: Log, start: int, typed: Sequence[str], viewer: int | None) -> tuple[str, ...]:
    """What the entries of ``log`` from ``start`` on did, in words, as seat
    ``viewer`` sees it (``None``: everyone): ``FaSp-d5: <words>``. Told from
    the move as typed (``typed``, one per entry, or empty) where it reads
    otherwise than its canonical form says, so a card placed Spring up and
    flipped to Fall at once is told as placed, then flipped."""
    from .errors import MoveError

    first = replaying.replay(log, upto=start)
    game, after = first.game, first.state
    out = []
    for i in range(start, len(log.moves)):
        before, after = after, replaying.replay(log, upto=i + 1).state
        entry = log.moves[i]
        words = narrating.said(game, log, i, before, after, viewer)
        text = typed[i - start].strip() if len(typed) == len(log.moves) - start else ""
        if text and text != entry.move and entry.move[:1] != "@" and entry.by in log.players:
            try:
                words = game.narrate(game.view(before, viewer), game.view(after, viewer),
                                     log.players.index(entry.by), text)
            except (MoveError, KeyError, IndexError, ValueError, TypeError, AttributeError):
                pass  # told from the canonical form
        out.append(f"{entry.move}: {words}" if words else entry.move)
    return tuple(out)


def record(path: str, raw: bytes, got: Found, moves: Sequence[str], *,
           as_player: str | None = None, comment: str | None = None, expect: int | None = None,
           key_path: str | None = None, secret_path: str | None = None,
           from_: str | None = None, reply: str | None = None) -> Recorded:
    """Record moves or an event in the log file ``path`` (``raw``: its bytes
    as read): checked, signed where the log is, written under a lock.

    An open game is extended by anyone (``as_player`` refuses a move that is
    not theirs); a refereed one only by its referee, with the secret file
    at ``secret_path``, from the moves given or from a player's view file
    (``from_``, its queued moves after it; ``reply``: where to write that
    player's next view file). ``key_path`` is a player's key file;
    ``expect`` the number of moves the log must hold. Files are read only
    once the checks before them pass. Behind extend, resign, propose, accept and reject.
    """
    from . import recording, referee
    stored = log_of(path, got)
    as_player = as_named(stored.players, as_player)
    form = "json" if path == "-" else got.form
    if form == "mail":
        encoded(stored, form, path)  # refuses, saying how to go on
    if expect is not None and expect != len(stored.moves):
        raise AdjudicatorError(
            f"{source(path)}: holds {counted(len(stored.moves), 'move')}, not {expect} (--expect): "
            "the moves answer another position; nothing recorded"
        )
    key_text = private_key(key_path)
    taken: referee.Taken | None = None
    from_form = "json"
    secret_file: Secret | None = None
    if stored.refereed:
        if secret_path is None:
            raise UsageError(
                "a refereed game is extended by its referee, with --secret FILE; "
                "a player records their move in the view file the referee sent"
            )
        secret_file = read_secret(secret_path)
        assert secret_file is not None
        if from_ is not None:
            if moves:
                raise UsageError("give either moves or --from VIEWFILE, not both")
            sent = found(from_)
            vf, from_form = sent.value, sent.form
            if not isinstance(vf, ViewFile):
                raise AdjudicatorError(f"{from_}: holds a log, not a view file")
            if as_player is not None and as_player != vf.player:
                raise UsageError(f"--as {as_player!r}: the view file is {vf.player}'s")
            taken = referee.take(stored, secret_file, vf, from_)
            new_log = taken.log
        else:
            new_log = referee.record(stored, secret_file, list(moves), as_player=as_player,
                                     comment=comment, player_key=key_text)
        data = signing.unlock(stored, secret_file)
        replayable = signing.unlock(new_log, secret_file)
    else:
        if from_ is not None:
            raise UsageError("--from VIEWFILE goes with a refereed game")
        if secret_path is not None:
            raise UsageError("--secret goes with a refereed game; this one is open")
        data = stored
        new_log = replayable = recording.extend(stored, list(moves), as_player=as_player,
                                            comment=comment, player_key=key_text)
    added = new_log.moves[len(data.moves):]
    out = encoded(new_log, form, path)
    if path == "-":
        return Recorded(new_log, added, out)
    files.update(path, raw, out)
    if taken is not None and reply is not None:
        answer = referee.issue_view(new_log, secret_file, taken.player, taken.notes())
        # The answer goes back the way the file came: a pasted text form gets one.
        # A view file holds its player's hand: theirs alone to read.
        files.write(reply, encoded(answer, "json" if from_form == "json" else "text", reply),
                    private=True)
    rep = replaying.replay(replayable)
    last = new_log.moves[-1].by
    # The referee's terminal shows what everyone may see, never a hand.
    viewer = None if stored.refereed or last not in rep.players else rep.players.index(last)
    said = _said(replayable, len(data.moves), moves if from_ is None else (), viewer)
    return Recorded(new_log, added, None, taken, reply if taken is not None else None, rep.game,
                    position(rep, rep.state, len(new_log.moves), viewer, False), said)


class Chosen(msgspec.Struct, frozen=True):
    """A player's move recorded in their view file (:func:`extend_view`);
    ``output`` is the file for standard output instead (then nothing was written)."""

    view: ViewFile
    output: bytes | None


def extend_view(path: str, raw: bytes, vf: ViewFile, form: str, moves: Sequence[str], *,
                as_player: str | None = None, comment: str | None = None,
                key: str | None = None, expect: int | None = None) -> Chosen:
    """A player records their move in their view file ``path`` (checked
    against its legal list; further moves are queued for the referee).
    ``key`` is the player's private key, if they sign."""
    from . import referee
    as_player = as_named(vf.log.players, as_player)
    if as_player is not None and as_player != vf.player:
        raise UsageError(f"--as {as_player!r}: this view file is {vf.player}'s")
    if expect is not None and expect != len(vf.log.moves):
        raise AdjudicatorError(f"{source(path)}: made after move {len(vf.log.moves)}, "
                               f"not {expect} (--expect); nothing recorded")
    updated = referee.choose(vf, list(moves), comment, key, source(path))
    out = encoded(updated, "json" if path == "-" else form, path)
    if path == "-":
        return Chosen(updated, out)
    files.update(path, raw, out, what="recording the move")
    return Chosen(updated, None)


def event_in_view(path: str, raw: bytes, vf: ViewFile, form: str, event: str, *,
                  as_player: str | None = None, comment: str | None = None,
                  key: str | None = None, expect: int | None = None) -> Chosen:
    """A player records an event (a resignation, a proposal, an answer) in
    their view file ``path``, signed with ``key`` if they sign, for the
    referee to record as it is (:func:`referee.take_event`)."""
    from . import referee
    as_player = as_named(vf.log.players, as_player)
    if as_player is not None and as_player != vf.player:
        raise UsageError(f"--as {as_player!r}: this view file is {vf.player}'s")
    if expect is not None and expect != len(vf.log.moves):
        raise AdjudicatorError(f"{source(path)}: made after move {len(vf.log.moves)}, "
                               f"not {expect} (--expect); nothing recorded")
    updated = referee.choose_event(vf, event, comment, key, source(path))
    out = encoded(updated, "json" if path == "-" else form, path)
    if path == "-":
        return Chosen(updated, out)
    files.update(path, raw, out, what="recording the event")
    return Chosen(updated, None)


# --- checking logs ------------------------------------------------------------------------------


def validate_one(source: Source, secret: Secret | None = None,
                 trust: pinning.Trust | None = None, *, witness: bool = False) -> tuple[Checked, str]:
    """One log checked: ``source`` names it (and holds its bytes when already
    read: standard input, an archive member); ``secret`` is the referee's
    secret, if any. Gives its report entry and the line that says it. A
    refereed game whose seed is secret has its header, chain and referee's
    signature checked, and its moves wait for the reveal. ``trust`` holds
    its referee to the one the user expects (:mod:`adjudicator.pinning`),
    and (``witness``) a refereed game to the copy of it seen here before
    (:func:`forks.witness`). A line to tell the user (a referee trusted on
    first use, an older copy) follows the line, as ``Note: ...``
    (:func:`with_note`). (Module level: it runs in worker processes.)"""
    from . import forks, pinning
    from .outputs import error_info

    path = source.label
    entry: dict[str, Any] = {"file": path, "valid": False, "game": None, "moves": None,
                             "to_move": None, "result": None, "unchecked": None, "error": None}
    try:
        stored = source_log(source)
        data = signing.unlock(stored, secret) if stored.refereed else stored
        entry.update(game=data.game, moves=len(data.moves))
        if data.seed is None:
            replaying.check_public(data)
            if data.referee is None:
                raise BadLogError(
                    "a refereed log of version 1 carries no referee signature: nothing in "
                    "it can be checked until the referee reveals the seed")
            entry.update(valid=True, result=data.result,
                         unchecked="the legality of the moves and the result: the seed is secret")
            note = pinning.check(stored, trust)  # once the log is found sound
            line = (f"ok {path}: {data.game}, {counted(len(data.moves), 'move')}, refereed: signed "
                    "by its referee (header, moves and result as the referee wrote "
                    "them); their legality is checked once the seed is revealed")
        else:
            rep = replaying.validate(data)
            note = pinning.check(stored, trust)
            entry.update(valid=True, result=data.result, to_move=rep.to_move())
            state = (f"over, {replaying.describe(data.result)}" if data.result is not None
                     else f"in progress, {entry['to_move']} to move")
            line = one_line(f"ok {path}: {data.game}, {counted(len(data.moves), 'move')}, {state}")
        if witness and stored.refereed:
            note = forks.witness(stored) or note
        line = with_note(line, note)
    except AdjudicatorError as e:
        entry["error"], entry["valid"] = error_info(e), False
        line = named(path, e)
    return Checked(**entry), line


def with_note(line: str, note: str | None) -> str:
    """A log's line (:func:`validate_one`, :func:`audit_one`), and the note
    to tell the user about it, if any, on a line of its own: ``Note: ...``."""
    return line if note is None else f"{line}\n{one_line(f'Note: {note}')}"


def source_log(source: Source) -> Log:
    """The log of one of many inputs (:mod:`adjudicator.bulk`); raises what
    keeps it from being read."""
    failure = source.failure()
    if failure is not None:
        raise failure
    return read_log(source.label, source.data)


def named(path: str, e: AdjudicatorError) -> str:
    """The line that says ``e`` about the log at ``path``, starting with its name."""
    text = str(e)
    return one_line(text if text.startswith((f"{path}:", "stdin:")) else f"{path}: {text}")


def validate_logs(inputs: bulk.Inputs, secret: Secret | None = None, *,
                  jobs: int | None = None, trust: pinning.Trust | None = None,
                  witness: bool = False) -> Iterator[tuple[Checked, str]]:
    """Every log of ``inputs`` checked (:func:`validate_one`), in order, each
    as soon as it is ready; many are checked in ``jobs`` processes (default:
    one per core), in bounded memory (:func:`adjudicator.bulk.ordered`)."""
    from . import bulk
    return bulk.ordered(partial(validate_one, secret=secret, trust=trust, witness=witness), inputs,
                        jobs=jobs,
                        early=inputs.expanded)


def validate_files(paths: Sequence[str], secret: Secret | None = None, *, jobs: int | None = None,
                   progress: Callable[[Iterable[tuple[Checked, str]], int], Iterable[tuple[Checked, str]]]
                   | None = None) -> list[tuple[Checked, str]]:
    """Every log of ``paths`` (files, directories, archives) checked, in the
    order given, as a list (:func:`validate_logs` gives them as they come).
    ``progress`` wraps the results as they come, given the number of paths."""
    from . import bulk
    results = validate_logs(bulk.Inputs(paths), secret, jobs=jobs)
    return list(results if progress is None else progress(results, len(paths)))


def audit_one(source: Source, secret: Secret | None = None,
              trust: pinning.Trust | None = None) -> tuple[Audited, str]:
    """One log audited (:func:`match.audit`) as one of many: its report
    entry and a line, ``ok NAME: audit passed`` (``passed so far`` before
    a refereed game's reveal) or the first check that fails. (Module
    level: it runs in worker processes.)"""
    from .outputs import AuditItem, error_info

    try:
        report, note = audit_log(source_log(source), secret, trust)
    except AdjudicatorError as e:
        return (Audited(file=source.label, passed=False, items=[], error=error_info(e)),
                named(source.label, e))
    items = [AuditItem(what=i.what, ok=i.ok, text=i.text, status=i.status)
             for i in report.items]
    if report.status == "failed":
        failed = next(i for i in report.items if i.status == "failed")
        line = one_line(f"{source.label}: audit failed: {failed.what}: {failed.text}")
    elif report.status == "pending":
        line = one_line(f"ok {source.label}: audit passed so far (the seed is not yet revealed)")
    else:
        line = one_line(f"ok {source.label}: audit passed")
    line = with_note(line, note)
    return (Audited(file=source.label, passed=report.passed, items=items, error=None,
                    status=report.status), line)


def audit_logs(inputs: bulk.Inputs, secret: Secret | None = None, *,
               jobs: int | None = None,
               trust: pinning.Trust | None = None) -> Iterator[tuple[Audited, str]]:
    """Every log of ``inputs`` audited (:func:`audit_one`), in order, as
    :func:`validate_logs` checks them."""
    from . import bulk
    return bulk.ordered(partial(audit_one, secret=secret, trust=trust), inputs, jobs=jobs,
                        early=inputs.expanded)


def audit_log(log: Log, secret: Secret | None = None, trust: pinning.Trust | None = None,
              views: Sequence[str] = (), *,
              witness: bool = False) -> tuple[auditing.AuditReport, str | None]:
    """:func:`match.audit`, with the view files at the paths ``views``
    checked against the log, and two checks first: the referee is the one
    the user expects (``trust``), and (``witness``) this copy extends the
    copy of the game seen here before (:func:`forks.witness`). Gives the
    report and a line to tell the user (a referee trusted on first use, an
    older copy), if any."""
    from . import auditing, forks, pinning
    from .auditing import report_of

    kept = [(source(p), _view_of(p)) for p in views]
    report = auditing.audit(log, secret, kept)
    items = list(report.items)
    note = None
    try:
        note = pinning.check(log, trust, remember=report.status != "failed")
        if log.referee is not None and trust is not None and (
                trust.expected or trust.name or log.tags.get("event") in trust.known):
            items.insert(1, auditing.AuditItem("referee", True, note or "signed by the referee you "
                                                                "expect"))
    except BadLogError as e:
        items.insert(1, auditing.AuditItem("referee", False, str(e), "failed"))
    if witness and all(i.status != "failed" for i in items):
        try:
            note = forks.witness(log) or note
        except BadLogError as e:
            items.append(auditing.AuditItem("history", False, str(e), "failed"))
    return report_of(items), note


def _view_of(path: str) -> ViewFile:
    """The view file at ``path`` (``audit --views``)."""
    value = found(path).value
    if not isinstance(value, ViewFile):
        raise AdjudicatorError(f"{source(path)}: not a view file")
    return value


def compare_files(a: str, b: str) -> auditing.Comparison:
    """Two copies of a log compared (``diff``)."""
    from . import auditing
    return auditing.compare(read_log(a), read_log(b), source(a), source(b))


# --- the referee's files ------------------------------------------------------------------------


def reveal(path: str, secret_path: str) -> bytes | None:
    """Publish the seed of a refereed game in its log file, from the secret
    file at ``secret_path``, in the form the file came in (checked first);
    for standard input, the new log to print."""
    raw = files.read(path)
    got = found(path, raw)
    stored = log_of(path, got)
    form = "json" if path == "-" else got.form
    if stored.seed is not None:
        raise AdjudicatorError(f"{source(path)}: the seed is already in the log")
    secret = read_secret(secret_path)
    assert secret is not None
    revealed = signing.reveal(stored, secret)
    replaying.validate(revealed)
    out = encoded(revealed, form, path)
    if path == "-":
        return out
    files.update(path, raw, out, what="revealing the seed")
    return None


def view_file(path: str, secret_path: str | None, player: str, form: str) -> tuple[ViewFile, bytes]:
    """``player``'s view file of the log in ``path`` (the secret file at
    ``secret_path`` unlocks a refereed one), and its bytes in ``form``
    (``json``, or ``text`` to paste into a mail body)."""
    from . import referee
    stored = read_log(path)
    vf = referee.issue_view(stored, read_secret(secret_path), player)
    return vf, encoded(vf, form, path)
