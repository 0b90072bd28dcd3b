"""The quick start-up path (adjudicator/quickargs.py) against Typer itself.

``main()`` reads a plain command line without building the Typer command
(issue #13: pydantic alone is most of a hello-world app's start-up). Here it
is attacked from both sides:

* its reading of thousands of random command lines, per command, is either a
  refusal or exactly the keyword arguments Typer calls the command with;
* every exit-status case of tests/test_exit_codes.py, and more, run through
  ``main()`` on each path gives the same output, the same errors, the same
  exit status and the same files.
"""

from __future__ import annotations

import functools
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main

from adjudicator import cli, quickargs

import test_exit_codes

CASES = test_exit_codes.CASES
files = test_exit_codes.files  # the fixture of the exit-status cases

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {(i.name or i.callback.__name__.replace("_", "-")): i for i in cli.app.registered_commands}


def typer_reading(info: Any, args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments Typer calls the command with, None if it refuses
    the command line (a usage error, or help printed instead)."""
    seen: list[dict[str, Any]] = []

    @functools.wraps(info.callback)
    def capture(**kwargs: Any) -> None:
        seen.append(kwargs)

    mini = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    mini.callback()(lambda: None)
    mini.command(info.name)(capture)
    command = typer.main.get_command(mini)
    try:
        command.main(args=[info.name or info.callback.__name__.replace("_", "-"), *args],
                     prog_name="adjudicator", standalone_mode=False)
    except Exception as e:  # noqa: BLE001 - click's usage errors
        assert type(e).__module__.startswith("typer."), repr(e)
        return None
    return seen[0] if seen else None


def typed(kwargs: dict[str, Any] | None) -> Any:
    """Values with their types: 3 and 3.0, True and 1 differ here."""
    if kwargs is None:
        return None
    return {k: (type(v).__name__, v if not isinstance(v, list) else [(type(x).__name__, x) for x in v])
            for k, v in kwargs.items()}


def vocabulary(name: str, rng: random.Random) -> list[list[str]]:
    """Pieces of command lines for ``name``: every option spelling Typer
    knows for it (from the click command, not from quickargs), alone, with a
    value, glued with = or run together; words, numbers written every way,
    and tokens that mean something else."""
    command = typer.main.get_command(cli._only(name)).commands[name]  # type: ignore[attr-defined]
    opts = [o for p in command.params for o in (*p.opts, *p.secondary_opts) if o.startswith("-")]
    values = ["g.json", "-", "", "ann", "a b", "3", "0", "007", "-3", "2.5", "1e3", " 5", "5 ",
              "\u0663", "5_0", "+4", "x=y", "--json", "-o", "\u00e9t\u00e9", "takeback", "abandon",
              "99999999999999999999", "1.0000001", ".5", "inf", "nan"]
    pieces: list[list[str]] = [[v] for v in values]
    for o in opts:
        pieces += [[o], [o, rng.choice(values)], [o + "=" + rng.choice(values)],
                   [o + rng.choice(["x", "3", ""])]]
    pieces += [["--"], ["--help"], ["-h"], ["--bogus"], ["-Z"], ["--no-json"], ["-pann,bob"]]
    return pieces


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_quickargs_reads_what_typer_reads_or_declines(name: str, capsys) -> None:
    info = COMMANDS[name]
    rng = random.Random(f"quickargs-{name}")
    pieces = vocabulary(name, rng) + [[t] for t in plain_lines(name)[0]]
    required = plain_lines(name)[0]  # every argument and required option
    taken = 0
    for _ in range(500):
        chosen = [rng.choice(pieces) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.6:
            chosen.insert(rng.randint(0, len(chosen)), required)
        args = [t for piece in chosen for t in piece]
        quick = quickargs.read(info, args)
        if quick is None:
            continue
        taken += 1
        assert typed(quick) == typed(typer_reading(info, args)), args
    capsys.readouterr()  # help texts Typer printed
    assert taken >= 25, f"only {taken} random command lines of {name} were read quickly"


def plain_lines(name: str) -> list[list[str]]:
    """Command lines in the plain forms: every argument and every option
    given (a value of "3" suits every type), in each spelling."""
    command = typer.main.get_command(cli._only(name)).commands[name]  # type: ignore[attr-defined]
    positional: list[str] = []
    spaced: list[str] = []
    glued: list[str] = []
    short: list[str] = []
    for p in command.params:
        if p.param_type_name == "argument":
            positional += ["3", "3"] if p.nargs == -1 else ["3"]
            continue
        long = [o for o in p.opts if o.startswith("--")][0]
        brief = ([o for o in p.opts if not o.startswith("--")] or [long])[0]
        if p.is_flag:
            spaced.append(long)
            glued.append(long)
            short.append(brief)
        else:
            spaced += [long, "3"]
            glued.append(long + "=3")
            short += [brief, "3"]
    bare = positional + [t for p in command.params if p.param_type_name == "option" and p.required
                         for t in ([p.opts[0]] if p.is_flag else [p.opts[0], "3"])]
    return [bare, positional + spaced, glued + positional, short + positional,
            positional[:1] + spaced + positional[1:]]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_plain_forms_are_read_quickly(name: str, capsys) -> None:
    info = COMMANDS[name]
    for args in plain_lines(name):
        quick = quickargs.read(info, args)
        assert quick is not None, (name, args)
        assert typed(quick) == typed(typer_reading(info, args)), args
    capsys.readouterr()


@pytest.mark.parametrize("args", [
    ["--help"], ["g.json", "--help"], ["--", "g.json"], ["g.json", "--at", "-3"], ["g.json", "--at", "03"],
    ["g.json", "--at", "\u0663"], ["g.json", "--at"], ["g.json", "--json=yes"], ["g.json", "--bogus"],
    ["g.json", "h.json"], [], ["g.json", "--as", "--json"], ["g.json", "-x"],
])
def test_what_quickargs_leaves_to_typer(args: list[str]) -> None:
    assert quickargs.read(COMMANDS["show"], args) is None


def run_main(argv: list[str], capsys, quick: bool, monkeypatch) -> tuple[int, str, str, bool]:
    taken = []
    real = quickargs.read

    def spy(info: Any, args: Any) -> Any:
        got = real(info, args) if quick else None
        taken.append(got is not None)
        return got

    with monkeypatch.context() as m:
        m.setattr(quickargs, "read", spy)
        m.setattr(sys, "argv", ["adjudicator", *argv])
        m.setattr(cli, "_ASCII_ONLY", False)
        m.setattr(sys, "stdin", open(os.devnull))
        with pytest.raises(SystemExit) as e:
            cli.main()
    out = capsys.readouterr()
    code = e.value.code if isinstance(e.value.code, int) else (0 if e.value.code is None else 1)
    return code, out.out, out.err, any(taken)


def masked(text: str) -> str:
    """Text without what a random seed or a fresh key makes differ."""
    return re.sub(r"seed [0-9a-f]{16}|[A-Za-z0-9+/_-]{32,}=*", "<random>", text)


EXTRA = [
    ("propose", ["propose", "{game}", "nonsense", "--as", "ann"], 2),  # typer.BadParameter
    ("propose", ["propose", "{game}", "abandon", "3", "--as", "ann"], 2),
    ("show", ["show", "{game}", "--at=0", "--ascii", "--as", "bob"], 0),
    ("show", ["show", "{game}", "--at=1"], 2),
    ("show", ["show", "{game}", "--json", "--details"], 0),
    ("show", ["show", "{game}", "--ignore-rest"], 2),
    ("show", ["show", "{dir}/missing.json"], 1),
    ("show", ["show", "{view}"], 0),
    ("extend", ["extend", "{game}", "--as", "ann", "-m", "hi"], 2),
    ("validate", ["validate", "{game}", "{bad}", "{game}", "-j", "1"], 1),
    ("replay", ["replay", "{game}", "--json"], 0),
]


@pytest.mark.parametrize(("command", "args", "status"), CASES + EXTRA,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(CASES + EXTRA)])
def test_main_quick_and_typer_agree(files, tmp_path: Path, command: str, args: list[str],
                                    status: int, capsys, monkeypatch) -> None:
    results = []
    trees = []
    for quick in (True, False):
        where = tmp_path / ("quick" if quick else "typer")
        shutil.copytree(files["dir"], where)
        if command == "referee":
            shutil.copytree(files["club"], where / "club", dirs_exist_ok=True)
        mine = {k: v.replace(files["dir"], str(where)) for k, v in files.items()}
        mine["club"] = str(where / "club")
        code, out, err, taken = run_main([a.format(**mine) for a in args], capsys, quick, monkeypatch)
        results.append((code, *(masked(t.replace(str(where), "<dir>")) for t in (out, err))))
        trees.append(sorted((str(p.relative_to(where)), p.stat().st_size if p.is_file() else -1)
                            for p in where.rglob("*") if ".lock" not in p.name))
        if quick:
            # the plain forms of every case but the group "key" are read quickly
            assert taken == (command != "key" and quickargs.read(
                COMMANDS[command], [a.format(**mine) for a in args[1:]]) is not None)
    if command == "simulate" and "--seed" not in args:  # a random game: its own moves
        results = [(code, err) for code, _, err in results]
    assert results[0] == results[1]
    assert results[0][0] == status, results[0]
    if command not in ("new", "simulate", "referee", "key", "view"):  # a random seed or key
        assert trees[0] == trees[1]


def test_show_loads_no_pydantic() -> None:
    """The point of the quick path: a plain ``show`` never builds a Typer
    parameter, so pydantic (most of a Typer app's start-up) stays unloaded."""
    log = sorted((ROOT / "examples").glob("q-turn/*.json"))[0]
    probe = ("import runpy, sys\nsys.argv = ['adjudicator', 'show', sys.argv[1]]\n"
             "try:\n    runpy.run_module('adjudicator', run_name='__main__')\n"
             "except SystemExit as e:\n    code = e.code\n"
             "print('LOADED', ' '.join(m for m in sys.modules if m.split('.')[0] == 'pydantic' "
             "or m == 'typer._adapters'), code, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(log)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    line = [l for l in done.stderr.splitlines() if l.startswith("LOADED")]
    assert line == ["LOADED  0"], done.stderr
