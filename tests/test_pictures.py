"""Pictures of positions: golden SVG files, PNG output, and the draw command.

The golden files are the middle position of one example per game and player
count, drawn from every viewer's side (the public view and each seat). After
an intended change, regenerate with
``pytest tests/test_pictures.py --force-regen`` and look at the pictures.
Leaks are the conformance test's business (pictures compared across
re-deals of what the viewer cannot see); here, what is drawn.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adjudicator import drawing, games, log as logmod, match
from adjudicator.cli import app

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def _one_per_count() -> list[Path]:
    """The first example (by file name) of each game and player count."""
    chosen: dict[tuple[str, int], Path] = {}
    for path in sorted((ROOT / "examples").glob("*/*.json")):
        log = logmod.decode(path.read_bytes())
        chosen.setdefault((log.game, len(log.players)), path)
    return list(chosen.values())


EXAMPLES = _one_per_count()
CASES = [
    pytest.param(path, seat, id=f"{path.parent.name}-{path.stem}-{'public' if seat is None else f'seat{seat}'}")
    for path in EXAMPLES
    for seat in [None, *range(len(logmod.decode(path.read_bytes()).players))]
]


def middle(path: Path) -> tuple[match.Replay, int]:
    log = logmod.decode(path.read_bytes())
    ply = len(log.moves) // 2
    return match.replay(log, upto=ply), ply


def picture(path: Path, seat: int | None) -> str:
    rep, ply = middle(path)
    entry = rep.log.moves[ply - 1] if ply else None
    scene = drawing.scene(rep.game, rep.players, rep.state, ply,
                          None if entry is None else (entry.by, entry.move), seat)
    return rep.game.draw(rep.game.view(rep.state, seat), scene)


def test_every_game_and_player_count_has_a_golden_picture() -> None:
    covered = {(p.parent.name, n) for p in EXAMPLES
               for n in [len(logmod.decode(p.read_bytes()).players)]}
    assert covered == {(g.id, n) for g in games.GAMES.values() for n in g.players}


@pytest.mark.parametrize(("path", "seat"), CASES)
def test_golden_pictures(path: Path, seat: int | None, file_regression) -> None:
    svg = picture(path, seat)
    assert picture(path, seat) == svg, "the same view must give the same bytes"
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    width = float(root.get("width"))
    assert 600 <= width <= 1000, "about forum size"
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    rep, ply = middle(path)
    assert rep.game.title in texts and f"after move {ply}" in texts
    for name in rep.players:
        assert name in texts, "every player is named in text"
    if ply:
        last = rep.log.moves[ply - 1]
        assert f"Last move: {last.by} {last.move}" in texts
    assert not any(el.tag in (f"{SVG}image", f"{SVG}script", f"{SVG}foreignObject")
                   for el in root.iter()), "self-contained, no script"
    file_regression.check(svg, extension=".svg", encoding="utf-8")


def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and the raw (filtered) scanlines of a PNG file."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return width, height, zlib.decompress(idat)


@pytest.mark.parametrize("game_id", sorted(games.GAMES))
def test_png_has_the_pictures_size_and_is_not_blank(game_id: str) -> None:
    pytest.importorskip("resvg_py", reason="resvg-py (the 'pictures' extra) is not installed")
    path = next(p for p in EXAMPLES if p.parent.name == game_id)
    svg = picture(path, None)
    root = ET.fromstring(svg)
    width, height, raw = png_pixels(drawing.png(svg))
    assert (width, height) == (round(float(root.get("width"))), round(float(root.get("height"))))
    assert len(set(raw)) > 16, "a picture, not a blank page"
    row = len(raw) // height
    ink_rows = sum(1 for y in range(height) if len(set(raw[y * row + 1:(y + 1) * row])) > 2)
    assert ink_rows > height // 4, "something is drawn over much of the height"


runner = CliRunner()


def test_draw_writes_svg_and_png(tmp_path: Path) -> None:
    log = ROOT / "examples" / "q-turn" / "3-players.json"
    r = runner.invoke(app, ["draw", str(log), "--public", "--at", "4", "-o", str(tmp_path / "a.svg")])
    assert r.exit_code == 0, r.stderr
    assert "after move 4, public view" in r.stdout
    svg = (tmp_path / "a.svg").read_text()
    assert ET.fromstring(svg).tag == f"{SVG}svg"
    r = runner.invoke(app, ["draw", str(log), "--as", "bob", "-o", "-"])
    assert r.exit_code == 0 and "as seen by bob" in r.stdout
    pytest.importorskip("resvg_py", reason="resvg-py (the 'pictures' extra) is not installed")
    r = runner.invoke(app, ["draw", str(log), "-o", str(tmp_path / "a.png")])
    assert r.exit_code == 0, r.stderr
    assert (tmp_path / "a.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(("args", "message", "status"), [
    (["draw", "{bad}", "-o", "{out}/x.svg"], "move 1 (ann)", 1),
    (["draw", "{good}", "-o", "{out}/x.gif"], "write an .svg or a .png file", 2),
    (["draw", "{good}", "--at", "999", "-o", "{out}/x.svg"], "--at 999", 2),
    (["draw", "{good}", "--as", "zed", "-o", "{out}/x.svg"], "--as 'zed'", 2),
    (["draw", "{missing}", "-o", "{out}/x.svg"], "no such file", 1),
    (["replay", "{bad}", "--html", "-o", "{out}/x.html"], "move 1 (ann)", 1),
    (["replay", "{good}", "--html"], "--html needs -o FILE", 2),
    (["replay", "{good}", "--html", "--as", "zed", "-o", "{out}/x.html"], "--as 'zed'", 2),
])
def test_draw_and_html_refuse_bad_input_in_one_line(tmp_path: Path, args: list[str], message: str,
                                                    status: int) -> None:
    good = ROOT / "examples" / "q-turn" / "3-players.json"
    bad = tmp_path / "bad.json"
    bad.write_bytes(good.read_bytes().replace(b'"move": "', b'"move": "x', 1))
    out = tmp_path / "out"
    out.mkdir()
    fill = {"bad": str(bad), "good": str(good), "missing": str(tmp_path / "nope.json"),
            "out": str(out)}
    r = runner.invoke(app, [a.format(**fill) for a in args])
    assert r.exit_code == status, (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], r.stderr
    assert list(out.iterdir()) == [], "nothing is written on an error"


def test_a_refereed_view_file_is_drawn_from_its_view(tmp_path: Path) -> None:
    game, secret = tmp_path / "g.json", tmp_path / "g.secret.json"
    assert runner.invoke(app, ["new", "q-turn", "--players", "ann,bob", "--referee", "-o", str(game)]).exit_code == 0
    assert runner.invoke(app, ["view", str(game), "--secret", str(secret), "--as", "bob",
                               "-o", str(tmp_path / "bob.json")]).exit_code == 0
    r = runner.invoke(app, ["draw", str(tmp_path / "bob.json"), "-o", "-"])
    assert r.exit_code == 0, r.stderr
    assert "as seen by bob" in r.stdout and "not shown in a view file" in r.stdout
    # Without the secret the board cannot be drawn (the deal is hidden): the
    # public picture says so, and a player's view is refused.
    r = runner.invoke(app, ["draw", str(game), "--public", "-o", "-"])
    assert r.exit_code == 0 and "public view" in r.stdout
    assert "not shown until the referee reveals the seed" in r.stdout
    r = runner.invoke(app, ["draw", str(game), "--as", "bob", "-o", str(tmp_path / "x.svg")])
    assert r.exit_code == 1 and "secret" in r.stderr


# --- parts drawn once, shared by many pictures (issue #28) ------------------------------------


def _longest(game_dir: Path) -> Path:
    return max(sorted(game_dir.glob("*.json")),
               key=lambda p: len(logmod.decode(p.read_bytes()).moves))


@pytest.mark.parametrize("path", [_longest(d) for d in sorted((ROOT / "examples").iterdir())
                                  if d.is_dir()], ids=lambda p: p.parent.name)
def test_a_shared_part_is_what_drawing_it_again_would_give(path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay page draws each part of a table once for every picture it is
    the same in (Canvas.shared): every picture is still, byte for byte, the
    picture drawn from nothing. The first and last positions of the longest
    example of each game, from every side, one after the other as a page draws them."""
    lg = logmod.decode(path.read_bytes())
    rep = match.validate(lg, keep=True)
    plies = sorted({*range(min(6, len(lg.moves) + 1)), *range(max(0, len(lg.moves) - 6), len(lg.moves) + 1)})

    def pictures() -> list[str]:
        out = []
        for seat in [None, *range(len(rep.players))]:
            for ply in plies:
                entry = lg.moves[ply - 1] if ply else None
                ended = rep.ended if ply == len(lg.moves) else None
                scene = drawing.scene(rep.game, rep.players, rep.states[ply], ply,
                                      None if entry is None else (entry.by, entry.move), seat, ended)
                out.append(rep.game.draw(rep.game.view(rep.states[ply], seat), scene))
        return out

    shared = pictures()
    again = pictures()  # every part now drawn before
    with monkeypatch.context() as m:
        m.setattr(drawing.Canvas, "shared", lambda self, key, draw: draw())
        alone = pictures()
    assert shared == alone and again == alone


def test_atlas_stacks_stay_inside_their_row_and_clear_of_each_other() -> None:
    """A stack's label (chips, Time or Place) sits under its card inside the
    suit's row, never across the border to the next row, and two stacks side
    by side never touch (issue #26)."""
    from adjudicator.games.atlas.picture import TINT

    checked = 0
    for path in sorted((ROOT / "examples" / "atlas").glob("*.json")):
        log = logmod.decode(path.read_bytes())
        rep = match.validate(log, keep=True)
        for ply in range(0, len(log.moves) + 1, 3):
            scene = drawing.scene(rep.game, rep.players, rep.states[ply], ply, None, None)
            root = ET.fromstring(rep.game.draw(rep.game.view(rep.states[ply], None), scene))
            box = lambda r: tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))  # noqa: E731
            rows = [box(r) for r in root.iter(f"{SVG}rect") if r.get("fill") in TINT]
            assert len(rows) == 4
            pills = [box(g.find(f"{SVG}rect")) for g in root.iter(f"{SVG}g")
                     if (g.get("class") or "").startswith("stack")]
            for _x, y, _w, h in pills:
                (row,) = [r for r in rows if r[1] <= y + h / 2 <= r[1] + r[3]]
                assert row[1] + 2 <= y and y + h <= row[1] + row[3] - 4, (path.name, ply, row, y, h)
            for a in pills:
                for b in pills:
                    if a is not b and abs(a[1] - b[1]) < 1:
                        assert a[0] + a[2] + 2 <= b[0] or b[0] + b[2] + 2 <= a[0], (path.name, ply, a, b)
            checked += len(pills)
    assert checked > 100
