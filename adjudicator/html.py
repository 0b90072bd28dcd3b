"""A replay as one self-contained HTML page: the game's pictures, stepped through.

:func:`frames` turns a replayed log into one :class:`Frame` per position as
one seat (or a spectator) sees it, each with the SVG picture the game's
``draw`` makes; :func:`page` writes frames of one or more viewers into a
single HTML file that works offline, from ``file://``: no network request,
no external script, stylesheet, font or image. The pictures are the games'
own SVG documents, carried in a JSON data block and put into the page by a
small plain script (``DOMParser``), never drawn a second time in JavaScript.

Escaping: text in the HTML goes through :func:`html.escape`; the JSON data
block has every ``<``, ``>`` and ``&`` written as a ``\\u`` escape, so no
comment can close the block (``</script>``) or open an HTML comment
(``<!--``). A Content-Security-Policy lets the browser fetch nothing and run
only the page's own script, pinned by its hash.

Example (what ``adjudicator replay LOG --html -o FILE`` does)::

    rep = match.validate(log.decode(data), keep=True)
    shown = views(rep, [None, *range(len(rep.players))])  # an open game: everyone's
    Path("replay.html").write_text(page(rep.game.title, shown), encoding="utf-8")
"""

from __future__ import annotations

import base64
import hashlib
import html
from collections.abc import Sequence
from typing import Any

import msgspec

from . import drawing, narrating
from .engine import GameSpec, Outcome, Scene
from .log import Log
from .played import Replay


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """One position of a game as one viewer sees it.

    ``by`` and ``move`` are the move just made (``None`` at the start), in
    canonical notation; ``words`` says it in words where the game can;
    ``comment`` is the log's comment on it. ``legal`` lists the legal moves
    only when the viewer is the player to move, and ``explained`` what each
    would do, in the same order and the words of ``legal --explain``
    (:func:`narrating.explained`); ``score`` is the standing in one line;
    ``result`` the final result line once the game is over.
    """

    ply: int  # moves made so far
    by: str | None
    move: str | None
    words: str | None = None
    comment: str | None = None
    picture: str  # an SVG document, from the game's draw
    to_move: str | None  # None once the game is over
    legal: tuple[str, ...] | None
    explained: tuple[str, ...] | None = None
    score: str
    result: str | None


def scores(outcome: Outcome) -> str:
    """The standings in one line: ``1. ann 7 · 2. bob 5``."""
    return " \u00b7 ".join(f"{s.place}. {s.player} {s.score}" for s in outcome.standings)


def result_line(outcome: Outcome) -> str:
    """The final result in one line: ``Game over. Winner: ann (1. ann 7 · 2. bob 5)``."""
    winners = ", ".join(outcome.winners) or "nobody"
    label = "Winners" if len(outcome.winners) > 1 else "Winner"
    return f"Game over. {label}: {winners} ({scores(outcome)})"


def frames(replay: Replay, viewer: int | None) -> list[Frame]:
    """Every position of ``replay`` as seat ``viewer`` sees it (``None``: the public).

    ``replay`` must have kept its states (``match.validate(log, keep=True)``).
    The legal moves are listed only where ``viewer`` is the player to move.
    """
    return _frames(replay, viewer, _scenes(replay))


def _scenes(replay: Replay) -> list[Scene]:
    """The public scene of every position (the same for every viewer but
    for the viewer's name: worked out once for them all)."""
    game, log = replay.game, replay.log
    if len(replay.states) != len(log.moves) + 1:
        raise ValueError("frames needs every state: replay the log with keep=True")
    out = []
    for ply, state in enumerate(replay.states):
        entry = log.moves[ply - 1] if ply else None
        ended = replay.ended if ply == len(log.moves) else None
        out.append(drawing.scene(game, replay.players, state, ply,
                                 None if entry is None else (entry.by, entry.move), None, ended))
    return out


def _frames(replay: Replay, viewer: int | None, scenes: list[Scene]) -> list[Frame]:
    game, log = replay.game, replay.log
    name = None if viewer is None else replay.players[viewer]
    out = []
    for ply, state in enumerate(replay.states):
        entry = log.moves[ply - 1] if ply else None
        scene = msgspec.structs.replace(scenes[ply], viewer=name)
        legal = explained = None
        view = game.view(state, viewer)
        if scene.to_move is not None and viewer is not None and scene.to_move == replay.players[viewer]:
            legal = tuple(game.format_move(state, m) for m in game.legal_moves(state))
            explained = tuple(words for _, words in narrating.explained(game, view, legal))
        assert scene.standing is not None
        out.append(Frame(
            ply=ply,
            by=None if entry is None else entry.by,
            move=None if entry is None else entry.move,
            words=None if entry is None else
            narrating.said(game, log, ply - 1, replay.states[ply - 1], state, viewer) or None,
            comment=None if entry is None else entry.comment,
            picture=game.draw(view, scene),
            to_move=scene.to_move,
            legal=legal,
            explained=explained,
            score=scores(scene.standing),
            result=result_line(scene.standing) if scene.final else None,
        ))
    return out


def unseen_frames(game: GameSpec, log: Log) -> list[Frame]:
    """Every position of a refereed game whose seed is secret, as anyone may
    see it: the move made, a picture without the board
    (:func:`drawing.unseen`), and the result the referee signed at the end."""
    out = []
    for ply in range(len(log.moves) + 1):
        entry = log.moves[ply - 1] if ply else None
        scene, picture = drawing.unseen(game, log, ply)
        out.append(Frame(
            ply=ply,
            by=None if entry is None else entry.by,
            move=None if entry is None else entry.move,
            comment=None if entry is None else entry.comment,
            picture=picture,
            to_move=None,
            legal=None,
            score=scores(scene.standing) if scene.standing is not None else
            "not known until the seed is revealed",
            result=result_line(scene.standing) if scene.final and scene.standing else None,
        ))
    return out


def views(replay: Replay, seats: Sequence[int | None]) -> list[tuple[str, list[Frame]]]:
    """The frames of each seat in ``seats`` (``None``: the public), labelled for :func:`page`."""
    scenes = _scenes(replay)
    return [("public view" if seat is None else replay.players[seat], _frames(replay, seat, scenes))
            for seat in seats]


def _data(viewers: Sequence[tuple[str, Sequence[Frame]]]) -> dict[str, Any]:
    """The page's data: the frames, each picture a list of indexes into
    ``lines``, each legal move's words an index into ``said``.

    Successive pictures of a game share most of their lines (one SVG element
    a line), and the pictures of the viewers differ in a few, so a table of
    distinct lines keeps a long game's page a fraction of the size of its
    pictures; the script joins the lines back into the very same text. The
    words of the legal moves repeat from one position to the next likewise.
    """
    index: dict[str, int] = {}
    said: dict[str, int] = {}
    shown = []
    for label, fs in viewers:
        out = []
        for f in fs:
            entry = msgspec.structs.asdict(f)
            entry["picture"] = [index.setdefault(line, len(index)) for line in f.picture.split("\n")]
            if f.explained is not None:
                entry["explained"] = [said.setdefault(w, len(said)) for w in f.explained]
            out.append(entry)
        shown.append({"label": label, "frames": out})
    return {"lines": list(index), "said": list(said), "viewers": shown}


def picture_of(data: dict[str, Any], viewer: int, ply: int) -> str:
    """The SVG text of one frame of a page's data, as the page's script joins it."""
    lines = data["lines"]
    return "\n".join(lines[i] for i in data["viewers"][viewer]["frames"][ply]["picture"])


def json_for_script(data: Any) -> str:
    """JSON that cannot end its ``<script>`` element or start an HTML comment."""
    text = msgspec.json.encode(data).decode()
    # '<' never appears outside a JSON string, where '\u003c' means the same.
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def page(
    title: str,
    viewers: Sequence[tuple[str, Sequence[Frame]]],
    *,
    subtitle: str = "",
    follow: bool = False,
) -> str:
    """The replay as one self-contained HTML document.

    ``viewers`` pairs a label ("public view", "ann") with the frames of one
    viewer; all must be frames of the same moves. With several, the page
    offers a choice of whose view to show, the first shown at first; with
    ``follow`` (an open game: the labels are the players' names), first of
    all "player to move": at each position, the view of the player to move,
    with their legal moves (the first viewer's once the game is over).

    The page opens on the last position of a game still under way, else on
    the start; ``#N`` in its address opens position N, and stepping keeps
    the address on the position shown. Without JavaScript it shows the
    position it opens on: its picture, the move, the score and the legal
    moves are in the HTML itself.
    """
    if not viewers:
        raise ValueError("page needs the frames of at least one viewer")
    first = list(viewers[0][1])
    if not first:
        raise ValueError("page needs at least one frame")
    moves = [(f.ply, f.by, f.move) for f in first]
    for label, fs in viewers[1:]:
        if [(f.ply, f.by, f.move) for f in fs] != moves:
            raise ValueError(f"the frames of {label!r} are of other moves than {viewers[0][0]!r}'s")
    labels = [label for label, _ in viewers]
    follow = follow and len(viewers) > 1
    opening = len(first) - 1 if first[-1].to_move is not None else 0
    mover = first[opening].to_move
    shown = labels.index(mover) if follow and mover is not None and mover in labels else 0
    static = viewers[shown][1][opening]
    data = _data(viewers)
    data["follow"], data["start"] = follow, opening
    data_text = json_for_script(data)
    esc = html.escape
    total = len(first) - 1

    items = []
    for f in first:
        text = "Start" if f.ply == 0 else f"{f.ply}. {f.by} {f.move}"
        mark = " \u270e" if f.comment else ""  # a comment goes with this move
        items.append(f'<li><button type="button" data-ply="{f.ply}">{esc(text)}{mark}</button></li>')
    if len(viewers) > 1:
        options = "".join(f'<option value="{i}">{esc(label)}</option>'
                          for i, (label, _) in enumerate(viewers))
        if follow:
            options = '<option value="-1" selected>player to move</option>' + options
        choice = (f'<label class="viewer">View of <select id="viewer">{options}</select></label>')
    else:
        choice = f'<p class="viewer">View of <span id="viewer-label">{esc(viewers[0][0])}</span></p>'
    policy = (f"default-src 'none'; script-src {_csp_hash(_SCRIPT)}; style-src 'unsafe-inline'; "
              "img-src data:; base-uri 'none'; form-action 'none'")
    sub = f'<p class="subtitle">{esc(subtitle)}</p>' if subtitle else ""
    return _TEMPLATE.format(
        policy=esc(policy),
        title=esc(title),
        subtitle=sub,
        choice=choice,
        total=total,
        items="\n".join(items),
        data=data_text,
        style=_STYLE,
        script=_SCRIPT,
        ply=opening,
        picture=static.picture.rstrip("\n"),
        info=_info(static),
    )


def _info(f: Frame) -> str:
    """What the page's script puts beside the picture of frame ``f``, as HTML:
    the page shows it as it opens, with or without JavaScript."""
    esc = html.escape

    def put(ident: str, text: str | None) -> str:
        return f'<p id="{ident}"{"" if text else " hidden"}>{esc(text or "")}</p>'

    move = "Start of the game" if f.ply == 0 else f"Move {f.ply}: {f.by} {f.move}"
    words = f.explained or ("",) * len(f.legal or ())
    legal = "".join(f"\n<li><code>{esc(m)}</code> {esc(w)}</li>" for m, w in zip(f.legal or (), words))
    return "\n".join([
        f'<p id="move" aria-live="polite">{esc(move)}</p>',
        put("words", f.words),
        put("comment", f.comment),
        put("turn", f"To move: {f.to_move}" if f.to_move else ""),
        put("score", ("" if f.result else "Score: ") + f.score),
        put("result", f.result),
        f'<details id="legal-box"{" hidden" if f.legal is None else ""}><summary>Legal moves '
        f'(<span id="legal-count">{"" if f.legal is None else len(f.legal)}</span>)</summary>\n'
        f'<ul id="legal">{legal}</ul></details>',
    ])


_STYLE = """
:root { color-scheme: light; --ink: #222; --muted: #666; --line: #ccc; --mark: #d55e00; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 8px 12px 24px; max-width: 1240px; color: var(--ink);
  background: #fafafa; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
h1 { font-size: 1.3rem; margin: 4px 0; }
.subtitle { margin: 0 0 4px; color: var(--muted); }
.bar { position: sticky; top: 0; z-index: 1; background: #fafafa; display: flex;
  flex-wrap: wrap; align-items: center; gap: 6px 12px; margin: 8px 0; padding: 4px 0; }
.bar button { font: inherit; font-size: 1.2rem; line-height: 1; min-width: 2.6em;
  min-height: 2.2em; padding: 2px 8px; }
.viewer { margin: 0; }
select { font: inherit; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(14rem, 20rem); gap: 12px; }
#picture { margin: 0; min-width: 0; }
#picture svg { display: block; width: 100%; height: auto; max-width: 100%; background: #fff;
  border: 1px solid var(--line); }
#info p { margin: 4px 0; overflow-wrap: anywhere; }
#move { font-weight: bold; }
#words { font-style: italic; }
#comment { white-space: pre-wrap; border-left: 3px solid var(--line); padding-left: 6px; }
#result { font-weight: bold; color: var(--mark); }
#legal { list-style: none; margin: 4px 0; padding: 0; font-size: .9rem;
  overflow-wrap: anywhere; }
#legal code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-weight: bold; }
#moves { list-style: none; margin: 8px 0 0; padding: 0; max-height: 60vh; overflow-y: auto;
  border: 1px solid var(--line); background: #fff; }
#moves button { font: inherit; font-size: .95rem; width: 100%; text-align: left; border: 0;
  background: none; padding: 2px 8px; cursor: pointer; }
#moves button:hover { background: #eee; }
#moves button[aria-current="true"] { background: var(--ink); color: #fff; }
[hidden] { display: none !important; }
#legend { display: none; margin: 4px 0; padding-left: 1.2em; color: var(--muted);
  font-size: .9rem; }
@media (max-width: 820px) {
  .layout { grid-template-columns: minmax(0, 1fr); }
  #moves { max-height: 40vh; }
  /* On a phone the picture is half its size: its legend is read below it, full size. */
  .js #picture svg .legend { display: none; }
  .js #legend { display: block; }
}
"""

# Plain ES2017, no framework; block comments only (no '//' anywhere in the page).
_SCRIPT = """
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("data").textContent);
  var lines = data.lines, said = data.said, views = data.viewers, ply = data.start;
  var view = data.follow ? -1 : 0;
  var labels = views.map(function (v) { return v.label; });
  var last = views[0].frames.length - 1;
  var parser = new DOMParser();
  var el = function (id) { return document.getElementById(id); };
  var list = el("moves");
  var items = list.querySelectorAll("button");
  function put(id, text) {
    var node = el(id);
    node.textContent = text || "";
    node.hidden = !text;
  }
  function shown() {
    if (view >= 0) return view;
    var i = labels.indexOf(views[0].frames[ply].to_move);
    return i >= 0 ? i : 0;
  }
  function legend(svg) {
    var box = el("legend");
    box.replaceChildren();
    var found = svg.querySelectorAll(".legend");
    for (var i = 0; i < found.length; i++) {
      var item = document.createElement("li");
      item.textContent = found[i].textContent;
      box.appendChild(item);
    }
    box.hidden = found.length === 0;
  }
  function show(n) {
    ply = Math.max(0, Math.min(last, n));
    var f = views[shown()].frames[ply];
    var text = f.picture.map(function (i) { return lines[i]; }).join("\\n");
    var svg = parser.parseFromString(text, "image/svg+xml").documentElement;
    el("picture").replaceChildren(document.importNode(svg, true));
    legend(svg);
    el("ply").textContent = String(ply);
    put("move", ply === 0 ? "Start of the game" : "Move " + ply + ": " + f.by + " " + f.move);
    put("words", f.words);
    put("comment", f.comment);
    put("turn", f.to_move ? "To move: " + f.to_move : "");
    put("score", (f.result ? "" : "Score: ") + f.score);
    put("result", f.result);
    el("legal-box").hidden = f.legal === null;
    el("legal-count").textContent = f.legal === null ? "" : String(f.legal.length);
    var legal = el("legal");
    legal.replaceChildren();
    (f.legal || []).forEach(function (move, i) {
      var item = document.createElement("li");
      var code = document.createElement("code");
      code.textContent = move;
      item.appendChild(code);
      item.appendChild(document.createTextNode(f.explained ? " " + said[f.explained[i]] : ""));
      legal.appendChild(item);
    });
    el("first").disabled = el("back").disabled = ply === 0;
    el("forward").disabled = el("last").disabled = ply === last;
    for (var i = 0; i < items.length; i++) {
      items[i].setAttribute("aria-current", i === ply ? "true" : "false");
    }
    if (location.hash !== "#" + ply) {
      try { history.replaceState(null, "", "#" + ply); } catch (e) { /* an odd URL */ }
    }
    var item = items[ply];
    if (list.scrollHeight > list.clientHeight) {
      var top = item.offsetTop - list.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + item.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = top + item.offsetHeight - list.clientHeight;
    }
  }
  el("first").addEventListener("click", function () { show(0); });
  el("back").addEventListener("click", function () { show(ply - 1); });
  el("forward").addEventListener("click", function () { show(ply + 1); });
  el("last").addEventListener("click", function () { show(last); });
  list.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-ply]");
    if (b) show(Number(b.getAttribute("data-ply")));
  });
  var choice = el("viewer");
  if (choice && choice.tagName === "SELECT") {
    choice.addEventListener("change", function () { view = Number(choice.value); show(ply); });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  function wanted() {
    var m = /^#([0-9]+)$/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener("hashchange", function () {
    var n = wanted();
    if (n !== null && n !== ply) show(n);
  });
  el("nojs").hidden = true;
  el("bar").hidden = false;
  document.documentElement.classList.add("js");
  var start = wanted();
  show(start === null ? data.start : start);
})();
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="adjudicator">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1 id="title">{title}</h1>
{subtitle}
</header>
<p id="nojs">Without JavaScript this page shows one position, move {ply}; with it, every move.</p>
<main id="replay">
<div class="bar" id="bar" hidden>
<button type="button" id="first" title="First position (Home)" aria-label="first position">\u00ab</button>
<button type="button" id="back" title="Back (Left arrow)" aria-label="back">\u2039</button>
<button type="button" id="forward" title="Forward (Right arrow)" aria-label="forward">\u203a</button>
<button type="button" id="last" title="Last position (End)" aria-label="last position">\u00bb</button>
<span>Move <span id="ply">{ply}</span> of <span id="total">{total}</span></span>
{choice}
</div>
<div class="layout">
<figure id="picture" aria-live="polite">{picture}</figure>
<section id="info">
{info}
<ul id="legend" hidden></ul>
<ol id="moves" aria-label="moves">
{items}
</ol>
</section>
</div>
</main>
<script type="application/json" id="data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
