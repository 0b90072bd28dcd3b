"""SVG pictures of positions: one document shape shared by every game.

A game's ``draw(view, scene)`` draws its own table on a :class:`Canvas` and
hands it to :func:`picture`, which frames it the same way for every game: a
header (the game, the move number, whose view, whose turn, the last move),
the table, and a footer with each player's score and any legend the table
needs. Built with :mod:`xml.etree.ElementTree` (as python-chess's
``chess.svg`` is): text stays text, and the same view always gives the same
bytes, so pictures can be golden files.

Colours come from the Okabe-Ito palette, told apart by the common kinds of
colour blindness; every seat also has a mark of its own shape (circle,
square, triangle, diamond), so colour is never the only cue.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
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
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Canvas:
    """An SVG drawing surface: thin, deterministic wrappers over ElementTree.

    Every method returns the element it made, appended to ``parent`` (the
    canvas's current group by default). Extra keyword arguments become
    attributes, with ``_`` in their names turned into ``-``
    (``stroke_dasharray="4 2"``).
    """

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self.root = ET.Element("g")
        self.current = self.root

    # -- elements ------------------------------------------------------------------------
    def element(self, tag: str, parent: ET.Element | None = None, **attrs: object) -> ET.Element:
        out = ET.SubElement(self.current if parent is None else parent, tag)
        for key, value in attrs.items():
            if value is None:
                continue
            name = key.rstrip("_").replace("_", "-")
            out.set(name, num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value))
        return out

    def group(self, parent: ET.Element | None = None, *, x: float = 0, y: float = 0,
              **attrs: object) -> ET.Element:
        if x or y:
            attrs["transform"] = f"translate({num(x)},{num(y)})"
        return self.element("g", parent, **attrs)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none",
             stroke: str | None = INK, width: float = 1, rx: float = 0,
             parent: ET.Element | None = None, **attrs: object) -> ET.Element:
        return self.element("rect", parent, x=x, y=y, width=w, height=h, rx=rx or None,
                            fill=fill, stroke=stroke or "none",
                            stroke_width=width if stroke else None, **attrs)

    def circle(self, cx: float, cy: float, r: float, *, fill: str = "none",
               stroke: str | None = INK, width: float = 1,
               parent: ET.Element | None = None, **attrs: object) -> ET.Element:
        return self.element("circle", parent, cx=cx, cy=cy, r=r, fill=fill,
                            stroke=stroke or "none", stroke_width=width if stroke else None,
                            **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = INK,
             width: float = 1, parent: ET.Element | None = None, **attrs: object) -> ET.Element:
        return self.element("line", parent, x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke,
                            stroke_width=width, **attrs)

    def polygon(self, points: Iterable[tuple[float, float]], *, fill: str = "none",
                stroke: str | None = INK, width: float = 1,
                parent: ET.Element | None = None, **attrs: object) -> ET.Element:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        return self.element("polygon", parent, points=pts, fill=fill, stroke=stroke or "none",
                            stroke_width=width if stroke else None, **attrs)

    def path(self, d: str, *, fill: str = "none", stroke: str | None = INK, width: float = 1,
             parent: ET.Element | None = None, **attrs: object) -> ET.Element:
        return self.element("path", parent, d=d, fill=fill, stroke=stroke or "none",
                            stroke_width=width if stroke else None, **attrs)

    def text(self, x: float, y: float, content: str, *, size: float = 14, anchor: str = "start",
             weight: str | None = None, fill: str = INK, parent: ET.Element | None = None,
             **attrs: object) -> ET.Element:
        """Real SVG text (searchable, selectable); ``y`` is the baseline."""
        out = self.element("text", parent, x=x, y=y, font_size=size,
                           text_anchor=None if anchor == "start" else anchor,
                           font_weight=weight, fill=fill, **attrs)
        out.text = content
        return out

    def title(self, element: ET.Element, content: str) -> None:
        """A tooltip (and accessible name) for ``element``."""
        ET.SubElement(element, "title").text = content

    def mark(self, seat: int, cx: float, cy: float, r: float, *, fill: str | None = None,
             parent: ET.Element | None = None) -> ET.Element:
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
) -> str:
    """The whole SVG document: header, the game's table, scores and legend.

    ``draw_body`` draws the table on a canvas whose origin is the top left of
    the table area, ``width`` wide and ``body_height`` high; ``no_score``
    says why there is no score when the scene has none.
    """
    players = scene.players
    rows = _score_rows(scene, width)
    footer = LINE * (len(rows) + len(legend)) + 16
    height = HEADER + body_height + footer
    svg = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": num(width),
        "height": num(height),
        "viewBox": f"0 0 {num(width)} {num(height)}",
        "font-family": FONT,
    })
    who = f"as seen by {scene.viewer}" if scene.viewer else "public view"
    where = "start" if scene.ply == 0 else f"after move {scene.ply}"
    ET.SubElement(svg, "title").text = f"{scene.title}, {where}, {who}"
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
    draw_body(canvas)
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
        canvas.text(12, y, line, size=13, fill=MUTED)
    ET.indent(svg, space=" ")
    return ET.tostring(svg, encoding="unicode") + "\n"


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
