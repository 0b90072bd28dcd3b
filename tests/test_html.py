"""The HTML replay (adjudicator/html.py): frames of a replay, and the page.

The page of a real example log of every game must be self-contained (no URL,
no ``src``/``href`` but to fragments or inline data), well-formed, and carry
exactly one picture per position per viewer; a hostile comment, title or
label must stay text. tests/test_browser.py drives the page in Chromium.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import msgspec
import pytest

from adjudicator import games, html, log as logmod, match, narrating

ROOT = Path(__file__).resolve().parents[1]


def _shortest_examples() -> list[Path]:
    """The shortest example log of each game: every game, in a few seconds each
    (a long game's page holds thousands of pictures, each drawn in milliseconds)."""
    by_game: dict[str, list[Path]] = {}
    for path in sorted(ROOT.glob("examples/*/*.json")):
        by_game.setdefault(path.parent.name, []).append(path)
    return [min(paths, key=lambda p: (len(logmod.decode(p.read_bytes()).moves), p.name))
            for _, paths in sorted(by_game.items())]


EXAMPLES = _shortest_examples()
SVG = "{http://www.w3.org/2000/svg}"
#: Namespace names are identifiers, never fetched: the only URLs a page may hold.
NAMESPACES = (
    "http://www.w3.org/2000/svg",
    "http://www.w3.org/1999/xlink",
    "http://www.w3.org/1999/xhtml",
    "http://www.w3.org/XML/1998/namespace",
)
HOSTILE = "</script><script>alert(1)</script><!-- \"quoted\" & 'single' </SCRIPT >\u2028"
#: The game and example the page machinery is tested on: the rulebook's sample game.
GAME = "q-turn"
EXAMPLE = ROOT / "examples" / GAME / "2-players-sample.json"


# --- helpers (tests/test_browser.py uses them too) ---------------------------------------------


def replay_of(path: Path) -> match.Replay:
    return match.validate(logmod.decode(path.read_bytes(), str(path)), keep=True)


def all_views(rep: match.Replay) -> list[tuple[str, list[html.Frame]]]:
    """The public view and each player's, as an open game's page offers them."""
    return html.views(rep, [None, *range(len(rep.players))])


def hostile_log() -> logmod.Log:
    """A game whose second move carries a comment meant to break out."""
    log = match.new_log(GAME, ["ann", "bob", "cy"], "7")
    for k in range(4):
        rep = match.validate(log)
        move = rep.game.format_move(rep.state, rep.game.legal_moves(rep.state)[0])
        log = match.extend(log, [move], comment=HOSTILE if k == 1 else None)
    return log


class Page(HTMLParser):
    """The parts of a page the tests look at, and its nesting checked tag by tag."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None, int]] = []  # tag, id, where its text starts
        self.problems: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.ids: list[str] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.comments: list[str] = []
        self.doctype = ""
        self.text: dict[str, str] = {}  # the text inside each element with an id
        self._chunks: list[str] = []
        self.feed(text)
        self.close()
        if self.stack:
            self.problems.append(f"never closed: {[t for t, _, _ in self.stack]}")

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if len(a) != len(attrs):
            self.problems.append(f"<{tag}> repeats an attribute")
        self.tags.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"] or "")
        if tag not in self.VOID:
            self.stack.append((tag, a.get("id"), len(self._chunks)))
        if tag == "script":
            self.scripts.append((a, ""))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        in_svg = any(t == "svg" for t, _, _ in self.stack)  # (the picture shown as the page opens)
        if tag not in self.VOID and not in_svg:
            self.problems.append(f"<{tag}/> is not a void element")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1][0] if self.stack else 'nothing'}")
            return
        _, ident, start = self.stack.pop()
        if ident is not None:
            self.text[ident] = "".join(self._chunks[start:])

    def handle_data(self, data: str) -> None:
        self._chunks.append(data)
        if self.stack and self.stack[-1][0] == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def data_of(parsed: Page) -> dict:
    (block,) = [text for attrs, text in parsed.scripts if attrs.get("type") == "application/json"]
    return json.loads(block)


def external_references(text: str) -> list[str]:
    """Anything in ``text`` that could make a browser fetch something."""
    for ns in NAMESPACES:
        text = text.replace(ns, "")
    # Any scheme a browser fetches, a protocol-relative "//host", CSS imports and url().
    found = re.findall(r"\b(?:https?|ftp|wss?):|(?:^|[\s\"'(=\\])//[^/\s]|@import|url\s*\(",
                       text, re.IGNORECASE)
    for m in re.finditer(r"\b(?:src|href|srcset|action|formaction|poster)\s*=\s*\\?[\"']?([^\s\"'\\>]*)",
                         text, re.IGNORECASE):
        if not m.group(1).startswith(("#", "data:")):
            found.append(m.group(0))
    return found


def check_page(text: str, viewers: list[tuple[str, list[html.Frame]]]) -> Page:
    """Every check a page must pass, whatever the game; the parsed page."""
    assert external_references(text) == []
    parsed = Page(text)
    assert parsed.problems == []
    assert parsed.doctype.lower() == "doctype html"
    assert parsed.comments == []
    assert len(parsed.ids) == len(set(parsed.ids)), "an id is used twice"
    for name in ("ply", "total", "move", "picture", "moves", "first", "back", "forward", "last"):
        assert name in parsed.ids
    assert {tag for tag, _ in parsed.tags}.isdisjoint(
        {"link", "img", "iframe", "object", "embed", "audio", "video", "source", "base", "form"})
    assert [bool(a.get("src")) for a, _ in parsed.scripts] == [False, False]
    assert [a.get("type") for a, _ in parsed.scripts] == ["application/json", None]
    (policy,) = [a["content"] for t, a in parsed.tags
                 if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert "default-src 'none'" in policy and "unsafe-inline" not in policy.split("style-src")[0]

    data = data_of(parsed)
    assert [v["label"] for v in data["viewers"]] == [label for label, _ in viewers]
    for v, (shown, (_, frames)) in enumerate(zip(data["viewers"], viewers)):
        assert len(shown["frames"]) == len(frames)
        for ply, (got, frame) in enumerate(zip(shown["frames"], frames)):
            assert got["ply"] == ply and got["comment"] == frame.comment
            picture = html.picture_of(data, v, ply)
            assert picture == frame.picture  # byte for byte the game's drawing
            root = ET.fromstring(picture)
            assert root.tag == f"{SVG}svg"
            for node in root.iter():
                assert node.tag != f"{SVG}script"
                for key, value in node.attrib.items():
                    if key.endswith(("href", "src")):
                        assert value.startswith(("#", "data:")), (key, value)
    moves = [b for t, b in parsed.tags if t == "button" and "data-ply" in b]
    assert [int(b["data-ply"]) for b in moves] == list(range(len(viewers[0][1])))
    return parsed


# --- frames -----------------------------------------------------------------------------------


def test_frames_hold_every_position_with_the_move_just_made(monkeypatch):
    game = games.get(GAME)
    rep = replay_of(EXAMPLE)
    frames = html.frames(rep, None)
    assert [f.ply for f in frames] == list(range(len(rep.log.moves) + 1))
    assert (frames[0].by, frames[0].move) == (None, None)
    assert [(f.by, f.move) for f in frames[1:]] == [(e.by, e.move) for e in rep.log.moves]
    assert all(f.picture.startswith("<svg") for f in frames)
    assert [f.to_move for f in frames] == [rep.to_move(s) for s in rep.states]
    assert [f.result for f in frames[:-1]] == [None] * (len(frames) - 1)
    final = rep.log.result
    assert frames[-1].result == html.result_line(final)
    assert all(w in frames[-1].result for w in final.winners)
    assert frames[1].score == html.scores(game.standing(rep.states[1]))
    assert "after move 1" in frames[1].picture and "public view" in frames[1].picture


def test_frames_list_the_legal_moves_only_for_the_viewer_to_move(monkeypatch):
    """As actions.position with a fixed viewer: the legal moves are the mover's business."""
    game = games.get(GAME)
    rep = replay_of(EXAMPLE)
    assert all(f.legal is None for f in html.frames(rep, None))
    for seat, name in enumerate(rep.players):
        frames = html.frames(rep, seat)
        assert f"as seen by {name}" in frames[0].picture
        for frame, state in zip(frames, rep.states):
            if game.to_move(state) == seat:
                assert frame.legal == tuple(game.format_move(state, m)
                                            for m in game.legal_moves(state))
                assert frame.explained == tuple(game.describe(game.view(state, seat), m)
                                                for m in frame.legal)
            else:
                assert frame.legal is None and frame.explained is None


def test_views_label_the_public_view_and_each_player(monkeypatch):
    rep = replay_of(EXAMPLE)
    views = html.views(rep, [None, 1])
    assert [label for label, _ in views] == ["public view", rep.players[1]]
    assert views[1][1] == html.frames(rep, 1)


def test_frames_need_every_state(monkeypatch):
    rep = match.validate(logmod.decode(EXAMPLE.read_bytes()))
    with pytest.raises(ValueError, match="keep=True"):
        html.frames(rep, None)


# --- the page for a real log of every game ----------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_page_of_an_example_of_every_game_is_self_contained_and_well_formed(path: Path):
    rep = replay_of(path)
    views = all_views(rep)
    text = html.page(f"{rep.game.title}: {path.name}", views, subtitle=", ".join(rep.players))
    parsed = check_page(text, views)
    assert parsed.text["total"] == str(len(rep.log.moves))
    # One picture per position per viewer, each the game's own drawing (check_page).
    data = data_of(parsed)
    pictures = [html.picture_of(data, v, f["ply"])
                for v, shown in enumerate(data["viewers"]) for f in shown["frames"]]
    assert len(pictures) == (len(rep.log.moves) + 1) * (len(rep.players) + 1)
    assert len(set(pictures)) == len(pictures)


def test_page_of_the_machinery_example(monkeypatch):
    """The same checks on one example whatever the games can draw yet."""
    rep = replay_of(EXAMPLE)
    views = all_views(rep)
    parsed = check_page(html.page("Q-Turn", views), views)
    assert parsed.text["title"] == "Q-Turn"
    assert '<option value="1">ann</option>' in html.page("x", views)


def test_page_with_one_viewer_offers_no_choice(monkeypatch):
    rep = replay_of(EXAMPLE)
    views = [("bob", html.frames(rep, 1))]
    text = html.page("Q-Turn", views)
    parsed = check_page(text, views)
    assert "select" not in {t for t, _ in parsed.tags}
    assert parsed.text["viewer-label"] == "bob"


def test_page_refuses_frames_of_different_games(monkeypatch):
    rep = replay_of(EXAMPLE)
    other = replay_of(ROOT / "examples" / GAME / "3-players-round-limit.json")
    with pytest.raises(ValueError, match="other moves"):
        html.page("x", [("a", html.frames(rep, None)), ("b", html.frames(other, None))])
    with pytest.raises(ValueError):
        html.page("x", [])


# --- escaping ---------------------------------------------------------------------------------


def test_a_hostile_comment_title_and_label_stay_text(monkeypatch):
    log = hostile_log()
    assert log.moves[1].comment == HOSTILE
    rep = match.validate(log, keep=True)
    views = [(HOSTILE, html.frames(rep, None)), ("ann", html.frames(rep, 0))]
    text = html.page(HOSTILE, views, subtitle=HOSTILE)
    # Nothing closes a script, opens a comment or starts a tag but the page's own.
    assert text.lower().count("</script") == 2
    assert "<!--" not in text and "alert(1)</script>" not in text
    parsed = check_page(text, views)
    assert parsed.text["title"] == HOSTILE
    assert parsed.text["viewer"].startswith(HOSTILE)  # the first <option>'s text
    data = data_of(parsed)
    assert [f["comment"] for f in data["viewers"][0]["frames"]] == [None, None, HOSTILE, None, None]
    assert len(parsed.scripts) == 2


def test_json_for_a_script_escapes_what_html_would_read():
    text = html.json_for_script({"x": "</script><!--&>\u2028\u2029"})
    assert not re.search(r"[<>&\u2028\u2029]", text)
    assert json.loads(text) == {"x": "</script><!--&>\u2028\u2029"}


# --- where the page opens, with and without JavaScript (issue #26) ---------------------------


def _under_way(moves: int = 9) -> match.Replay:
    full = replay_of(EXAMPLE).log
    return match.validate(msgspec.structs.replace(full, moves=full.moves[:moves], result=None),
                          keep=True)


def test_a_game_under_way_opens_on_the_player_to_move_with_the_legal_moves():
    rep = _under_way()
    game, n = rep.game, len(rep.log.moves)
    views = all_views(rep)
    text = html.page("Q-Turn", views, follow=True)
    parsed = check_page(text, views)
    data = data_of(parsed)
    assert (data["follow"], data["start"]) == (True, n)
    assert '<option value="-1" selected>player to move</option>' in text
    # The HTML itself holds the position it opens on: no script needed to see it.
    seat = game.to_move(rep.states[n])
    assert f'<figure id="picture" aria-live="polite">{views[seat + 1][1][n].picture.rstrip()}</figure>' in text
    legal = [game.format_move(rep.states[n], m) for m in game.legal_moves(rep.states[n])]
    # Each legal move with its words, as legal --explain says them.
    said = narrating.explained(game, game.view(rep.states[n], seat), legal)
    assert parsed.text["legal"] == "".join(f"\n{m} {w}" for m, w in said)
    assert parsed.text["ply"] == str(n) and parsed.text["move"].startswith(f"Move {n}: ")
    assert parsed.text["turn"] == f"To move: {rep.players[seat]}"
    assert f"move {n}" in parsed.text["nojs"]


def test_a_finished_game_opens_on_the_start_and_without_following():
    rep = replay_of(EXAMPLE)
    views = all_views(rep)
    text = html.page("Q-Turn", views)
    data = data_of(check_page(text, views))
    assert (data["follow"], data["start"]) == (False, 0)
    assert "player to move" not in text
    assert f'<figure id="picture" aria-live="polite">{views[0][1][0].picture.rstrip()}</figure>' in text


def test_replay_html_of_an_open_game_offers_the_player_to_move(tmp_path):
    from typer.testing import CliRunner

    from adjudicator.cli import app

    game = tmp_path / "game.json"
    game.write_bytes(logmod.encode(_under_way(5).log))
    out = tmp_path / "page.html"
    result = CliRunner().invoke(app, ["replay", str(game), "--html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert '<option value="-1" selected>player to move</option>' in out.read_text()
    result = CliRunner().invoke(app, ["replay", str(game), "--html", "--public", "-o", str(out),
                                      "--force"])
    assert result.exit_code == 0 and "player to move" not in out.read_text()
