"""The engine contract every game implements, and the values it trades in.

A game is declared once, as a :class:`GameSpec` naming the modules of its
layers (rules, notation, text, narration, picture and, optionally, an
accelerator and the bots' play-out policy), each on the contract of a
Protocol below. The log code and the front ends only ever talk to a game
through its spec, found in the registry (:mod:`adjudicator.games`), so a
new game needs no change anywhere else.

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

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from .errors import ParameterError

if TYPE_CHECKING:
    import random

#: A parameter value as it appears in a log.
Value = str | int | bool


class Param(msgspec.Struct, frozen=True):
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
    check: Callable[[Value], str | None] | None = None
    applies: str = "all player counts"
    #: The rules version that brought the parameter in. A log pinned to an
    #: older version (one written before it existed) does not record it and
    #: is played with ``legacy``, the behaviour of those rules.
    since: int = 1
    legacy: Value | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    @property
    def label(self) -> str:
        """The name as people read and type it, in kebab-case like every
        other (``tie-order``); ``name`` is the key the log records, kept as
        logs have it (``tie_order``: file formats do not change, issue #22)."""
        return self.name.replace("_", "-")

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
                f"parameter {self.label!r}: {value!r} is not {self.describe()}"
            )
        if isinstance(value, str) and kind is str:
            value = value.strip()
        if self.choices and value not in self.choices:
            raise ParameterError(
                f"parameter {self.label!r}: {value!r} is not {self.describe()}"
            )
        if kind is int and (
            (self.minimum is not None and value < self.minimum)
            or (self.maximum is not None and value > self.maximum)
        ):
            raise ParameterError(
                f"parameter {self.label!r}: {value!r} is not {self.describe()}"
            )
        if self.check is not None and (problem := self.check(value)):
            raise ParameterError(f"parameter {self.label!r}: {problem}")
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


class Style(msgspec.Struct, frozen=True):
    """How a renderer may draw: Unicode box lines or plain ASCII, ANSI colour or not."""

    unicode: bool = True
    color: bool = False

    def paint(self, text: str, code: str | None) -> str:
        """``text`` in ANSI colour ``code`` (e.g. ``"32"``) when colour is on."""
        if not self.color or not code:
            return text
        return f"\x1b[{code}m{text}\x1b[0m"


class Scene(msgspec.Struct, frozen=True):
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


class Rules(Protocol):
    """The rules of a game, as its rulebook states them: ``games/<game>/rules.py``.

    Every function is checked: ``apply`` refuses an illegal move with the
    rule it breaks, and nothing here exists only for speed (that is
    :class:`Accelerator`'s, in ``fast.py``).
    """

    @property
    def View(self) -> type[msgspec.Struct]:  # noqa: N802 (the class the rules name)
        """What ``view`` returns, to read a view back from JSON."""

    def setup(self, params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> Any:
        """The starting state; ``params`` complete and validated."""

    def to_move(self, state: Any) -> int | None:
        """The seat to decide next, or ``None`` once the game is over."""

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        """Every distinct legal move of the player to move, in a fixed sorted order."""

    def apply(self, state: Any, move: Any) -> Any:
        """The state after ``move``; raises IllegalMoveError citing the rule."""

    def outcome(self, state: Any) -> Outcome | None:
        """The final result, or ``None`` while the game goes on."""

    def standing(self, state: Any) -> Outcome:
        """The score if the game were scored now (the outcome once it is over)."""

    def view(self, state: Any, seat: int | None) -> msgspec.Struct:
        """Exactly what ``seat`` may see (``None``: a spectator); JSON-encodable."""

    def consistent(self, view: Any, params: Mapping[str, Value], seed: str) -> Any:
        """A state that ``view`` of a game with the parameters ``params`` (the
        log's, public in every header) could have been cut from: ``view(state,
        seat) == view`` for the view's own seat, with everything that seat
        cannot see dealt from ``seed`` (the same seed, the same state).

        The inverse a generic reader needs: a move typed into a view file is
        read and refused by the rules themselves on such a state
        (:mod:`adjudicator.typed`), and a bot samples states with it.
        """

    def redeal(self, state: Any, seat: int | None, seed: str) -> Any:
        """``state`` with everything ``seat`` cannot see re-randomised from ``seed``.

        Used by the conformance tests: the view of ``seat`` must not change.
        """


class Notation(Protocol):
    """Reading and writing moves: ``games/<game>/notation.py``."""

    def parse_move(self, state: Any, text: str) -> Any:
        """Read a move as typed (tolerant of case and spacing); raises NotationError."""

    def format_move(self, state: Any, move: Any) -> str:
        """The canonical notation of ``move`` in ``state``; ``parse_move`` reads it back."""

    def spell_refused(self, state: Any, move: Any) -> str:
        """A move the rules refuse, as its player meant it: its canonical
        notation, keeping anything the player named that the canonical form
        leaves out (a Q-Turn bounce keeps the square it was typed with)."""


class Text(Protocol):
    """The board as text: ``games/<game>/text.py``."""

    def render(self, view: Any, style: Style) -> str:
        """The board and hands of a view, as text."""


class Narration(Protocol):
    """What a move did, in the rule text's words: ``games/<game>/narration.py``."""

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

    def describe(self, view: Any, move: str) -> str:
        """What the legal move ``move`` (canonical notation) would do, in a
        short phrase in the rule text's words, from ``view``, the view of the
        player to move before it: ``place Fall with a Spring back on d5``.

        Told from that view alone, so it says nothing the player may not
        see (a card still face down is "a card"). Printable ASCII, no final
        full stop. Behind ``legal --explain``, ``show``, ``hint``, the HTML
        replay and the referee's mails.
        """


class Picture(Protocol):
    """The board as SVG: ``games/<game>/picture.py`` (imported when first drawn)."""

    def draw(self, view: Any, scene: Scene) -> str:
        """The board of a view as an SVG document (see :mod:`adjudicator.drawing`).

        Drawn from the view alone, so it never shows what the viewer may not
        see; deterministic: the same view and scene give the same bytes.
        """


class Accelerator(Protocol):
    """The unchecked paths of a game, for speed only: ``games/<game>/fast.py``.

    It uses only the public names of the game's rules, and the game's tests
    hold every function here to the checked path (parse, apply, format) move
    by move. A game without one is still complete: the core then takes the
    checked path everywhere.
    """

    def fast_apply(self, state: Any, text: str) -> Any | None:
        """The state after the move written ``text``, if ``text`` is the
        canonical notation of a legal move in ``state``; otherwise ``None``
        (the checked path, parse/apply/format, then says what is wrong)."""

    def fast_play(self, state: Any, texts: Sequence[str]) -> tuple[list[int], Any]:
        """:meth:`fast_apply` over a whole log: ``texts`` played in turn from
        ``state`` for as long as each is the canonical notation of a legal
        move. The seats that played them, one per text played, and the state
        after the last; fewer seats than texts when one is refused."""

    def fast_setup(self, params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> Any | None:
        """``rules.setup(params, players, seed)`` at once (it reads ``params``
        and changes nothing), or ``None`` to take the rules' setup."""

    def fast_step(self, state: Any, move: Any) -> tuple[str, Any] | None:
        """``(format_move(state, move), apply(state, move))`` for a move as
        ``legal_moves`` lists it, or ``None`` to take those two (self-play's
        hot path)."""

    def fast_game(
        self, state: Any, pick: Callable[[int], int], limit: int | None = None
    ) -> tuple[list[str], list[int], Any] | None:
        """Self-play at once: from ``state``, the move ``moves[pick(len(moves))]``
        of ``moves = legal_moves(state)`` at each position, until the game
        ends or ``limit`` moves are played; the texts (as ``format_move``
        spells them), the seats that played them and the state after the
        last (as ``apply`` gives it). ``None`` to play move by move
        (:meth:`fast_step`)."""


class Playout(Protocol):
    """A game's knowledge for the bots' play-outs: ``games/<game>/playout.py``.

    The generic search (:mod:`adjudicator.bots.search`) plays each
    determinized state out to the end with uniformly random moves. A game
    that measured a better play-out for the searcher's own seat (a policy
    that plays about as the bot would) declares it here; the other seats
    stay uniformly random. It sees the state drawn from the bot's view, so
    it is fair by construction: it knows no more than the bot's guess.
    """

    def policy(self, players: int) -> Callable[[Any, tuple[Any, ...], random.Random], Any] | None:
        """The play-out policy at this many players: ``choose(state, moves,
        rng)`` picks one of ``moves`` (the mover's legal moves, as
        ``legal_moves`` lists them) with randomness from ``rng`` alone; or
        ``None`` where no policy was measured to pay (uniformly random)."""


def _layer(module: str) -> Any:
    return importlib.import_module(module)


class GameSpec(msgspec.Struct, frozen=True, dict=True):
    """A game, declared once: what it is, and the modules that provide each layer.

    Each ``games/<game>/__init__.py`` is one ``GAME = GameSpec(...)`` and the
    registry (:mod:`adjudicator.games`) lists it in one line. The core and
    the front ends call the methods below, which are the engine contract;
    nothing is looked up by name. The picture and the accelerator are named
    by module and imported when first used, so a command that draws nothing
    never loads a picture module.
    """

    id: str  # as in logs and on the command line: "turn-of-time"
    title: str  # the rulebook's name: "Turn of Time"
    players: tuple[int, ...]  # the player counts it can be played with
    params: tuple[Param, ...]
    rules_version: int  # the version a new log is pinned to (1 for a game never revised)
    turn_clause: str  # rule cited when someone moves out of turn
    end_clause: str  # rule cited when someone moves after the end
    notation_doc: str  # path of the notation document, e.g. "notation/turn-of-time.md"
    rules: Rules
    notation: Notation
    text: Text
    narration: Narration
    picture_module: str  # the module of its Picture layer
    fast_module: str | None = None  # the module of its Accelerator, if it has one
    playout_module: str | None = None  # the module of its Playout, if it has one
    #: The standard bot's budget (:mod:`adjudicator.bots`), in moves simulated
    #: per decision: about a second of CPU time on the project's reference
    #: machine (a 2-core VM). A count, not a time, so the same seed gives the
    #: same move on any machine.
    bot_plies: int = 60_000

    # --- the layers imported when first used ----------------------------------

    @functools.cached_property
    def picture(self) -> Picture:
        layer: Picture = _layer(self.picture_module)
        return layer

    @functools.cached_property
    def fast(self) -> Accelerator | None:
        return None if self.fast_module is None else _layer(self.fast_module)

    @functools.cached_property
    def playout(self) -> Playout | None:
        return None if self.playout_module is None else _layer(self.playout_module)

    @property
    def view_type(self) -> type[msgspec.Struct]:
        """The type of a view, to read one back from a view file."""
        return self.rules.View

    # --- the engine contract ----------------------------------------------------

    def setup(self, params: Mapping[str, Value], players: tuple[str, ...], seed: str) -> Any:
        return self.rules.setup(params, players, seed)

    def to_move(self, state: Any) -> int | None:
        return self.rules.to_move(state)

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        return self.rules.legal_moves(state)

    def apply(self, state: Any, move: Any) -> Any:
        return self.rules.apply(state, move)

    def outcome(self, state: Any) -> Outcome | None:
        return self.rules.outcome(state)

    def standing(self, state: Any) -> Outcome:
        return self.rules.standing(state)

    def view(self, state: Any, seat: int | None) -> msgspec.Struct:
        return self.rules.view(state, seat)

    def consistent(self, view: Any, params: Mapping[str, Value], seed: str) -> Any:
        return self.rules.consistent(view, params, seed)

    def redeal(self, state: Any, seat: int | None, seed: str) -> Any:
        return self.rules.redeal(state, seat, seed)

    def parse_move(self, state: Any, text: str) -> Any:
        return self.notation.parse_move(state, text)

    def format_move(self, state: Any, move: Any) -> str:
        return self.notation.format_move(state, move)

    def spell_refused(self, state: Any, move: Any) -> str:
        return self.notation.spell_refused(state, move)

    def render(self, view: Any, style: Style) -> str:
        return self.text.render(view, style)

    def narrate(self, before: Any, after: Any, by: int, move: str) -> str:
        return self.narration.narrate(before, after, by, move)

    def describe(self, view: Any, move: str) -> str:
        return self.narration.describe(view, move)

    def draw(self, view: Any, scene: Scene) -> str:
        return self.picture.draw(view, scene)


#: The name the contract went by before it was a declared spec.
Game = GameSpec
