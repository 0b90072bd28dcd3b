"""Every JSON output validates against its published schema, for every game.

A program written against ``notation/schemas/`` (``adjudicator schema NAME``)
must read every output of every command without a special case: open and
refereed logs, view files, invalid logs.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from adjudicator import games, log as logmod, match, outputs, referee
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
NAMES = ("ann", "Zoë", "cy", "dee")


def run(*args, code: int = 0) -> str:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == code, (args, r.stdout, r.stderr)
    return r.stdout


def check(name: str, text: str) -> object:
    data = json.loads(text)
    schema = json.loads((ROOT / "notation" / "schemas" / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    return data


@pytest.mark.parametrize("name", sorted(outputs.SCHEMAS))
def test_schema_files_are_current(name: str) -> None:
    path = (ROOT / "notation" / "log.schema.json" if name == "log"
            else ROOT / "notation" / "schemas" / f"{name}.schema.json")
    assert run("schema", name) == path.read_text(), f"regenerate: adjudicator schema {name} > {path}"
    jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text()))


def test_games() -> None:
    data = check("games", run("games", "--json"))
    assert [g["id"] for g in data] == list(games.GAMES)
    for g in data:
        for p in g["params"]:
            if p["choices"] is not None:
                assert p["default"] in p["choices"]


@pytest.fixture(scope="module", params=sorted(games.GAMES))
def played(request, tmp_path_factory) -> dict[str, Path]:
    """For one game: an open log in progress, a finished one, a damaged one, a
    refereed log with its secret, and a view file of the player to move."""
    game_id = request.param
    n = games.get(game_id).PLAYERS[-1]
    names = NAMES[:n]
    d = tmp_path_factory.mktemp(game_id)
    paths = {}
    paths["open"] = d / "open.json"
    paths["open"].write_bytes(logmod.encode(match.simulate(game_id, names, "schema", max_moves=9)))
    paths["done"] = d / "done.json"
    paths["done"].write_bytes(logmod.encode(match.simulate(game_id, names, "schema")))
    bad = json.loads(paths["open"].read_bytes())
    bad["moves"][3]["move"] = "nonsense"
    paths["bad"] = d / "bad.json"
    paths["bad"].write_text(json.dumps(bad))
    log, secret = match.new_refereed(game_id, names, seed="schema")
    for _ in range(5):
        rep = match.replay(match.unlock(log, secret))
        if rep.to_move() is None:
            break
        log = referee.record(log, secret, [rep.legal()[0]])
    paths["ref"], paths["secret"] = d / "ref.json", d / "ref.secret.json"
    paths["ref"].write_bytes(logmod.encode(log))
    paths["secret"].write_bytes(logmod.encode(secret))
    rep = match.replay(match.unlock(log, secret))
    paths["view"] = d / "view.json"
    paths["view"].write_bytes(logmod.encode(referee.issue_view(log, secret, rep.to_move())))
    return paths


def test_show(played) -> None:
    data = check("show", run("show", played["open"], "--json"))
    assert data["legal"] and data["to_move"] == data["viewer"]
    check("show", run("show", played["open"], "--json", "--public", "--at", 2))
    data = check("show", run("show", played["done"], "--json"))
    assert data["result"] is not None and data["legal"] is None
    check("show", run("show", played["ref"], "--secret", played["secret"], "--json"))
    data = check("view", run("show", played["view"], "--json"))
    assert data["legal"]


def test_legal(played) -> None:
    assert check("legal", run("legal", played["open"], "--json"))["moves"]
    assert check("legal", run("legal", played["done"], "--json"))["moves"] == []
    assert check("legal", run("legal", played["view"], "--json"))["moves"]


def test_replay(played) -> None:
    data = check("replay", run("replay", played["open"], "--json"))
    assert len(data["positions"]) == 10


def test_validate(played) -> None:
    text = run("validate", "--json", played["open"], played["done"], played["bad"], played["ref"],
               played["view"], ROOT / "nowhere.json", code=1)
    data = check("validate", text)
    keys = {frozenset(entry) for entry in data}
    assert len(keys) == 1, "the same keys whether a log is valid or not"
    ok, done, bad, ref, view, missing = data
    assert ok["valid"] and ok["error"] is None and ok["to_move"]
    assert done["result"] is not None
    assert bad["error"]["code"] in ("chain", "notation", "illegal-move")
    assert bad["error"]["move"] == 4 and bad["error"]["player"]
    assert ref["valid"] and ref["unchecked"]
    assert view["error"]["code"] == "file" and missing["error"]["code"] == "file"


def test_audit_and_diff(played) -> None:
    data = check("audit", run("audit", played["done"], "--json"))
    assert data["passed"]
    data = check("audit", run("audit", played["ref"], "--json", code=1))
    assert not data["passed"]
    data = check("diff", run("diff", played["open"], played["done"], "--json", code=1))
    assert data["same_game"] and not data["same"]
    data = check("diff", run("diff", played["open"], played["open"], "--json"))
    assert data["same"] and data["parted_at"] is None
