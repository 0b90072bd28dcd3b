"""The command line of tournaments: ``adjudicator tournament new|round|standings|archive``,
each a thin adapter over :mod:`adjudicator.tournament`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..errors import AdjudicatorError
from .common import AsciiOpt, ForceOpt, JsonOpt, put, style

tournament_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None,
    help=("Run a tournament by mail: seat rounds, start their refereed games, rank the "
          "players from audited results, archive the event.\n\n\b\n"
          "Example: adjudicator tournament standings club-atlas/ --ascii"),
)

DirArg = Annotated[str, typer.Argument(metavar="DIR", help="The tournament's directory (tournament.toml).", show_default=False)]


def _dir(directory: str) -> Path:
    root = Path(directory)
    if not root.is_dir():
        raise AdjudicatorError(f"{directory}: no such directory")
    return root


def _players(path: str) -> dict[str, str]:
    """A players file: one ``NAME ADDRESS`` a line, the address last (a
    name may hold spaces: ``Ann Smith ann@example.org``, quoted or not);
    # starts a comment."""
    from .. import names
    from ..tournament.event import TournamentError

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TournamentError(f"{path}: {getattr(e, 'strerror', None) or e}") from None
    out: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = names.split(line.split("#", 1)[0])
        if not words:
            continue
        if len(words) < 2:
            raise TournamentError(f"{path}:{number}: one player a line: NAME ADDRESS")
        player = names.clean(" ".join(words[:-1]))
        if names.find(player, out) is not None:
            raise TournamentError(f"{path}:{number}: {player!r} is listed twice (case and "
                                  "spaces do not count)")
        out[player] = words[-1]
    return out


@tournament_app.command("new")
def new(
    directory: DirArg,
    name: Annotated[str, typer.Option("--name", help="The event's name, as players read it.")],
    event_id: Annotated[str, typer.Option("--id", help="Short id, the prefix of its games' names (lower case, digits, - and _).")],
    game: Annotated[str, typer.Option("--game", help="The game played (adjudicator games).")],
    players: Annotated[str, typer.Option("--players", metavar="FILE", help="The players: one 'NAME ADDRESS' a line.")],
    rounds: Annotated[int, typer.Option("--rounds", help="Number of rounds.")],
    tables: Annotated[str, typer.Option("--tables", metavar="SIZES", help="Table sizes allowed, preferred first: 3, or 4,3.")],
    seed: Annotated[str, typer.Option("--seed", help="The seating is drawn from it alone.")],
    time: Annotated[str, typer.Option("--time", metavar="SPEC", help="Every game's time control, as new --time takes it.")] = "",
    fmt: Annotated[str, typer.Option("--format", help="auto, round-robin or swiss.")] = "auto",
    referee: Annotated[str, typer.Option("--referee", metavar="SUBDIR", help="The mail referee's directory, inside DIR.")] = "referee",
    referee_key: Annotated[str | None, typer.Option("--referee-key", metavar="FILE", help="The club's long-term referee key (adjudicator key new-referee), whose fingerprint players know; default: a new key for this event.")] = None,
    force: ForceOpt = False,
) -> None:
    """Write DIR/tournament.toml and the event's referee key DIR/event.key.json
    (private): every game of the event is signed under it. With
    --referee-key, that key is the club's long-term one, so players check
    the event's games with the fingerprint they already know.

    Edit the file for what no option sets (the game's [params], [points] by
    place, tiebreaks, bye); 'tournament round' reads it again each time.

    \b
    Example: adjudicator tournament new club --name "Club Atlas" --id atlas26 --game atlas --players players.txt --rounds 3 --tables 3 --seed spring
    """
    from .. import files, log as logmod, seal
    from ..tournament import event, rounds as rounds_

    root = Path(directory)
    try:
        sizes = [int(s) for s in tables.split(",")]
    except ValueError:
        raise event.TournamentError(f"--tables {tables!r}: sizes separated by commas, like 4,3") from None
    if referee_key is None:
        key = rounds_.new_key()
    else:
        try:
            key = logmod.decode_key(Path(referee_key).read_bytes(), referee_key)
        except OSError as e:
            raise event.TournamentError(f"--referee-key {referee_key}: "
                                        f"{e.strerror or e}") from None
    t = event.check({"name": name, "id": event_id, "game": game, "seed": seed, "rounds": rounds,
                     "tables": sizes, "format": fmt, "time": time, "referee": referee,
                     "key": key.public, "players": _players(players)}, "tournament")
    root.mkdir(parents=True, exist_ok=True)
    files.write(str(root / event.FILE), event.dump(t).encode("utf-8"), replace=force)
    files.write(str(root / event.KEY_FILE), logmod.encode(key), replace=force, private=True)
    typer.echo(f"Wrote {root / event.FILE} ({len(t.players)} players, {t.rounds} rounds) and "
               f"{root / event.KEY_FILE} (private: the event's referee key).")
    typer.echo(f"Referee fingerprint: {seal.fingerprint(key.public)} (players check the "
               "event's games with --referee-key)")


@tournament_app.command("round")
def round_(directory: DirArg) -> None:
    """Seat the next round and start every table's refereed game in the mail
    referee's directory (its games/ and roster.toml); the referee mails the
    players their first view when it next starts.

    Refused while a game of the round before is still being played.

    \b
    Example: adjudicator tournament round club
    """
    from ..tournament import event, rounds

    root = _dir(directory)
    t = event.load(root)
    seated = rounds.start_round(t, root, rounds.read_key(root / event.KEY_FILE))
    typer.echo(f"Round {seated.number} of {t.rounds} ({seated.method}):")
    for k, players in enumerate(seated.tables, 1):
        typer.echo(f"  {rounds.game_name(t, seated.number, k)}: {', '.join(players)}")
    if seated.byes:
        typer.echo(f"  bye: {', '.join(seated.byes)}")
    typer.echo(f"Restart the referee on {rounds.referee_dir(t, root)} (or let its next --once "
               "run) to mail the players.")


@tournament_app.command("standings")
def standings(
    directory: Annotated[str, typer.Argument(metavar="DIR|ARCHIVE", help="The tournament's directory, or its archive (checked against the logs in it).", show_default=False)],
    json_: JsonOpt = False,
    ascii_: AsciiOpt = False,
    html: Annotated[str | None, typer.Option("--html", metavar="FILE", help="Also write the standings as one HTML page, each game's replay in replays/ beside it.")] = None,
) -> None:
    """The standings from audited results only: a game whose log fails audit
    is listed as disputed with the audit's first finding; resignations,
    forfeits on time and stand-ins shown; ratings by openskill.

    Given an archive, the standings and ratings are rebuilt from its logs and
    must equal the ones stored in it (else exit 1).

    \b
    Example: adjudicator tournament standings club --ascii
    """
    from ..tournament import archive, event, page, report, rounds

    path = Path(directory)
    if path.is_file():
        s, stored = archive.rebuild(path)
        if s != stored:
            raise event.TournamentError(f"{directory}: the standings stored in it differ from "
                                        "those rebuilt from its logs")
        t, logs, _ = archive.read(path)
    else:
        root = _dir(directory)
        t = event.load(root)
        logs = rounds.event_logs(t, rounds.referee_dir(t, root) / "games")
        s = rounds.current(t, logs)
    if html is not None:
        n = page.write(s, logs, Path(html))
        if not json_:
            typer.echo(f"Wrote {html} and {n} replay pages in {Path(html).parent / 'replays'}.")
    if json_:
        put(report.encode(s))
        return
    typer.echo(report.table(s, ascii=not style(ascii_).unicode), nl=False)


@tournament_app.command("archive")
def archive_(
    directory: DirArg,
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE.zip", help="The archive to write.")],
    force: ForceOpt = False,
) -> None:
    """Pack every game's final log, the tournament file and the standings in
    one zip: anyone can run 'adjudicator audit FILE.zip' and 'tournament
    standings FILE.zip' on it.

    \b
    Example: adjudicator tournament archive club -o club-atlas.zip
    """
    from ..tournament import archive, event, rounds

    root = _dir(directory)
    t = event.load(root)
    out = Path(output)
    if out.exists() and not force:
        raise event.TournamentError(f"{output} exists: give --force to replace it")
    logs = rounds.event_logs(t, rounds.referee_dir(t, root) / "games")
    text = (root / event.FILE).read_text(encoding="utf-8")
    n = archive.pack(t, text, logs, rounds.current(t, logs), out)
    typer.echo(f"Wrote {output}: {n} games, {event.FILE} and {archive.standings_name(t)}.")


COMMANDS = {"tournament": tournament_app}
