"""The command line: a thin adapter over :mod:`adjudicator.match`.

Every project error is caught in one place (:class:`_Group`) and printed as one
``Error: ...`` line on stderr with exit status 1; usage errors are Typer's
(exit status 2). No command knows any particular game.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Annotated, Any, Optional

import msgspec
import typer
from typer.core import TyperGroup

from . import games, log as logmod, match
from .engine import Game, Outcome, Style
from .errors import AdjudicatorError, IllegalMoveError, ParameterError, one_line
from .log import VIEW_FORMAT, Log, Secret, ViewFile


class _Group(TyperGroup):
    """Turns every :class:`AdjudicatorError` into one line and exit status 1."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except AdjudicatorError as e:
            typer.echo(f"Error: {one_line(str(e))}", err=True)
            raise typer.Exit(1) from None


app = typer.Typer(
    cls=_Group,
    add_completion=False,
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


def _style(ascii_: bool) -> Style:
    color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return Style(unicode=not ascii_, color=color)


def _bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise AdjudicatorError(f"{path}: no such file") from None
    except OSError as e:
        raise AdjudicatorError(f"{path}: cannot read: {e.strerror or e}") from None


def _name(path: str) -> str:
    return "stdin" if path == "-" else path


def _read(path: str, data: bytes | None = None) -> Log:
    """The log in ``path`` (or in ``data``, its bytes already read)."""
    data = _bytes(path) if data is None else data
    if logmod.kind_of(data) == VIEW_FORMAT:
        raise AdjudicatorError(
            f"{_name(path)} is a view file: use 'adjudicator show' or 'adjudicator extend' on it"
        )
    return logmod.decode(data, _name(path))


def _secret(path: str | None) -> Secret | None:
    return None if path is None else logmod.decode_secret(_bytes(path), path)


def _unlocked(path: str, secret: str | None, data: bytes | None = None) -> tuple[Log, Log]:
    """The log as stored, and as it can be replayed (the seed from ``secret``)."""
    stored = _read(path, data)
    return stored, match.unlock(stored, _secret(secret))


def _write(path: str, data: bytes, *, replace: bool = True, private: bool = False) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file, then a rename.

    A ``private`` file is readable and writable by its owner alone.
    """
    target = Path(path)
    if not replace and target.exists():
        raise AdjudicatorError(f"{path}: already exists (use --force to replace it)")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    except OSError as e:
        raise AdjudicatorError(f"{path}: cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        os.chmod(tmp, 0o600 if private else mode)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise AdjudicatorError(f"{path}: cannot write: {e.strerror or e}") from None
        raise


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
            raise ParameterError(f"--param {pair!r}: write it as KEY=VALUE")
        out[key.strip()] = value
    return out


def _seat(rep: match.Replay, name: str | None) -> int | None:
    if name is None:
        return None
    if name not in rep.players:
        raise ParameterError(f"--as {name!r}: no such player (players: {', '.join(rep.players)})")
    return rep.players.index(name)


def _json(obj: Any) -> None:
    typer.echo(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode())


def _wrap(items: list[str], indent: str = "  ") -> str:
    return textwrap.fill("  ".join(items), width=78, initial_indent=indent, subsequent_indent=indent,
                         break_on_hyphens=False)


def _score_lines(outcome: Outcome, final: bool) -> list[str]:
    scores = "  ".join(f"{s.place}. {s.player} {s.score}" for s in outcome.standings)
    if final:
        winners = ", ".join(outcome.winners) or "nobody"
        lines = [f"Game over. Winner: {winners}", f"Result: {scores}"]
    else:
        lines = [f"Score so far: {scores}"]
    lines += [f"  {d}" for d in outcome.details]
    return lines


class _Position(msgspec.Struct, kw_only=True):
    ply: int
    move: Optional[logmod.MoveEntry]
    to_move: Optional[str]
    viewer: Optional[str]
    view: Any
    legal: Optional[list[str]]
    standing: Outcome
    result: Optional[Outcome]


def _position(rep: match.Replay, state: Any, ply: int, viewer: int | None, default_viewer: bool) -> _Position:
    """One position as seen by ``viewer``; the player to move when ``default_viewer``."""
    game = rep.game
    seat = game.to_move(state)
    if default_viewer:
        viewer = seat
    legal = None
    if seat is not None and viewer == seat:
        legal = [game.format_move(state, m) for m in game.legal_moves(state)]
    return _Position(
        ply=ply,
        move=rep.log.moves[ply - 1] if ply > 0 else None,
        to_move=None if seat is None else rep.players[seat],
        viewer=None if viewer is None else rep.players[viewer],
        view=game.view(state, viewer),
        legal=legal,
        standing=game.standing(state),
        result=game.outcome(state),
    )


def _print_position(game: Game, pos: _Position, style: Style, total: int) -> None:
    dot = " · " if style.unicode else " - "
    where = "start" if pos.ply == 0 else f"after move {pos.ply} of {total}"
    seen = f"as seen by {pos.viewer}" if pos.viewer else "public view"
    typer.echo(dot.join((game.TITLE, where, seen)))
    if pos.move is not None:
        typer.echo(f"Last move: {pos.move.by} {pos.move.move}"
                   + (f"  # {pos.move.comment}" if pos.move.comment else ""))
    typer.echo(game.render(pos.view, style))
    typer.echo("")
    if pos.result is not None:
        typer.echo("\n".join(_score_lines(pos.result, True)))
        return
    typer.echo(f"To move: {pos.to_move}")
    if pos.legal is not None:
        typer.echo(f"Legal moves ({len(pos.legal)}):")
        typer.echo(_wrap(pos.legal))
    typer.echo("\n".join(_score_lines(pos.standing, False)))


# --- commands ---------------------------------------------------------------------------------


@app.command("games")
def list_games(json_: JsonOpt = False) -> None:
    """List the games, their player counts and their parameters with defaults.

    \b
    Example: adjudicator games
    """
    if json_:
        _json([
            {
                "id": g.ID,
                "title": g.TITLE,
                "players": list(g.PLAYERS),
                "notation": g.NOTATION,
                "params": [
                    {"name": p.name, "default": p.default, "accepts": p.describe(),
                     "applies": p.applies, "help": p.help}
                    for p in g.PARAMS
                ],
            }
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
            raise ParameterError("--secret FILE goes with --referee")
        log = match.new_log(game, _players(players), seed, _params(param))
        if _emit(log, output, force):
            rep = match.replay(log)
            typer.echo(f"Wrote {output}: {log.game} for {', '.join(log.players)}, seed {log.seed}; "
                       f"{rep.to_move()} to move.")
        return
    if output is None:
        raise ParameterError("--referee needs -o FILE: the log and the secret are two files")
    secret_path = secret or str(Path(output).with_suffix("")) + ".secret.json"
    log, key = match.new_refereed(game, _players(players), seed, _params(param))
    _write(secret_path, logmod.encode(key), replace=force, private=True)
    _write(output, logmod.encode(log), replace=force)
    rep = match.replay(match.unlock(log, key))
    typer.echo(f"Wrote {output} (public: send it to the players) and {secret_path} (the seed: "
               f"keep it, referee only); {rep.to_move()} to move.")


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
    if logmod.kind_of(raw) == VIEW_FORMAT:
        _show_view(logmod.decode_view(raw, _name(log)), json_, _style(ascii_))
        return
    _, data = _unlocked(log, secret, raw)
    if at is not None and not 0 <= at <= len(data.moves):
        raise ParameterError(f"--at {at}: the log has moves 0 to {len(data.moves)}")
    if ignore_rest and at is None:
        raise ParameterError("--ignore-rest needs --at N")
    if at is None:
        rep = match.validate(data)
    else:
        if not ignore_rest:
            match.validate(data)
        rep = match.replay(data, upto=at)
    viewer = _seat(rep, as_)
    default = as_ is None and not public
    ply = len(data.moves) if at is None else at
    pos = _position(rep, rep.state, ply, viewer, default)
    if json_:
        _json(pos)
    else:
        _print_position(rep.game, pos, _style(ascii_), len(data.moves))


def _show_view(vf: ViewFile, json_: bool, style: Style) -> None:
    game = games.get(vf.log.game)
    if json_:
        _json(vf)
        return
    seen = msgspec.json.decode(vf.view, type=game.VIEW)
    dot = " · " if style.unicode else " - "
    where = f"after move {len(vf.log.moves)}" if vf.log.moves else "start"
    typer.echo(dot.join((game.TITLE, where, f"view file of {vf.player}")))
    if vf.log.moves:
        last = vf.log.moves[-1]
        typer.echo(f"Last move: {last.by} {last.move}")
    typer.echo(game.render(seen, style))
    typer.echo("")
    if vf.log.result is not None:
        typer.echo("\n".join(_score_lines(vf.log.result, True)))
    elif vf.move is not None:
        typer.echo(f"Your move, to send to the referee: {vf.move.move}")
    elif vf.legal is not None:
        typer.echo(f"Your move. Legal moves ({len(vf.legal)}):")
        typer.echo(_wrap(list(vf.legal)))
    else:
        typer.echo(f"To move: {vf.to_move}")


@app.command()
def legal(log: LogArg, secret: SecretOpt = None, json_: JsonOpt = False) -> None:
    """List the legal moves of the player to move, one per line.

    With --json: {"player": NAME or null, "moves": [...]}, an empty list once
    the game is over. LOG may also be a view file from the referee.

    \b
    Example: adjudicator legal game.json --json
    """
    raw = _bytes(log)
    if logmod.kind_of(raw) == VIEW_FORMAT:
        vf = logmod.decode_view(raw, _name(log))
        player, moves = vf.to_move, list(vf.legal or ())
        if vf.legal is None and vf.to_move is not None:
            raise AdjudicatorError(f"{_name(log)}: it is {vf.to_move}'s turn, not {vf.player}'s")
    else:
        rep = match.validate(_unlocked(log, secret, raw)[1])
        seat = rep.game.to_move(rep.state)
        moves = [rep.game.format_move(rep.state, m) for m in rep.game.legal_moves(rep.state)]
        player = None if seat is None else rep.players[seat]
    if json_:
        _json({"player": player, "moves": moves})
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
    secret: SecretOpt = None,
    from_: Annotated[Optional[str], typer.Option("--from", metavar="VIEWFILE", help="Take the move a player recorded in their view file (the referee's side).")] = None,
    ascii_: AsciiOpt = False,
) -> None:
    """Check moves and append them to the log, all or nothing, then show the board.

    Moves are read tolerantly and recorded in canonical notation. The file is
    replaced atomically; on any error it is left byte-for-byte unchanged. With
    LOG '-' the new log goes to stdout. On a view file, the move must be one of
    its listed legal moves; it is recorded there for the referee, who adds it
    to the real log with --from.

    \b
    Example: adjudicator extend game.json FaSp-c3 --as bob
    """
    if not moves and from_ is None:
        raise typer.BadParameter("give the moves, or --from VIEWFILE", param_hint="MOVES")
    raw = _bytes(log)
    if logmod.kind_of(raw) == VIEW_FORMAT:
        if from_ is not None or secret is not None:
            raise ParameterError("--from and --secret go with the referee's log, not a view file")
        _extend_view(log, logmod.decode_view(raw, _name(log)), moves or [], as_, comment)
        return
    stored, data = _unlocked(log, secret, raw)
    if from_ is not None:
        if moves:
            raise ParameterError("give either moves or --from VIEWFILE, not both")
        vf = logmod.decode_view(_bytes(from_), from_)
        moves, as_, comment = _move_from(vf, data, from_, as_), vf.player, vf.move.comment  # type: ignore[union-attr]
    if not moves:
        raise ParameterError("no move given")
    new_log = match.extend(data, moves, as_player=as_, comment=comment)
    if log == "-":
        _emit(match.publish(new_log, stored), None, False)
        return
    _write(log, logmod.encode(match.publish(new_log, stored)))
    rep = match.replay(new_log)
    mover = rep.players.index(new_log.moves[-1].by)
    added = len(new_log.moves) - len(data.moves)
    typer.echo(f"Recorded {added} move{'s' * (added != 1)} in {log}: "
               + " ".join(e.move for e in new_log.moves[-added:]))
    pos = _position(rep, rep.state, len(new_log.moves), mover, False)
    _print_position(rep.game, pos, _style(ascii_), len(new_log.moves))


def _move_from(vf: ViewFile, log: Log, path: str, as_: str | None) -> list[str]:
    """The move of a view file, if the file was made for this game at this point."""
    if vf.log.game != log.game or vf.log.players != log.players or vf.log.commitment != log.commitment:
        raise AdjudicatorError(f"{path}: this view file belongs to another game")
    if vf.move is None:
        raise AdjudicatorError(f"{path}: {vf.player} has not recorded a move in it yet")
    if as_ is not None and as_ != vf.player:
        raise ParameterError(f"--as {as_!r}: the view file is {vf.player}'s")
    if vf.log.moves != log.moves:
        if len(vf.log.moves) == len(log.moves):
            raise AdjudicatorError(f"{path}: its moves differ from the game's: it was made from another copy")
        raise AdjudicatorError(
            f"{path}: made after move {len(vf.log.moves)}, but the game is at move "
            f"{len(log.moves)}: send {vf.player} a new view file"
        )
    return [vf.move.move]


def _extend_view(path: str, vf: ViewFile, moves: list[str], as_: str | None, comment: str | None) -> None:
    """A player records their move in their view file (checked against its legal list)."""
    number = len(vf.log.moves) + 1
    if as_ is not None and as_ != vf.player:
        raise ParameterError(f"--as {as_!r}: this view file is {vf.player}'s")
    if vf.move is not None:
        raise AdjudicatorError(
            f"{_name(path)}: already holds {vf.player}'s move {vf.move.move!r}: send it to the referee"
        )
    if vf.legal is None:
        who = f"it is {vf.to_move}'s turn" if vf.to_move else "the game is over"
        raise IllegalMoveError(f"{who}, not {vf.player}'s").at(number, vf.player, " ".join(moves))
    if len(moves) != 1:
        raise ParameterError("a view file takes one move at a time; the referee sends the next view")
    typed = moves[0]
    key = "".join(typed.split()).casefold()
    chosen = [m for m in vf.legal if "".join(m.split()).casefold() == key]
    if not chosen:
        raise IllegalMoveError(
            f"not one of the {len(vf.legal)} legal moves listed in the view file "
            f"(adjudicator legal {_name(path)})"
        ).at(number, vf.player, typed)
    entry = match.sealed(vf.log, [(vf.player, chosen[0], comment)])[-1]
    updated = msgspec.structs.replace(vf, move=entry)
    if path == "-":
        sys.stdout.buffer.write(logmod.encode(updated))
        return
    _write(path, logmod.encode(updated))
    typer.echo(f"Recorded {vf.player}'s move {chosen[0]} in {path}: send the file to the referee.")


@app.command()
def replay(log: LogArg, as_: AsOpt = None, secret: SecretOpt = None, json_: JsonOpt = False, ascii_: AsciiOpt = False) -> None:
    """Show every position of a game in turn, from the start to the last move.

    Each position is shown as the player to move sees it, with their legal
    moves (or as --as PLAYER sees it).

    \b
    Example: adjudicator replay examples/turn-of-time/3-players.json --ascii
    """
    _, data = _unlocked(log, secret)
    rep = match.validate(data, keep=True)
    viewer = _seat(rep, as_)
    positions = [
        _position(rep, state, ply, viewer, as_ is None) for ply, state in enumerate(rep.states)
    ]
    if json_:
        _json({"game": data.game, "players": data.players, "positions": positions,
               "result": data.result})
        return
    style = _style(ascii_)
    for pos in positions:
        _print_position(rep.game, pos, style, len(data.moves))
        typer.echo("")


@app.command()
def validate(
    logs: Annotated[list[str], typer.Argument(help="Log files to check (- for stdin).", show_default=False)],
    secret: SecretOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Check logs move by move; exit 0 only if every one is valid.

    A valid log has a known game and parameters, an unbroken digest chain,
    every move by the player to move, legal and in canonical notation, and the
    right result. Each bad log gets one line naming its first bad move. A
    refereed game whose seed is secret can only have its header and chain
    checked, and says so, unless the referee gives --secret.

    \b
    Example: adjudicator validate examples/turn-of-time/*.json
    """
    report = []
    bad = 0
    for path in logs:
        entry: dict[str, Any] = {"file": path, "valid": False, "game": None, "moves": None,
                                 "result": None, "error": None, "unchecked": None}
        try:
            stored = _read(path)
            data = match.unlock(stored, _secret(secret)) if stored.refereed else stored
            entry.update(game=data.game, moves=len(data.moves))
            if data.seed is None:
                match.check_header(data)
                match.check_chain(data)
                entry.update(valid=None, unchecked="moves and result: the seed is secret")
            else:
                rep = match.validate(data)
                entry.update(valid=True, result=data.result, to_move=rep.to_move())
        except AdjudicatorError as e:
            bad += 1
            entry["error"] = str(e)
            text = str(e)
            msg = text if text.startswith((f"{path}:", "stdin:")) else f"{path}: {text}"
            if not json_:
                typer.echo(one_line(msg), err=True)
        else:
            if json_:
                pass
            elif entry["valid"] is None:
                typer.echo(f"unchecked {path}: {data.game}, {len(data.moves)} moves, refereed: "
                           "header and digest chain intact; the moves and the result cannot be "
                           "checked while the seed is secret (the referee can give --secret)")
            else:
                state = (f"over, {match.describe(data.result)}" if data.result is not None
                         else f"in progress, {entry['to_move']} to move")
                typer.echo(f"ok {path}: {data.game}, {len(data.moves)} moves, {state}")
        report.append(entry)
    if json_:
        _json(report)
    if bad:
        raise typer.Exit(1)


@app.command()
def view(
    log: LogArg,
    as_: Annotated[str, typer.Option("--as", metavar="PLAYER", help="The player the view file is for.")],
    secret: SecretOpt = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", metavar="FILE", help="Write the view file here instead of stdout.")] = None,
) -> None:
    """Write a player's view file: the public log, what they may see, their legal moves.

    The referee of a refereed game sends it to the player, who runs show and
    extend on it and sends it back; it holds nothing the player may not see.

    \b
    Example: adjudicator view game.json --secret game.secret.json --as ann -o ann.json
    """
    stored, data = _unlocked(log, secret)
    rep = match.validate(data)
    seat = _seat(rep, as_)
    to_move = rep.game.to_move(rep.state)
    legal = None
    if to_move is not None and to_move == seat:
        legal = tuple(rep.game.format_move(rep.state, m) for m in rep.game.legal_moves(rep.state))
    vf = ViewFile(
        format=VIEW_FORMAT,
        version=logmod.VERSION,
        player=as_,
        to_move=None if to_move is None else rep.players[to_move],
        log=match.publish(data, stored),
        view=msgspec.Raw(msgspec.json.encode(rep.game.view(rep.state, seat))),
        legal=legal,
        move=None,
    )
    data_out = logmod.encode(vf)
    if output is None:
        sys.stdout.buffer.write(data_out)
        return
    _write(output, data_out)
    turn = "their move" if legal is not None else f"{vf.to_move or 'nobody'} to move"
    typer.echo(f"Wrote {output} for {as_} ({turn}).")


@app.command()
def reveal(log: LogArg, secret: Annotated[str, typer.Option("--secret", metavar="FILE", help="The referee's secret file.")]) -> None:
    """Publish the seed of a refereed game in its log, so anyone can audit it.

    \b
    Example: adjudicator reveal game.json --secret game.secret.json
    """
    stored = _read(log)
    if stored.seed is not None:
        raise AdjudicatorError(f"{_name(log)}: the seed is already in the log")
    revealed = match.reveal(stored, _secret(secret))  # type: ignore[arg-type]
    match.validate(revealed)
    if log == "-":
        _emit(revealed, None, False)
        return
    _write(log, logmod.encode(revealed))
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
def diff(a: Annotated[str, typer.Argument(help="One copy of a log.")], b: Annotated[str, typer.Argument(help="Another copy.")]) -> None:
    """Say whether two copies of a log are the same game, and where they part.

    Exit 0 when the copies hold the same moves, 1 otherwise.

    \b
    Example: adjudicator diff ann-copy.json bob-copy.json
    """
    same, lines = match.diff(_read(a), _read(b), _name(a), _name(b))
    for line in lines:
        typer.echo(one_line(line))
    if not same:
        raise typer.Exit(1)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the log format (kept in notation/log.schema.json).

    \b
    Example: adjudicator schema > log.schema.json
    """
    typer.echo(logmod.schema_text(), nl=False)


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
    log = match.simulate(game, _players(players), secrets.token_hex(8) if seed is None else seed,
                         _params(param), play_seed=play_seed, max_moves=max_moves)
    if _emit(log, output, force):
        typer.echo(f"Wrote {output}: {len(log.moves)} moves, {match.describe(log.result)}")


def main() -> None:
    app(prog_name="adjudicator")
