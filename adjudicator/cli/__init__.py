"""The command line: a thin adapter over the library (:mod:`adjudicator.actions`).

Each command reads its options, calls one library function and prints what
it returns. Every project error is caught in one place (:func:`_reported`)
and printed as one ``Error: ...`` line on stderr with exit status 1; usage
errors are Typer's (exit status 2). No command knows any particular game.

Only the command asked for is loaded: the commands live in modules by
concern, and the group (:class:`_Lazy`) imports a command's module and has
Typer build the command when it is invoked (click's "lazy subcommands").
``adjudicator --help`` lists every command from :data:`COMMANDS` without
loading one.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from ..errors import AdjudicatorError, UsageError, one_line
from .common import fit_output

#: Every command: the module under adjudicator.cli that holds it, and its
#: short help (the first paragraph of its docstring, which a test holds it to).
COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("tools", "List the games, their player counts and their parameters with defaults."),
    "new": ("play", "Start a new game log."),
    "show": ("play", "Show the board, whose turn it is, the legal moves and the score."),
    "legal": ("play", "List the legal moves of the player to move, one per line."),
    "extend": ("play", "Check moves and append them to the log, all or nothing, then show the board."),
    "resign": ("play", "Resign: the game ends, and you are ranked last below everyone else."),
    "propose": ("play", "Propose taking back the last N moves, or abandoning the game; the "
                        "others answer with accept or reject."),
    "accept": ("play", "Accept the proposal waiting for your answer (a takeback, or abandoning "
                       "the game)."),
    "reject": ("play", "Reject the proposal waiting for your answer."),
    "replay": ("play", "Show every position of a game in turn, from the start to the last move."),
    "draw": ("play", "Draw the board as a picture: SVG, or PNG by the file's extension."),
    "validate": ("check", "Check logs move by move; exit 0 only if every one is valid."),
    "view": ("play", "Write a player's view file: the public log, what they may see, what "
                     "happened since they last moved, their legal moves."),
    "reveal": ("check", "Publish the seed of a refereed game in its log, so anyone can audit it."),
    "audit": ("check", "Check everything about logs: a short report for one, a line each for "
                       "many; exit 0 unless a check fails."),
    "diff": ("check", "Say whether two copies of a log are the same game, and where they part."),
    "rules": ("tools", "Print a game's notation document: the move grammar, examples and every "
                       "ruling (installed with the package; error messages point to it)."),
    "convert": ("tools", "Convert a log or view file between JSON and the text form, losslessly."),
    "schema": ("tools", "Print the JSON Schema of the log format, or of a command's --json "
                        "output (kept in notation/log.schema.json and notation/schemas/)."),
    "simulate": ("tools", "Play a game of random legal moves, or of bots, and write its log "
                          "(self-play)."),
    "hint": ("bots", "Rank the moves of the player to move, with a bot's estimate of each."),
    "play": ("bots", "Play against bots at the terminal, move by move, writing a normal log."),
    "referee": ("mail", "Referee games by mail: read moves from the Maildir (or IMAP), send "
                        "every player their view, no human in the loop."),
    "key": ("tools", "A player's own signing key, to sign their moves."),
    "deal": ("trust", "Contribute to the deal of a refereed game, so that nobody, the referee "
                      "included, chooses it: commit, then reveal."),
    "tournament": ("tournament", "Run a tournament by mail: seat rounds, start their refereed "
                                 "games, rank the players from audited results, archive the event."),
    "help": ("tools", "Show the help of a command, or list the commands."),
    "version": ("tools", "The version, and the rules version of each game."),
}

#: -h is --help, in every command.
CONTEXT = {"help_option_names": ["-h", "--help"]}


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


def _build(name: str) -> Any:
    """The click command ``name``, built by Typer from its module's declaration."""
    module = importlib.import_module(f"{__name__}.{COMMANDS[name][0]}")
    target = module.COMMANDS[name]
    one = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                      context_settings=CONTEXT)
    if isinstance(target, typer.Typer):
        one.add_typer(target, name=name)
    else:
        one.command(name)(target)
    one.callback()(_nothing)  # a group of one, so Typer builds the command as the app would
    group = typer.main.get_command(one)
    assert isinstance(group, TyperGroup)
    command = group.commands[name]
    _conventional(command)
    return command


#: The metavar of an option's value by its type, as click writes them.
_METAVARS = {"str": "TEXT", "int": "INTEGER", "float": "FLOAT"}


class _Argument(TyperArgument):
    """An argument as usage lines conventionally write it: ``LOG``, ``[LOG]...``
    (not ``{log}``), and in the help ``LOG`` alone (not ``log <str>``)."""

    def _usage_display_name(self) -> str:
        name = self.make_metavar(None)
        return name if self.required else f"[{name}]"

    def make_metavar(self, ctx: Any = None) -> str:
        name = self.metavar or (self.name or "").upper()
        return name + ("..." if self.nargs != 1 and not name.endswith("...") else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _rich_display_name(self) -> str:
        return self.make_metavar(None)


def _conventional(command: Any) -> None:
    """Conventional metavars in a command and its subcommands: arguments in
    capitals, an option's value by its type (``TEXT``, ``INTEGER``)."""
    for param in getattr(command, "params", ()):
        if isinstance(param, TyperArgument) and not isinstance(param, _Argument):
            param.__class__ = _Argument
        elif isinstance(param, TyperOption) and param.metavar is None and not param.is_flag:
            kind = param.bare_type().removeprefix("list[").removesuffix("]")
            param.metavar = _METAVARS.get(kind, kind.upper() or "TEXT")
    for sub in getattr(command, "commands", {}).values():
        _conventional(sub)


def _nothing() -> None:
    pass


class _Commands(Mapping[str, Any]):
    """The commands by name, each built on first use."""

    def __init__(self) -> None:
        self._built: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in COMMANDS:
            raise KeyError(name)
        if name not in self._built:
            self._built[name] = _build(name)
        return self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)


class _Lazy(TyperGroup):
    """Loads only the command invoked, and turns every
    :class:`AdjudicatorError` into one line and exit status 1."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = _Commands()  # type: ignore[assignment]

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        # Suggest only a command close to the one typed ('shwo': 'show'),
        # never a distant one ('version' once drew 'resign').
        name = args[0] if args else ""
        if name and not name.startswith("-") and name not in COMMANDS:
            from difflib import get_close_matches

            close = get_close_matches(name, list(COMMANDS), n=1, cutoff=0.75)
            hint = f" Did you mean {close[0]!r}?" if close else ""
            ctx.fail(f"No such command {name!r}.{hint} 'adjudicator help' lists them.")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        # The short helps come from the table: listing the commands loads none.
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, TyperCommand(name, help=summary).get_short_help_str(limit))
                for name, (_, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: Any) -> Any:
        with _reported():
            return super().invoke(ctx)


app = typer.Typer(
    cls=_Lazy,
    context_settings=CONTEXT,
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


def _version(value: bool) -> None:
    if not value:
        return
    from .tools import version

    version()
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


def main() -> None:
    """The console script ``adjudicator``."""
    # Start-up is mostly imports, which make objects that live as long as the
    # process: the collector leaves those alone (frozen) and runs less often
    # (every 10,000 new objects, not 700). A command's start takes about 5%
    # fewer instructions (benchmarks/bench.py, show against hello-world);
    # the collector still runs, so a long run of the referee stays bounded.
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    fit_output()
    app(prog_name="adjudicator")
