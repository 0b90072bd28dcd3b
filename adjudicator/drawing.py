"""SVG pictures of positions: one document shape shared by every game.

A game's ``draw(view, scene)`` draws its own table on a :class:`Canvas` and
hands it to :func:`picture`, which frames it the same way for every game: a
header (the game, the move number, whose view, whose turn, the last move),
the table, and a footer with each player's score and any legend the table
needs. Built as python-chess's ``chess.svg`` is, an element per shape (on
:class:`Element`, a lean stand-in for :mod:`xml.etree.ElementTree` that
writes the same bytes, several times faster): text stays text, and the
same view always gives the same bytes, so pictures can be golden files.

Colours come from the Okabe-Ito palette, told apart by the common kinds of
colour blindness; every seat also has a mark of its own shape (circle,
square, triangle, diamond), so colour is never the only cue.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from .engine import GameSpec, Outcome, Scene, Standing
from .log import Log

WIDTH = 800  # forum size
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
PAPER = "#ffffff"
MUTED = "#777777"
FAINT = "#eeeeee"
HIGHLIGHT = "#d55e00"  # vermilion: the last move
#: One colour per seat (Okabe-Ito blue, orange, bluish green, reddish purple).
SEAT_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7")
#: One mark shape per seat, so that colour is never alone.
SEAT_MARKS = ("circle", "square", "triangle", "diamond")
HEADER = 64  # height of the header band
LINE = 20  # height of one footer line


def num(x: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros."""
    text = _NUMS.get(x)
    if text is None:
        text = f"{x:.2f}".rstrip("0").rstrip(".")
        text = "0" if text in ("-0", "") else text
        if len(_NUMS) < 100_000:  # pictures reuse a few thousand coordinates
            _NUMS[x] = text
    return text


_NUMS: dict[float, str] = {}


def _attr(value: str) -> str:
    """An attribute value escaped exactly as ElementTree escapes it."""
    if "&" in value:
        value = value.replace("&", "&amp;")
    if "<" in value:
        value = value.replace("<", "&lt;")
    if ">" in value:
        value = value.replace(">", "&gt;")
    if '"' in value:
        value = value.replace('"', "&quot;")
    if "\r" in value:
        value = value.replace("\r", "&#13;")
    if "\n" in value:
        value = value.replace("\n", "&#10;")
    if "\t" in value:
        value = value.replace("\t", "&#09;")
    return value


def _cdata(text: str) -> str:
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    return text


def _attributes(attrs: dict[str, object]) -> str:
    """Keyword arguments as the attributes of an element: ``' name="value"'``
    each, ``_`` in a name written ``-`` (a trailing one dropped), numbers by
    :func:`num`, ``None`` left out."""
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text = num(value)
        else:
            text = _attr(str(value))
        parts.append(f' {name}="{text}"')
    return "".join(parts)


#: The attributes already written, by tag and keyword arguments: a replay
#: draws the same shapes at the same places again and again.
_WRITTEN: dict[tuple[object, ...], str] = {}


class Element:
    """One SVG element: its tag, its attributes (already written out as
    text, in the order given), its text and its children.

    Pictures were built with :mod:`xml.etree.ElementTree`; a replay page
    draws a thousand of them, and the tree and its serialisation were most
    of its time. This is the little of it the pictures use, written out to
    the very same bytes (``ET.indent(svg, space=" ")`` then
    ``ET.tostring``), which the golden pictures hold it to.
    """

    __slots__ = ("tag", "attrs", "text", "children")

    def __init__(self, tag: str, attrs: str = "") -> None:
        self.tag = tag
        self.attrs = attrs  # ' name="value"' for each attribute
        self.text: str | None = None
        self.children: list[Element] = []

    def set(self, name: str, value: str) -> None:
        """Add an attribute (after those already set)."""
        self.attrs += f' {name}="{_attr(value)}"'

    def sub(self, tag: str) -> Element:
        """A new child element, without attributes (see :meth:`set`)."""
        child = Element(tag)
        self.children.append(child)
        return child

    def write(self, out: list[str], level: int = 0) -> None:
        """The element as ``ET.indent(space=" ")`` and ``ET.tostring`` write
        it, at depth ``level``, but for its tail (its parent's to write)."""
        text, children = self.text, self.children
        if not children:
            if text:
                out.append(f"<{self.tag}{self.attrs}>{_cdata(text)}</{self.tag}>")
            else:
                out.append(f"<{self.tag}{self.attrs} />")
            return
        inner = "\n" + " " * (level + 1)
        head = text if text and text.strip() else inner
        out.append(f"<{self.tag}{self.attrs}>{_cdata(head)}")
        last = len(children) - 1
        for i, child in enumerate(children):
            child.write(out, level + 1)
            out.append(inner if i < last else "\n" + " " * level)
        out.append(f"</{self.tag}>")

    def tostring(self) -> str:
        """The element and everything in it, as SVG text."""
        out: list[str] = []
        self.write(out)
        return "".join(out)


class _Shared(Element):
    """Elements drawn once and put in many pictures (:meth:`Canvas.shared`),
    written out once for each depth they are put at."""

    __slots__ = ("written",)

    def __init__(self, children: list[Element]) -> None:
        super().__init__("")
        self.children = children
        self.written: dict[int, str] = {}

    def write(self, out: list[str], level: int = 0) -> None:
        text = self.written.get(level)
        if text is None:
            parts: list[str] = []
            between = "\n" + " " * level
            for i, child in enumerate(self.children):
                if i:
                    parts.append(between)
                child.write(parts, level)
            text = self.written[level] = "".join(parts)
        out.append(text)


#: The parts of pictures drawn so far, by key (:meth:`Canvas.shared`).
_SHARED: dict[Hashable, _Shared | None] = {}
_SHARED_LIMIT = 2048  # a long game's page needs about as many; a referee far fewer


class Canvas:
    """An SVG drawing surface: thin, deterministic wrappers over :class:`Element`.

    Every method returns the element it made, appended to ``parent`` (the
    canvas's current group by default). Extra keyword arguments become
    attributes, with ``_`` in their names turned into ``-``
    (``stroke_dasharray="4 2"``).
    """

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self.root = Element("g")
        self.current = self.root

    # -- elements ------------------------------------------------------------------------
    def element(self, tag: str, parent: Element | None = None, **attrs: object) -> Element:
        key = (tag, *attrs.items())
        written = _WRITTEN.get(key)
        if written is None:
            written = _attributes(attrs)
            if len(_WRITTEN) < 50_000 and not any(v is True or v is False for v in attrs.values()):
                _WRITTEN[key] = written  # (True == 1 as a key: never stored)
        out = Element(tag, written)
        (self.current if parent is None else parent).children.append(out)
        return out

    def shared(self, key: Hashable, draw: Callable[[], object]) -> None:
        """What ``draw`` draws on this canvas, drawn once for every picture
        that has the same ``key``: a replay draws each player's panel again
        for every position and every viewer, most of them unchanged.

        ``key`` must hold everything ``draw`` depends on (and name what it
        draws, so that two kinds of parts never share a key); ``draw`` draws
        only into the canvas's current group, and groups it makes.
        """
        hit = _SHARED.get(key, self)
        if hit is self:
            holder, saved = Element("g"), self.current
            self.current = holder
            try:
                draw()
            finally:
                self.current = saved
            hit = _Shared(holder.children) if holder.children else None
            if len(_SHARED) >= _SHARED_LIMIT:
                _SHARED.clear()
            _SHARED[key] = hit
        if hit is not None:
            assert isinstance(hit, _Shared)
            self.current.children.append(hit)

    def group(self, parent: Element | None = None, *, x: float = 0, y: float = 0,
              **attrs: object) -> Element:
        if x or y:
            attrs["transform"] = f"translate({num(x)},{num(y)})"
        return self.element("g", parent, **attrs)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none",
             stroke: str | None = INK, width: float = 1, rx: float = 0,
             parent: Element | None = None, **attrs: object) -> Element:
        return self.element("rect", parent, x=x, y=y, width=w, height=h, rx=rx or None,
                            fill=fill, stroke=stroke or "none",
                            stroke_width=width if stroke else None, **attrs)

    def circle(self, cx: float, cy: float, r: float, *, fill: str = "none",
               stroke: str | None = INK, width: float = 1,
               parent: Element | None = None, **attrs: object) -> Element:
        return self.element("circle", parent, cx=cx, cy=cy, r=r, fill=fill,
                            stroke=stroke or "none", stroke_width=width if stroke else None,
                            **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = INK,
             width: float = 1, parent: Element | None = None, **attrs: object) -> Element:
        return self.element("line", parent, x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke,
                            stroke_width=width, **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], *, fill: str = "none",
                stroke: str | None = INK, width: float = 1,
                parent: Element | None = None, **attrs: object) -> Element:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        return self.element("polygon", parent, points=pts, fill=fill, stroke=stroke or "none",
                            stroke_width=width if stroke else None, **attrs)

    def path(self, d: str, *, fill: str = "none", stroke: str | None = INK, width: float = 1,
             parent: Element | None = None, **attrs: object) -> Element:
        return self.element("path", parent, d=d, fill=fill, stroke=stroke or "none",
                            stroke_width=width if stroke else None, **attrs)

    def text(self, x: float, y: float, content: str, *, size: float = 14, anchor: str = "start",
             weight: str | None = None, fill: str = INK, parent: Element | None = None,
             **attrs: object) -> Element:
        """Real SVG text (searchable, selectable); ``y`` is the baseline."""
        out = self.element("text", parent, x=x, y=y, font_size=size,
                           text_anchor=None if anchor == "start" else anchor,
                           font_weight=weight, fill=fill, **attrs)
        out.text = content
        return out

    def title(self, element: Element, content: str) -> None:
        """A tooltip (and accessible name) for ``element``."""
        element.sub("title").text = content

    def mark(self, seat: int, cx: float, cy: float, r: float, *, fill: str | None = None,
             parent: Element | None = None) -> Element:
        """Seat ``seat``'s mark: its own shape in its own colour."""
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)] if fill is None else fill
        shape = SEAT_MARKS[seat % len(SEAT_MARKS)]
        if shape == "circle":
            return self.circle(cx, cy, r, fill=colour, parent=parent)
        if shape == "square":
            return self.rect(cx - r * 0.85, cy - r * 0.85, r * 1.7, r * 1.7, fill=colour,
                             parent=parent)
        if shape == "triangle":
            return self.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)],
                                fill=colour, parent=parent)
        return self.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                            fill=colour, parent=parent)


def picture(
    scene: Scene,
    body_height: float,
    draw_body: Callable[[Canvas], None],
    *,
    legend: Sequence[str] = (),
    width: float = WIDTH,
    no_score: str = "not shown in a view file",
    key: Hashable = None,
) -> str:
    """The whole SVG document: header, the game's table, scores and legend.

    ``draw_body`` draws the table on a canvas whose origin is the top left of
    the table area, ``width`` wide and ``body_height`` high; ``no_score``
    says why there is no score when the scene has none. With a ``key``
    (everything ``draw_body`` depends on), a table drawn before under the
    same key is used again (:meth:`Canvas.shared`).
    """
    players = scene.players
    rows = _score_rows(scene, width)
    footer = LINE * (len(rows) + len(legend)) + 16
    height = HEADER + body_height + footer
    svg = Element("svg")
    for name, value in (("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
                        ("width", num(width)), ("height", num(height)),
                        ("viewBox", f"0 0 {num(width)} {num(height)}"), ("font-family", FONT)):
        svg.set(name, value)
    who = f"as seen by {scene.viewer}" if scene.viewer else "public view"
    where = "start" if scene.ply == 0 else f"after move {scene.ply}"
    svg.sub("title").text = f"{scene.title}, {where}, {who}"
    canvas = Canvas(width, height)
    canvas.root = canvas.current = svg
    canvas.rect(0, 0, width, height, fill=PAPER, stroke=None)

    # Header: the game and the position, whose turn, the last move.
    canvas.text(12, 24, f"{scene.title} \u00b7 {where} \u00b7 {who}", size=17, weight="bold")
    if scene.final:
        turn = "Game over"
    elif scene.to_move is not None:
        turn = f"To move: {scene.to_move}"
    else:
        turn = ""
    if turn:
        canvas.text(12, 48, turn, size=15)
        if scene.to_move is not None and not scene.final:
            canvas.mark(players.index(scene.to_move), 12 + 9.2 * len(turn) + 12, 43, 6)
    if scene.last is not None:
        by, move = scene.last
        canvas.text(width - 12, 48, f"Last move: {by} {move}", size=15, anchor="end",
                    fill=HIGHLIGHT)

    body = canvas.group(None, x=0, y=HEADER, **{"class": "table"})
    canvas.current = body
    if key is None:
        draw_body(canvas)
    else:
        canvas.shared(("table", key), lambda: draw_body(canvas))
    canvas.current = svg

    # Footer: one entry per player, best first, with the seat's mark,
    # wrapped so that long names never run off the picture.
    y = HEADER + body_height + LINE
    label = "Result" if scene.final else "Score"
    canvas.text(12, y, f"{label}:", size=14, weight="bold")
    if scene.standing is None:
        canvas.text(SCORE_X, y, no_score, size=14, fill=MUTED)
    for i, row in enumerate(rows):
        if i:
            y += LINE
        for x, s in row:
            seat = players.index(s.player)
            canvas.mark(seat, x + 6, y - 5, 6)
            won = scene.final and scene.standing is not None and s.player in scene.standing.winners
            canvas.text(x + 16, y, _entry(scene, s), size=14, weight="bold" if won else None)
    for line in legend:
        y += LINE
        canvas.text(12, y, line, size=13, fill=MUTED, class_="legend")
    return svg.tostring() + "\n"


SCORE_X = 84.0  # where the score entries start, clear of "Result:"
_CHAR = 8.4  # the width of a character of 14 px text, generously


def _entry(scene: Scene, s: object) -> str:
    won = scene.final and s.player in scene.standing.winners  # type: ignore[attr-defined,union-attr]
    return f"{s.place}. {s.player} {s.score}" + (" (winner)" if won else "")  # type: ignore[attr-defined]


def _score_rows(scene: Scene, width: float) -> list[list[tuple[float, Standing]]]:
    """The score entries laid out in rows: each row a list of (x, standing)."""
    rows: list[list[tuple[float, Standing]]] = [[]]
    x = SCORE_X
    for s in () if scene.standing is None else scene.standing.standings:
        size = 24 + _CHAR * len(_entry(scene, s))
        if rows[-1] and x + size > width - 8:
            rows.append([])
            x = SCORE_X
        rows[-1].append((x, s))
        x += size
    return rows


def scene(game: GameSpec, players: tuple[str, ...], state: Any, ply: int,
          last: tuple[str, str] | None, viewer: int | None,
          ended: Outcome | None = None) -> Scene:
    """The scene of a position of a replayed game, as seat ``viewer`` sees it;
    ``ended`` is the result when an event of the log ended the game there
    (a resignation, an abandonment: ``match.Replay.ended``)."""
    outcome = ended if ended is not None else game.outcome(state)
    seat = None if outcome is not None else game.to_move(state)
    return Scene(
        title=game.title,
        players=players,
        viewer=None if viewer is None else players[viewer],
        to_move=None if seat is None else players[seat],
        ply=ply,
        last=last,
        standing=outcome if outcome is not None else game.standing(state),
        final=outcome is not None,
    )


#: Why a refereed game whose seed is secret is drawn without its board.
UNSEEN = "The board is not shown until the referee reveals the seed."


def unseen(game: GameSpec, log: Log, ply: int, *, recent: int = 12) -> tuple[Scene, str]:
    """The picture of a refereed game whose seed is secret, after ``ply`` of
    its moves, as anyone may see it: the header with the last move, a note
    that the board waits for the reveal, the ``recent`` moves before it, and
    the result once the referee has signed one. Nothing hidden is known to
    it, so nothing hidden is drawn."""
    moves = log.moves[:ply]
    final = ply == len(log.moves) and log.result is not None
    scene = Scene(title=game.title, players=log.players, viewer=None, to_move=None, ply=ply,
                  last=(moves[-1].by, moves[-1].move) if moves else None,
                  standing=log.result if final else None, final=final)
    shown = list(enumerate(moves, 1))[-recent:]
    lines = [UNSEEN, "Each player sees their own board in the view file the referee sends."]
    if shown:
        lines += ["", "Moves" + (f" (the last {len(shown)} of {ply})" if len(shown) < ply else "") + ":"]
        lines += [f"{n}. {e.by} {e.move}" for n, e in shown]

    def body(canvas: Canvas) -> None:
        for i, line in enumerate(lines):
            canvas.text(24, 28 + i * LINE, line, size=15 if i < 2 else 14,
                        fill=MUTED if i == 1 else INK, weight="bold" if i == 0 else None)

    return scene, picture(scene, 20 + LINE * len(lines), body,
                          no_score="not known until the seed is revealed")


def png(svg: str) -> bytes:
    """The picture as PNG, rasterised by resvg (the ``pictures`` extra).

    resvg ships its renderer inside the wheel: no system library is needed.
    """
    try:
        import resvg_py
    except ImportError:
        from .errors import AdjudicatorError

        raise AdjudicatorError(
            "PNG output needs the resvg-py package: pip install 'adjudicator[pictures]' "
            "(or write an .svg file)"
        ) from None
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))
