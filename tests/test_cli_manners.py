"""CLI manners (issue #26): conventional help, -h, a help and a version
command, suggestions that make sense, usage errors with exit status 2, and
error texts that point at what a user has."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import games
from adjudicator.cli import COMMANDS, app

runner = CliRunner()


def run(*args: object, code: int = 0):
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == code, (args, r.stdout, r.stderr)
    return r


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_takes_h_and_writes_conventional_metavars(name: str) -> None:
    text = run(name, "-h").stdout
    assert text == run(name, "--help").stdout
    assert "<str>" not in text and "<int>" not in text
    usage = text.splitlines()[0]
    assert "{" not in usage, usage


def test_help_and_version_commands() -> None:
    assert " show [OPTIONS] LOG\n" in run("help", "show").stdout.splitlines(True)[0]
    assert "Commands:" in run("help").stdout
    assert run("help", "chess", code=2).stderr.strip().endswith("lists them")
    assert run("version").stdout == run("--version").stdout
    assert "Did you mean 'resign'" not in run("versoin", code=2).stderr
    assert "Did you mean 'show'" in run("shwo", code=2).stderr


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    r = run("new", "chess", "--players", "ann,bob", code=2)
    assert "unknown game 'chess'" in r.stderr
    run("rules", "chess", code=2)
    path = tmp_path / "g.json"
    run("new", "atlas", "--players", "ann,bob", "--seed", "1", "-o", path)
    r = run("show", path, "--as", "ann", "--public", code=2)
    assert "not both" in r.stderr


def test_files_that_are_no_log_say_so_plainly(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_text("{}")
    r = run("show", tmp_path / "empty.json", code=1)
    assert "not an adjudicator file: it names no format" in r.stderr
    (tmp_path / "v9.json").write_text('{"format": "adjudicator-log", "version": 9}')
    r = run("show", tmp_path / "v9.json", code=1)
    assert "version 9 is not supported (this tool reads versions 1, 2)" in r.stderr


def test_errors_point_at_the_installed_notation(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run("new", "q-turn", "--players", "ann,bob", "--seed", "1", "-o", path)
    r = run("extend", path, "zz9", code=1)
    assert "notation/" not in r.stderr and "(adjudicator rules q-turn)" in r.stderr
    assert "notation: adjudicator rules q-turn" in run("games").stdout


def test_parameters_in_either_spelling_and_any_case(tmp_path: Path) -> None:
    import json

    log = json.loads(run("new", "q-turn", "-p", "a,b", "-s", "1", "-P", "disks=4q,6d,6o").stdout)
    assert log["params"]["disks"] == "4Q,6D,6O"
    tie = next(p.name for p in games.get("turn-of-time").params if "tie" in p.name)
    log = json.loads(run("new", "turn-of-time", "-p", "a,b", "-s", "1",
                         "-P", f"{tie.replace('_', '-')}=Seasons").stdout)
    assert log["params"][tie] == "seasons"


def test_a_log_in_a_mail_suggests_a_command_that_works(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    run("new", "atlas", "--players", "ann,bob", "--seed", "1", "-o", "g.json")
    text = run("convert", "g.json", "--to", "text").stdout
    Path("reply.txt").write_text("From: ann@example.org\nSubject: our game\n\nHere:\n\n" + text)
    said = run("extend", "reply.txt", "3D", code=1).stderr
    command = said.split("(adjudicator ", 1)[1].split(")", 1)[0].split()
    assert command == ["convert", "reply.txt", "--to", "json", "-o", "game.json"]
    run(*command)  # and it works
    run("extend", "game.json", run("legal", "game.json").stdout.split()[0])


def test_a_large_file_holding_no_log_is_refused_fast(monkeypatch) -> None:
    """Read line by line, 50 MB of text naming no log took half a minute and
    600 MB; now one search refuses it: no line of it is ever split out (no
    clock in the test: the reading that cost the time is forbidden)."""
    from adjudicator import mailparse, textform
    from adjudicator.errors import BadLogError

    def split_lines(text: str) -> list[str]:
        raise AssertionError(f"{len(text)} characters read line by line")

    monkeypatch.setattr(textform, "_split_lines", split_lines)
    junk = b"lorem ipsum dolor sit amet\n"  # short lines, as in a mail archive
    data = junk * (50_000_000 // len(junk))  # 50 MB of text naming no log
    with pytest.raises(BadLogError, match="holds no adjudicator log or view file"):
        mailparse.extract_found(data, "big.txt")


def test_turn_of_time_says_tie_order_in_kebab_case_like_every_parameter(tmp_path: Path) -> None:
    """Every parameter reads ``tie-order``-style to a person (help, lists,
    errors, the rules text, the docs); the log's JSON keeps its key
    ``tie_order`` (file formats do not change), which the notation says once."""
    from test_cli import edited

    out: list[str] = []
    path = tmp_path / "tot.json"
    for args, code in [
        (("new", "turn-of-time", "--players", "ann,bob", "--seed", "7", "--param",
          "tie_order=seasons", "-o", path), 0),
        (("games",), 0), (("games", "-h"), 0), (("new", "-h"), 0), (("show", path), 0),
        (("legal", path, "--explain"), 0), (("replay", path), 0), (("audit", path), 0),
        (("validate", path), 0),
        (("new", "turn-of-time", "--players", "ann,bob", "--param", "tie_order=x"), 1),
        (("new", "turn-of-time", "--players", "ann,bob", "--param", "tieorder=x"), 1),
    ]:  # (the last two: errors)
        r = run(*args, code=code)
        out.append(r.stdout + r.stderr)
    run("extend", path, run("legal", path).stdout.split()[0])
    out.append(run("show", path).stdout)
    assert "--param tie-order=players" in out[1]
    assert "parameter 'tie-order': 'x' is not one of players, seasons" in out[-3]
    assert "(its parameters: absent-doubles, goal, tie-order)" in out[-2]
    # A log of rules version 1 that records the parameter version 2 brought in.
    old = tmp_path / "old.json"
    old.write_bytes(edited(path.read_bytes(), lambda d: d.update(rules=1)))
    r = run("validate", old, code=1)
    assert "parameter 'tie-order' came with rules version 2" in r.stdout + r.stderr
    out.append(r.stdout + r.stderr)
    rules = run("rules", "turn-of-time").stdout
    assert rules.count("tie_order") == 1 and "is the key `tie_order`" in rules
    out.append(rules.replace("is the key `tie_order`", ""))
    root = Path(__file__).resolve().parents[1]
    out += [(root / "README.md").read_text(encoding="utf-8").replace(
        "`tie-order` or `tie_order`", ""), (root / "examples" / "README.md").read_text(
        encoding="utf-8"), (root / "notation" / "README.md").read_text(encoding="utf-8")]
    for text in out:
        assert "tie_order" not in text, text
    assert "tie_order" in path.read_text()  # the JSON key, as logs have it
