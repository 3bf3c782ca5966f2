"""The shape every game module has, and the records they share (prompts, itemised lines, scores).

Modelled on boardgame.io's ``Game`` and OpenSpiel's Python games: static facts as data, the same
verbs for every game. Chance is an input: a revealed tile or a rolled die is a move made by the
``TABLE`` actor, so a smart die, a camera, a seeded simulator and a test are interchangeable.
Several seats may be asked at once (hidden simultaneous choices); a seat's private information
leaves the engine only through ``view(state, seat)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine.capabilities import AUTO_MOVE, DICE_MOVE, DICE_POOL, LABELS, MONEY, PASSES, capability
from engine.refs import readable
from engine.violations import Violation

TABLE = "table"
"""The actor of chance and observation moves: what the physical table shows (tiles, dice, cards)."""

HOST = "host"
"""The actor of table-level decisions (overrides, undo past another seat's move)."""

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class OptionSpec:
    """A named rules option: where the rulebook is ambiguous, the reading is a choice."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    ref: str
    doc: str


@dataclass(frozen=True)
class SimSetup:
    """One kind of game the conformance run (``engine.selfplay``) plays: seats and options."""

    players: int
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game.

    ``simulations`` are the games a simulated table cycles through (selfplay, the bench); empty:
    every allowed player count with the default options. A game whose defaults cannot be
    simulated (its printed data are incomplete in the rulebook) names the options that can.
    """

    key: str
    name: str
    min_players: int
    max_players: int
    rulebook: str
    components: dict[str, int]
    options: tuple[OptionSpec, ...] = ()
    simulations: tuple[SimSetup, ...] = ()

    def option_defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


@dataclass(frozen=True)
class Line:
    """One itemised line of income, cost or score, naming its source and rulebook section.

    ``code`` is the message-catalog key of the sentence that explains it; ``params`` fill it.
    """

    source: str
    amount: int
    code: str
    ref: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self, text: str) -> dict[str, Any]:
        """The line as pages and ``--json`` output carry it, with its sentence ``text``."""
        return {"source": self.source, "amount": self.amount, "code": self.code,
                "ref": self.ref, "where": readable(self.ref), "params": self.params,
                "text": text}  # fmt: skip


@dataclass(frozen=True)
class Prompt:
    """Who must act and how: a seat (or ``TABLE`` for an observation) and the moves open to it."""

    seat: str
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    moves: tuple[Any, ...] = ()


@dataclass(frozen=True)
class ScoreRow:
    """One seat's score with its itemised lines and tie-break key (compared descending)."""

    seat: str
    total: int
    lines: tuple[Line, ...]
    tiebreak: tuple[int, ...]
    rank: int


@dataclass(frozen=True)
class Interpretation:
    """What a change seen on the table (camera, Tabletop Simulator) means, as the rules read it.

    ``moves`` is set when exactly one sequence of moves explains the observation completely (a
    move, or a move followed by the choice its effect asked for, made before the camera
    settled). ``unchanged``: the observation matches the current position (a hand passing, a
    re-read). ``candidates``: several sequences explain it equally well, so the table must
    confirm which. ``distance`` counts the observed pieces the best explanation leaves
    unexplained (0: a full match). Never a silent guess.
    """

    moves: tuple[Any, ...]
    unchanged: bool
    candidates: tuple[tuple[Any, ...], ...] = ()
    distance: int = 0
    notes: tuple[str, ...] = ()


class Game(Protocol[S, M]):
    """The verbs every game module offers. ``engine.rules`` adds the generic gates around them."""

    info: GameInfo
    state_type: type[S]
    move_types: tuple[type, ...]

    def setup(self, players: tuple[str, ...], options: dict[str, Any] | None = None) -> S:
        """The state before any observation: seats and options fixed, nothing revealed yet."""
        ...

    def seats(self, state: S) -> tuple[str, ...]:
        """The seat names of the players, in seating order."""
        ...

    def describe(self, line: Line, lang: str = "en") -> str:
        """The catalog sentence for one of this game's itemised lines."""
        ...

    def to_act(self, state: S) -> tuple[str, ...]:
        """Seats (or ``TABLE``) whose move the game waits for; empty once the game is over."""
        ...

    def actor(self, move: M) -> str:
        """The seat (or ``TABLE``) a move belongs to."""
        ...

    def is_chance(self, move: M) -> bool:
        """True for observations of physical randomness (reveals, rolls): never undoable."""
        ...

    def legal_moves(self, state: S) -> list[M]:
        """Every legal non-chance move for the seats in ``to_act``."""
        ...

    def check(self, state: S, move: M) -> list[Violation]:
        """Every rule the move breaks, after the generic gates passed."""
        ...

    def apply_unchecked(self, state: S, move: M) -> S:
        """The next state. Unchecked fast path: callers must have checked ``move``."""
        ...

    def check_position(self, state: S) -> list[Violation]:
        """Every fault of a whole (observed) position at once."""
        ...

    def view(self, state: S, seat: str | None, lang: str = "en") -> dict[str, Any]:
        """The game data ``seat`` sees (None: the public table display), hidden data redacted.

        Game data only: ``engine.present.view`` adds whose move, prompts, scores and itemised
        lines the same way for every game (its ``CORE_KEYS`` are not the game's to use).
        """
        ...

    def prompts(self, state: S) -> list[Prompt]:
        """Who must act now and how."""
        ...

    def income(self, state: S, seat: str) -> tuple[Line, ...]:
        """The seat's itemised income of its most recent turn."""
        ...

    def score(self, state: S) -> tuple[ScoreRow, ...]:
        """Scores with breakdowns (final once the game is over, standing before that)."""
        ...

    def is_over(self, state: S) -> bool: ...

    def winners(self, state: S) -> tuple[str, ...]:
        """The winning seats (more than one when the rulebook's tie-breaks leave a tie)."""
        ...

    def interpret(self, state: S, seen: list[dict[str, Any]]) -> Interpretation:
        """The move(s) a table observation shows: ``seen`` lists ``{"component", "region",
        "attrs"}`` in the game's profile vocabulary (vision and TTS profiles share it)."""
        ...

    def sample_chance(self, state: S, rng: random.Random) -> M | None:
        """A plausible observation for a simulated table, drawn with the rng it is handed."""
        ...


# --- optional verbs ------------------------------------------------------------------------------
#
# A game may offer more verbs than ``Game`` requires: each is a typed protocol in
# ``engine.capabilities``, found with ``capability(game, ...)``. The helpers below are the
# defaults most callers want (None, False: "this game has nothing to say").


def dice_move(game: object, state: Any, dice: Any, by: str | None = None) -> Any:
    """``game.dice_move`` if the game has dice, else None (no step takes a roll)."""
    verb = capability(game, DICE_MOVE)
    return verb.dice_move(state, dice, by) if verb is not None else None


def dice_pool(game: object, state: Any) -> list[dict[str, Any]] | None:
    """``game.dice_pool`` if the game has dice, else None (nothing to roll)."""
    verb = capability(game, DICE_POOL)
    return verb.dice_pool(state) if verb is not None else None


def auto_move(game: object, state: Any) -> Any | None:
    """``game.auto_move`` if the game has seats it plays itself (a solo AI whose every move the
    rules compute), else None: the move such a seat makes now, or None when none is due."""
    verb = capability(game, AUTO_MOVE)
    return verb.auto_move(state) if verb is not None else None


def is_pass(game: object, move: Any) -> bool:
    """``game.is_pass`` if the game says which moves decline, else False (no pass button)."""
    verb = capability(game, PASSES)
    return bool(verb.is_pass(move)) if verb is not None else False


def money(game: object, state: Any) -> tuple[int, dict[str, int]] | None:
    """Each seat's money and the round it counts for (``game.money``, else the common shape:
    ``state.round`` and ``state.players[*].coins``), or None when the game has no money."""
    verb = capability(game, MONEY)
    if verb is not None:
        return verb.money(state)
    rnd = getattr(state, "round", None)
    players = getattr(state, "players", None)
    if not isinstance(rnd, int) or players is None:
        return None
    coins = {p.seat: p.coins for p in players if hasattr(p, "coins")}
    return (rnd, coins) if coins else None


def move_label(game: object, move: dict[str, Any], lang: str, public: bool = True) -> str | None:
    """``game.label`` if the game labels its own moves, else None (use the catalog's)."""
    verb = capability(game, LABELS)
    return verb.label(move, lang, public) if verb is not None else None
