"""The optional verbs a game may offer beyond ``engine.game.Game``, as typed protocols, and the
one lookup that finds them.

A game offers more than ``Game`` requires when it has something to say: dice, previews, printed
names, a camera layout. Each such verb is a small protocol here with its signature and what it
means, and :func:`capability` is the only place that asks a game (or a game's CLI module)
whether it has one: ``capability(game, DICE_MOVE)`` is the game typed as :class:`DiceMove`, or
None when the game has no dice. mypy then checks every call of the verb against the protocol,
and a conformance test (tests/conformance/test_capabilities.py) checks every registered game's
verbs against the same signatures. A game without a verb gets the caller's default: None is
"this game has nothing to say".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from engine.data import DataSpec, GameData
    from engine.flow import Position, Reveal, TurnFlow
    from engine.game import Line
    from engine.layout import Placed, Rect
    from engine.verbs import Verb

C = TypeVar("C")


class Capability(Generic[C]):
    """One optional verb (or set of verbs) as the lookup finds it: the protocol's members.

    A method member must be callable on the game; a data member (an annotation, or a
    read-only property) must be set (not None).
    """

    def __init__(self, protocol: type) -> None:
        self.protocol = protocol
        methods: list[str] = []
        data: list[str] = []
        for klass in reversed(protocol.__mro__):
            if klass in (object, Generic, Protocol) or not getattr(klass, "_is_protocol", False):
                continue
            for name, value in vars(klass).items():
                if name.startswith("_") or name in methods or name in data:
                    continue
                if isinstance(value, property):
                    data.append(name)
                elif callable(value):
                    methods.append(name)
            for name in vars(klass).get("__annotations__", {}):
                if not name.startswith("_") and name not in data:
                    data.append(name)
        if not methods and not data:
            raise TypeError(f"{protocol.__name__} declares no verb")
        self.methods = tuple(methods)
        self.data = tuple(data)

    def __repr__(self) -> str:
        return f"Capability({self.protocol.__name__})"


def capability(game: object, wanted: Capability[C]) -> C | None:
    """``game`` as the protocol ``wanted`` declares, or None when it lacks one of its members.

    The one place that probes a game for an attribute: everything else calls the verb through
    the typed value this returns.
    """
    for name in wanted.methods:
        if not callable(getattr(game, name, None)):
            return None
    for name in wanted.data:
        if getattr(game, name, None) is None:
            return None
    return cast(C, game)


# --- chance from the table -----------------------------------------------------------------------


class DiceMove(Protocol):
    """Dice reported by the table, as the chance move the game waits for."""

    def dice_move(self, state: Any, dice: Any, by: str | None = None) -> Any:
        """The chance move that ``dice`` make (the device wire objects of docs/devices.md,
        ``{"sides", "value", "color"?, "type"?}``); None when no step waits for dice now.

        ``by`` is the seat that typed them in on its phone (None: a device, the host, the
        simulated table). Dice that cannot be the awaited roll raise ``RuleViolation`` naming
        every problem; nothing changes.
        """
        ...


class DicePool(Protocol):
    """The dice the table should roll now (what a simulated table asks its dice tower for)."""

    def dice_pool(self, state: Any) -> list[dict[str, Any]] | None:
        """The dice as wire objects without ``value``; None: nothing to roll now."""
        ...


# --- rules ---------------------------------------------------------------------------------------


class Attempt(Protocol):
    """Check and apply in one pass, for a game whose checks compute the next state anyway."""

    def attempt(self, state: Any, move: Any) -> Any:
        """The next state; raises ``RuleViolation`` with every problem, nothing changed.

        ``engine.rules.apply`` uses it after the flow gate, so no state needs caching between
        a check and an apply.
        """
        ...


class AutoMove(Protocol):
    """Seats the game plays itself (a solo AI whose every move the rules compute)."""

    def auto_move(self, state: Any) -> Any:
        """The move such a seat makes now, or None when none is due; the referee plays it like
        a forced pass, as an ordinary logged event (bridge/autopass.py)."""
        ...


class Passes(Protocol):
    """Which moves decline: what a seat box's pass button means. A game without it has no
    pass, and the button is refused, naming why."""

    def is_pass(self, move: Any) -> bool: ...


class FlowKind(Protocol):
    """A move kind the flow gates on other than the move class's ``kind`` (a move wrapping a
    sub-game's move)."""

    def flow_kind(self, move: Any) -> str: ...


class FlowGame(Protocol):
    """A game on the declarative turn flow (``engine.flow``): its declaration and where a state
    stands in it, besides ``Game``'s ``actor`` and ``move_types``."""

    @property
    def flow(self) -> TurnFlow: ...

    @property
    def move_types(self) -> tuple[type, ...]: ...

    def position(self, state: Any) -> Position: ...

    def actor(self, move: Any) -> str: ...


class Reveals(Protocol):
    """A game with a sealed step: the reveal of every seat's sealed move in one event."""

    def reveal(self, state: Any, sealed: Reveal) -> Any: ...


class WindowMoves(Protocol):
    """Moves a seat may make out of turn through an open window (a card played on another's
    turn)."""

    def window_moves(self, state: Any, seat: str) -> list[Any]:
        """The moves ``seat`` may make out of turn now (its phone offers them)."""
        ...


class HasData(Protocol):
    """A game whose printed contents are data (``engine.data``): how they are named and read."""

    data_spec: DataSpec


class CompletesState(Protocol):
    """A game whose state repeats what follows from other fields (who owns a site, a count that
    must add up): a position written by hand may leave those out."""

    def complete_state(self, data: Any) -> Any:
        """The state's JSON with each derived field it leaves out filled in from the fields it
        gives (before the schema check: anything malformed is returned as it is, for the schema
        to refuse). Fields given are kept: the whole-position check judges them."""
        ...


# --- what players read ---------------------------------------------------------------------------


class LastLines(Protocol):
    """The itemised lines of the latest move; a game without it itemises nothing per move."""

    def last_lines(self, state: Any) -> tuple[tuple[str, Line], ...]:
        """``(seat, line)`` pairs of the most recent move."""
        ...


class Labels(Protocol):
    """Sentences for moves the game words itself (else the catalog's ``<game>:label/<kind>``)."""

    def label(
        self,
        move: dict[str, Any],
        lang: str = "en",
        public: bool = True,
        names: dict[str, str] | None = None,
    ) -> str | None:
        """A sentence for a move given as JSON, or None for the catalog's.

        ``public`` labels go to every display (the log), so they must not name hidden
        information. ``names`` (handed only by a game that offers :class:`Names`) are its
        components' printed names, so a label shows "Kasztelan", never the id ``kasztelan``.
        """
        ...


class Names(Protocol):
    """Component ids with their printed names, from the game's data."""

    def names(self, state: Any, lang: str = "en") -> dict[str, str]:
        """Every component id with the name a player reads (in ``lang`` where the editions
        print them differently); ``engine.present.state_names`` asks for them."""
        ...


class Preview(Protocol):
    """What a legal option gives the seat that may choose it, shown beside it on the phone."""

    def preview(self, state: Any, move: Any, seat: str, lang: str = "en") -> dict[str, Any] | None:
        """``{"text", "lines"}``: the component's printed name and data, signed amounts;
        None: nothing to add (engine/preview.py has the helpers). Asked only for prompts of up
        to ``engine.preview.MAX_PREVIEWED`` moves."""
        ...


class Previews(Protocol):
    """The previews of a whole prompt at once, for a game whose options come in large families
    of alike moves (it may apply one move per family). Used instead of :class:`Preview` when
    present, for any number of moves."""

    def previews(
        self, state: Any, moves: list[Any], seat: str, lang: str = "en"
    ) -> list[dict[str, Any] | None]:
        """One preview (or None) per move, in order."""
        ...


class Money(Protocol):
    """Each seat's money now, for the displays' money-by-round plot."""

    def money(self, state: Any) -> tuple[int, dict[str, int]] | None:
        """``(round, {seat: amount})``, or None when there is none to show. Without the verb a
        state with ``round`` and ``players`` whose items have ``coins`` is read
        (``engine.game.money``)."""
        ...


# --- the camera and the command line -------------------------------------------------------------


class Layout(Protocol):
    """Where a game's components lie on its camera profile's board (``engine.layout``)."""

    def layout(self, state: Any, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
        """Every component of the position placed in the profile's ``regions`` (name → board
        millimetres): what the simulated camera draws and the table sources read back."""
        ...


class CameraFaces(Protocol):
    """The stand-in art's faces and the component attributes each shows."""

    def camera_faces(self, data: GameData) -> dict[str, dict[str, Any]]:
        """Face id → attributes, for the data set ``data`` holds (the caller loads it)."""
        ...


class BoardProfile(Protocol):
    """A board whose camera profile depends on the game's data (a map, a board's spaces): the
    profile of the data a table plays, so a group's own box is read on its own board."""

    def board_profile(self, data: GameData, usable: Sequence[int]) -> dict[str, Any]:
        """The camera's board profile (the JSON of ``camera/profile.json``) for ``data``;
        ``usable`` are the marker ids the sticker kit may print (``vision.markers.usable_ids``
        of the shipped profile's dictionary), the first four the board's corners."""
        ...


class EffectVocabulary(Protocol):
    """A game whose cards' effects are data written in a vocabulary of its own: what it can
    say, so the box page builds an effect by choosing, and an effect read back by the game's
    own grammar (a typed text and a picked one are judged alike)."""

    def effect_vocabulary(self, lang: str = "en") -> dict[str, Any]:
        """``places``, ``timings``, ``left`` items, reward ``atoms`` and ``conversion``, each
        with its ``fields`` (a number, or a choice of allowed values), ``where`` it may stand
        and a ``label`` in ``lang``; ``paths``: the data fields holding effect texts
        (``{"path": "cards[].ability", "place": "ability"}``, ``[]`` any item)."""
        ...

    def read_effect(
        self, place: str, given: Any, card: str = "", lang: str = "en"
    ) -> dict[str, Any]:
        """``given`` (a text, or the picker's fields) read at ``place``: ``{"ok": true, "text",
        "sentence", "fields"}``, or ``{"ok": false, "text", "message", "forms"}`` naming what
        the vocabulary can say there."""
        ...


class SeatColours(Protocol):
    """A game whose families' colours are printed in its data (a box's own colours): a table
    playing a group's box seats its players by those colours, not by the shipped set's."""

    def seat_colours(self, data: GameData) -> tuple[str, ...]:
        """The families' colours the data name, in their order (a colour not known left out)."""
        ...


class CliVerbs(Protocol):
    """A game package's ``cli`` module: the game's own ``herald rules GAME`` verbs."""

    VERBS: tuple[Verb, ...]


DICE_MOVE = Capability[DiceMove](DiceMove)
DICE_POOL = Capability[DicePool](DicePool)
ATTEMPT = Capability[Attempt](Attempt)
AUTO_MOVE = Capability[AutoMove](AutoMove)
PASSES = Capability[Passes](Passes)
FLOW_KIND = Capability[FlowKind](FlowKind)
FLOW = Capability[FlowGame](FlowGame)
REVEALS = Capability[Reveals](Reveals)
WINDOW_MOVES = Capability[WindowMoves](WindowMoves)
HAS_DATA = Capability[HasData](HasData)
COMPLETES_STATE = Capability[CompletesState](CompletesState)
LAST_LINES = Capability[LastLines](LastLines)
LABELS = Capability[Labels](Labels)
NAMES = Capability[Names](Names)
PREVIEW = Capability[Preview](Preview)
PREVIEWS = Capability[Previews](Previews)
MONEY = Capability[Money](Money)
LAYOUT = Capability[Layout](Layout)
CAMERA_FACES = Capability[CameraFaces](CameraFaces)
BOARD_PROFILE = Capability[BoardProfile](BoardProfile)
EFFECT_VOCABULARY = Capability[EffectVocabulary](EffectVocabulary)
SEAT_COLOURS = Capability[SeatColours](SeatColours)
CLI_VERBS = Capability[CliVerbs](CliVerbs)

OPTIONAL_VERBS: tuple[Capability[Any], ...] = (
    DICE_MOVE, DICE_POOL, ATTEMPT, AUTO_MOVE, PASSES, FLOW_KIND, FLOW, REVEALS, WINDOW_MOVES,
    HAS_DATA, LAST_LINES, LABELS, NAMES, PREVIEW, PREVIEWS, MONEY, LAYOUT, CAMERA_FACES,
    COMPLETES_STATE, BOARD_PROFILE, EFFECT_VOCABULARY, SEAT_COLOURS,
)  # fmt: skip
"""Every optional verb a game object may offer (the CLI module's ``VERBS`` is not the game's)."""
