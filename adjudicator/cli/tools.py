"""Commands about the games and the files: games, rules, convert, schema,
simulate, and a player's signing key."""

from __future__ import annotations

import textwrap
from typing import Annotated

import typer

from .. import actions, files, games, log as logmod, match
from ..errors import AdjudicatorError, UsageError, counted
from ..log import ViewFile
from .common import ForceOpt, JsonOpt, LogArg, echo_json, known_game, put


def list_games(json_: JsonOpt = False) -> None:
    """List the games, their player counts and their parameters with defaults.

    \b
    Example: adjudicator games
    """
    if json_:
        from ..outputs import GameInfo, ParamInfo

        kinds = {str: "string", int: "integer", bool: "boolean"}
        echo_json([
            GameInfo(
                id=g.id, title=g.title, players=list(g.players), rules=g.rules_version,
                notation=g.notation_doc,
                params=[ParamInfo(name=p.name, type=kinds[p.kind], default=p.default,  # type: ignore[arg-type]
                                  choices=list(p.choices) or None, minimum=p.minimum,
                                  maximum=p.maximum, accepts=p.describe(), applies=p.applies,
                                  help=p.help) for p in g.params],
            )
            for g in games.GAMES.values()
        ])
        return
    for g in games.GAMES.values():
        counts = ", ".join(str(n) for n in g.players)
        typer.echo(f"{g.id}  {g.title}  (players: {counts}; notation: adjudicator rules {g.id})")
        for p in g.params:
            typer.echo(f"    --param {p.label}={p.default}   [{p.describe()}; {p.applies}]")
            typer.echo(textwrap.fill(p.help, width=78, initial_indent="        ",
                                     subsequent_indent="        "))


def rules(
    game: Annotated[str, typer.Argument(help="The game id, as listed by 'adjudicator games'.", show_default=False)],
) -> None:
    """Print a game's notation document: the move grammar, examples and every
    ruling (installed with the package; error messages point to it).

    \b
    Example: adjudicator rules atlas
    """
    from importlib import resources

    known_game(game)
    known = games.get(game)
    doc = resources.files("adjudicator").joinpath(known.notation_doc)
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError:
        raise AdjudicatorError(f"{known.notation_doc} is missing from this installation") from None
    typer.echo(text, nl=False)


def convert(
    log: LogArg,
    to: Annotated[str, typer.Option("--to", metavar="FORM", help="'text' (for mail), 'forum' (the text form in a code block of a forum post) or 'json'.")],
    style: Annotated[str | None, typer.Option("--style", metavar="MARKUP", help="With --to forum: 'markdown' (Reddit, Discourse, Discord; the default) or 'bbcode' (phpBB, BoardGameGeek).")] = None,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write here instead of stdout.")] = None,
    force: ForceOpt = False,
) -> None:
    """Convert a log or view file between JSON and the text form, losslessly.

    The text form (notation/text-form.md) is pure ASCII within 72 columns and
    survives being pasted into a mail, quoted and re-wrapped; every command
    reads it, and a whole mail message holding it, as well. On a forum, post
    --to forum: the text form in a code block, which the forum shows as it
    is; every command reads the post back, as written or as the forum shows it.

    \b
    Example: adjudicator convert game.json --to forum --style bbcode -o post.txt
    """
    from .. import textform

    form = to.strip().lower()
    if form not in ("text", "json", "forum"):
        raise UsageError(f"--to {to!r}: text, forum or json")
    markup = "markdown" if style is None else style.strip().lower()
    if style is not None and form != "forum":
        raise UsageError("--style goes with --to forum")
    if markup not in textform.FORUM_STYLES:
        raise UsageError(f"--style {style!r}: {' or '.join(textform.FORUM_STYLES)}")
    value = actions.found(log).value
    if form == "forum":
        data = textform.forum(value, markup).encode("ascii")
    else:
        data = actions.encoded(value, form, log)
    if output is None:
        put(data)
        return
    # A view file holds its player's hand: its copy is theirs alone to read.
    files.write(output, data, replace=force, private=isinstance(value, ViewFile))
    kind = "view file" if isinstance(value, ViewFile) else "log"
    how = {"text": "the text form", "json": "the JSON form", "forum": f"a {markup} code block"}[form]
    typer.echo(f"Wrote {output}: the {kind} in {how}.")


def schema(
    name: Annotated[str, typer.Argument(help="log, view, games, show, legal, replay, validate, audit or diff.")] = "log",
) -> None:
    """Print the JSON Schema of the log format, or of a command's --json output
    (kept in notation/log.schema.json and notation/schemas/).

    \b
    Example: adjudicator schema validate > validate.schema.json
    """
    from .. import outputs

    if name == "log":
        typer.echo(logmod.schema_text(), nl=False)
        return
    if name not in outputs.SCHEMAS:
        raise UsageError(f"no schema {name!r} (schemas: {', '.join(outputs.SCHEMAS)})")
    typer.echo(outputs.schema_text(name), nl=False)


def simulate(
    game: Annotated[str, typer.Argument(help="The game id.")],
    players: Annotated[str, typer.Option("--players", "-p", help="Player names, comma-separated.")],
    seed: Annotated[str | None, typer.Option("--seed", "-s", help="The game's seed (default: random).")] = None,
    play_seed: Annotated[str | None, typer.Option("--play-seed", help="Seed of the random choice of moves (default: the game's seed).")] = None,
    param: Annotated[list[str], typer.Option("--param", "-P", metavar="KEY=VALUE", help="A game parameter; repeat for several.")] = [],  # noqa: B006
    max_moves: Annotated[int | None, typer.Option("--moves", metavar="N", help="Stop after N moves.")] = None,
    bot: Annotated[str | None, typer.Option("--bot", metavar="LEVEL[,LEVEL...]", help="Bots play: one level for every seat or one per seat (random, greedy, standard, search:N, search:Ns, module:function).")] = None,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write the log here instead of stdout.")] = None,
    force: ForceOpt = False,
) -> None:
    """Play a game of random legal moves, or of bots, and write its log (self-play).

    Without --bot every move is a uniformly random legal move. With --bot
    each seat is played by a bot from its own view only; with the same
    seeds and levels counted in iterations, the same log.

    \b
    Example: adjudicator simulate atlas --players ann,bob,cy --bot standard,random,greedy -o game.json
    """
    known_game(game)
    log = actions.simulate(game, players, seed, param, play_seed=play_seed, max_moves=max_moves,
                           bots=bot)
    if output is None:
        put(logmod.encode(log))
        return
    files.write(output, logmod.encode(log), replace=force)
    typer.echo(f"Wrote {output}: {counted(len(log.moves), 'move')}, {match.describe(log.result)}")


key_app = typer.Typer(
    no_args_is_help=True, rich_markup_mode=None,
    help=("A player's own signing key, to sign their moves.\n\n\b\n"
          "Example: adjudicator key new -o ann.key"),
)


@key_app.command("new")
def key_new(
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="Where to write the key file (readable by you alone).")],
    force: ForceOpt = False,
) -> None:
    """Make a signing key: the file is private; give the public key it prints
    to whoever starts the game (new --key PLAYER=KEY).

    \b
    Example: adjudicator key new -o ann.key
    """
    from .. import seal

    private = seal.new_signing_key()
    key = logmod.KeyFile(format=logmod.KEY_FORMAT, version=logmod.VERSION,
                         public=seal.public_key(private), private=private)
    files.write(output, logmod.encode(key), replace=force, private=True)
    typer.echo(f"Wrote {output} (private: keep it). Public key: {key.public}")


@key_app.command("new-referee")
def key_new_referee(
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="Where to write the key file (readable by you alone).")],
    force: ForceOpt = False,
) -> None:
    """Make a referee's long-term key, for every game of a club or event
    (new --referee --referee-key FILE); prints its fingerprint, to read aloud.

    \b
    Example: adjudicator key new-referee -o club.key
    """
    from .. import seal

    private = seal.new_signing_key()
    key = logmod.KeyFile(format=logmod.KEY_FORMAT, version=logmod.VERSION,
                         public=seal.public_key(private), private=private)
    files.write(output, logmod.encode(key), replace=force, private=True)
    typer.echo(f"Wrote {output} (private: keep it). Referee key: {key.public}")
    typer.echo(f"Fingerprint: {seal.fingerprint(key.public)} (read it to the players; they "
               "check games with --referee-key)")


@key_app.command("sign-admin")
def key_sign_admin(
    words: Annotated[list[str], typer.Argument(metavar="ACT GAME [ARGS]...", help="The organiser's act, e.g. pause cup-3.", show_default=False)],
    key: Annotated[str, typer.Option("--key", metavar="FILE", help="Your key file (adjudicator key new).")],
    referee: Annotated[str, typer.Option("--referee", metavar="ADDRESS", help="The referee's mail address.")],
) -> None:
    """Sign an organiser's act for the referee by mail: prints the two lines
    to put at the top of a mail to it (each signature acts once).

    \b
    Example: adjudicator key sign-admin --key org.key --referee referee@club.example pause cup-3
    """
    from .. import actions
    from ..postal import organiser

    typer.echo(organiser.sign(actions.private_key(key) or "", referee, list(words)), nl=False)


def help_(
    ctx: typer.Context,
    command: Annotated[list[str] | None, typer.Argument(metavar="COMMAND", help="A command (and a subcommand: 'key new'); none lists them all.", show_default=False)] = None,
) -> None:
    """Show the help of a command, or list the commands.

    \b
    Example: adjudicator help extend
    """
    root = ctx.find_root()
    target, at = root.command, root
    for name in command or []:
        sub = target.get_command(at, name) if hasattr(target, "get_command") else None
        if sub is None:
            raise UsageError(f"no command {' '.join(command or [])!r}: 'adjudicator help' "
                             "lists them")
        at = typer.Context(sub, info_name=name, parent=at)
        target = sub
    typer.echo(target.get_help(at))


def version() -> None:
    """The version, and the rules version of each game.

    \b
    Example: adjudicator version
    """
    from importlib.metadata import PackageNotFoundError, version as installed

    from .. import log as logmod

    try:
        mine = installed("adjudicator")
    except PackageNotFoundError:  # run from a source tree
        mine = "unknown"
    typer.echo(f"adjudicator {mine} (log format version {logmod.VERSION}; reads "
               f"{', '.join(map(str, logmod.VERSIONS))})")
    for game_id, game in games.GAMES.items():
        typer.echo(f"  {game_id} rules version {game.rules_version}")


COMMANDS = {"games": list_games, "rules": rules, "convert": convert, "schema": schema,
            "simulate": simulate, "key": key_app, "help": help_, "version": version}
