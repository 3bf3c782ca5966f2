"""The Glory game module (``engine.game.Game``): options, setup, and each verb handed to the
module that holds its rules (``turn``, ``flow``, ``views``, ``preview``, ``labels``,
``dice_input``, ``layout``), so the core reaches the game through one object.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import flow as core_flow
from engine.adapter import check_seats, resolve_options
from engine.data import GameData
from engine.game import (
    GameInfo,
    Interpretation,
    Line,
    OptionSpec,
    Prompt,
    ScoreRow,
    SimSetup,
)
from engine.games.glory import turn, views
from engine.games.glory.components import GAME_KEY, RULEBOOK, ref
from engine.games.glory.data_file import SPEC
from engine.games.glory.data_missing import missing_for, unsayable_cards, without_unsayable
from engine.games.glory.data_types import Box
from engine.games.glory.dice_input import dice_move, dice_pool
from engine.games.glory.duel_state import CHANCE_TYPES as DUEL_CHANCE
from engine.games.glory.duel_state import Decline
from engine.games.glory.flow import FLOW, FLOW_KINDS, flow_kind
from engine.games.glory.flow import position as flow_position
from engine.games.glory.labels import label
from engine.games.glory.layout import TABLE_READING, camera_faces
from engine.games.glory.layout import layout as camera_layout
from engine.games.glory.position import check_position
from engine.games.glory.preview import names, preview, previews
from engine.games.glory.refs import Refused
from engine.games.glory.setup_phase import initial
from engine.games.glory.solo import SIR_SEAT, solo_players
from engine.games.glory.state import (
    CHANCE_TYPES,
    MOVE_TYPES,
    DuelStep,
    GloryState,
    Move,
    Player,
    Register,
    StopQuests,
    TryTitle,
)
from engine.interpret import interpret as core_interpret
from engine.layout import Placed, Rect
from engine.violations import InputError, RuleViolation, Violation

INFO = GameInfo(
    key=GAME_KEY,
    name="Glory",
    min_players=1,
    max_players=4,
    rulebook=RULEBOOK,
    components={
        "pawns per player": 6,
        "crests per player": 4,
        "equipment cards": 16,
        "event cards": 12,
        "rounds": 3,
    },
    options=(
        OptionSpec(
            "tournament",
            "joust",
            ("joust", "pas-d-armes"),
            ref("§3.1", "L111-123"),
            "The tournament type, chosen before the game: Joust à plaisance (a bracket) "
            "or Pas d'armes (three cities of Knights).",
        ),
        OptionSpec(
            "data",
            "box",
            (),
            ref("§11", "L101-109"),
            "The printed contents: 'box' (what the seed gives; a game needing a missing "
            "value is refused, naming it), 'stand-in' (a complete invented set for "
            "simulation and tests, not the printed values), or a path to a data file.",
        ),
        OptionSpec(
            "unsayable",
            "refuse",
            ("refuse", "leave-out"),
            ref("§11", "L101-109"),
            "A card of the data marked unsayable (its printed text is beyond the data's "
            "vocabulary): 'refuse' a game while there is one, naming it, or 'leave-out' such "
            "cards, as if they had stayed in the box (docs/glory.md 'Data files').",
        ),
        OptionSpec(
            "first_game",
            False,
            (False, True),
            ref("§3.2", "L179-182, L216-218, L319-325"),
            "First game: every player plays a Level I Character, no Tournament Prize tokens.",
        ),
        OptionSpec(
            "drab_rule",
            "never",
            ("never", "at-end"),
            ref("§7.1", "L1580-1590"),
            "Szlachetny/Dworny 'could not have had Drabs': never during the game, or "
            "not at the end (GL decision).",
        ),
        OptionSpec(
            "pas_register",
            "mandatory",
            ("mandatory", "optional"),
            ref("§4.5", "L604-616, L659-664"),
            "Pas d'armes Registration: a player places crests until no Knight is free for it "
            "or it is in every city ('mandatory', the rulebook's words, GL-37), or may stop "
            "earlier ('optional').",
        ),
        OptionSpec(
            "quest_return",
            "any",
            ("any", "character"),
            ref("§3.2 step 5", "L249-251"),
            "Starting Quest cards returned for 1 Strength each: 'any' of the starting hand "
            "('dowolne karty Wypraw', GL-30), or at most as many as the Character card lists.",
        ),
        OptionSpec(
            "handicap",
            {},
            (),
            ref("§3.2", "L194-198"),
            "Experienced players: seat → {'horse': n, 'armour': n}, the levels that seat's Horse "
            "and Armour start lower (never below 1), to give new players an even chance.",
        ),
        OptionSpec(
            "solo",
            None,
            (None, "wojownik", "samotnik", "rywal"),
            ref("Appendix A", "L1163-1287"),
            "Solo scenario against SIR (one player only).",
        ),
        OptionSpec(
            "difficulty",
            "easy",
            ("easy", "medium", "hard"),
            ref("Appendix A", "L1170-1186"),
            "Solo difficulty.",
        ),
        OptionSpec(
            "personality",
            None,
            (None, "wojownik", "maz-bozy"),
            ref("Appendix A", "L1193-1194"),
            "Solo: the two personality cards added to SIR's deck (or none).",
        ),
        OptionSpec(
            "sir_knight",
            "",
            (),
            ref("Appendix A", "L1182-1186"),
            "Solo Rival: the Knight token whose Attack and Prestige SIR fights with.",
        ),
        OptionSpec(
            "sir_duel",
            "knight",
            ("knight", "attack"),
            ref("Appendix A", "L1278, L975-978"),
            "Solo Rival, SIR against a Knight: 'knight' as two Knights fight (Glory value, SIR's "
            "a player's 7 or 9; then Prestige; then the left-hand side), the rulebook's words "
            "(GL-50); 'attack': higher Attack, then Prestige, a full tie to the Knight.",
        ),
    ),
    # the box's data is incomplete (§11): a simulated table plays the stand-in set, 2-4 players,
    # both tournament types
    simulations=(
        *(
            SimSetup(n, {"data": "stand-in", "tournament": kind, "first_game": first})
            for n in (2, 3, 4)
            for kind in ("joust", "pas-d-armes")
            for first in (False, True)
        ),
        SimSetup(1, {"data": "stand-in", "solo": "wojownik", "tournament": "joust"}),
        SimSetup(
            1,
            {
                "data": "stand-in",
                "solo": "samotnik",
                "tournament": "pas-d-armes",
                "difficulty": "medium",
            },
        ),
        SimSetup(
            1,
            {"data": "stand-in", "solo": "rywal", "tournament": "joust", "personality": "maz-bozy"},
        ),
    ),
)


class Glory:
    """The Glory game module (see ``engine.game.Game`` for the contract)."""

    info = INFO
    state_type = GloryState
    move_types = MOVE_TYPES
    flow = FLOW
    flow_kinds = FLOW_KINDS
    data_spec = SPEC

    def setup(
        self,
        players: tuple[str, ...],
        options: dict[str, Any] | None = None,
        data: GameData | None = None,
    ) -> GloryState:
        """The table before the deal. ``data``: the printed contents ``options["data"]`` names,
        loaded by the caller (``engine.data.load``); the game keeps them in its state."""
        players = tuple(players)
        check_seats(INFO, players, reserved=(SIR_SEAT,))
        opts = resolve_options(INFO, options)
        if (len(players) == 1) != (opts["solo"] is not None):
            raise InputError("setup/options", "one player plays a solo scenario (option solo), "
                             "and a solo scenario has one player", "$.options.solo")  # fmt: skip
        named = opts["data"] if isinstance(opts["data"], str) else "inline"
        if data is None or not isinstance(data.value, Box) or data.source != named:
            raise InputError("setup/data", f"Glory's data {named!r} are loaded by the caller "
                             "(engine.data.load) and handed in", "$.options.data")  # fmt: skip
        handicap_problem(opts["handicap"], players)
        box = data.value
        seats = solo_players(players) if opts["solo"] else tuple(Player(s) for s in players)
        missing = missing_for(box.data, len(players), opts)
        if missing:
            raise RuleViolation([m.violation("data/incomplete") for m in missing])
        if opts["unsayable"] == "leave-out" and unsayable_cards(box.data):
            box = Box(without_unsayable(box.data))
        return initial(seats, opts, box)

    def seats(self, state: GloryState) -> tuple[str, ...]:
        return tuple(p.seat for p in state.players if not p.sir)

    def describe(self, line: Line, lang: str = "en") -> str:
        return views.line_text(line, lang)

    def to_act(self, state: GloryState) -> tuple[str, ...]:
        return core_flow.actors(self, state)

    def position(self, state: GloryState) -> core_flow.Position:
        return flow_position(state)

    def flow_kind(self, move: Move) -> str:
        return flow_kind(move)

    def actor(self, move: Move) -> str:
        return turn.actor(move)

    def is_chance(self, move: Move) -> bool:
        if isinstance(move, CHANCE_TYPES):
            return True
        return isinstance(move, DuelStep) and isinstance(move.move, DUEL_CHANCE)

    def legal_moves(self, state: GloryState) -> list[Move]:
        return turn.legal_moves(state)

    def check(self, state: GloryState, move: Move) -> list[Violation]:
        try:
            turn.apply(state, move)
        except (Refused, RuleViolation) as exc:
            return list(exc.violations)
        return []

    def attempt(self, state: GloryState, move: Move) -> GloryState:
        """Check and apply in one pass (the rules compute the next state to check a move):
        the next state, or ``RuleViolation`` with every problem and nothing changed."""
        return turn.attempt(state, move)

    def apply_unchecked(self, state: GloryState, move: Move) -> GloryState:
        return self.attempt(state, move)

    def check_position(self, state: GloryState) -> list[Violation]:
        return check_position(state)

    def view(self, state: GloryState, seat: str | None, lang: str = "en") -> dict[str, Any]:
        return views.view(state, seat, lang)

    def prompts(self, state: GloryState) -> list[Prompt]:
        return views.prompts(state)

    def is_pass(self, move: Move) -> bool:
        """Declining: a duel step left alone, no more Quest cards, no (more) registration,
        a Title given up. What a seat box's pass button means."""
        if isinstance(move, DuelStep):
            return isinstance(move.move, Decline)
        if isinstance(move, Register):
            return move.slot is None
        if isinstance(move, TryTitle):
            return not move.fight
        return isinstance(move, StopQuests)

    def last_lines(self, state: GloryState) -> tuple[tuple[str, Line], ...]:
        """The Glory the most recent move gained or cost, seat by seat, each with its rule."""
        return tuple((x.seat, views.ledger_line(x)) for x in state.ledger[state.move_from :])

    def income(self, state: GloryState, seat: str) -> tuple[Line, ...]:
        return tuple(views.ledger_line(x) for x in state.last_income.get(seat, ()))

    def score(self, state: GloryState) -> tuple[ScoreRow, ...]:
        return views.score(state)

    def is_over(self, state: GloryState) -> bool:
        return state.phase == "over"

    def winners(self, state: GloryState) -> tuple[str, ...]:
        return views.winners(state)

    def interpret(self, state: GloryState, seen: list[dict[str, Any]]) -> Interpretation:
        """The move(s) a table observation shows (camera or TTS), or why none fits."""
        return core_interpret(self, TABLE_READING, state, seen)

    def layout(self, state: GloryState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
        """Where every component lies on the camera profile's board (``camera/profile.json``)."""
        return camera_layout(state, regions)

    def camera_faces(self, data: GameData) -> dict[str, dict[str, Any]]:
        """The stand-in art's faces → card and token attributes, for the set ``data`` holds
        (the caller loads it: ``engine.data.load``)."""
        if not isinstance(data.value, Box):
            raise InputError("input/data", "not a Glory data set")
        return camera_faces(data.value)

    def sample_chance(self, state: GloryState, rng: random.Random) -> Move | None:
        return turn.sample_chance(state, rng)

    # optional verbs (engine.game "Optional verbs"): dice from the table, move labels
    def dice_move(self, state: GloryState, dice: Any, by: str | None = None) -> Move | None:
        return dice_move(state, dice, by)

    def dice_pool(self, state: GloryState) -> list[dict[str, Any]] | None:
        return dice_pool(state)

    def label(
        self,
        move: dict[str, Any],
        lang: str = "en",
        public: bool = True,
        names: dict[str, str] | None = None,
    ) -> str | None:
        return label(move, lang, public, names)

    def names(self, state: GloryState, lang: str = "en") -> dict[str, str]:
        """Every card id of the game's box with its printed name (engine.game ``names``)."""
        return names(state, lang)

    def preview(
        self, state: GloryState, move: Move, seat: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """What a legal option gives ``seat``: the card with its data, the resources after it."""
        return preview(state, move, seat, lang)

    def previews(
        self, state: GloryState, moves: list[Move], seat: str, lang: str = "en"
    ) -> list[dict[str, Any] | None]:
        """Every option of a prompt previewed at once, one move applied per family of alike
        options (a pawn's Quest Plans pairs), so every pawn option carries its preview."""
        return previews(state, moves, seat, lang)


def handicap_problem(handicap: Any, players: tuple[str, ...]) -> None:
    """Refuse a handicap that names no seat of the table or lowers by other than 0-3 levels."""
    ok = isinstance(handicap, dict) and all(
        seat in players
        and isinstance(levels, dict)
        and set(levels) <= {"horse", "armour"}
        and all(type(n) is int and 0 <= n <= 3 for n in levels.values())
        for seat, levels in handicap.items()
    )
    if not ok:
        raise InputError("setup/options", "handicap maps seats of the table to "
                         "{'horse': 0-3, 'armour': 0-3}", "$.options.handicap")  # fmt: skip


GAME = Glory()
