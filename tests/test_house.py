"""The house rules of the package, checked on its source (issue #22).

* No module imports a private name (one with a leading underscore) of
  another module, or reaches for one as ``module._name``: what modules
  share is public, and what is private can change without a look elsewhere.
* Nothing probes a game with ``getattr``/``hasattr``: a game declares its
  layers in its ``GameSpec``.
* Each game package's ``__init__`` is one ``GAME = GameSpec(...)``.
* The library never reaches up: the presentation and the text form import
  neither the front ends nor the refereeing protocol above them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator"
SOURCES = sorted(PACKAGE.rglob("*.py"))
TESTS = sorted((ROOT / "tests").glob("*.py"))


def _private_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ours: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            local = node.level > 0 or (node.module or "").startswith("adjudicator")
            for alias in node.names:
                if local and alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.name}:{node.lineno}: imports {alias.name}")
                if local:
                    ours.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("adjudicator"):
                    ours.add((alias.asname or alias.name).split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name) and node.value.id in ours):
            found.append(f"{path.name}:{node.lineno}: uses {node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("path", SOURCES + TESTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_crosses_a_module_boundary(path: Path) -> None:
    assert _private_uses(path) == []


def test_the_check_finds_a_private_name() -> None:
    sample = ROOT / "tests" / "__private_sample.py"
    sample.write_text("from adjudicator.seal import _field\nfrom adjudicator import seal\nseal._LENGTH\n")
    try:
        assert len(_private_uses(sample)) == 2
    finally:
        sample.unlink()


def test_no_game_is_probed_by_name() -> None:
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and node.args
                    and isinstance(node.args[0], ast.Name) and "game" in node.args[0].id):
                raise AssertionError(f"{path.relative_to(ROOT)}:{node.lineno} probes a game")


@pytest.mark.parametrize("package", sorted(p.parent.name for p in PACKAGE.glob("games/*/__init__.py")))
def test_a_game_package_is_one_declaration(package: str) -> None:
    tree = ast.parse((PACKAGE / "games" / package / "__init__.py").read_text(encoding="utf-8"))
    statements = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))
                  and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    assert len(statements) == 1
    (declaration,) = statements
    assert isinstance(declaration, ast.Assign) and declaration.targets[0].id == "GAME"  # type: ignore[attr-defined]
    assert declaration.value.func.id == "GameSpec"  # type: ignore[attr-defined]


@pytest.mark.parametrize("module", ["textform", "present", "drawing", "html", "mailparse", "log",
                                    "engine", "chain", "seal", "chance", "outputs"])
def test_the_lower_layers_never_reach_up(module: str) -> None:
    above = {"cli", "postal", "referee", "actions", "match"}
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = {node.module} if node.module else {a.name for a in node.names}
            assert not names & above, f"{module} imports {names & above}"
