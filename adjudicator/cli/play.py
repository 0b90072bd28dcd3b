"""Commands of play: start a game, show it, record moves and events, replay
it, draw it, and a player's view file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from .. import actions, files, present
from .. import log as logmod
from ..engine import Style
from ..errors import UsageError, counted
from ..log import Log, ViewFile
from ..present import fold, safe
from .common import (
    AllowUnsignedOpt,
    AsciiOpt,
    AsOpt,
    DetailsOpt,
    ForceOpt,
    JsonOpt,
    LogArg,
    RefereeKeyOpt,
    SecretOpt,
    echo_json,
    known_game,
    put,
    style,
)

EventAs = Annotated[str, typer.Option("--as", metavar="PLAYER", help="Who records it (in a refereed game the referee may answer as 'referee').")]
ExpectOpt = Annotated[int | None, typer.Option("--expect", metavar="N", help="Refuse unless the log holds exactly N entries.")]
KeyOpt = Annotated[str | None, typer.Option("--key", metavar="FILE", help="Your key file, if you sign your moves.")]
CommentOpt = Annotated[str | None, typer.Option("--comment", "-m", help="A comment recorded with it.")]


def new(
    game: Annotated[str, typer.Argument(help="The game id, as listed by 'adjudicator games'.")],
    players: Annotated[str, typer.Option("--players", "-p", help="Player names in turn order, comma-separated; a name may hold spaces ('Ann Smith,Bob Jones').")],
    seed: Annotated[str | None, typer.Option("--seed", "-s", help="The seed of every shuffle and draw (default: random).")] = None,
    param: Annotated[list[str], typer.Option("--param", "-P", metavar="KEY=VALUE", help="A game parameter; repeat for several.")] = [],  # noqa: B006
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write the log here instead of stdout.")] = None,
    referee: Annotated[bool, typer.Option("--referee", help="A refereed game: the log holds only a commitment to the seed, which goes to a secret file for the referee.")] = False,
    secret: Annotated[str | None, typer.Option("--secret", metavar="FILE", help="With --referee: where to write the secret file (default: next to the log, NAME.secret.json).")] = None,
    tag: Annotated[list[str], typer.Option("--tag", "-t", metavar="KEY=VALUE", help="A tag: event, site, round, date or your own; repeat for several.")] = [],  # noqa: B006
    clock: Annotated[bool, typer.Option("--clock", help="Stamp every move with the time it was recorded.")] = False,
    deadline: Annotated[int | None, typer.Option("--deadline", metavar="HOURS", min=1, help="Hours a player has for each move (implies --clock); show reports it.")] = None,
    key: Annotated[list[str], typer.Option("--key", "-k", metavar="PLAYER=KEY", help="A player who signs their moves, with their public key (ed25519:...) or key file; repeat for several.")] = [],  # noqa: B006
    time: Annotated[str | None, typer.Option("--time", metavar="SPEC", help="A time control the referee by mail keeps (implies --clock), e.g. 'per-move=3d grace=1d expiry=stand-in' (README: Running a tournament by mail).")] = None,
    deal: Annotated[str | None, typer.Option("--deal", metavar="PLAYERS", help="With --referee: players who contribute to the deal with the tool (adjudicator deal), comma-separated or 'all'.")] = None,
    deal_words: Annotated[str | None, typer.Option("--deal-words", metavar="PLAYERS", help="With --referee: players who contribute a few words by mail instead.")] = None,
    referee_key: Annotated[str | None, typer.Option("--referee-key", metavar="FILE", help="With --referee: sign with this long-term key (adjudicator key new-referee) instead of a new one.")] = None,
    force: ForceOpt = False,
) -> None:
    """Start a new game log.

    With --referee the seed stays secret: the log (-o, required) carries a
    commitment to it, and the secret file, readable by its owner alone, holds
    the seed; the referee keeps it and sends each player a view file. With
    --deal the players contribute to the deal first (commit, then reveal),
    so that nobody, the referee included, chooses it.

    \b
    Example: adjudicator new turn-of-time --players ann,bob,cy --seed 7 -o game.json
    """
    known_game(game)
    started = actions.new_game(game, players, seed, param, key, tag, clock=clock,
                               deadline=deadline, output=output, refereed=referee,
                               secret_path=secret, replace=force, time=time, deal=deal,
                               words=deal_words, referee_key=referee_key)
    log = started.log
    if output is None:
        put(logmod.encode(log))
    elif started.secret is None:
        typer.echo(f"Wrote {output}: {log.game} for {', '.join(log.players)}, seed {log.seed}; "
                   f"{started.to_move} to move.")
    else:
        from .. import dealing, seal

        after = (f"{started.to_move} to move" if started.to_move is not None else
                 f"the deal waits for {', '.join(dealing.pending(log))}")
        typer.echo(f"Wrote {output} (public: send it to the players) and {started.secret_path} "
                   f"(the seed and signing key: keep it, referee only); {after}.")
        assert log.referee is not None
        typer.echo(f"Referee key: {log.referee} (fingerprint {seal.fingerprint(log.referee)}: "
                   "tell the players, it signs every log)")


def show(
    log: LogArg,
    as_: AsOpt = None,
    public: Annotated[bool, typer.Option("--public", help="Show only what every player may see.")] = False,
    at: Annotated[int | None, typer.Option("--at", metavar="N", help="Show the position after N moves (0 is the start).")] = None,
    ignore_rest: Annotated[bool, typer.Option("--ignore-rest", help="With --at: show the position even if later moves or the result are bad (to audit a disputed log).")] = False,
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    ascii_: AsciiOpt = False,
    details: DetailsOpt = False,
    referee_key: RefereeKeyOpt = None,
    allow_unsigned_event: AllowUnsignedOpt = False,
) -> None:
    """Show the board, whose turn it is, the legal moves and the score.

    By default the position is shown as the player to move sees it (and with
    their legal moves); once the game is over, as everybody sees it. The whole
    log must be valid, unless --ignore-rest is given with --at. LOG may also be
    a view file from the referee. A refereed game whose seed is secret shows
    anyone its public view: the moves and the result, not the board.

    --referee-key holds the log to the referee you expect (see validate). A
    refereed game is held to the copy of it shown here last: a copy that
    does not extend it is refused loudly (the referee showed two histories).

    \b
    Example: adjudicator show game.json --as bob --at 5
    """
    if as_ is not None and public:
        raise UsageError("give --as PLAYER or --public, not both")
    value = actions.found(log).value
    name = actions.source(log)
    if isinstance(value, ViewFile):
        from .. import referee

        seen = referee.check_view(value, name)
        _trusted(value, referee_key, allow_unsigned_event)
        _witnessed(value.log)
        if json_:
            echo_json(value)
        else:
            typer.echo(present.view_file_text(value, seen, style(ascii_), name))
        return
    secret_file = actions.read_secret(secret)
    if actions.sealed(value, secret_file):
        if as_ is not None and public:
            raise UsageError("give --as PLAYER or --public, not both")
        seen = actions.spectate(value, as_player=as_, at=at, ignore_rest=ignore_rest)
        _trusted(value, referee_key, allow_unsigned_event, remember=not ignore_rest)
        if not ignore_rest:
            _witnessed(value)
        _spectate(seen, json_, ascii_)
        return
    shown = actions.show(value, secret_file, as_player=as_, public=public, at=at,
                         ignore_rest=ignore_rest)
    _trusted(value, referee_key, allow_unsigned_event, remember=not ignore_rest)
    if value.refereed and not ignore_rest:
        _witnessed(value)
    if json_:
        echo_json(shown.position)
        return
    look = style(ascii_)
    typer.echo(present.position_text(shown.game, shown.position, look, len(shown.log.moves),
                                     present.tag_lines(shown.log, look), details,
                                     players=shown.log.players))


def _trusted(value: Log | ViewFile, given: str | None, allow: bool, remember: bool = True) -> None:
    """Hold the log (or the view file's log), checked, to the referee the user expects."""
    from .. import pinning

    note = pinning.check(value.log if isinstance(value, ViewFile) else value,
                         pinning.trust(given, allow_unsigned_event=allow), remember=remember)
    if note is not None:
        typer.echo(f"Note: {note}", err=True)


def _witnessed(log: Log) -> None:
    """Hold a refereed game to the copy of it shown here before (:func:`forks.witness`)."""
    from .. import forks

    note = forks.witness(log)
    if note is not None:
        typer.echo(f"Note: {note}", err=True)


def _spectate(seen: actions.Spectated, json_: bool, ascii_: bool) -> None:
    """A refereed game whose seed is secret, as anyone may see it."""
    if json_:
        raise actions.sealed_json()
    look = style(ascii_)
    typer.echo(present.public_text(seen.game, seen.log, seen.ply, look,
                                   present.tag_lines(seen.log, look), seen.signed))


def legal(
    log: LogArg,
    secret: SecretOpt = None,
    explain: Annotated[bool, typer.Option("--explain", help="Say beside each move what it would do, in the rule text's words.")] = False,
    json_: JsonOpt = False,
    ascii_: AsciiOpt = False,
) -> None:
    """List the legal moves of the player to move, one per line.

    With --explain, each move is followed by what it would do, in the words
    of the rule text (folded at 72 columns). With --json: {"player": NAME or
    null, "moves": [...], "words": [...] with --explain, else null}, an
    empty list once the game is over. LOG may also be a view file from the
    referee.

    \b
    Example: adjudicator legal game.json --explain
    """
    player, told = actions.explain(actions.found(log), actions.source(log), secret,
                                   words=explain)
    moves = [move for move, _ in told]
    if json_:
        from ..outputs import Legal

        echo_json(Legal(player=player, moves=moves,
                        words=[w for _, w in told] if explain else None))
    elif player is None:
        typer.echo("The game is over: no legal moves.", err=True)
    elif explain:
        look = style(ascii_)
        typer.echo("\n".join(present.explained_lines(told, look)))
    else:
        typer.echo("\n".join(moves))


def extend(
    log: LogArg,
    moves: Annotated[list[str] | None, typer.Argument(help="Moves in the game's notation.", show_default=False)] = None,
    as_: Annotated[str | None, typer.Option("--as", metavar="PLAYER", help="Refuse any move that is not this player's.")] = None,
    comment: Annotated[str | None, typer.Option("--comment", "-m", help="A comment recorded with the last move.")] = None,
    expect: Annotated[int | None, typer.Option("--expect", metavar="N", help="Refuse unless the log holds exactly N moves (the position the moves answer).")] = None,
    key: Annotated[str | None, typer.Option("--key", metavar="FILE", help="Your key file, if you sign your moves.")] = None,
    secret: SecretOpt = None,
    from_: Annotated[str | None, typer.Option("--from", metavar="VIEWFILE", help="Take the move a player recorded in their view file (the referee's side), then the moves they queued after it.")] = None,
    reply: Annotated[str | None, typer.Option("--reply", metavar="FILE", help="With --from: write that player's next view file to FILE, saying which queued moves were applied and which dropped.")] = None,
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
    raw = files.read(log)
    got = actions.found(log, raw)
    if isinstance(got.value, ViewFile):
        if from_ is not None or secret is not None:
            raise UsageError("--from and --secret go with the referee's log, not a view file")
        chosen = actions.extend_view(log, raw, got.value, got.form, moves or [], as_player=as_,
                                     comment=comment, key=actions.private_key(key), expect=expect)
        if chosen.output is not None:
            put(chosen.output)
            return
        vf = chosen.view
        queued = f" and queued {', '.join(vf.queued)}" if vf.queued else ""
        plain = Style(unicode=False)
        typer.echo(safe(f"Recorded {vf.player}'s move {vf.move.move}{queued} in {log}: "  # type: ignore[union-attr]
                        "send the file to the referee.", plain, present.names_for(vf.log.players, plain)))
        return
    if reply is not None and from_ is None:
        raise UsageError("--reply FILE goes with --from VIEWFILE")
    _record(log, raw, got, moves or [], as_=as_, comment=comment, expect=expect, key=key,
            secret=secret, from_=from_, ascii_=ascii_, reply=reply)


def _record(log: str, raw: bytes, got: actions.Found, moves: list[str], *,
            as_: str | None = None, comment: str | None = None, expect: int | None = None,
            key: str | None = None, secret: str | None = None, from_: str | None = None,
            ascii_: bool = False, reply: str | None = None) -> None:
    """Record moves or an event (:func:`actions.record`) and say so."""
    done = actions.record(log, raw, got, moves, as_player=as_, comment=comment, expect=expect,
                          key_path=key, secret_path=secret, from_=from_, reply=reply)
    if done.output is not None:
        put(done.output)
        return
    look = style(ascii_)
    names = present.names_for(done.log.players, look)
    count = len(done.added)
    typer.echo(safe(f"Recorded {count} move{'s' * (count != 1)} in {log}: "
                    + " ".join(e.move for e in done.added), look))
    for words in done.said:
        typer.echo(fold(f"  {words}", look, names))
    if done.taken is not None and done.taken.dropped:
        for line in done.taken.notes()[1:]:
            typer.echo(fold(f"{done.taken.player}'s queue: {line}", look, names))
    if done.reply is not None:
        typer.echo(safe(f"Wrote {done.reply} for {done.taken.player}.", look, names))  # type: ignore[union-attr]
    assert done.game is not None and done.position is not None
    typer.echo(present.position_text(done.game, done.position, look, len(done.log.moves),
                                     present.tag_lines(done.log, look), players=done.log.players))


def _event(log: str, event: str, as_: str, comment: str | None, expect: int | None,
           key: str | None, secret: str | None, ascii_: bool) -> None:
    raw = files.read(log)
    got = actions.found(log, raw)
    if isinstance(got.value, ViewFile):
        # A player records the event in their view file, for the referee.
        if secret is not None:
            raise UsageError("--secret goes with the referee's log, not a view file")
        chosen = actions.event_in_view(log, raw, got.value, got.form, event, as_player=as_,
                                       comment=comment, key=actions.private_key(key),
                                       expect=expect)
        if chosen.output is not None:
            put(chosen.output)
            return
        plain = Style(unicode=False)
        typer.echo(safe(f"Recorded {chosen.view.player}'s {event} in {log}: send the file to "
                        "the referee.", plain, present.names_for(chosen.view.log.players, plain)))
        return
    _record(log, raw, got, [event], as_=as_, comment=comment, expect=expect, key=key,
            secret=secret, ascii_=ascii_)


def resign(log: LogArg, as_: EventAs, comment: CommentOpt = None, expect: ExpectOpt = None,
           key: KeyOpt = None, secret: SecretOpt = None, ascii_: AsciiOpt = False) -> None:
    """Resign: the game ends, and you are ranked last below everyone else.

    \b
    Example: adjudicator resign game.json --as bob
    """
    _event(log, "@resign", as_, comment, expect, key, secret, ascii_)


def propose(
    log: LogArg,
    what: Annotated[str, typer.Argument(help="'takeback' or 'abandon'.", show_default=False)],
    count: Annotated[int | None, typer.Argument(help="With takeback: how many moves.", show_default=False)] = None,
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
    _event(log, event, as_, comment, expect, key, secret, ascii_)


def accept(log: LogArg, as_: EventAs, comment: CommentOpt = None, expect: ExpectOpt = None,
           key: KeyOpt = None, secret: SecretOpt = None, ascii_: AsciiOpt = False) -> None:
    """Accept the proposal waiting for your answer (a takeback, or abandoning the game).

    \b
    Example: adjudicator accept game.json --as bob
    """
    _event(log, "@accept", as_, comment, expect, key, secret, ascii_)


def reject(log: LogArg, as_: EventAs, comment: CommentOpt = None, expect: ExpectOpt = None,
           key: KeyOpt = None, secret: SecretOpt = None, ascii_: AsciiOpt = False) -> None:
    """Reject the proposal waiting for your answer.

    \b
    Example: adjudicator reject game.json --as bob
    """
    _event(log, "@reject", as_, comment, expect, key, secret, ascii_)


def replay(
    log: LogArg,
    as_: AsOpt = None,
    public: Annotated[bool, typer.Option("--public", help="With --html: only the public view.")] = False,
    secret: SecretOpt = None,
    json_: JsonOpt = False,
    ascii_: AsciiOpt = False,
    details: DetailsOpt = False,
    html: Annotated[bool, typer.Option("--html", help="Write one self-contained HTML page that steps through the game (needs -o).")] = False,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="With --html: where to write the page.")] = None,
    force: ForceOpt = False,
) -> None:
    """Show every position of a game in turn, from the start to the last move.

    Each position is shown as the player to move sees it, with their legal
    moves (or as --as PLAYER sees it). With --html, one page to open in any
    browser, offline: pictures, arrow keys, the move list, the legal moves
    and the score at each step. An open or revealed game offers every
    player's view and the public one; a refereed game replayed by its
    referee (--secret) shows the public view, or --as PLAYER's; by anyone
    else while its seed is secret, the moves and the result, not the board.

    \b
    Example: adjudicator replay examples/atlas/3-players.json --html -o atlas.html
    """
    from .. import match  # the replay commands only: show starts without it
    stored = actions.read_log(log)
    secret_file = actions.read_secret(secret)
    if actions.sealed(stored, secret_file):
        if html:
            _replay_unseen(stored, as_, public, output, force)
        elif output is not None:
            raise UsageError("-o FILE goes with --html")
        else:
            _spectate(actions.spectate(stored, as_player=as_), json_, ascii_)
        return
    data = match.unlock(stored, secret_file)
    if html:
        _replay_html(stored, data, as_, public, output, force)
        return
    if output is not None:
        raise UsageError("-o FILE goes with --html")
    game, positions = actions.replay_positions(data, as_)
    if json_:
        from ..outputs import Replay as ReplayOut

        echo_json(ReplayOut(game=data.game, tags=dict(data.tags), players=list(data.players),
                            positions=positions, result=data.result))
        return
    look = style(ascii_)
    for pos in positions:
        typer.echo(present.position_text(game, pos, look, len(data.moves), details=details,
                                         players=data.players))
        typer.echo("")


def _replay_html(stored: Log, data: Log, as_: str | None, public: bool,
                 output: str | None, force: bool) -> None:
    from .. import html as html_, match

    if output is None:
        raise UsageError("--html needs -o FILE")
    if as_ is not None and public:
        raise UsageError("give --as PLAYER or --public, not both")
    rep = match.validate(data, keep=True)
    seat = actions.seat(rep, as_)
    if as_ is not None:
        seats: list[int | None] = [seat]
    elif public or stored.seed is None:
        seats = [None]  # the secret stays the referee's: the page shows what all may see
    else:
        seats = [None, *range(len(rep.players))]
    page = html_.page(f"{rep.game.title}: {', '.join(rep.players)}", html_.views(rep, seats),
                      subtitle=f"{counted(len(data.moves), 'move')}; {match.describe(data.result)}",
                      follow=len(seats) > 1)
    files.write(output, page.encode("utf-8"), replace=force)
    typer.echo(f"Wrote {output}: {len(data.moves) + 1} positions, "
               f"{len(seats)} view{'s' * (len(seats) != 1)}.")


def _replay_unseen(stored: Log, as_: str | None, public: bool, output: str | None,
                   force: bool) -> None:
    """The HTML replay of a refereed game whose seed is secret: the public
    view, a picture a move without the board (:func:`drawing.unseen`)."""
    from .. import html as html_, match

    if output is None:
        raise UsageError("--html needs -o FILE")
    if as_ is not None and public:
        raise UsageError("give --as PLAYER or --public, not both")
    seen = actions.spectate(stored, as_player=as_)
    page = html_.page(f"{seen.game.title}: {', '.join(stored.players)}",
                      [("public view", html_.unseen_frames(seen.game, stored))],
                      subtitle=f"{counted(len(stored.moves), 'move')}; {match.describe(stored.result)}; "
                               "the seed is secret: no board until the referee reveals it")
    files.write(output, page.encode("utf-8"), replace=force)
    typer.echo(f"Wrote {output}: {len(stored.moves) + 1} positions, the public view "
               "(the board waits for the reveal of the seed).")


def draw(
    log: LogArg,
    output: Annotated[str, typer.Option("--output", "-o", metavar="FILE", help="FILE.svg or FILE.png (- writes SVG to stdout).")],
    as_: AsOpt = None,
    public: Annotated[bool, typer.Option("--public", help="Draw only what every player may see.")] = False,
    at: Annotated[int | None, typer.Option("--at", metavar="N", help="The position after N moves (0 is the start).")] = None,
    secret: SecretOpt = None,
    force: ForceOpt = False,
) -> None:
    """Draw the board as a picture: SVG, or PNG by the file's extension.

    Drawn from the same view as 'show', so a picture never shows what its
    viewer may not see: by default the player to move's, --as PLAYER's, or
    --public. LOG may be a view file from the referee. A refereed game whose
    seed is secret is drawn as anyone sees it: the moves, not the board.

    \b
    Example: adjudicator draw game.json --public -o board.png
    """
    suffix = Path(output).suffix.lower() if output != "-" else ".svg"
    if suffix not in (".svg", ".png"):
        raise UsageError(f"-o {output}: write an .svg or a .png file")
    value = actions.found(log).value
    if isinstance(value, ViewFile):
        if at is not None or public or secret is not None or (as_ is not None):
            raise UsageError("a view file is drawn as it is: no --at, --as, --public or --secret")
        from .. import referee

        name = actions.source(log)
        scene, svg = present.view_file_picture(value, referee.check_view(value, name), name)
    else:
        scene, svg = actions.picture(value, secret, as_player=as_, public=public, at=at)
    if output == "-":
        sys.stdout.write(svg)
        return
    from .. import drawing

    files.write(output, drawing.png(svg) if suffix == ".png" else svg.encode("utf-8"),
                replace=force)
    typer.echo(f"Wrote {output}: {scene.title}, {'start' if not scene.ply else f'after move {scene.ply}'}, "
               + (f"as seen by {scene.viewer}" if scene.viewer else "public view") + ".")


def view(
    log: LogArg,
    as_: Annotated[str, typer.Option("--as", metavar="PLAYER", help="The player the view file is for.")],
    secret: SecretOpt = None,
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE", help="Write the view file here instead of stdout.")] = None,
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
    vf, data = actions.view_file(log, secret, as_, form)
    if output is None:
        put(data)
        return
    files.write(output, data, private=True)  # the player's hand: theirs alone to read
    turn = "their move" if vf.legal is not None else f"{vf.to_move or 'nobody'} to move"
    typer.echo(f"Wrote {output} for {as_} ({turn}).")


COMMANDS = {"new": new, "show": show, "legal": legal, "extend": extend, "resign": resign,
            "propose": propose, "accept": accept, "reject": reject, "replay": replay,
            "draw": draw, "view": view}
