"""The command line: a thin adapter over :mod:`adjudicator.match`.

Every project error is caught in one place (:class:`_Group`) and printed as one
``Error: ...`` line on stderr with exit status 1; usage errors are Typer's
(exit status 2). No command knows any particular game.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, Optional

import msgspec
import typer
from typer.core import TyperCommand, TyperGroup

from . import files, games, log as logmod, match, present, quickargs, referee as referee_
from .engine import Game, Style
from .errors import AdjudicatorError, BadLogError, UsageError, one_line
from .log import VIEW_FORMAT, Log, Secret, ViewFile
from .present import fold as _fold, render as _render, safe as _safe, score_lines as _score_lines
from .present import wrap as _wrap


def _print_since(lines: Sequence[str], viewer: str | None, style: Style,
                 heading: str = "Since your last move") -> None:
    for line in present.since_lines(lines, viewer, style, heading):
        typer.echo(line)


def _show_view(vf: ViewFile, json_: bool, style: Style, source: str = "view file") -> None:
    if json_:
        referee_.check_view(vf, source)
        _json(vf)
        return
    typer.echo(present.view_file_text(vf, style, source))


@contextmanager
def _reported() -> Iterator[None]:
    """Every :class:`AdjudicatorError` as one line and exit status 1 (a
    :class:`UsageError` of ours, 2)."""
    try:
        yield
    except UsageError as e:
        typer.echo(f"Error: {one_line(str(e))}", err=True)
        raise typer.Exit(2) from None
    except AdjudicatorError as e:
        typer.echo(f"Error: {one_line(str(e))}", err=True)
        raise typer.Exit(1) from None


class _Group(TyperGroup):
    """Turns every :class:`AdjudicatorError` into one line and exit status 1."""

    def invoke(self, ctx: Any) -> Any:
        with _reported():
            return super().invoke(ctx)


app = typer.Typer(
    cls=_Group,
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help=(
        "Referee for tabletop games played by email: start a game log, show the "
        "board and the legal moves, extend the log with moves, replay and validate "
        "it.\n\n\b\nExample: adjudicator new turn-of-time --players ann,bob,cy --seed 7 -o game.json"
    ),
)

# --- shared options ----------------------------------------------------------------------

LogArg = Annotated[str, typer.Argument(help="A game log file, or - for stdin.", show_default=False)]
AsOpt = Annotated[
    Optional[str],
    typer.Option("--as", metavar="PLAYER", help="See the game as this player sees it."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for programs instead of text.")]
SecretOpt = Annotated[
    Optional[str],
    typer.Option("--secret", metavar="FILE", help="The referee's secret file of a refereed game."),
]
AsciiOpt = Annotated[
    bool, typer.Option("--ascii", help="Draw with plain ASCII (safe in any mail client).")
]
DetailsOpt = Annotated[
    bool, typer.Option("--details", help="Spell out how every score and tie-break came about.")
]


def _style(ascii_: bool) -> Style:
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return Style(unicode=not (ascii_ or _ASCII_ONLY), color=color and not ascii_)


def _bytes(path: str) -> bytes:
    return files.read(path)


#: Set when standard output cannot take the Unicode drawing: draw in ASCII.
_ASCII_ONLY = False


def _name(path: str) -> str:
    return "stdin" if path == "-" else path


def _found(path: str, data: bytes | None = None) -> tuple[Log | ViewFile, str]:
    """The log or view file in ``path`` and the form it came in: ``json``,
    ``text`` (a file holding just the text form) or ``mail`` (a message, a
    pasted body: anything else the text form or JSON was found in)."""
    data = _bytes(path) if data is None else data
    name = _name(path)
    if logmod.text_of(data, name).lstrip()[:1] in ("{", "["):
        # JSON is read strictly, and without loading the mail reader.
        kind = logmod.kind_of(data)
        if kind == VIEW_FORMAT:
            return logmod.decode_view(data, name), "json"
        if kind not in (None, logmod.FORMAT):
            raise BadLogError(f"{name}: a file of format {kind!r}, not a log or a view file")
        return logmod.decode(data, name), "json"
    from . import mailparse

    found = mailparse.extract_found(data, name)
    text = logmod.text_of(data, name).strip()
    whole = (found.form == "text" and text.startswith("-----BEGIN ADJUDICATOR")
             and text.endswith("-----") and found.depth == 0)
    return found.value, "text" if whole else "mail"


def _encoded(value: Log | ViewFile, form: str, path: str) -> bytes:
    """``value`` written in the form its file came in."""
    if form == "json":
        return logmod.encode(value)
    if form == "text":
        from . import textform

        return textform.dumps(value).encode("ascii")
    raise AdjudicatorError(
        f"{_name(path)}: the game is inside a mail message or other text, which is not "
        f"rewritten: save it first (adjudicator convert {_name(path)} -o game.json) and use that"
    )


def _read(path: str, data: bytes | None = None) -> Log:
    """The log in ``path`` (or in ``data``, its bytes already read): JSON, the
    text form, or a mail holding either."""
    return _log_of(path, _found(path, data))


def _log_of(path: str, found: tuple[Log | ViewFile, str]) -> Log:
    if isinstance(found[0], ViewFile):
        raise AdjudicatorError(
            f"{_name(path)} is a view file: use 'adjudicator show' or 'adjudicator extend' on it"
        )
    return found[0]


def _secret(path: str | None) -> Secret | None:
    return None if path is None else logmod.decode_secret(_bytes(path), path)


def _unlocked(path: str, secret: str | None, data: bytes | None = None) -> tuple[Log, Log]:
    """The log as stored, and as it can be replayed (the seed from ``secret``)."""
    stored = _read(path, data)
    return stored, match.unlock(stored, _secret(secret))


def _write(path: str, data: bytes, *, replace: bool = True, private: bool = False) -> None:
    files.write(path, data, replace=replace, private=private)


def _emit(log: Log, output: str | None, force: bool) -> bool:
    """Write ``log`` to ``output`` (True) or, without one, to stdout alone (False)."""
    data = logmod.encode(log)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return False
    _write(output, data, replace=force)
    return True


def _players(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _params(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--param {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value
    return out


def _tags(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--tag {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def _keys(pairs: list[str]) -> dict[str, str]:
    """``PLAYER=KEY`` pairs: KEY is a public key or a key file."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise UsageError(f"--key {pair!r}: write it as PLAYER=KEY (a public key or a key file)")
        value = value.strip()
        if not value.startswith("ed25519:"):
            value = logmod.decode_key(_bytes(value), value).public
        out[name.strip()] = value
    return out


def _private(path: str | None) -> str | None:
    """The private key in a player's key file."""
    return None if path is None else logmod.decode_key(_bytes(path), path).private


def _seat(rep: match.Replay, name: str | None) -> int | None:
    if name is None:
        return None
    if name not in rep.players:
        raise UsageError(f"--as {name!r}: no such player (players: {', '.join(rep.players)})")
    return rep.players.index(name)


def _json(obj: Any) -> None:
    typer.echo(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode())


from .outputs import Position as _Position  # noqa: E402


def _position(rep: match.Replay, state: Any, ply: int, viewer: int | None, default_viewer: bool,
              since: bool = False) -> _Position:
    """One position as seen by ``viewer``; the player to move when ``default_viewer``.
    With ``since`` (a replay that kept its states up to ``ply``), what
    happened since the viewer last moved."""
    game = rep.game
    last = ply == len(rep.log.moves) and state is rep.state
    ended = rep.ended if last else None
    seat = None if ended is not None else game.to_move(state)
    if default_viewer:
        viewer = seat
    legal = None
    if seat is not None and viewer == seat:
        legal = [game.format_move(state, m) for m in game.legal_moves(state)]
    answer_by = None
    if last and seat is not None and rep.log.deadline is not None:
        answer_by = _deadline(rep.log)
    return _Position(
        game=rep.game.ID,
        tags=dict(rep.log.tags),
        ply=ply,
        move=rep.log.moves[ply - 1] if ply > 0 else None,
        to_move=None if seat is None else rep.players[seat],
        viewer=None if viewer is None else rep.players[viewer],
        view=game.view(state, viewer),
        legal=legal,
        standing=game.standing(state),
        result=ended if ended is not None else game.outcome(state),
        proposal=rep.pending.words() if last and rep.pending is not None else None,
        answer_by=answer_by,
        since=list(match.since(rep, viewer)) if since and viewer is not None else [],
    )


def _deadline(log: Log) -> str | None:
    """When the player to move must answer: the last entry's time plus the deadline."""
    from datetime import datetime, timedelta

    since = log.moves[-1].at if log.moves else log.started
    if since is None or log.deadline is None:
        return None
    when = datetime.strptime(since, "%Y-%m-%dT%H:%M:%SZ") + timedelta(hours=log.deadline)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _tag_lines(log: Log, style: Style) -> list[str]:
    if not log.tags:
        return []
    return textwrap.wrap(_safe("  ".join(f"{k}: {v}" for k, v in log.tags.items()), style),
                         width=72, break_on_hyphens=False)


def _print_position(game: Game, pos: _Position, style: Style, total: int,
                    tags: list[str] | None = None, details: bool = False) -> None:
    dot = " · " if style.unicode else " - "
    where = "start" if pos.ply == 0 else f"after move {pos.ply} of {total}"
    seen = f"as seen by {pos.viewer}" if pos.viewer else "public view"
    typer.echo(_fold(dot.join((game.TITLE, where, seen)), style))
    for line in tags or ():
        typer.echo(line)
    _print_since(pos.since, pos.viewer, style)
    if pos.move is not None:
        typer.echo(_fold(f"Last move: {pos.move.by} {pos.move.move}"
                         + (f"  # {pos.move.comment}" if pos.move.comment else ""), style))
    typer.echo(_render(game, pos.view, style, None))
    typer.echo("")
    if pos.result is not None:
        typer.echo("\n".join(_score_lines(pos.result, True, style, details)))
        return
    if pos.proposal is not None:
        typer.echo(_fold(f"Waiting for answers: {pos.proposal} (accept or reject)", style))
    turn = f"To move: {pos.to_move}"
    if pos.answer_by is not None:
        turn += f" (answer by {pos.answer_by})"
    typer.echo(_fold(turn, style))
    if pos.legal is not None:
        typer.echo(f"Legal moves ({len(pos.legal)}):")
        typer.echo(_wrap(pos.legal))
    typer.echo("\n".join(_score_lines(pos.standing, False, style, details)))


# --- commands ---------------------------------------------------------------------------------


@app.command("games")
def list_games(json_: JsonOpt = False) -> None:
    """List the games, their player counts and their parameters with defaults.

    \b
    Example: adjudicator games
    """
    if json_:
        from .outputs import GameInfo, ParamInfo

        kinds = {str: "string", int: "integer", bool: "boolean"}
        _json([
            GameInfo(
                id=g.ID, title=g.TITLE, players=list(g.PLAYERS), rules=getattr(g, "RULES", 1),
                notation=g.NOTATION,
                params=[ParamInfo(name=p.name, type=kinds[p.kind], default=p.default,  # type: ignore[arg-type]
                                  choices=list(p.choices) or None, minimum=p.minimum,
                                  maximum=p.maximum, accepts=p.describe(), applies=p.applies,
                                  help=p.help) for p in g.PARAMS],
            )
            for g in games.GAMES.values()
        ])
        return
    for g in games.GAMES.values():
        counts = ", ".join(str(n) for n in g.PLAYERS)
        typer.echo(f"{g.ID}  {g.TITLE}  (players: {counts}; notation: {g.NOTATION})")
        for p in g.PARAMS:
            typer.echo(f"    --param {p.name}={p.default}   [{p.describe()}; {p.applies}]")
            typer.echo(textwrap.fill(p.help, width=78, initial_indent="        ",
                                     subsequent_indent="        "))



@app.command()
def new(
    game: Annotated[str, typer.Argument(help="The game id, as listed by 'adjudicator games'.")],
    players: Annotated[str, typer.Option("--players", "-p", help="Player names in turn order, comma-separated.")],
    seed: Annotated[Optional[str], typer.Option("--seed", "-s", help="The seed of every shuffle and draw (default: random).")] = None,
    param: Annotated[list[str], typer.Option("--param", "-P", metavar="KEY=VALUE", help="A game parameter; repeat for several.")] = [],  # noqa: B006
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write the log here instead of stdout.")] = None,
    referee: Annotated[bool, typer.Option("--referee", help="A refereed game: the log holds only a commitment to the seed, which goes to a secret file for the referee.")] = False,
    secret: Annotated[Optional[str], typer.Option("--secret", metavar="FILE", help="With --referee: where to write the secret file (default: next to the log, NAME.secret.json).")] = None,
    tag: Annotated[list[str], typer.Option("--tag", "-t", metavar="KEY=VALUE", help="A tag: event, site, round, date or your own; repeat for several.")] = [],  # noqa: B006
    clock: Annotated[bool, typer.Option("--clock", help="Stamp every move with the time it was recorded.")] = False,
    deadline: Annotated[Optional[int], typer.Option("--deadline", metavar="HOURS", min=1, help="Hours a player has for each move (implies --clock); show reports it.")] = None,
    key: Annotated[list[str], typer.Option("--key", "-k", metavar="PLAYER=KEY", help="A player who signs their moves, with their public key (ed25519:...) or key file; repeat for several.")] = [],  # noqa: B006
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Start a new game log.

    With --referee the seed stays secret: the log (-o, required) carries a
    commitment to it, and the secret file, readable by its owner alone, holds
    the seed; the referee keeps it and sends each player a view file.

    \b
    Example: adjudicator new turn-of-time --players ann,bob,cy --seed 7 -o game.json
    """
    if not referee:
        if secret is not None:
            raise UsageError("--secret FILE goes with --referee")
        log = match.new_log(game, _players(players), seed, _params(param), _keys(key),
                            tags=_tags(tag), clock=clock, deadline=deadline)
        if _emit(log, output, force):
            rep = match.replay(log)
            typer.echo(f"Wrote {output}: {log.game} for {', '.join(log.players)}, seed {log.seed}; "
                       f"{rep.to_move()} to move.")
        return
    if output is None:
        raise UsageError("--referee needs -o FILE: the log and the secret are two files")
    secret_path = secret or str(Path(output).with_suffix("")) + ".secret.json"
    log, secret_ = match.new_refereed(game, _players(players), seed, _params(param), _keys(key),
                                      tags=_tags(tag), clock=clock, deadline=deadline)
    _write(secret_path, logmod.encode(secret_), replace=force, private=True)
    _write(output, logmod.encode(log), replace=force)
    rep = match.replay(match.unlock(log, secret_))
    typer.echo(f"Wrote {output} (public: send it to the players) and {secret_path} (the seed and "
               f"signing key: keep it, referee only); {rep.to_move()} to move.")
    typer.echo(f"Referee key: {log.referee} (tell the players: it signs every log)")


@app.command()
def show(
    log: LogArg,
    as_: AsOpt = None,
    public: Annotated[bool, typer.Option("--public", help="Show only what every player may see.")] = False,
    at: Annotated[Optional[int], typer.Option("--at", metavar="N", help="Show the position after N moves (0 is the start).")] = None,
    ignore_rest: Annotated[bool, typer.Option("--ignore-rest", help="With --at: show the position even if later moves or the result are bad (to audit a disputed log).")] = False,
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    ascii_: AsciiOpt = False,
    details: DetailsOpt = False,
) -> None:
    """Show the board, whose turn it is, the legal moves and the score.

    By default the position is shown as the player to move sees it (and with
    their legal moves); once the game is over, as everybody sees it. The whole
    log must be valid, unless --ignore-rest is given with --at. LOG may also be
    a view file from the referee.

    \b
    Example: adjudicator show game.json --as bob --at 5
    """
    raw = _bytes(log)
    value, _ = _found(log, raw)
    if isinstance(value, ViewFile):
        _show_view(value, json_, _style(ascii_), _name(log))
        return
    data = match.unlock(value, _secret(secret))
    if at is not None and not 0 <= at <= len(data.moves):
        raise UsageError(f"--at {at}: the log has moves 0 to {len(data.moves)}")
    if ignore_rest and at is None:
        raise UsageError("--ignore-rest needs --at N")
    # What happened since a player's last move is told to --as PLAYER (a
    # plain show stays as cheap as it starts: it is the command run most).
    since = as_ is not None
    if at is None:
        rep = match.validate(data, keep=since)
    else:
        if not ignore_rest:
            match.validate(data)
        rep = match.replay(data, upto=at, keep=since)
    viewer = _seat(rep, as_)
    default = as_ is None and not public
    ply = len(data.moves) if at is None else at
    pos = _position(rep, rep.state, ply, viewer, default, since=since)
    if json_:
        _json(pos)
    else:
        style = _style(ascii_)
        _print_position(rep.game, pos, style, len(data.moves), _tag_lines(data, style), details)


@app.command()
def legal(log: LogArg, secret: SecretOpt = None, json_: JsonOpt = False) -> None:
    """List the legal moves of the player to move, one per line.

    With --json: {"player": NAME or null, "moves": [...]}, an empty list once
    the game is over. LOG may also be a view file from the referee.

    \b
    Example: adjudicator legal game.json --json
    """
    raw = _bytes(log)
    vf, _ = _found(log, raw)
    if isinstance(vf, ViewFile):
        referee_.check_view(vf, _name(log))
        player, moves = vf.to_move, list(vf.legal or ())
        if vf.legal is None and vf.to_move is not None:
            raise AdjudicatorError(f"{_name(log)}: it is {vf.to_move}'s turn, not {vf.player}'s")
    else:
        rep = match.validate(match.unlock(vf, _secret(secret)))
        player, moves = rep.to_move(), list(rep.legal())
    if json_:
        from .outputs import Legal

        _json(Legal(player=player, moves=list(moves)))
    elif player is None:
        typer.echo("The game is over: no legal moves.", err=True)
    else:
        typer.echo("\n".join(moves))


@app.command()
def extend(
    log: LogArg,
    moves: Annotated[Optional[list[str]], typer.Argument(help="Moves in the game's notation.", show_default=False)] = None,
    as_: Annotated[Optional[str], typer.Option("--as", metavar="PLAYER", help="Refuse any move that is not this player's.")] = None,
    comment: Annotated[Optional[str], typer.Option("--comment", "-m", help="A comment recorded with the last move.")] = None,
    expect: Annotated[Optional[int], typer.Option("--expect", metavar="N", help="Refuse unless the log holds exactly N moves (the position the moves answer).")] = None,
    key: Annotated[Optional[str], typer.Option("--key", metavar="FILE", help="Your key file, if you sign your moves.")] = None,
    secret: SecretOpt = None,
    from_: Annotated[Optional[str], typer.Option("--from", metavar="VIEWFILE", help="Take the move a player recorded in their view file (the referee's side), then the moves they queued after it.")] = None,
    reply: Annotated[Optional[str], typer.Option("--reply", metavar="FILE", help="With --from: write that player's next view file to FILE, saying which queued moves were applied and which dropped.")] = None,
    ascii_: AsciiOpt = False,
) -> None:
    """Check moves and append them to the log, all or nothing, then show the board.

    Moves are read tolerantly and recorded in canonical notation. The file is
    replaced atomically, under a lock, and only if nobody changed it
    meanwhile; on any error it is left byte-for-byte unchanged. With LOG '-'
    the new log goes to stdout. On a view file, the first move must be one of
    its listed legal moves (in any spelling the game's notation allows); it is
    recorded there for the referee, who adds it to the real log with --from,
    and any further moves are queued: the referee applies them in order while
    each is still legal and still yours to make.

    \b
    Example: adjudicator extend game.json FaSp-c3 --as bob --expect 4
    """
    if not moves and from_ is None:
        raise typer.BadParameter("give the moves, or --from VIEWFILE", param_hint="MOVES")
    raw = _bytes(log)
    value, form = _found(log, raw)
    if isinstance(value, ViewFile):
        if from_ is not None or secret is not None:
            raise UsageError("--from and --secret go with the referee's log, not a view file")
        _extend_view(log, raw, value, form, moves or [], as_, comment, _private(key), expect)
        return
    if reply is not None and from_ is None:
        raise UsageError("--reply FILE goes with --from VIEWFILE")
    _record(log, raw, (value, form), moves or [], as_=as_, comment=comment, expect=expect,
            key=key, secret=secret, from_=from_, ascii_=ascii_, reply=reply)


def _record(log: str, raw: bytes, found: tuple[Log | ViewFile, str], moves: list[str], *,
            as_: str | None = None, comment: str | None = None, expect: int | None = None,
            key: str | None = None, secret: str | None = None, from_: str | None = None,
            ascii_: bool = False, reply: str | None = None) -> None:
    """Record moves or an event in a log file: checked, signed where the log
    is, written under a lock, then the position shown (the public view to a
    referee). Behind extend, resign, propose, accept and reject."""
    stored = _log_of(log, found)
    form = "json" if log == "-" else found[1]
    if form == "mail":
        _encoded(stored, form, log)  # refuses, saying how to go on
    if expect is not None and expect != len(stored.moves):
        raise AdjudicatorError(
            f"{_name(log)}: holds {len(stored.moves)} moves, not {expect} (--expect): "
            "the moves answer another position; nothing recorded"
        )
    key_text = _private(key)
    taken: referee_.Taken | None = None
    from_form = "json"
    if stored.refereed:
        if secret is None:
            raise UsageError(
                "a refereed game is extended by its referee, with --secret FILE; "
                "a player records their move in the view file the referee sent"
            )
        secret_file = _secret(secret)
        assert secret_file is not None
        if from_ is not None:
            if moves:
                raise UsageError("give either moves or --from VIEWFILE, not both")
            vf, from_form = _found(from_)
            if not isinstance(vf, ViewFile):
                raise AdjudicatorError(f"{from_}: holds a log, not a view file")
            if as_ is not None and as_ != vf.player:
                raise UsageError(f"--as {as_!r}: the view file is {vf.player}'s")
            taken = referee_.take(stored, secret_file, vf, from_)
            new_log = taken.log
        else:
            new_log = referee_.record(stored, secret_file, moves, as_player=as_,
                                      comment=comment, player_key=key_text)
        data = match.unlock(stored, secret_file)
        replayable = match.unlock(new_log, secret_file)
    else:
        if from_ is not None:
            raise UsageError("--from VIEWFILE goes with a refereed game")
        if secret is not None:
            raise UsageError("--secret goes with a refereed game; this one is open")
        data = stored
        new_log = replayable = match.extend(stored, moves, as_player=as_, comment=comment,
                                            player_key=key_text)
    encoded = _encoded(new_log, form, log)
    if log == "-":
        sys.stdout.buffer.write(encoded)
        sys.stdout.flush()
        return
    files.update(log, raw, encoded)
    added = len(new_log.moves) - len(data.moves)
    style = _style(ascii_)
    typer.echo(_safe(f"Recorded {added} move{'s' * (added != 1)} in {log}: "
                     + " ".join(e.move for e in new_log.moves[-added:]), style))
    if taken is not None and taken.dropped:
        for line in taken.notes()[1:]:
            typer.echo(_fold(f"{taken.player}'s queue: {line}", style))
    if taken is not None and reply is not None:
        answer = referee_.issue_view(new_log, secret_file, taken.player, taken.notes())
        # The answer goes back the way the file came: a pasted text form gets one.
        _write(reply, _encoded(answer, "json" if from_form == "json" else "text", reply))
        typer.echo(_safe(f"Wrote {reply} for {taken.player}.", style))
    rep = match.replay(replayable)
    last = new_log.moves[-1].by
    if stored.refereed or last not in rep.players:
        # The referee's terminal shows what everyone may see, never a hand.
        pos = _position(rep, rep.state, len(new_log.moves), None, False)
    else:
        pos = _position(rep, rep.state, len(new_log.moves), rep.players.index(last), False)
    _print_position(rep.game, pos, style, len(new_log.moves), _tag_lines(data, style))


def _event_command(log: str, event: str, as_: str, comment: str | None, expect: int | None,
                   key: str | None, secret: str | None, ascii_: bool) -> None:
    raw = _bytes(log)
    found = _found(log, raw)
    if isinstance(found[0], ViewFile):
        raise UsageError("events are recorded in the log by the referee, not in a view "
                         "file: tell the referee, who runs the same command with --secret")
    _record(log, raw, found, [event], as_=as_, comment=comment, expect=expect, key=key,
            secret=secret, ascii_=ascii_)


EventAs = Annotated[str, typer.Option("--as", metavar="PLAYER", help="Who records it (in a refereed game the referee may answer as 'referee').")]
ExpectOpt = Annotated[Optional[int], typer.Option("--expect", metavar="N", help="Refuse unless the log holds exactly N entries.")]
KeyOpt = Annotated[Optional[str], typer.Option("--key", metavar="FILE", help="Your key file, if you sign your moves.")]
CommentOpt = Annotated[Optional[str], typer.Option("--comment", "-m", help="A comment recorded with it.")]


@app.command()
def resign(log: LogArg, as_: EventAs, comment: CommentOpt = None, expect: ExpectOpt = None,
           key: KeyOpt = None, secret: SecretOpt = None, ascii_: AsciiOpt = False) -> None:
    """Resign: the game ends, and you are ranked last below everyone else.

    \b
    Example: adjudicator resign game.json --as bob
    """
    _event_command(log, "@resign", as_, comment, expect, key, secret, ascii_)


@app.command()
def propose(
    log: LogArg,
    what: Annotated[str, typer.Argument(help="'takeback' or 'abandon'.", show_default=False)],
    count: Annotated[Optional[int], typer.Argument(help="With takeback: how many moves.", show_default=False)] = None,
    as_: EventAs = ...,  # type: ignore[assignment]
    comment: CommentOpt = None,
    expect: ExpectOpt = None,
    key: KeyOpt = None,
    secret: SecretOpt = None,
    ascii_: AsciiOpt = False,
) -> None:
    """Propose taking back the last N moves, or abandoning the game; the
    others answer with accept or reject.

    \b
    Example: adjudicator propose game.json takeback 1 --as ann
    """
    what = what.strip().lower()
    if what == "takeback":
        if count is None or count < 1:
            raise typer.BadParameter("say how many moves to take back: takeback N", param_hint="COUNT")
        event = f"@takeback {count}"
    elif what == "abandon":
        if count is not None:
            raise typer.BadParameter("abandon takes no count", param_hint="COUNT")
        event = "@abandon"
    else:
        raise typer.BadParameter(f"{what!r}: propose takeback N or abandon", param_hint="WHAT")
    _event_command(log, event, as_, comment, expect, key, secret, ascii_)


@app.command()
def accept(log: LogArg, as_: EventAs, comment: CommentOpt = None, expect: ExpectOpt = None,
           key: KeyOpt = None, secret: SecretOpt = None, ascii_: AsciiOpt = False) -> None:
    """Accept the proposal waiting for your answer (a takeback, or abandoning the game).

    \b
    Example: adjudicator accept game.json --as bob
    """
    _event_command(log, "@accept", as_, comment, expect, key, secret, ascii_)


@app.command()
def reject(log: LogArg, as_: EventAs, comment: CommentOpt = None, expect: ExpectOpt = None,
           key: KeyOpt = None, secret: SecretOpt = None, ascii_: AsciiOpt = False) -> None:
    """Reject the proposal waiting for your answer.

    \b
    Example: adjudicator reject game.json --as bob
    """
    _event_command(log, "@reject", as_, comment, expect, key, secret, ascii_)


def _extend_view(path: str, raw: bytes, vf: ViewFile, form: str, moves: list[str],
                 as_: str | None, comment: str | None, key: str | None,
                 expect: int | None) -> None:
    """A player records their move in their view file (checked against its
    legal list; further moves are queued)."""
    if as_ is not None and as_ != vf.player:
        raise UsageError(f"--as {as_!r}: this view file is {vf.player}'s")
    if expect is not None and expect != len(vf.log.moves):
        raise AdjudicatorError(f"{_name(path)}: made after move {len(vf.log.moves)}, "
                               f"not {expect} (--expect); nothing recorded")
    updated = referee_.choose(vf, moves, comment, key, _name(path))
    encoded = _encoded(updated, "json" if path == "-" else form, path)
    if path == "-":
        sys.stdout.buffer.write(encoded)
        return
    files.update(path, raw, encoded, what="recording the move")
    queued = f" and queued {', '.join(updated.queued)}" if updated.queued else ""
    typer.echo(_safe(f"Recorded {vf.player}'s move {updated.move.move}{queued} in {path}: "  # type: ignore[union-attr]
                     "send the file to the referee.", Style(unicode=False)))


@app.command()
def replay(
    log: LogArg,
    as_: AsOpt = None,
    public: Annotated[bool, typer.Option("--public", help="With --html: only the public view.")] = False,
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    ascii_: AsciiOpt = False,
    details: DetailsOpt = False,
    html: Annotated[bool, typer.Option("--html", help="Write one self-contained HTML page that steps through the game (needs -o).")] = False,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="With --html: where to write the page.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Show every position of a game in turn, from the start to the last move.

    Each position is shown as the player to move sees it, with their legal
    moves (or as --as PLAYER sees it). With --html, one page to open in any
    browser, offline: pictures, arrow keys, the move list, the legal moves
    and the score at each step. An open or revealed game offers every
    player's view and the public one; a refereed game replayed by its
    referee (--secret) shows the public view, or --as PLAYER's.

    \b
    Example: adjudicator replay examples/atlas/3-players.json --html -o atlas.html
    """
    stored, data = _unlocked(log, secret)
    if html:
        _replay_html(stored, data, as_, public, output, force)
        return
    if output is not None:
        raise UsageError("-o FILE goes with --html")
    rep = match.validate(data, keep=True)
    viewer = _seat(rep, as_)
    positions = [
        _position(rep, state, ply, viewer, as_ is None) for ply, state in enumerate(rep.states)
    ]
    if json_:
        from .outputs import Replay as ReplayOut

        _json(ReplayOut(game=data.game, tags=dict(data.tags), players=list(data.players),
                        positions=positions, result=data.result))
        return
    style = _style(ascii_)
    for pos in positions:
        _print_position(rep.game, pos, style, len(data.moves), details=details)
        typer.echo("")


def _replay_html(stored: Log, data: Log, as_: str | None, public: bool, output: str | None,
                 force: bool) -> None:
    from . import html as html_

    if output is None:
        raise UsageError("--html needs -o FILE")
    if as_ is not None and public:
        raise UsageError("give --as PLAYER or --public, not both")
    rep = match.validate(data, keep=True)
    seat = _seat(rep, as_)
    if as_ is not None:
        seats: list[int | None] = [seat]
    elif public or stored.seed is None:
        seats = [None]  # the secret stays the referee's: the page shows what all may see
    else:
        seats = [None, *range(len(rep.players))]
    page = html_.page(f"{rep.game.TITLE}: {', '.join(rep.players)}", html_.views(rep, seats),
                      subtitle=f"{len(data.moves)} moves; {match.describe(data.result)}")
    _write(output, page.encode("utf-8"), replace=force)
    typer.echo(f"Wrote {output}: {len(data.moves) + 1} positions, "
               f"{len(seats)} view{'s' * (len(seats) != 1)}.")


@app.command()
def draw(
    log: LogArg,
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="FILE.svg or FILE.png (- writes SVG to stdout).")],
    as_: AsOpt = None,
    public: Annotated[bool, typer.Option("--public", help="Draw only what every player may see.")] = False,
    at: Annotated[Optional[int], typer.Option("--at", metavar="N", help="The position after N moves (0 is the start).")] = None,
    secret: SecretOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Draw the board as a picture: SVG, or PNG by the file's extension.

    Drawn from the same view as 'show', so a picture never shows what its
    viewer may not see: by default the player to move's, --as PLAYER's, or
    --public. LOG may be a view file from the referee.

    \b
    Example: adjudicator draw game.json --public -o board.png
    """
    from . import drawing

    suffix = Path(output).suffix.lower() if output != "-" else ".svg"
    if suffix not in (".svg", ".png"):
        raise UsageError(f"-o {output}: write an .svg or a .png file")
    raw = _bytes(log)
    vf, _ = _found(log, raw)
    if isinstance(vf, ViewFile):
        if at is not None or public or secret is not None or (as_ is not None):
            raise UsageError("a view file is drawn as it is: no --at, --as, --public or --secret")
        seen = referee_.check_view(vf, _name(log))
        game = games.get(vf.log.game)
        last = (vf.log.moves[-1].by, vf.log.moves[-1].move) if vf.log.moves else None
        scene = drawing.Scene(title=game.TITLE, players=vf.log.players, viewer=vf.player,
                              to_move=vf.to_move, ply=len(vf.log.moves), last=last,
                              standing=vf.log.result, final=vf.log.result is not None)
        svg = _drawn(game, seen, scene, _name(log))
    else:
        if as_ is not None and public:
            raise UsageError("give --as PLAYER or --public, not both")
        data = match.unlock(vf, _secret(secret))
        if at is not None and not 0 <= at <= len(data.moves):
            raise UsageError(f"--at {at}: the log has moves 0 to {len(data.moves)}")
        match.validate(data)
        ply = len(data.moves) if at is None else at
        rep = match.replay(data, upto=ply)
        seat = _seat(rep, as_) if as_ is not None else (None if public else rep.seat())
        entry = data.moves[ply - 1] if ply else None
        scene = drawing.scene(rep.game, rep.players, rep.state, ply,
                              None if entry is None else (entry.by, entry.move), seat, rep.ended)
        svg = _drawn(rep.game, rep.game.view(rep.state, seat), scene, None)
    if output == "-":
        sys.stdout.write(svg)
        return
    data_out = drawing.png(svg) if suffix == ".png" else svg.encode("utf-8")
    _write(output, data_out, replace=force)
    typer.echo(f"Wrote {output}: {scene.title}, {'start' if not scene.ply else f'after move {scene.ply}'}, "
               + (f"as seen by {scene.viewer}" if scene.viewer else "public view") + ".")


def _drawn(game: Game, seen: Any, scene: Any, source: str | None) -> str:
    """The picture; ``source`` names a view file, whose view may be bad input."""
    if source is None:
        return game.draw(seen, scene)
    try:
        return game.draw(seen, scene)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, ZeroDivisionError):
        raise BadLogError(f"{source}: its view does not describe a {game.TITLE} position") from None


@app.command()
def validate(
    logs: Annotated[list[str], typer.Argument(help="Log files to check (- for stdin).", show_default=False)],
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", metavar="N", min=1, help="Check logs in N processes (default: one per core).")] = None,
) -> None:
    """Check logs move by move; exit 0 only if every one is valid.

    A valid log has a known game and parameters, an unbroken digest chain,
    every move by the player to move, legal and in canonical notation, the
    right result and valid signatures. Each bad log gets one line naming its
    first bad move. A refereed game whose seed is secret has its header,
    chain and referee's signature checked, and says that the legality of its
    moves waits for the reveal (or --secret). Many logs are checked on every
    core, reported in the order given, with a progress bar on a terminal.

    \b
    Example: adjudicator validate examples/turn-of-time/*.json
    """
    secret_file = _secret(secret)
    tasks = [(path, _bytes(path) if path == "-" else None, secret_file) for path in logs]
    workers = min(jobs or os.cpu_count() or 1, len(tasks))
    bar = sys.stderr.isatty() and not json_ and len(tasks) >= 50
    if workers > 1 and len(tasks) >= 8:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(workers) as pool:
            results = _progress(pool.map(_validate_one, tasks, chunksize=4), len(tasks), bar)
    else:
        results = _progress(map(_validate_one, tasks), len(tasks), bar)
    report = []
    bad = 0
    for entry, line in results:
        report.append(entry)
        if entry.error is not None:
            bad += 1
        if not json_:
            typer.echo(line, err=entry.error is not None)
    if json_:
        _json(report)
    if bad:
        raise typer.Exit(1)


def _progress(results: Any, total: int, bar: bool) -> list:
    if not bar:
        return list(results)
    with typer.progressbar(results, length=total, label="validating", file=sys.stderr) as shown:
        return list(shown)


def _validate_one(task: tuple[str, bytes | None, Secret | None]) -> tuple[Any, str]:
    """One log checked: its report entry and its line (module level: runs in a worker)."""
    from .outputs import Checked, error_info

    path, raw, secret = task
    entry: dict[str, Any] = {"file": path, "valid": False, "game": None, "moves": None,
                             "to_move": None, "result": None, "unchecked": None, "error": None}
    try:
        stored = _read(path, raw)
        data = match.unlock(stored, secret) if stored.refereed else stored
        entry.update(game=data.game, moves=len(data.moves))
        if data.seed is None:
            match.check_public(data)
            if data.referee is None:
                raise BadLogError(
                    "a refereed log of version 1 carries no referee signature: nothing in "
                    "it can be checked until the referee reveals the seed")
            entry.update(valid=True, result=data.result,
                         unchecked="the legality of the moves and the result: the seed is secret")
            line = (f"ok {path}: {data.game}, {len(data.moves)} moves, refereed: signed "
                    "by its referee (header, moves and result as the referee wrote "
                    "them); their legality is checked once the seed is revealed")
        else:
            rep = match.validate(data)
            entry.update(valid=True, result=data.result, to_move=rep.to_move())
            state = (f"over, {match.describe(data.result)}" if data.result is not None
                     else f"in progress, {entry['to_move']} to move")
            line = one_line(f"ok {path}: {data.game}, {len(data.moves)} moves, {state}")
    except AdjudicatorError as e:
        text = str(e)
        entry["error"] = error_info(e)
        line = one_line(text if text.startswith((f"{path}:", "stdin:")) else f"{path}: {text}")
    return Checked(**entry), line


@app.command()
def view(
    log: LogArg,
    as_: Annotated[str, typer.Option("--as", metavar="PLAYER", help="The player the view file is for.")],
    secret: SecretOpt = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write the view file here instead of stdout.")] = None,
    to: Annotated[str, typer.Option("--to", metavar="FORM", help="'json', or 'text' to paste into a mail body.")] = "json",
) -> None:
    """Write a player's view file: the public log, what they may see, what
    happened since they last moved, their legal moves.

    The referee of a refereed game sends it to the player, who runs show and
    extend on it and sends it back; it holds nothing the player may not see,
    and the referee's proof binds it to that player and that position.

    \b
    Example: adjudicator view game.json --secret game.secret.json --as ann -o ann.json
    """
    form = to.strip().lower()
    if form not in ("text", "json"):
        raise UsageError(f"--to {to!r}: text or json")
    stored = _read(log)
    vf = referee_.issue_view(stored, _secret(secret), as_)
    data_out = _encoded(vf, form, log)
    if output is None:
        sys.stdout.buffer.write(data_out)
        return
    _write(output, data_out)
    turn = "their move" if vf.legal is not None else f"{vf.to_move or 'nobody'} to move"
    typer.echo(f"Wrote {output} for {as_} ({turn}).")


key_app = typer.Typer(
    cls=_Group, no_args_is_help=True, rich_markup_mode=None,
    help=("A player's own signing key, to sign their moves.\n\n\b\n"
          "Example: adjudicator key new -o ann.key"),
)
app.add_typer(key_app, name="key")


@key_app.command("new")
def key_new(
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="Where to write the key file (readable by you alone).")],
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Make a signing key: the file is private; give the public key it prints
    to whoever starts the game (new --key PLAYER=KEY).

    \b
    Example: adjudicator key new -o ann.key
    """
    from . import seal

    private = seal.new_signing_key()
    key = logmod.KeyFile(format=logmod.KEY_FORMAT, version=logmod.VERSION,
                         public=seal.public_key(private), private=private)
    _write(output, logmod.encode(key), replace=force, private=True)
    typer.echo(f"Wrote {output} (private: keep it). Public key: {key.public}")


@app.command()
def reveal(log: LogArg, secret: Annotated[str, typer.Option("--secret", metavar="FILE", help="The referee's secret file.")]) -> None:
    """Publish the seed of a refereed game in its log, so anyone can audit it.

    \b
    Example: adjudicator reveal game.json --secret game.secret.json
    """
    raw = _bytes(log)
    found = _found(log, raw)
    stored = _log_of(log, found)
    form = "json" if log == "-" else found[1]
    if stored.seed is not None:
        raise AdjudicatorError(f"{_name(log)}: the seed is already in the log")
    revealed = match.reveal(stored, _secret(secret))  # type: ignore[arg-type]
    match.validate(revealed)
    encoded = _encoded(revealed, form, log)
    if log == "-":
        sys.stdout.buffer.write(encoded)
        return
    files.update(log, raw, encoded, what="revealing the seed")
    typer.echo(f"Revealed the seed in {log}: anyone can now run 'adjudicator audit {log}'.")


@app.command()
def audit(log: LogArg, secret: SecretOpt = None, json_: JsonOpt = False) -> None:
    """Check everything about a log and print a short report; exit 0 only if all holds.

    The seed against the commitment, the digest chain, every move, the result.

    \b
    Example: adjudicator audit game.json
    """
    report = match.audit(_read(log), _secret(secret))
    if json_:
        _json(report)
    else:
        typer.echo(f"Audit of {_name(log)}:")
        for item in report.items:
            typer.echo(f"  {'ok  ' if item.ok else 'FAIL'} {item.what}: {one_line(item.text)}")
        typer.echo("Audit passed." if report.passed else "Audit FAILED.")
    if not report.passed:
        failed = next(i for i in report.items if not i.ok)
        typer.echo(one_line(f"Error: audit failed: {failed.what}: {failed.text}"), err=True)
        raise typer.Exit(1)


@app.command()
def diff(a: Annotated[str, typer.Argument(help="One copy of a log.")], b: Annotated[str, typer.Argument(help="Another copy.")], json_: JsonOpt = False) -> None:
    """Say whether two copies of a log are the same game, and where they part.

    Exit 0 when the copies hold the same moves, 1 otherwise.

    \b
    Example: adjudicator diff ann-copy.json bob-copy.json
    """
    log_a, log_b = _read(a), _read(b)
    same, lines = match.diff(log_a, log_b, _name(a), _name(b))
    if json_:
        from .outputs import Diff

        same_game = not lines[0].startswith("different games")
        common = next((i for i, (x, y) in enumerate(zip(log_a.moves, log_b.moves)) if x != y),
                      None)
        _json(Diff(same=same, same_game=same_game,
                   parted_at=None if common is None or not same_game else common + 1,
                   lines=[one_line(line) for line in lines]))
    else:
        for line in lines:
            typer.echo(one_line(line))
    if not same:
        raise typer.Exit(1)


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="The game id, as listed by 'adjudicator games'.", show_default=False)],
) -> None:
    """Print a game's notation document: the move grammar, examples and every
    ruling (installed with the package; error messages point to it).

    \b
    Example: adjudicator rules atlas
    """
    from importlib import resources

    known = games.get(game)
    doc = resources.files("adjudicator").joinpath(known.NOTATION)
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError:
        raise AdjudicatorError(f"{known.NOTATION} is missing from this installation") from None
    typer.echo(text, nl=False)


@app.command()
def convert(
    log: LogArg,
    to: Annotated[str, typer.Option("--to", metavar="FORM", help="'text' (for mail and forums) or 'json'.")],
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Convert a log or view file between JSON and the text form, losslessly.

    The text form (notation/text-form.md) is pure ASCII within 72 columns and
    survives being pasted into a mail or a forum post, quoted and re-wrapped;
    every command reads it, and a whole mail message holding it, as well.

    \b
    Example: adjudicator convert game.json --to text -o game.txt
    """
    form = to.strip().lower()
    if form not in ("text", "json"):
        raise UsageError(f"--to {to!r}: text or json")
    value, _ = _found(log)
    data = _encoded(value, form, log)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    _write(output, data, replace=force)
    kind = "view file" if isinstance(value, ViewFile) else "log"
    typer.echo(f"Wrote {output}: the {kind} in the {'text form' if form == 'text' else 'JSON form'}.")


@app.command()
def schema(
    name: Annotated[str, typer.Argument(help="log, view, games, show, legal, replay, validate, audit or diff.")] = "log",
) -> None:
    """Print the JSON Schema of the log format, or of a command's --json output
    (kept in notation/log.schema.json and notation/schemas/).

    \b
    Example: adjudicator schema validate > validate.schema.json
    """
    from . import outputs

    if name == "log":
        typer.echo(logmod.schema_text(), nl=False)
        return
    if name not in outputs.SCHEMAS:
        raise UsageError(f"no schema {name!r} (schemas: {', '.join(outputs.SCHEMAS)})")
    typer.echo(outputs.schema_text(name), nl=False)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="The game id.")],
    players: Annotated[str, typer.Option("--players", "-p", help="Player names, comma-separated.")],
    seed: Annotated[Optional[str], typer.Option("--seed", "-s", help="The game's seed (default: random).")] = None,
    play_seed: Annotated[Optional[str], typer.Option("--play-seed", help="Seed of the random choice of moves (default: the game's seed).")] = None,
    param: Annotated[list[str], typer.Option("--param", "-P", metavar="KEY=VALUE", help="A game parameter; repeat for several.")] = [],  # noqa: B006
    max_moves: Annotated[Optional[int], typer.Option("--moves", metavar="N", help="Stop after N moves.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write the log here instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Play a game of random legal moves and write its log (self-play).

    \b
    Example: adjudicator simulate turn-of-time --players ann,bob --seed 3 -o game.json
    """
    from secrets import token_hex

    log = match.simulate(game, _players(players), token_hex(8) if seed is None else seed,
                         _params(param), play_seed=play_seed, max_moves=max_moves)
    if _emit(log, output, force):
        typer.echo(f"Wrote {output}: {len(log.moves)} moves, {match.describe(log.result)}")


def _fit_output() -> None:
    """Never crash on a terminal or pipe that cannot take Unicode (a cp1252
    console, LANG=C): draw in ASCII there and escape whatever else is left."""
    global _ASCII_ONLY
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "\u2500\u00b7\u2190".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            if stream is sys.stdout:
                _ASCII_ONLY = True
            try:
                stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
            except (AttributeError, ValueError):
                pass


@app.command("referee")
def referee_command(
    directory: Annotated[str, typer.Argument(metavar="DIR", help="The referee's directory: referee.toml, roster.toml, games/, Maildir/.", show_default=False)],
    once: Annotated[bool, typer.Option("--once", help="Handle what is waiting, send the spool, and exit (for cron).")] = False,
    poll: Annotated[Optional[float], typer.Option("--poll", metavar="SECONDS", help="Seconds between rounds (default: referee.toml's poll, else 60).", min=0.05)] = None,
) -> None:
    """Referee games by mail: read moves from the Maildir (or IMAP), send
    every player their view, no human in the loop.

    Without --once it runs until stopped (SIGTERM or Ctrl-C end it cleanly
    after the message in hand). The README says how to set a directory up.

    \b
    Example: adjudicator referee club/ --once
    """
    import signal
    import time

    from filelock import FileLock, Timeout

    from . import postal

    root = Path(directory)
    if not root.is_dir():
        raise AdjudicatorError(f"{directory}: no such directory")
    try:
        lock = FileLock(str(root / ".referee.lock"), timeout=0)
        lock.acquire()
    except Timeout:
        raise AdjudicatorError(f"{directory}: another referee is running on it") from None
    stop = []
    previous = {sig: signal.signal(sig, lambda *_: stop.append(True))
                for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        ref = postal.Referee(root)
        wait = ref.config.poll if poll is None else poll
        while True:
            for line in ref.run_once():
                typer.echo(_safe(line, Style(unicode=False)))
            if once or stop:
                return
            until = time.monotonic() + wait
            while not stop and time.monotonic() < until:
                time.sleep(min(0.2, wait))
            if stop:
                return
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        lock.release()


def _only(name: str | None) -> typer.Typer:
    """The app with just the command ``name`` (the full app for anything else).

    Typer turns every parameter of every command into a click parameter
    before it runs one; building only the command asked for keeps start-up
    close to that of a one-command app. Help, errors and behaviour are the
    same: the command is registered exactly as on ``app``.
    """
    info = _registered(name)
    if info is None:
        return app
    mini = typer.Typer(cls=_Group, add_completion=False, pretty_exceptions_enable=False,
                       rich_markup_mode=None)
    mini.callback()(_group_callback)  # a group, as the full app is
    mini.registered_commands = [info]
    return mini


def _registered(name: str | None) -> Any:
    """The registered command called ``name`` (Typer's CommandInfo), or None."""
    return next((info for info in app.registered_commands
                 if (info.name or info.callback.__name__.replace("_", "-")) == name), None)  # type: ignore[union-attr]


def _group_callback() -> None:
    """Referee for tabletop games played by email."""


def _version(value: bool) -> None:
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        mine = version("adjudicator")
    except PackageNotFoundError:  # run from a source tree
        mine = "unknown"
    typer.echo(f"adjudicator {mine} (log format version {logmod.VERSION}; reads "
               f"{', '.join(map(str, logmod.VERSIONS))})")
    for game_id, game in games.GAMES.items():
        typer.echo(f"  {game_id} rules version {getattr(game, 'RULES', 1)}")
    raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="The version, and the rules version of each game.")] = False,
) -> None:
    """Referee for tabletop games played by email: start a game log, show the
    board and the legal moves, extend the log with moves, replay and validate
    it.

    \b
    Example: adjudicator new turn-of-time --players ann,bob,cy --seed 7 -o game.json
    """


def _quick(name: str, args: list[str]) -> bool:
    """Run the command ``name`` without building it, if ``args`` are in a
    plain form (see :mod:`adjudicator.quickargs`); False if they are not.

    What the command prints and its exit status are exactly those of the app:
    the same errors in the same words (:func:`_reported`), and click's own
    handling of exits, Ctrl-C, EOF and a closed pipe, by running the call as a
    command without parameters. A usage error the command raises itself
    (``typer.BadParameter``) is shown with the real command's usage line.
    """
    if "_ADJUDICATOR_COMPLETE" in os.environ:  # shell completion is Typer's
        return False
    info = _registered(name)
    kwargs = None if info is None else quickargs.read(info, args)
    if kwargs is None:
        return False
    callback = info.callback  # type: ignore[union-attr]

    def call() -> None:
        try:
            with _reported():
                callback(**kwargs)
        except typer.BadParameter as e:
            group = typer.main.get_command(_only(name))
            parent = group.make_context("adjudicator", [name, *args])
            e.ctx = group.get_command(parent, name).make_context(name, list(args), parent=parent)
            raise

    TyperCommand(name, callback=call, rich_markup_mode=None, add_help_option=False).main(
        args=[], prog_name="adjudicator", standalone_mode=True)
    return True  # not reached: main() exits


def main() -> None:
    _fit_output()
    name = sys.argv[1] if len(sys.argv) > 1 else None
    if name is None or not _quick(name, sys.argv[2:]):
        _only(name)(prog_name="adjudicator")
