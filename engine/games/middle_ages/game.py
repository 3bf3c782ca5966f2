"""The Middle Ages game module: ``GAME``, the verbs of ``engine.game.Game`` over the pieces
beside it (the package docstring lists them)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import codec
from engine import flow as core_flow
from engine.adapter import check_seats, resolve_options
from engine.data import GameData
from engine.game import TABLE, GameInfo, Interpretation, Line, OptionSpec, Prompt, ScoreRow
from engine.games.middle_ages import (
    checks,
    play,
    position,
    resolve,
    scoring,
    supply,
    views,
)
from engine.games.middle_ages import preview as option_preview
from engine.games.middle_ages.components import (
    BOX_SPEC,
    EVENTS,
    EVENTS_LAID,
    GAME_KEY,
    RULEBOOK,
    TILES_PER_ESTATE,
    TileBox,
    ref,
)
from engine.games.middle_ages.flow import FLOW
from engine.games.middle_ages.flow import position as flow_position
from engine.games.middle_ages.layout import TABLE_READING, camera_faces
from engine.games.middle_ages.layout import layout as camera_layout
from engine.games.middle_ages.moves import (
    CHANCE_TYPES,
    MOVE_TYPES,
    DrawOrder,
    LayEvents,
    Move,
    ReturnTile,
    Reveal,
)
from engine.games.middle_ages.state import Options, Player, State
from engine.interpret import interpret as core_interpret
from engine.layout import Placed, Rect
from engine.violations import InputError, Violation

KEY = GAME_KEY

INFO = GameInfo(
    key=KEY,
    name="Middle Ages",
    min_players=2,
    max_players=5,
    rulebook=RULEBOOK,
    components={
        "fief boards": 5,
        "lords": 5,
        "scouts": 5,
        "story tiles": 84,
        "story tokens": 8,
        "special-coin tokens": 8,
        "event cards": 15,
        **{f"{e} tiles": n for e, n in TILES_PER_ESTATE.items()},
    },
    options=(
        OptionSpec(
            "box",
            "assumed",
            (),
            ref("§2 components", "L35-63"),
            "The tile box: 'assumed' (the shipped distribution, for simulation, unverified), a "
            "tile-box file, or a tile-box object; one marked verified is checked tile by tile.",
        ),
        OptionSpec(
            "village_optional",
            False,
            (False, True),
            ref("§12.9", "L221-224, L517-522"),
            "May a player decline to take a graveyard tile back (Village effect, event E10)?",
        ),
        OptionSpec(
            "coin_debt",
            "cap",
            ("cap", "negative"),
            ref("§12.5", "L218-219, L270, L541-545"),
            "A player who must pay more than they have pays what they have ('cap') or goes "
            "negative ('negative'). The end-game -10 per empty estate always counts in full.",
        ),
        OptionSpec(
            "barracks_empty_target_pays",
            True,
            (True, False),
            ref("§12.4", "L265-270"),
            "Does an attacked player with no tile on their board still pay the 2 coins?",
        ),
    ),
)


class MiddleAges:
    """The Middle Ages game module (see ``engine.game.Game`` for the contract)."""

    info = INFO
    state_type = State
    move_types = MOVE_TYPES
    flow = FLOW
    data_spec = BOX_SPEC

    def setup(
        self,
        players: tuple[str, ...],
        options: dict[str, Any] | None = None,
        data: GameData | None = None,
    ) -> State:
        """The table before the first reveal. ``data``: the tile box ``options["box"]`` names,
        loaded by the caller (``engine.data.load``); the state keeps it."""
        players = tuple(players)
        check_seats(INFO, players)
        opts = resolve_options(INFO, options)
        named = opts.pop("box")
        named = named if isinstance(named, str) else "inline"
        if data is None or not isinstance(data.value, TileBox) or data.source != named:
            raise InputError("setup/data", f"the tile box {named!r} is loaded by the caller "
                             "(engine.data.load) and handed to setup", "$.options.box")  # fmt: skip
        decoded: Options = codec.decode(Options, opts, "$.options")
        box = data.value
        n = len(players)
        blue = box.count("blue")
        orange = box.count("orange") if n >= 4 else 0
        return State(
            players=tuple(Player(seat) for seat in players),
            options=decoded,
            box=box,
            rows=tuple(tuple(None for _ in range(n + 1)) for _ in range(4)),
            blue_left=blue,
            orange_left=orange,
        )

    def seats(self, state: State) -> tuple[str, ...]:
        return state.seats

    def describe(self, line: Line, lang: str = "en") -> str:
        return views.line_text(line, lang)

    def to_act(self, state: State) -> tuple[str, ...]:
        return core_flow.actors(self, state)

    def position(self, state: State) -> core_flow.Position:
        return flow_position(state)

    def actor(self, move: Move) -> str:
        return move.seat

    def is_chance(self, move: Move) -> bool:
        return isinstance(move, CHANCE_TYPES)

    def legal_moves(self, state: State) -> list[Move]:
        return play.legal_moves(state)

    def check(self, state: State, move: Move) -> list[Violation]:
        return checks.check(state, move)

    def apply_unchecked(self, state: State, move: Move) -> State:
        return resolve.apply(state, move)

    def check_position(self, state: State) -> list[Violation]:
        return position.check_position(state)

    def view(self, state: State, seat: str | None, lang: str = "en") -> dict[str, Any]:
        return views.view(state, seat, lang)

    def prompts(self, state: State) -> list[Prompt]:
        return views.prompts(state)

    def is_pass(self, move: Move) -> bool:
        """Declining the Village effect or event E10 (no tile back to the board): the only
        move a seat may decline; what a seat box's pass button means."""
        return isinstance(move, ReturnTile) and move.tile is None

    def preview(
        self, state: State, move: Move, seat: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """What a legal option gives ``seat``: its tile, coins and income change."""
        return option_preview.preview(state, move, seat, lang)

    def last_lines(self, state: State) -> tuple[tuple[str, Line], ...]:
        """The itemised coins of the most recent move, seat by seat."""
        return tuple((e.seat, e.line) for e in state.last_move)

    def income(self, state: State, seat: str) -> tuple[Line, ...]:
        return state.player(seat).last_turn

    def score(self, state: State) -> tuple[ScoreRow, ...]:
        return scoring.score(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def winners(self, state: State) -> tuple[str, ...]:
        return scoring.winners(state)

    def interpret(self, state: State, seen: list[dict[str, Any]]) -> Interpretation:
        """The move(s) a table observation shows (camera or TTS), or why none fits."""
        return core_interpret(self, TABLE_READING, state, seen)

    def layout(self, state: State, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
        """Where every component lies on the camera profile's board (``camera/profile.json``)."""
        return camera_layout(state, regions)

    def camera_faces(self, data: GameData) -> dict[str, dict[str, Any]]:
        """The stand-in tile art's faces → tile attributes, for every tile of the box ``data``
        holds (the caller loads it: ``engine.data.load``)."""
        box = data.value
        if not isinstance(box, TileBox):
            raise InputError("input/data", "not a Middle Ages tile box")
        return camera_faces(box.tiles)

    def sample_chance(self, state: State, rng: random.Random) -> Move | None:
        """What a shuffled physical table would show next: a row, the event cards, the draw."""
        if play.actor(state) != TABLE:
            return None
        if state.phase in ("setup-rows", "refill"):
            row = (
                state.rows_laid + 1 if state.phase == "setup-rows" else play.lords_row(state.round)
            )
            return Reveal(row, supply.sample_row(state, rng))
        if state.phase == "setup-events":
            return LayEvents(tuple(rng.sample(sorted(EVENTS), EVENTS_LAID)))
        order = list(state.seats)
        rng.shuffle(order)
        return DrawOrder(tuple(order))


GAME = MiddleAges()
