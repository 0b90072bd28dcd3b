"""Commands with bots: hint, and play against bots at the terminal.

(``simulate --bot`` plays whole games of bots; it lives with ``simulate``.)
"""

from __future__ import annotations

import math
import shlex
import sys
import textwrap
from typing import Annotated

import typer

from .. import actions, files, log as logmod, narrating, present
from ..errors import AdjudicatorError, one_line
from .common import AsciiOpt, AsOpt, ForceOpt, JsonOpt, SecretOpt, echo_json, known_game, style

BotOpt = Annotated[str, typer.Option(
    "--bot", metavar="LEVEL",
    help="The player: random, greedy, standard, search:N (iterations), search:Ns (seconds), "
         "or module:function (your own).")]


def hint(
    log: Annotated[str, typer.Argument(metavar="LOG_OR_VIEW", help="A game log, or your view file from the referee (- for stdin).", show_default=False)],
    as_: AsOpt = None,
    budget: Annotated[float | None, typer.Option("--budget", metavar="S", min=0.01, max=3600, help="Search for S seconds of CPU time (default: the standard budget, about a second).")] = None,
    top: Annotated[int, typer.Option("--top", metavar="N", min=1, help="Show the N best moves.")] = 5,
    bot: BotOpt = "standard",
    seed: Annotated[str, typer.Option("--seed", help="Seed of the bot's random choices (the same seed, the same hint).")] = "hint",
    secret: SecretOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Rank the moves of the player to move, with a bot's estimate of each.

    The bot sees what the player to move sees and nothing more: from an
    open log, their view; from a refereed game, give your view file (or the
    log with the referee's --secret). A value is the share of the table the
    player can expect to finish above, half, and of the win, half: 0 is
    hopeless, 1 certain. With --budget the search runs for S seconds and is
    not reproducible; without, the same seed gives the same hint.

    \b
    Example: adjudicator hint game.json --top 3
    """
    name = actions.source(log)
    game, player, number, decision, view = actions.hint(
        actions.found(log), name, as_, secret, level=bot, seconds=budget, seed=seed)
    label = f"search:{budget}s" if budget is not None else bot
    ranked = decision.ranked or ()
    if json_:
        from ..outputs import Hint, HintMove

        echo_json(Hint(
            game=game.id,
            player=player, number=number, bot=label, best=decision.move,
            iterations=decision.iterations, plies=decision.plies,
            moves=[HintMove(move=r.move, value=None if math.isnan(r.value) else round(r.value, 4),
                            visits=r.visits) for r in ranked[:top]]))
        return
    effort = (f": {decision.iterations:,} iterations, {decision.plies:,} moves simulated"
              if decision.iterations else "")
    typer.echo(f"Hint for {player}, move {number} ({label}{effort}):")
    if not ranked:
        typer.echo(f"  {decision.move}")
    told = dict(narrating.explained(game, view, [r.move for r in ranked[:top]]))
    for i, r in enumerate(ranked[:top], 1):
        value = "   -" if math.isnan(r.value) else f"{r.value:.2f}"
        typer.echo(f"  {i}. {r.move:<12} value {value}  ({r.visits:,} simulations)")
        if told.get(r.move):
            typer.echo(textwrap.fill(told[r.move], width=present.WIDTH, initial_indent="     ",
                                     subsequent_indent="     ", break_on_hyphens=False))
    typer.echo(f"Best: {decision.move}")


def play(
    game: Annotated[str, typer.Argument(help="The game id.")],
    players: Annotated[str, typer.Option("--players", "-p", help="The seats in turn order, comma-separated: a name for a person, bot or bot:LEVEL for a bot (e.g. ann,bot,bot:greedy).")],
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="The log, written after every move.")],
    seed: Annotated[str | None, typer.Option("--seed", "-s", help="The game's seed (default: random).")] = None,
    param: Annotated[list[str], typer.Option("--param", "-P", metavar="KEY=VALUE", help="A game parameter; repeat for several.")] = [],  # noqa: B006
    force: ForceOpt = False,
    ascii_: AsciiOpt = False,
) -> None:
    """Play against bots at the terminal, move by move, writing a normal log.

    At your turn you see your view and your legal moves; type a move, 'hint'
    for the standard bot's advice, or 'quit' (the log is saved after every
    move: go on later with 'adjudicator extend'). Bots see their own view
    only. Several people may share the table (each sees their view in turn).

    \b
    Example: adjudicator play atlas --players ann,bot,bot -o practice.json
    """
    from secrets import token_hex

    from ..bots import table as tables

    seats = tables.seats_of(actions.players_of(players))
    if not any(not s.is_bot for s in seats):
        raise AdjudicatorError("no person at the table: use 'adjudicator simulate --bot' "
                               "for a game of bots")
    seed = token_hex(8) if seed is None else seed
    known_game(game)
    table = tables.Table.new(game, seats, seed, actions.params_of(param))
    look = style(ascii_)
    files.write(output, logmod.encode(table.log), replace=force)
    typer.echo(f"Wrote {output}: {game} for {', '.join(s.name for s in seats)}, seed {seed}.")
    shown_at = -1
    while (seat := table.to_move()) is not None:
        if seat.is_bot:
            move = table.play_bot()
            typer.echo(f"{len(table.log.moves)}. {seat.name} ({seat.level}) played {move}")
        else:
            if shown_at != len(table.log.moves):  # the board once per position
                shown_at = len(table.log.moves)
                shown = actions.show(table.log, as_player=seat.name)
                typer.echo(present.position_text(shown.game, shown.position, look,
                                                 len(table.log.moves), [], False))
            text = typer.prompt(f"{seat.name}, your move", default="", show_default=False,
                                prompt_suffix="> ").strip()
            if not sys.stdin.isatty():
                typer.echo(text)  # what was read, where no terminal echoed it
            if text.lower() in ("quit", "q", "exit"):
                typer.echo(f"Saved {output}; go on with: adjudicator extend {output} MOVE "
                           f"--as {shlex.quote(seat.name)}")
                return
            if text.lower() in ("hint", "?"):
                _, _, _, decision, _ = actions.hint(actions.Found(table.log, "json"), output)
                best = ", ".join(f"{r.move} ({r.value:.2f})" for r in decision.ranked[:3]
                                 if not math.isnan(r.value)) or decision.move
                typer.echo(f"Hint: {best}")
                continue
            if not text:
                continue
            try:
                move = table.play(text)
            except AdjudicatorError as e:
                typer.echo(f"Error: {one_line(str(e))}", err=True)
                continue
            typer.echo(f"{len(table.log.moves)}. {seat.name} played {move}")
        files.write(output, logmod.encode(table.log), replace=True)
    shown = actions.show(table.log)
    typer.echo(present.position_text(shown.game, shown.position, look, len(table.log.moves),
                                     [], False))
    typer.echo(f"The game is over; the log is in {output}.")


COMMANDS = {"hint": hint, "play": play}
