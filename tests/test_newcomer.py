"""Issue #26, for spectators and newcomers: a refereed game seen by anyone
before the reveal, an audit that says how far it got, and text that stays
mail when it is mailed.

- The public view: ``show``, ``show --public``, ``replay`` (text and HTML)
  and ``draw`` on a refereed log whose seed is secret show the header, the
  moves with who made them and the signed result, never a hidden card; a
  player's own view (``--as``) and ``--json`` are refused in one line.
- ``audit`` before the reveal: the header, the chain and the signatures
  checked, the seed, the moves and the result marked "wait", exit 0; the
  report of a revealed or open game is unchanged.
- Mail-safe text: in the ASCII style no line starts with ``>`` (a quotation
  to every mail client) in any game; names in any script are transliterated
  (``José`` reads ``Jose``), kept unique, escaped only as a last resort, and
  an escape is never cut across a line break.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match, present, referee, seal
from adjudicator.cli import app
from adjudicator.engine import Style
from adjudicator.log import Log, Secret

runner = CliRunner()
ASCII = Style(unicode=False)
GAME_IDS = sorted(games.GAMES)
# A complete escape as the ASCII style writes one; a backslash starts nothing else.
ESCAPE = re.compile(r"\\(?:x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}|[ntr\\'])")


@pytest.fixture(autouse=True)
def fixed_salts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refereed games dealt from fixed salts, so every run deals the same
    cards: with a salt drawn afresh, a deal now and then (about one in 60
    for Fifteen Days) left every hidden card's name showing elsewhere too,
    and the check that a game with hands hides some of them failed."""
    counter = iter(range(10**6))
    monkeypatch.setattr(seal, "new_salt",
                        lambda: hashlib.sha256(b"newcomer salt %d" % next(counter)).hexdigest()[:32])


def run(*args: object, code: int = 0) -> str:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == code, (args, r.stdout, r.stderr)
    return r.stdout if code == 0 else r.stderr


def write(path: Path, value: Log | Secret) -> Path:
    path.write_bytes(logmod.encode(value))
    return path


def refereed(game_id: str, players: tuple[str, ...], seed: str,
             moves: int | None) -> tuple[Log, Secret]:
    """A refereed game of legal moves recorded by its referee, stopped after
    ``moves`` moves (None: at the end)."""
    log, secret = match.new_refereed(game_id, players, seed=seed)
    while moves is None or len(log.moves) < moves:
        rep = match.replay(match.unlock(log, secret))
        if rep.to_move() is None:
            break
        legal = rep.legal()
        log = referee.record(log, secret, [legal[(len(log.moves) * 7) % len(legal)]])
    return log, secret


def mail_safe_lines(text: str, what: str) -> None:
    """What every ASCII text the tool prints must be: printable ASCII, at most
    72 columns a line, no line a mail client takes for a quotation (``>``) or
    mangles (``From ``), and every escape whole on its line."""
    for line in text.split("\n"):
        assert line.isascii() and line.isprintable(), f"{what}: not printable ASCII: {line!r}"
        assert len(line) <= 72, f"{what}: {len(line)} columns: {line!r}"
        assert not line.startswith((">", "From ")), f"{what}: a line mail quotes: {line!r}"
        assert "\\" not in ESCAPE.sub("", line), f"{what}: an escape cut in two: {line!r}"


def hidden_tokens(game_id: str, log: Log, secret: Secret) -> set[str]:
    """Every string some player sees in the current position and the public
    view does not: their hidden cards, in the game's own spelling."""
    rep = match.replay(match.unlock(log, secret))
    game = rep.game

    def strings(value: object) -> set[str]:
        if isinstance(value, str):
            return {value}
        if isinstance(value, dict):
            return {s for k, v in value.items() for s in strings(k) | strings(v)}
        if isinstance(value, (list, tuple)):
            return {s for v in value for s in strings(v)}
        return set()

    public = strings(msgspec.to_builtins(game.view(rep.state, None)))
    seen = set()
    for seat in range(len(rep.players)):
        seen |= strings(msgspec.to_builtins(game.view(rep.state, seat)))
    return {s for s in seen - public if s not in log.players}


def shows(text: str, token: str) -> bool:
    return re.search(rf"(?<![\w+-]){re.escape(token)}(?![\w+-])", text) is not None


# --- 1. the public view of a refereed game whose seed is secret ------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_anyone_sees_the_moves_of_a_refereed_game_and_no_hidden_card(game_id: str,
                                                                       tmp_path: Path) -> None:
    n = max(p for p in games.get(game_id).players if p <= 3)
    players = ("ann", "bob", "cy")[:n]
    log, secret = refereed(game_id, players, "spectator", 6)
    path = write(tmp_path / "game.json", log)
    hidden = hidden_tokens(game_id, log, secret)
    if game_id in ("atlas", "time-palatrix", "fifteen-days"):
        assert hidden, "a game with hands hides some of them"

    shown = run("show", path)
    assert shown == run("show", path, "--public"), "the default view of a secret game is public"
    assert "public view" in shown
    assert "Not shown until the seed is revealed: the board, the turn, the score." in shown
    assert "The referee's signature vouches for these moves." in shown
    for number, entry in enumerate(log.moves, 1):
        assert f"{number:>4}. {entry.by} {entry.move}" in shown
    replayed = run("replay", path, "--ascii")
    mail_safe_lines(replayed, f"{game_id} replay --ascii")
    at = run("show", path, "--at", 2, "--ascii")
    assert "after move 2 of 6" in at and f"   3. {log.moves[2].by}" not in at
    svg = run("draw", path, "-o", "-")
    assert "public view" in svg and "not shown until the referee reveals the seed" in svg
    assert "not known until the seed is revealed" in svg
    page = tmp_path / "replay.html"
    assert "the public view" in run("replay", path, "--html", "-o", page)
    html = page.read_text(encoding="utf-8")
    for text in (shown, replayed, at, svg, html):
        leaked = sorted(t for t in hidden if shows(text, t))
        assert not leaked, f"{game_id}: the public view shows hidden {leaked}"
    # With the secret, the referee still sees the board.
    secret_path = write(tmp_path / "game.secret.json", secret)
    assert "Not shown until" not in run("show", path, "--secret", secret_path)


def test_a_players_view_and_json_need_the_secret(tmp_path: Path) -> None:
    log, _ = refereed("atlas", ("ann", "bob"), "spectator", 3)
    path = write(tmp_path / "game.json", log)
    for args in (("show", path, "--as", "bob"), ("draw", path, "--as", "bob", "-o", "-"),
                 ("replay", path, "--as", "bob")):
        err = run(*args, code=1)
        assert err.count("\n") == 1 and err.startswith("Error: --as bob: "), err
        assert "seed is secret" in err and "view file" in err and "--secret" in err
    assert "no such player" in run("show", path, "--as", "zed", code=2)
    for args in (("show", path, "--json"), ("replay", path, "--json")):
        err = run(*args, code=1)
        assert err.count("\n") == 1 and "--json" in err and "convert" in err, err


def test_a_finished_game_shows_the_result_its_referee_signed(tmp_path: Path) -> None:
    log, _ = refereed("q-turn", ("ann", "bob"), "over", None)
    assert log.result is not None and log.seed is None
    path = write(tmp_path / "game.json", log)
    shown = run("show", path, "--ascii")
    mail_safe_lines(shown, "show --ascii of a finished secret game")
    assert "Game over. Winner: " in shown and "Result: " in shown
    assert "vouches for these moves and the result" in shown
    page = tmp_path / "replay.html"
    run("replay", path, "--html", "-o", page)
    assert "Game over. Winner" in page.read_text(encoding="utf-8")


def test_a_refereed_game_of_version_1_is_shown_unvouched(tmp_path: Path) -> None:
    log, secret = refereed("atlas", ("ann", "bob"), "old", 0)
    fields = ("format", "game", "params", "players", "seed", "salt", "commitment", "moves",
              "result")
    old = logmod.decode(json.dumps({"version": 1, **{k: v for k, v in json.loads(
        logmod.encode(log)).items() if k in fields}}))
    old_secret = msgspec.structs.replace(secret, version=1, signing_key=None)
    for _ in range(2):
        old = referee.record(old, old_secret, [match.replay(match.unlock(old, old_secret)).legal()[0]])
    assert old.version == 1 and len(old.moves) == 2 and old.signature is None
    path = write(tmp_path / "old.json", old)
    assert "no signature vouches for these moves" in run("show", path)
    # Nothing in it can be checked before the reveal: its audit fails, as its validation does.
    r = runner.invoke(app, ["audit", str(path)])
    assert r.exit_code == 1 and "FAIL seed: secret" in r.stdout and "Audit FAILED." in r.stdout


# --- 1b. audit before the reveal ---------------------------------------------------------------


def test_audit_before_the_reveal_passes_so_far(tmp_path: Path) -> None:
    log, secret = refereed("atlas", ("ann", "bob", "cy"), "audit", 4)
    path = write(tmp_path / "game.json", log)
    r = runner.invoke(app, ["audit", str(path)])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == f"Audit of {path} (in progress; the seed is not yet revealed):"
    marks = {line.split()[1]: line.split()[0] for line in lines[1:-1]}
    assert marks == {"header:": "ok", "seed:": "wait", "digest": "ok", "signatures:": "ok",
                     "moves:": "wait", "result:": "wait"}
    assert lines[-1] == "Audit passed so far: the deal and the moves' legality wait for the reveal."
    data = json.loads(run("audit", path, "--json"))
    assert data["status"] == "pending" and data["passed"] is False
    assert [i["status"] for i in data["items"]] == ["ok", "unchecked", "ok", "ok", "unchecked",
                                                   "unchecked"]
    # Over but not revealed: the same, and says so.
    done, done_secret = refereed("q-turn", ("ann", "bob"), "over", None)
    over = run("audit", write(tmp_path / "over.json", done))
    assert "(over; the seed is not yet revealed)" in over and "wait result: as the referee" in over
    # An edited copy still fails, exit 1.
    broken = msgspec.structs.replace(log, result=done.result)
    r = runner.invoke(app, ["audit", str(write(tmp_path / "broken.json", broken))])
    assert r.exit_code == 1 and "FAIL signatures" in r.stdout and "Audit FAILED." in r.stdout
    # Revealed: the report is the full one, as before.
    revealed = write(tmp_path / "revealed.json", match.reveal(done, done_secret))
    full = run("audit", revealed).splitlines()
    assert full[0] == f"Audit of {revealed}:" and full[-1] == "Audit passed."
    assert all(line.startswith("  ok   ") for line in full[1:-1])
    assert json.loads(run("audit", revealed, "--json"))["status"] == "passed"


# --- 2. mail-safe text: no quotation marks, names in ASCII -------------------------------------


def positions(game_id: str, n: int, names: tuple[str, ...]) -> list[tuple[Log, int]]:
    """A self-played game of ``n`` players and a few of its move counts."""
    log = match.simulate(game_id, names[:n], f"mail/{n}")
    total = len(log.moves)
    return [(log, ply) for ply in sorted({0, 1, 2, total // 3, total // 2, total - 1, total})]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_ascii_line_of_any_game_starts_a_quotation(game_id: str) -> None:
    """Every board of every player count, as the game renders it and as show
    prints it, for every viewer: ASCII, 72 columns, no line mail quotes."""
    game = games.get(game_id)
    for n in game.players:
        for names in (("ann", "bob", "cy", "dee"), ("José", "Zoë", "Ελένη", "Jose")):
            for log, ply in positions(game_id, n, names):
                rep = match.replay(log, upto=ply)
                for seat in (None, *range(n)):
                    what = f"{game_id}, {n} players, move {ply}, seat {seat}"
                    board = game.render(game.view(rep.state, seat), ASCII)
                    assert not any(line.startswith(">") for line in board.split("\n")), what
                    shown = present.position_text(
                        game, _position(rep, ply, seat), ASCII, len(log.moves),
                        players=log.players)
                    mail_safe_lines(shown, what)
                    assert "\\" not in shown, f"{what}: a name escaped"


def _position(rep: match.Replay, ply: int, seat: int | None):
    from adjudicator import actions

    return actions.position(rep, rep.state, ply, seat, False)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_view_file_mailed_by_the_referee_is_mail_safe(game_id: str) -> None:
    n = max(p for p in games.get(game_id).players if p <= 3)
    log, secret = refereed(game_id, ("José", "Zoë", "Ελένη")[:n], "mailed", 5)
    for name in log.players:
        vf = referee.issue_view(log, secret, name)
        text = present.view_file_text(vf, referee.check_view(vf), ASCII)
        mail_safe_lines(text, f"{game_id}: {name}'s view file")
        assert "Jose" in text and "Zoe" in text and "\\" not in text


def test_names_are_transliterated_and_kept_unique() -> None:
    assert present.ascii_names(["José", "Zoë", "Ελένη", "bob"]) == {
        "José": "Jose", "Zoë": "Zoe", "Ελένη": "Eleni"}
    # Two names that read the same in ASCII: both get their seat number; an
    # ASCII name is never changed.
    assert present.ascii_names(["Zoë", "Zoé", "ann"]) == {"Zoë": "Zoe-1", "Zoé": "Zoe-2"}
    assert present.ascii_names(["José", "Jose"]) == {"José": "Jose-1"}
    assert present.ascii_names(["José", "Jose", "Jose-1"]) == {"José": "Jose-1-2"}
    # At most 24 characters, like any name, and still unique.
    long = present.ascii_names(["北" * 24, "北" * 23 + "京"])
    assert all(len(v) <= 24 for v in long.values()) and len(set(long.values())) == 2
    # A letter with no transliteration is escaped, whole.
    assert present.ascii_names(["a\U000e0100b"]) == {"a\U000e0100b": "a\\U000e0100b"}


def test_show_writes_names_in_ascii_in_their_columns(tmp_path: Path) -> None:
    greek = "Ελένηαβγδεζηθικλμνξοπρσς"  # 24 letters, 25 once transliterated: cut to 24
    path = tmp_path / "game.json"
    run("new", "q-turn", "--players", f"José,Jose,{greek}", "--seed", "3", "-o", path)
    shown = run("show", path, "--ascii")
    mail_safe_lines(shown, "show --ascii")
    assert "\\x" not in shown and "\\u" not in shown
    rows = [line for line in shown.splitlines() if "off the board" in line]
    assert [re.match(r"[* ] (\d) (\S+) ", row).groups() for row in rows] == [  # type: ignore[union-attr]
        ("1", "Jose-1"), ("2", "Jose"), ("3", "Eleniavgdezithiklmnxoprs")]
    assert len({row.index("off the board") for row in rows}) == 1, "the columns stay aligned"
    assert "To move: Jose-1" in shown
    # Without --ascii the names are as written.
    assert "José" in run("show", path) and greek in run("show", path)


def test_a_long_escape_is_never_cut_across_lines(tmp_path: Path) -> None:
    """A comment of characters nothing transliterates is escaped and folded
    between escapes, never inside one."""
    log = match.new_log("q-turn", ["ann", "bob"], "1")
    first = match.replay(log).legal()[0]
    odd = "\ue000" * 40 + " x" + "\U000f0000" * 12
    log = match.extend(log, [first], comment=odd)
    path = write(tmp_path / "game.json", log)
    shown = run("show", path, "--ascii")
    mail_safe_lines(shown, "a comment of escapes")
    assert "\\ue000" in shown and "\\U000f0000" in shown
