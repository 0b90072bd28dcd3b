"""Exit statuses exactly as documented, per command (README, "Commands"):
0 success, 1 invalid input or an illegal move, 2 a usage error (a player
not in the game, a move number out of range, a missing or conflicting
option). Every failure is one ``Error:`` line (or click's usage text for
its own errors), never a traceback. Also --version, completion and
``rules`` after a non-editable install."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import games
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("codes")
    out = {"dir": str(d)}

    def cli(*args: str) -> None:
        r = runner.invoke(app, list(args))
        assert r.exit_code == 0, (args, r.stderr)

    out["game"] = str(d / "game.json")
    cli("new", "q-turn", "--players", "ann,bob", "--seed", "1", "-o", out["game"])
    out["bad"] = str(d / "bad.json")
    Path(out["bad"]).write_text("{}")
    out["ref"] = str(d / "ref.json")
    out["secret"] = str(d / "ref.secret.json")
    cli("new", "atlas", "--players", "ann,bob", "--referee", "-o", out["ref"])
    out["view"] = str(d / "ann.json")
    cli("view", out["ref"], "--secret", out["secret"], "--as", "ann", "-o", out["view"])
    club = d / "club"
    (club / "games").mkdir(parents=True)
    cli("new", "q-turn", "--players", "ann,bob", "--referee", "-o", str(club / "games" / "g.json"))
    # SMTP at a port nobody listens on: the mail waits in the spool, exit 0.
    (club / "referee.toml").write_text('address = "ref@club.test"\n[smtp]\nhost = "127.0.0.1"\n'
                                       'port = 9\nsecurity = "none"\n')
    (club / "roster.toml").write_text('[g]\nann = "ann@x.test"\nbob = "bob@x.test"\n')
    out["club"] = str(club)
    return out


CASES = [
    # command, args, expected status
    ("games", ["games"], 0),
    ("games", ["games", "--bogus"], 2),
    ("new", ["new", "q-turn", "--players", "ann,bob", "-o", "{dir}/n.json"], 0),
    ("new", ["new", "q-turn", "--players", "ann"], 1),  # one player cannot play Q-Turn
    ("new", ["new", "q-turn"], 2),  # --players missing
    ("new", ["new", "nogame", "--players", "a,b"], 2),  # issue #26: a usage error
    ("new", ["new", "atlas", "--players", "a,b", "--referee"], 2),  # --referee needs -o
    ("show", ["show", "{game}"], 0),
    ("show", ["show", "{bad}"], 1),
    ("show", ["show", "{game}", "--as", "zed"], 2),
    ("show", ["show", "{game}", "--at", "99"], 2),
    ("legal", ["legal", "{game}"], 0),
    ("legal", ["legal", "{bad}"], 1),
    ("extend", ["extend", "{game}", "zz9"], 1),
    ("extend", ["extend", "{game}", "--as", "zed", "zz9"], 2),
    ("extend", ["extend", "{game}"], 2),  # no move
    ("extend", ["extend", "{ref}", "x"], 2),  # a refereed game needs --secret
    ("resign", ["resign", "{game}"], 2),  # --as missing
    ("resign", ["resign", "{game}", "--as", "zed"], 2),
    ("propose", ["propose", "{game}", "takeback", "--as", "ann"], 2),  # no count
    ("propose", ["propose", "{game}", "takeback", "5", "--as", "ann"], 1),  # nothing to take back
    ("accept", ["accept", "{game}", "--as", "bob"], 1),  # no proposal waiting
    ("reject", ["reject", "{game}", "--as", "bob"], 1),
    ("replay", ["replay", "{game}"], 0),
    ("replay", ["replay", "{bad}"], 1),
    ("replay", ["replay", "{game}", "--as", "zed"], 2),
    ("draw", ["draw", "{game}", "-o", "{dir}/b.svg"], 0),
    ("draw", ["draw", "{game}"], 2),  # -o missing
    ("draw", ["draw", "{bad}", "-o", "{dir}/c.svg"], 1),
    ("draw", ["draw", "{game}", "--at", "99", "-o", "{dir}/d.svg"], 2),
    ("validate", ["validate", "{game}"], 0),
    ("validate", ["validate", "{bad}"], 1),
    ("validate", ["validate"], 2),
    ("view", ["view", "{ref}", "--secret", "{secret}", "--as", "bob"], 0),
    ("view", ["view", "{ref}", "--secret", "{secret}", "--as", "zed"], 2),
    ("view", ["view", "{ref}", "--secret", "{secret}"], 2),  # --as missing
    ("view", ["view", "{ref}", "--as", "bob"], 1),  # the seed is secret
    ("reveal", ["reveal", "{ref}"], 2),  # --secret missing
    ("reveal", ["reveal", "{game}", "--secret", "{secret}"], 1),  # open game
    ("audit", ["audit", "{game}"], 0),
    ("audit", ["audit", "{ref}"], 0),  # the seed is secret: audited so far, nothing failed
    ("show", ["show", "{ref}"], 0),  # the public view of a refereed game
    ("show", ["show", "{ref}", "--as", "bob"], 1),  # bob's view needs the secret
    ("show", ["show", "{ref}", "--json"], 1),  # a position needs the secret
    ("diff", ["diff", "{game}", "{game}"], 0),
    ("diff", ["diff", "{game}", "{bad}"], 1),
    ("diff", ["diff", "{game}"], 2),
    ("rules", ["rules", "atlas"], 0),
    ("rules", ["rules", "nogame"], 2),
    ("help", ["help", "show"], 0),
    ("help", ["help", "nogame"], 2),
    ("version", ["version"], 0),
    ("convert", ["convert", "{game}", "--to", "text"], 0),
    ("convert", ["convert", "{game}", "--to", "pgn"], 2),
    ("convert", ["convert", "{bad}", "--to", "text"], 1),
    ("schema", ["schema", "show"], 0),
    ("schema", ["schema", "nothing"], 2),
    ("simulate", ["simulate", "q-turn", "--players", "a,b", "--seed", "1", "--moves", "3"], 0),
    ("simulate", ["simulate", "q-turn", "--players", "a,b", "--moves", "2"], 0),  # a random seed
    ("simulate", ["simulate", "q-turn", "--players", "a,b", "--param", "x"], 2),
    ("simulate", ["simulate", "atlas", "--players", "a,b", "--bot", "search:5,greedy"], 0),
    ("simulate", ["simulate", "atlas", "--players", "a,b", "--bot", "expert"], 2),
    ("hint", ["hint", "{game}", "--bot", "search:20"], 0),
    ("hint", ["hint", "{view}", "--bot", "greedy"], 0),
    ("hint", ["hint", "{bad}"], 1),
    ("hint", ["hint", "{ref}"], 1),  # the secret hides the hands: no hint from the log
    ("hint", ["hint", "{game}", "--as", "zed"], 2),
    ("hint", ["hint", "{game}", "--top", "0"], 2),
    ("play", ["play", "atlas", "--players", "bot,bot", "-o", "{dir}/p.json"], 1),
    ("play", ["play", "atlas", "--players", "ann,bot:expert", "-o", "{dir}/p.json"], 2),
    ("play", ["play", "atlas", "--players", "ann,bot"], 2),  # -o missing
    ("key", ["key", "new", "-o", "{dir}/k.key"], 0),
    ("key", ["key", "new"], 2),
    ("key", ["key", "new-referee", "-o", "{dir}/r.key"], 0),
    ("deal", ["deal", "commit", "{ref}", "--as", "ann"], 1),  # nobody contributes to its deal
    ("deal", ["deal", "commit", "{ref}"], 2),  # --as missing
    ("deal", ["deal", "reveal", "{game}", "--as", "ann"], 1),  # an open game has no deal
    ("deal", ["deal", "record", "{ref}", "commit ann 00"], 2),  # --secret missing
    ("deal", ["deal", "record", "{ref}", "--secret", "{secret}", "nonsense"], 2),
    ("validate", ["validate", "{ref}", "--referee-key", "AAAA-AAAA-AAAA"], 1),  # another referee
    ("audit", ["audit", "{ref}", "--referee-key", "AAAA-AAAA-AAAA"], 1),
    ("audit", ["audit", "{ref}", "--views", "{game}"], 1),  # not a view file
    ("audit", ["audit", "{ref}", "--views", "{view}"], 0),  # kept, and in the log
    ("referee", ["referee", "{club}", "--once"], 0),
    ("referee", ["referee", "{dir}/nowhere", "--once"], 1),
    ("referee", ["referee", "{dir}", "--once"], 1),  # no referee.toml
    ("referee", ["referee"], 2),
    ("referee", ["referee", "{club}", "--poll", "0"], 2),
    ("tournament", ["tournament", "standings", "{dir}/nowhere"], 1),
    ("tournament", ["tournament", "round", "{dir}"], 1),  # no tournament.toml
    ("tournament", ["tournament", "archive", "{dir}"], 2),  # no -o
    ("tournament", ["tournament", "dance", "{dir}"], 2),
]


@pytest.mark.parametrize(("command", "args", "status"), CASES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CASES)])
def test_exit_status(files, command: str, args: list[str], status: int) -> None:
    r = runner.invoke(app, [a.format(**files) for a in args])
    assert r.exit_code == status, (args, r.stdout, r.stderr)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    if status:
        assert "Traceback" not in r.output
        # validate reports each bad log on a line of its own, naming the file.
        assert "Error" in r.stderr or (command == "validate" and status == 1)


def test_every_command_has_exit_status_cases() -> None:
    import typer.main

    names = set(typer.main.get_command(app).commands)
    assert names <= {c for c, _, _ in CASES}, names - {c for c, _, _ in CASES}


def test_version_names_every_games_rules() -> None:
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0
    assert r.stdout.startswith("adjudicator ")
    for game_id in games.GAMES:
        assert f"{game_id} rules version " in r.stdout


def test_shell_completion_is_offered() -> None:
    r = runner.invoke(app, ["--help"])
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout
    done = subprocess.run([sys.executable, "-m", "adjudicator"],
                          env={**os.environ, "_ADJUDICATOR_COMPLETE": "complete_bash",
                               "COMP_WORDS": "adjudicator sh", "COMP_CWORD": "1"},
                          capture_output=True, text=True, timeout=60)
    assert "show" in done.stdout, done.stderr


def test_rules_after_a_non_editable_install(tmp_path: Path) -> None:
    """The notation documents are package data: built into a wheel, unpacked
    outside the source tree, 'rules' prints every game's document."""
    wheels = tmp_path / "wheels"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                           str(wheels), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (wheel,) = wheels.glob("adjudicator-*.whl")
    target = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(target)
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run([sys.executable, "-c", "import adjudicator; print(adjudicator.__file__)"],
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert where.stdout.startswith(str(target)), where.stdout + where.stderr
    for game_id, game in games.GAMES.items():
        shown = subprocess.run([sys.executable, "-m", "adjudicator", "rules", game_id],
                               capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout == (ROOT / game.notation_doc).read_text(encoding="utf-8")
