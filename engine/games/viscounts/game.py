"""The Viscounts game module (``engine.game.Game`` on the declarative flow): options, data,
setup, who acts, legal moves, checks, chance for a simulated table, views and scores.

Registered as ``herald.games`` entry point ``viscounts``. 1-4 players: one player plays against
the solo AI (digest §8, engine/games/viscounts/solo.py; options ``ai`` and ``difficulty``,
VW-19). The camera and Tabletop Simulator profiles (``camera/profile.json``,
``camera/faces.json``, ``tts/profile.json``) read the table through ``layout`` (the
``layout``, ``interpret`` and ``camera_faces`` verbs).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.adapter import GameBase, check_seats, resolve_options
from engine.data import GameData
from engine.flow import Position
from engine.game import GameInfo, Interpretation, Line, OptionSpec, Prompt, ScoreRow, SimSetup
from engine.games.viscounts import labels, position, scoring, solo, turn, views, vocabulary
from engine.games.viscounts import layout as table
from engine.games.viscounts import preview as option_preview
from engine.games.viscounts.data import SPEC, refusals
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.flow import FLOW
from engine.games.viscounts.flow import position as flow_position
from engine.games.viscounts.moves import CHANCE_TYPES, MOVE_TYPES, Choose, Pass, Skip
from engine.games.viscounts.refs import R, Refused
from engine.games.viscounts.schemas import DATA_SCHEMA
from engine.games.viscounts.sources import GAME_KEY, RULEBOOK, ref
from engine.games.viscounts.state import VState
from engine.interpret import interpret as core_interpret
from engine.layout import Placed, Rect
from engine.violations import InputError, RuleViolation, Violation

OPTIONS = (
    OptionSpec("data", "stand-in", (), ref("§11 item 1"),
               "The printed contents: 'stand-in' (complete, invented), 'box' (what the seed "
               "gives; refused while values are missing), or a file."),
    OptionSpec("max_rounds", 0, (), ref("§1"),
               "Stop after this many rounds with the final scoring (0: play until Poverty or "
               "Prosperity ends the game); for simulated tables."),
    OptionSpec("skip_action", False, (False, True), ref("§4 phase 3", "L401"),
               "Whether a player may take no main action although one can be paid (VW-7; "
               "the rulebook: players take 1 of the 4 main actions, and may skip only when "
               "none can be paid)."),
    OptionSpec("decline_priced", False, (False, True), ref("§6 effect glossary", "L1024-1025"),
               "Whether a player may decline an effect with a price they can pay (VW-13; the "
               "rulebook: resolving an effect is mandatory unless it says otherwise)."),
    OptionSpec("collision_space", "current", ("current", "start"), ref("§4 phase 5",
               "L249-250, L683-690"),
               "Which space's bonuses Collision steps 3-4 pay: 'current', where the stacked "
               "markers are when the step is resolved (a Virtue from step 1 moves them first), "
               "or 'start', where the Collision was found."),
    OptionSpec("ai", "cleric", (), ref("§8", "L813-818"),
               "Solo: which of the four AIs plays against you (an AI board of the data: "
               "'cleric', 'merchant', 'builder', 'noble' in the stand-in set)."),
    OptionSpec("difficulty", 0, solo.DIFFICULTIES, ref("§8", "L1014-1015"),
               "Solo: Future Schemes shuffled into the AI's Scheme deck (0 the standard game, "
               "1-3 harder)."),
)  # fmt: skip

SOLO_SIMULATIONS = tuple(
    SimSetup(1, {"data": "stand-in", "max_rounds": 8, "ai": ai, "difficulty": k})
    for k, ai in enumerate(("cleric", "merchant", "builder", "noble"))
)
"""A simulated solo table against each AI of the stand-in, each at its own difficulty."""

INFO = GameInfo(
    key=GAME_KEY,
    name="Viscounts of the West Kingdom",
    min_players=1,
    max_players=4,
    rulebook=RULEBOOK,
    components={"townsfolk": 110, "manuscripts": 35, "workers per colour": 20},
    options=OPTIONS,
    # random play rarely draws Debts or Deeds: a simulated table caps its games at 8 rounds
    simulations=(
        *tuple(SimSetup(n, {"data": "stand-in", "max_rounds": 8}) for n in (2, 3, 4)),
        *SOLO_SIMULATIONS,
    ),
)


class Viscounts(GameBase):
    """Viscounts of the West Kingdom (see ``engine.game.Game`` for the contract)."""

    info = INFO
    state_type = VState
    move_types = MOVE_TYPES
    flow = FLOW
    data_spec = SPEC

    def setup(self, players: tuple[str, ...], options: dict[str, Any] | None = None,
              data: GameData | None = None) -> VState:  # fmt: skip
        players = tuple(players)
        check_seats(INFO, players, (solo.AI_SEAT,) if len(players) == 1 else ())
        opts = resolve_options(INFO, options)
        if data is None or not isinstance(data.value, ViscountsData):
            raise InputError("setup/data", "Viscounts' data are loaded by the caller "
                             "(engine.data.load) and handed in", "$.options.data")  # fmt: skip
        problems = refusals(data.value, len(players))
        if problems:
            raise RuleViolation(problems)
        opts = {k: v for k, v in opts.items() if k != "data" or isinstance(v, str)}
        if len(players) == 1:
            state = turn.initial((*players, solo.AI_SEAT), opts, data.value)
            return solo.setup(state, str(opts["ai"]), int(opts["difficulty"]))
        return turn.initial(players, opts, data.value)

    def seats(self, state: VState) -> tuple[str, ...]:
        return state.seats

    def position(self, state: VState) -> Position:
        return flow_position(state)

    def actor(self, move: Any) -> str:
        return str(move.seat)

    def is_chance(self, move: Any) -> bool:
        return isinstance(move, CHANCE_TYPES)

    def legal_moves(self, state: VState) -> list[Any]:
        return turn.legal_moves(state)

    def check(self, state: VState, move: Any) -> list[Violation]:
        try:
            turn.apply(state, move)
        except RuleViolation as exc:
            return list(exc.violations)
        return []

    def complete_state(self, data: Any) -> Any:
        """A hand-written position's derived fields, filled in (``position.complete_state``)."""
        return position.complete_state(data)

    def check_position(self, state: VState) -> list[Violation]:
        """Every fault of a whole position (``position``: the components' conservation)."""
        return position.check_position(state)

    def attempt(self, state: VState, move: Any) -> VState:
        return turn.apply(state, move)

    def apply_unchecked(self, state: VState, move: Any) -> VState:
        return turn.apply(state, move)

    def view(self, state: VState, seat: str | None, lang: str = "en") -> dict[str, Any]:
        return views.view(state, seat, lang)

    def prompts(self, state: VState) -> list[Prompt]:
        return views.prompts(state)

    def last_lines(self, state: VState) -> tuple[tuple[str, Line], ...]:
        return tuple((x.seat, Line(x.seat, x.amount, x.code, R["turn"], x.params))
                     for x in state.ledger)  # fmt: skip

    def score(self, state: VState) -> tuple[ScoreRow, ...]:
        return scoring.score(state)

    def is_over(self, state: VState) -> bool:
        return state.phase == "over"

    def winners(self, state: VState) -> tuple[str, ...]:
        return scoring.winners(state)

    def sample_chance(self, state: VState, rng: random.Random) -> Any:
        return turn.sample_chance(state, rng)

    def auto_move(self, state: VState) -> Any:
        """The solo AI's move now (its only legal move, computed by the rules, VW-40)."""
        return solo.ai_move(state)

    def is_pass(self, move: Any) -> bool:
        """A seat box's pass button: no Hire, no main action, or declining what is asked."""
        if isinstance(move, Choose):
            return move.option in ("decline", "keep")
        return isinstance(move, Pass | Skip)

    def names(self, state: VState, lang: str = "en") -> dict[str, str]:
        """Every component id with the words a player reads (engine.game ``names``)."""
        return labels.names(state, lang)

    def label(
        self,
        move: dict[str, Any],
        lang: str = "en",
        public: bool = True,
        names: dict[str, str] | None = None,
    ) -> str | None:
        return labels.label(move, lang, public, names)

    def preview(
        self, state: VState, move: Any, seat: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """What a legal option gives ``seat`` (engine.preview)."""
        return option_preview.preview(state, move, seat, lang)

    def interpret(self, state: VState, seen: list[dict[str, Any]]) -> Interpretation:
        """The move(s) a table observation shows (camera or Tabletop Simulator), or why none
        fits (``layout``: what is read and what a phone reports)."""
        return core_interpret(self, table.TABLE_READING, state, seen)

    def layout(self, state: VState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
        """Where every piece lies on the camera profile's board (``camera/profile.json``)."""
        return table.layout(state, regions)

    def camera_faces(self, data: GameData) -> dict[str, dict[str, Any]]:
        """The stand-in art's faces → Townsfolk card and Manuscript attributes, for the data
        set ``data`` holds (the caller loads it: ``engine.data.load``)."""
        if not isinstance(data.value, ViscountsData):
            raise InputError("input/data", "not a Viscounts data set")
        return table.camera_faces(data.value)

    def board_profile(self, data: GameData, usable: Sequence[int]) -> dict[str, Any]:
        """The camera's board profile for the data set ``data`` holds (its board's spaces)."""
        if not isinstance(data.value, ViscountsData):
            raise InputError("input/data", "not a Viscounts data set")
        return table.board_profile(data.value, usable)

    def effect_vocabulary(self, lang: str = "en") -> dict[str, Any]:
        """What a card's effect can say, for the box page's picker, and the data fields that
        hold effect texts (from the schema's ``x-effect``)."""
        return {**vocabulary.vocabulary(lang), "paths": vocabulary.effect_paths(DATA_SCHEMA)}

    def read_effect(
        self, place: str, given: Any, card: str = "", lang: str = "en"
    ) -> dict[str, Any]:
        """A typed effect text or the picker's fields read by the effect grammar."""
        return vocabulary.read(place, given, card, lang)

    def seat_colours(self, data: GameData) -> tuple[str, ...]:
        """The players' colours the data set names (``colours``), in order: a group's box seats
        its players by its own colours."""
        if not isinstance(data.value, ViscountsData):
            raise InputError("input/data", "not a Viscounts data set")
        return tuple(c for c in data.value.colours if c is not None)

    def previews(
        self, state: VState, moves: list[Any], seat: str, lang: str = "en"
    ) -> list[dict[str, Any] | None]:
        """Every option of a prompt previewed at once (a Build prompt has dozens)."""
        return option_preview.previews(state, moves, seat, lang)


GAME = Viscounts()

__all__ = ["GAME", "INFO", "Refused"]
