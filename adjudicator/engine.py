"""The engine contract every game implements, and the values it trades in.

A game is a module that exposes the names of :class:`Game`. The log code and
the CLI only ever talk to a game through these names, found in the registry
(:mod:`adjudicator.games`), so a new game needs no change anywhere else.

Conventions shared by all games:

* A *state* is an immutable value (a frozen msgspec Struct of tuples). It holds
  everything, hidden information included; :func:`Game.view` cuts out what one
  player may see.
* A *move* is one decision of one player. A turn of several decisions (15 Days)
  is several moves by the same player; whose decision it is comes from
  ``to_move``, never from the log.
* Seats are numbered from 0 in the log's player order, which is the turn order.
* Randomness comes only from the seed given to ``setup`` (see
  :mod:`adjudicator.chance`); a game that deals again later keeps the seed in
  its state and derives a new label from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from .errors import ParameterError

#: A parameter value as it appears in a log.
Value = str | int | bool


@dataclass(frozen=True)
class Param:
    """One named game parameter with its default and what it accepts.

    ``choices`` restricts a string or int parameter to a list; ``minimum`` and
    ``maximum`` bound an int; ``check`` may reject anything else by returning a
    message. ``applies`` says for which player counts it matters (it is
    recorded in every log regardless, so a log always states every ruling).
    A parameter added by a later rules version has ``since`` and ``legacy``:
    logs pinned to an older version omit it and keep the old behaviour.
    """

    name: str
    default: Value
    help: str
    choices: tuple[Value, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Value], str | None] | None = field(default=None, compare=False)
    applies: str = "all player counts"
    #: The rules version that brought the parameter in. A log pinned to an
    #: older version (one written before it existed) does not record it and
    #: is played with ``legacy``, the behaviour of those rules.
    since: int = 1
    legacy: Value | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    def describe(self) -> str:
        """What the parameter accepts, for help texts and error messages."""
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        if self.kind is int:
            lo = "" if self.minimum is None else f" from {self.minimum}"
            hi = "" if self.maximum is None else f" to {self.maximum}"
            return f"an integer{lo}{hi}"
        return "text"

    def coerce(self, value: Any) -> Value:
        """The validated value; text (from the command line) is converted."""
        kind = self.kind
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool and text in ("true", "false", "yes", "no", "1", "0"):
                value = text in ("true", "yes", "1")
            elif kind is int:
                try:
                    value = int(text)
                except ValueError:
                    pass
        # bool is an int subclass: an int parameter must not take true/false.
        if type(value) is not kind:
            raise ParameterError(
                f"parameter {self.name!r}: {value!r} is not {self.describe()}"
            )
        if isinstance(value, str) and kind is str:
            value = value.strip()
        if self.choices and value not in self.choices:
            raise ParameterError(
                f"parameter {self.name!r}: {value!r} is not {self.describe()}"
            )
        if kind is int and (
            (self.minimum is not None and value < self.minimum)
            or (self.maximum is not None and value > self.maximum)
        ):
            raise ParameterError(
                f"parameter {self.name!r}: {value!r} is not {self.describe()}"
            )
        if self.check is not None and (problem := self.check(value)):
            raise ParameterError(f"parameter {self.name!r}: {problem}")
        return value


class Standing(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """One player's line in an outcome."""

    player: str
    score: int
    place: int  # 1 is best; tied players share a place


class Outcome(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """The score of a game: final (the log's ``result``) or so far.

    ``standings`` is best first (ties in seat order); ``winners`` may be empty
    (a solo game whose goal was missed); ``details`` says in words how the
    scores and places came about, every tie-break spelled out.
    """

    standings: tuple[Standing, ...]
    winners: tuple[str, ...]
    details: tuple[str, ...]


@dataclass(frozen=True)
class Style:
    """How a renderer may draw: Unicode box lines or plain ASCII, ANSI colour or not."""

    unicode: bool = True
    color: bool = False

    def paint(self, text: str, code: str | None) -> str:
        """``text`` in ANSI colour ``code`` (e.g. ``"32"``) when colour is on."""
        if not self.color or not code:
            return text
        return f"\x1b[{code}m{text}\x1b[0m"


@dataclass(frozen=True)
class Scene:
    """The public facts of a position that a picture shows beside the view.

    ``last`` is the move just made, as ``(player, canonical notation)``; a
    game may highlight what it can read from the text (never from hidden
    state). ``standing`` is the score so far, or the result when ``final``
    (``None`` where it is not known: a view file carries no score so far).
    """

    title: str
    players: tuple[str, ...]
    viewer: str | None  # None: the public (spectator's) view
    to_move: str | None  # None once the game is over
    ply: int  # moves made so far
    last: tuple[str, str] | None
    standing: Outcome | None
    final: bool


class Game(Protocol):
    """The names every game module exposes. See the module docstring."""

    ID: str  # as in logs and on the command line: "turn-of-time"
    TITLE: str  # the rulebook's name: "Turn of Time"
    PLAYERS: tuple[int, ...]  # the player counts it can be played with
    PARAMS: tuple[Param, ...]
    TURN_CLAUSE: str  # rule cited when someone moves out of turn
    END_CLAUSE: str  # rule cited when someone moves after the end
    NOTATION: str  # path of the notation document, e.g. "notation/turn-of-time.md"
    VIEW: type[msgspec.Struct]  # what ``view`` returns, to read a view back from JSON

    def setup(self, params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> Any:
        """The starting state; ``params`` complete and validated."""

    def to_move(self, state: Any) -> int | None:
        """The seat to decide next, or ``None`` once the game is over."""

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        """Every distinct legal move of the player to move, in a fixed sorted order."""

    def apply(self, state: Any, move: Any) -> Any:
        """The state after ``move``; raises IllegalMoveError citing the rule."""

    def parse_move(self, state: Any, text: str) -> Any:
        """Read a move as typed (tolerant of case and spacing); raises NotationError."""

    def format_move(self, state: Any, move: Any) -> str:
        """The canonical notation of ``move`` in ``state``; ``parse_move`` reads it back."""

    def outcome(self, state: Any) -> Outcome | None:
        """The final result, or ``None`` while the game goes on."""

    def standing(self, state: Any) -> Outcome:
        """The score if the game were scored now (the outcome once it is over)."""

    def view(self, state: Any, seat: int | None) -> msgspec.Struct:
        """Exactly what ``seat`` may see (``None``: a spectator); JSON-encodable."""

    def render(self, view: Any, style: Style) -> str:
        """The board and hands of a view, as text."""

    def draw(self, view: Any, scene: Scene) -> str:
        """The board of a view as an SVG document (see :mod:`adjudicator.drawing`).

        Drawn from the view alone, so it never shows what the viewer may not
        see; deterministic: the same view and scene give the same bytes.
        """

    def fast_apply(self, state: Any, text: str) -> Any | None:
        """The state after the move written ``text``, if ``text`` is the
        canonical notation of a legal move in ``state``; otherwise ``None``
        (the checked path, parse/apply/format, then says what is wrong).

        The validation hot path. Private shortcuts are allowed; tests compare
        it with the checked path move by move.
        """

    def fast_step(self, state: Any, move: Any) -> tuple[str, Any] | None:
        """Optional: ``(format_move(state, move), apply(state, move))`` for a
        move as ``legal_moves`` lists it, or ``None`` to take those two.

        Self-play's hot path (``match.simulate``): a game whose canonical
        text follows from the move alone spells it once and plays it.
        Tests compare it with format_move and apply move by move.
        """

    def redeal(self, state: Any, seat: int | None, seed: str) -> Any:
        """``state`` with everything ``seat`` cannot see re-randomised from ``seed``.

        Used by the conformance tests: the view of ``seat`` must not change.
        """

    def narrate(self, before: Any, after: Any, by: int, move: str) -> str:
        """What the move ``move`` (canonical notation) of seat ``by`` did, in
        the words of the rule text, as one viewer saw it.

        ``before`` and ``after`` are that viewer's views (``view(state,
        seat)``) of the positions around the move, so the sentence can hold
        nothing the viewer may not see (which cards flipped, which disk was
        revealed and how it points, who won a trick, which animal changed
        hands). Printable ASCII, no player name at the front (the caller puts
        ``N. name move:`` before it) and no final full stop.
        """

    def read_listed(self, view: Any, listed: tuple[str, ...], text: str) -> str:
        """The listed move (canonical notation) a player typed as ``text``.

        The game's tolerant reader for a view file: it accepts every spelling
        ``parse_move`` accepts at the same position and gives the same
        canonical move, with the same specific errors (ambiguity with the
        choices, out of range, ...), but it knows only the player's ``view``
        and their ``listed`` moves, so no error can hint at what the player
        cannot see. Raises NotationError when ``text`` names no listed move.
        """
