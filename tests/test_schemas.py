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
    n = games.get(game_id).players[-1]
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
    data = check("audit", run("audit", played["ref"], "--json"))
    assert not data["passed"] and data["status"] == "pending"
    assert {i["status"] for i in data["items"]} == {"ok", "unchecked"}
    data = check("diff", run("diff", played["open"], played["done"], "--json", code=1))
    assert data["same_game"] and not data["same"]
    data = check("diff", run("diff", played["open"], played["open"], "--json"))
    assert data["same"] and data["parted_at"] is None


def check_log(path: Path) -> dict:
    schema = json.loads((ROOT / "notation" / "log.schema.json").read_text())
    data = json.loads(path.read_bytes())
    jsonschema.Draft202012Validator(schema).validate(data)
    return data


def test_written_files_follow_the_log_and_view_schemas(played, tmp_path) -> None:
    """The files the commands write (new, extend, simulate, view) are read by
    the same schemas as what they print."""
    for kind in ("open", "done", "ref"):
        check_log(played[kind])
    out = tmp_path / "view.json"
    rep = match.replay(match.unlock(logmod.decode(played["ref"].read_bytes()),
                                    logmod.decode_secret(played["secret"].read_bytes())))
    run("view", played["ref"], "--secret", played["secret"], "--as", rep.players[0], "-o", out)
    check("view", out.read_text())


@pytest.mark.parametrize("game_id", sorted(games.GAMES))
def test_an_organisers_round_through_the_cli(game_id: str, tmp_path) -> None:
    """The issue's "done when": a tagged round with a deadline, a takeback by
    agreement and a resignation, run through the command line alone, and read
    back by a program that knows only the published schemas."""
    n = max(p for p in games.get(game_id).players if p <= 3)
    names = ["ann", "Ελένη", "José"][:n]
    path = tmp_path / "round.json"
    copies = []

    def step(*args: object) -> dict:
        run(*args)
        copies.append(path.read_bytes())
        check_log(path)
        return check("show", run("show", path, "--json"))

    run("new", game_id, "--players", ",".join(names), "--seed", "round", "--tag", "event=Club cup",
        "--tag", "round=2", "--tag", "date=2026.11.23", "--deadline", 72, "-o", path)
    copies.append(path.read_bytes())
    start = check("show", run("show", path, "--json"))
    assert start["tags"] == {"event": "Club cup", "round": "2", "date": "2026.11.23"}
    assert start["answer_by"] is not None
    assert "event: Club cup" in run("show", path, "--ascii")

    mover = start["to_move"]
    first = check("legal", run("legal", path, "--json"))["moves"][0]
    after = step("extend", path, first)
    assert after["ply"] == 1 and after["move"]["by"] == mover and after["move"]["at"]
    proposer = mover
    shown = step("propose", path, "takeback", 1, "--as", proposer)
    assert shown["proposal"] and proposer in shown["proposal"]
    for name in names:
        if name != proposer:
            shown = step("accept", path, "--as", name)
    assert shown["proposal"] is None
    # The takeback restored the starting position, seen by the same player.
    assert shown["to_move"] == mover and shown["view"] == start["view"]
    assert shown["legal"] == start["legal"]

    leaver = names[-1]
    over = step("resign", path, "--as", leaver)
    assert over["result"] is not None and over["legal"] is None
    last = over["result"]["standings"][-1]
    assert last["player"] == leaver and last["place"] == n
    if n > 1:
        assert leaver not in over["result"]["winners"]

    checked = check("validate", run("validate", "--json", path))
    assert checked[0]["valid"] and checked[0]["result"] == over["result"]
    assert check("audit", run("audit", path, "--json"))["passed"]
    replayed = check("replay", run("replay", path, "--json"))
    assert replayed["tags"] == start["tags"] and len(replayed["positions"]) == len(copies)
    # Nothing was deleted: every earlier copy is a prefix of the final log.
    final = tmp_path / "final.json"
    final.write_bytes(copies[-1])
    for i, copy in enumerate(copies[:-1]):
        earlier = tmp_path / f"copy{i}.json"
        earlier.write_bytes(copy)
        diffed = check("diff", run("diff", earlier, final, "--json", code=1))
        assert diffed["same_game"] and diffed["parted_at"] is None
