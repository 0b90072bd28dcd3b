"""Start-up and bulk validation: what a command loads, and --jobs.

A command that reads one log must load that log's game and no other (the
registry imports games lazily), a command only its own module of the CLI,
and validating on several cores must give exactly the report of one core,
in the order the logs were given.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import games, match, log as logmod
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
FIRSTS = {p.parent.name: p for p in sorted((ROOT / "examples").glob("*/*.json"))}

PROBE = """
import sys
from adjudicator.cli import main
sys.argv = ["adjudicator", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
loaded = sorted(m.split(".")[2] for m in sys.modules
                if m.startswith("adjudicator.games.") and m.count(".") >= 2)
print("LOADED", " ".join(sorted(set(loaded))), file=sys.stderr)
"""


def loaded_games(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    line = [s for s in done.stderr.splitlines() if s.startswith("LOADED")]
    assert line, done.stderr
    return set(line[-1].split()[1:])


@pytest.mark.parametrize("game_id", sorted(FIRSTS))
@pytest.mark.parametrize("command", ["show", "validate", "legal"])
def test_a_command_loads_only_the_game_of_its_log(game_id: str, command: str) -> None:
    package = game_id.replace("-", "_")
    assert loaded_games(command, str(FIRSTS[game_id])) == {package}


def test_help_loads_no_game() -> None:
    assert loaded_games("--help") == set()
    assert loaded_games("show", "--help") == set()


PROBE_CLI = PROBE.replace(
    'print("LOADED"',
    'print("CLI", " ".join(m for m in sys.modules if m.startswith("adjudicator.cli.")), '
    'file=sys.stderr)\nprint("LOADED"')


def cli_modules(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE_CLI, *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    line = [s for s in done.stderr.splitlines() if s.startswith("CLI")]
    assert line, done.stderr
    return {m.rsplit(".", 1)[1] for m in line[-1].split()[1:]}


def test_a_command_loads_only_its_own_module() -> None:
    """The commands are loaded lazily: --help lists them all and loads none,
    and a command loads its own module alone."""
    log = str(FIRSTS["q-turn"])
    assert cli_modules("--help") == {"common"}
    assert cli_modules("show", log) == {"common", "play"}
    assert cli_modules("validate", log) == {"common", "check"}
    assert cli_modules("schema", "show") == {"common", "tools"}


def test_parallel_validation_reports_as_serial(tmp_path: Path) -> None:
    paths = [str(p) for p in sorted((ROOT / "examples").glob("*/*.json"))]
    bad = tmp_path / "bad.json"
    data = json.loads(Path(paths[0]).read_bytes())
    data["moves"][2]["move"] = "nonsense"
    bad.write_text(json.dumps(data))
    missing = str(tmp_path / "missing.json")
    order = paths[:5] + [str(bad)] + paths[5:] + [missing]
    runner = CliRunner()
    outs = {}
    for jobs in ("1", "2", "3"):
        for fmt in ([], ["--json"]):
            r = runner.invoke(app, ["validate", "--jobs", jobs, *fmt, *order])
            assert r.exit_code == 1
            outs[(jobs, bool(fmt))] = (r.stdout, r.stderr)
    for fmt in (False, True):
        assert outs[("2", fmt)] == outs[("1", fmt)] == outs[("3", fmt)]
    report = json.loads(outs[("2", True)][0])
    assert [e["file"] for e in report] == order
    assert [e["error"] is None for e in report] == [True] * 5 + [False] + [True] * (len(paths) - 5) + [False]
    text = outs[("2", False)]
    assert text[0].count("\nok ") + text[0].startswith("ok ") == len(paths)
    assert "bad.json: move 3" in text[1] and "missing.json: no such file" in text[1]


def test_validate_many_logs_in_parallel_matches_the_library(tmp_path: Path) -> None:
    paths = []
    for i in range(24):
        game_id = sorted(games.GAMES)[i % 5]
        n = games.get(game_id).players[-1]
        log = match.simulate(game_id, ("ann", "bob", "cy", "dee")[:n], f"par-{i}", max_moves=30)
        path = tmp_path / f"{i:02}.json"
        path.write_bytes(logmod.encode(log))
        paths.append(str(path))
    r = CliRunner().invoke(app, ["validate", "--json", *paths])
    assert r.exit_code == 0, r.stderr
    report = json.loads(r.stdout)
    assert [e["file"] for e in report] == paths
    for entry, path in zip(report, paths):
        rep = match.validate(logmod.decode(Path(path).read_bytes()))
        assert entry["valid"] is True and entry["moves"] == len(rep.log.moves)
        assert entry["to_move"] == rep.to_move()


HEAVY = ("xml.etree.ElementTree", "cryptography", "resvg_py", "json",
         "adjudicator.textform", "adjudicator.mailparse", "adjudicator.drawing")

PROBE_ALL = PROBE.replace(
    'print("LOADED"',
    'print("MODULES", " ".join(sorted(sys.modules)), file=sys.stderr)\nprint("LOADED"')


@pytest.mark.parametrize("game_id", sorted(FIRSTS))
def test_show_of_a_json_log_loads_nothing_it_does_not_use(game_id: str) -> None:
    """No picture code, no crypto, no text form or mail reader, no secrets:
    what start-up pays for on every command (issue #13)."""
    done = subprocess.run([sys.executable, "-c", PROBE_ALL, "show", str(FIRSTS[game_id])],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    line = [s for s in done.stderr.splitlines() if s.startswith("MODULES")]
    assert line, done.stderr
    modules = set(line[-1].split()[1:])
    package = "adjudicator.games." + game_id.replace("-", "_")
    assert not {m for m in HEAVY if m in modules}
    assert package + ".picture" not in modules
