"""The README's walkthrough works as written.

Every command of the ```sh blocks under "Playing by email" is run in order in
a fresh directory. A command followed by a ``# Error: ...`` line must fail
with exit status 1 and print exactly that line; every other must succeed.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def walkthrough() -> list[tuple[str, str | None]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Playing by email", 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, str | None]] = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.splitlines():
            if line.startswith("# Error:"):
                steps[-1] = (steps[-1][0], line[2:])
            elif line.strip():
                steps.append((line.split("  #", 1)[0].strip(), None))
    return steps


def test_walkthrough_runs_as_written(tmp_path: Path) -> None:
    shim = tmp_path / "bin" / "adjudicator"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m adjudicator "$@"\n')
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ['PATH']}", "NO_COLOR": "1"}
    steps = walkthrough()
    assert len(steps) >= 5
    for command, error in steps:
        done = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        if error is None:
            assert done.returncode == 0, f"{command}\n{done.stderr}"
        else:
            assert done.returncode == 1, command
            assert done.stderr == error + "\n", command
        assert "Traceback" not in done.stderr
    assert (tmp_path / "game.json").is_file()
    assert (tmp_path / "atlas.secret.json").stat().st_mode & 0o077 == 0
