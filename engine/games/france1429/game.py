"""The France 1429 game module (``engine.game.Game`` on the declarative flow): options, data,
setup, who acts, legal moves, checks, chance for a simulated table, views and scores.

Each move is checked and applied in one pass (``attempt``): the rules refuse with every reason
and the state is untouched, or return the next state.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine import codec
from engine import flow as core_flow
from engine.adapter import GameBase, check_seats, resolve_options
from engine.data import DataSpec, GameData
from engine.flow import Reveal
from engine.game import GameInfo, Interpretation, Line, OptionSpec, ScoreRow, SimSetup
from engine.games.france1429 import (
    hear_ye,
    rounds,
    setup,
    views,
)
from engine.games.france1429.data import SPEC, FranceData, refusals
from engine.games.france1429.dice_input import dice_move, dice_pool
from engine.games.france1429.editions import EDITIONS, FOLLOW
from engine.games.france1429.flow import FLOW
from engine.games.france1429.layout import TABLE_READING
from engine.games.france1429.layout import board_profile as map_board_profile
from engine.games.france1429.layout import layout as camera_layout
from engine.games.france1429.moves import (
    CHANCE_TYPES,
    MOVE_TYPES,
    Answer,
    Done,
    Interject,
    actor,
)
from engine.games.france1429.position import check_position
from engine.games.france1429.preview import names, preview
from engine.games.france1429.refs import R, Refused
from engine.games.france1429.sources import GAME_KEY, RULEBOOK, ref
from engine.games.france1429.state import DISASTERS, FranceState
from engine.games.france1429.turn import apply, legal_moves, sample_chance, window_moves
from engine.i18n import message
from engine.interpret import interpret as core_interpret
from engine.layout import Placed, Rect
from engine.seat_words import seat_words
from engine.violations import InputError, RuleViolation, Violation

OPTIONS = (
    OptionSpec(
        "edition",
        "en",
        EDITIONS,
        ref("§15 items 5-16"),
        "The rulebook your box prints, English (en) or Polish (pl): where the two disagree "
        "(Crown Prince, duplicate Disaster, Assassination, King candidates, captives, taxes, "
        "Holy Spear, relic transfer) each option set to 'edition' follows it.",
    ),
    OptionSpec(
        "data",
        "stand-in",
        (),
        ref("§2-3", "p.1-3", "KOMPONENTY"),
        "The map and box: 'stand-in' (complete, invented), 'box' (what the seeds give; "
        "a game needing a missing value is refused), or a file.",
    ),
    OptionSpec(
        "fog_of_war",
        False,
        (False, True),
        ref("§12.3", "p.17 §11.2", "§11.2"),
        "Fog of War: troops lie face down; other families see how many counters, not their "
        "types, until a battle there.",
    ),
    OptionSpec(
        "holy_relics",
        False,
        (False, True),
        ref("§12.2", "p.17 §11.1", "§11.1"),
        "Holy Relics: five relics start on the Principal Villages (not for a first game).",
    ),
    OptionSpec(
        "holy_spear",
        FOLLOW,
        (FOLLOW, "en", "pl"),
        ref("§12.2, §15 item 11", "p.17 §11.1.1", "§11.1.1"),
        "The Holy Spear's +1 hit: only when its holder attacks (EN) or in every battle (PL).",
    ),
    OptionSpec(
        "relic_transfer",
        FOLLOW,
        (FOLLOW, "en", "pl"),
        ref("§12.2, §15 item 12", "p.17 §11.1", "§11.1"),
        "A relic handed to another family's Lord: anywhere, for a Diplomacy marker (EN), or "
        "only in the same Village, no marker (PL).",
    ),
    OptionSpec(
        "open_diplomacy",
        False,
        (False, True),
        ref("§12.3", "p.17 §11.3", "§11.3"),
        "Open Diplomacy: no Diplomacy markers; deals and talks are free (the table's matter).",
    ),
    OptionSpec(
        "max_rounds",
        0,
        (),
        ref("§1.2"),
        "Stop after this many rounds with no winner (0: play until someone wins); "
        "for simulated tables.",
    ),
    OptionSpec(
        "first_round_disasters",
        "resolve",
        ("resolve", "discard"),
        ref("§4 step 14", "p.8 §2.3", "§2.3"),
        "Beginners' variant: discard the first round's Disasters unresolved.",
    ),
    OptionSpec(
        "duplicate_disaster",
        FOLLOW,
        (FOLLOW, "reroll", "discard"),
        ref("§11.2, §15 item 5", "p.8 §2.3", "§2.3"),
        "A Disaster of a type already on its Bishopric: roll again (EN) or discard (PL).",
    ),
    OptionSpec(
        "assassination",
        FOLLOW,
        (FOLLOW, "en", "pl"),
        ref("§11.4, §15 item 6", "p.16 §10.3", "§10.3"),
        "Assassination: the target rolls 1D6 and dies on 1-3 (EN) or always dies (PL).",
    ),
    OptionSpec(
        "captives",
        FOLLOW,
        (FOLLOW, "always", "optional"),
        ref("§9.4, §15 item 16", "p.13 §6.2.2", "L1635-1637"),
        "Lords beaten in battle: always taken captive (EN) or the winner may let each go free "
        "in the Village (PL).",
    ),
    OptionSpec(
        "battle_allies",
        FOLLOW,
        (FOLLOW, "switch", "fixed"),
        ref("§9.1, §15 item 14", "p.12 §6.0", "§6.0"),
        "Allies in a battle: may join, change sides or leave between rolls (EN) or keep the "
        "sides set when it is declared (PL).",
    ),
    OptionSpec(
        "tax_follows_title",
        FOLLOW,
        (FOLLOW, "en", "pl"),
        ref("§6.1", "FAQ Phase 3", "FAQ"),
        "A tax whose title changed hands: the new holder collects (EN) or only the "
        "taxing family (PL).",
    ),
    OptionSpec(
        "king_needs_title",
        FOLLOW,
        (FOLLOW, "en", "pl"),
        ref("§10.6, §15 item 7", "p.6 §1.8", "§1.8"),
        "A King candidate must hold a Title (EN) or not (PL).",
    ),
    OptionSpec(
        "pope_majority",
        "cast",
        ("cast", "all"),
        ref("§10.5, §15 item 8", "p.6 §1.7.1", "§1.7.1"),
        "The Pope needs more than half of the FOR votes cast, or of all Cardinal votes.",
    ),
    OptionSpec(
        "crown_prince_titles",
        FOLLOW,
        (FOLLOW, "en", "pl"),
        ref("§10.6, §15 item 9"),
        "A Crown Prince who becomes King takes only the crown (PL) or the King's titles too (EN).",
    ),
)

INFO = GameInfo(
    key=GAME_KEY,
    name="Fief – France 1429",
    min_players=3,
    max_players=6,
    rulebook=RULEBOOK,
    components={
        "lord cards": 18,
        "fortune cards": 25,
        "disaster cards": 10,
        "villages (stand-in)": 24,
        "knights per family": 8,
        "men at arms per family": 13,
    },
    options=OPTIONS,
    simulations=(
        *(SimSetup(n, {"data": "stand-in", "max_rounds": 3}) for n in (3, 4, 5, 6)),
        SimSetup(4, {"data": "stand-in", "max_rounds": 3, "holy_relics": True}),
        SimSetup(5, {"data": "stand-in", "max_rounds": 3, "edition": "pl", "holy_relics": True}),
    ),
)


def _kept_rules(data: GameData) -> Any:
    """What a France state holds of its data set: the rules taken from its map and box
    (``FranceState.rules``), as JSON."""
    value = data.value
    assert isinstance(value, FranceData)
    return codec.encode(setup.rules_from(value.map, value.box))


def _declared(spec: DataSpec) -> DataSpec:
    """France's data declaration. Where the core lets a state file name its data set instead of
    repeating it (``DataSpec.in_state``, issue 27's generic calculator), France's is the
    state's ``rules``: ``"rules": {"set": "stand-in", "digest": "sha256:…"}``. Until that core
    part is there, the declaration is the plain one."""
    if "in_state" not in {f.name for f in dataclasses.fields(spec)}:
        return spec
    where: dict[str, Any] = {"in_state": "rules", "kept": _kept_rules}
    return dataclasses.replace(spec, **where)


class France1429(GameBase):
    """Fief: France 1429 (see ``engine.game.Game`` for the contract)."""

    info = INFO
    state_type = FranceState
    move_types = MOVE_TYPES
    flow = FLOW
    data_spec = _declared(SPEC)

    def setup(
        self,
        players: tuple[str, ...],
        options: dict[str, Any] | None = None,
        data: GameData | None = None,
    ) -> FranceState:
        players = tuple(players)
        check_seats(INFO, players)
        opts = resolve_options(INFO, options)
        if data is None or not isinstance(data.value, FranceData):
            raise InputError(
                "setup/data",
                "France 1429's data are loaded by the caller (engine.data.load) and handed in",
                "$.options.data",
            )
        value = data.value
        problems = refusals(value, len(players), opts)
        if problems:
            raise RuleViolation(problems)
        rules = setup.rules_from(value.map, value.box)
        opts = {k: v for k, v in opts.items() if k != "data" or isinstance(v, str)}
        return setup.initial(players, opts, rules)

    def seats(self, state: FranceState) -> tuple[str, ...]:
        return state.seats

    def position(self, state: FranceState) -> core_flow.Position:
        return rounds.position(state)

    def actor(self, move: Any) -> str:
        return actor(move)

    def is_chance(self, move: Any) -> bool:
        return isinstance(move, CHANCE_TYPES)

    def legal_moves(self, state: FranceState) -> list[Any]:
        return legal_moves(state)

    def check(self, state: FranceState, move: Any) -> list[Violation]:
        try:
            apply(state, move)
        except RuleViolation as exc:
            return list(exc.violations)
        return []

    def attempt(self, state: FranceState, move: Any) -> FranceState:
        return apply(state, move)

    def apply_unchecked(self, state: FranceState, move: Any) -> FranceState:
        return apply(state, move)

    def interpret(self, state: FranceState, seen: list[dict[str, Any]]) -> Interpretation:
        """The move(s) a table observation shows (camera or Tabletop Simulator), or why none
        fits (``layout``: what is read and what a person confirms)."""
        return core_interpret(self, TABLE_READING, state, seen)

    def window_moves(self, state: FranceState, seat: str) -> list[Interject]:
        """The Opportunity and Lord opportunity cards ``seat`` may play out of turn now (the
        phone offers them; ``engine.present.window_json``)."""
        return window_moves(state, seat)

    def layout(self, state: FranceState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
        """Where every counter lies on the camera profile's board (``camera/profile.json``)."""
        return camera_layout(state, regions)

    def board_profile(self, data: GameData, usable: Sequence[int]) -> dict[str, Any]:
        """The camera's board profile for the map of the data set ``data`` holds (a group's own
        map gets a board with a square per Village, not the stand-in's)."""
        if not isinstance(data.value, FranceData):
            raise InputError("input/data", "not a France 1429 data set")
        family = seat_words(self.seat_colours(data))  # the seats a table on these data takes
        return map_board_profile(data.value.map, usable, family or None)

    def seat_colours(self, data: GameData) -> tuple[str, ...]:
        """The families' colours the data set names (``colours``, its Family Boards), in order:
        a group's box seats its players by its own colours."""
        if not isinstance(data.value, FranceData):
            raise InputError("input/data", "not a France 1429 data set")
        return tuple(c.name for c in data.value.box.colours if c.name is not None)

    def check_position(self, state: FranceState) -> list[Violation]:
        return check_position(state)

    def view(self, state: FranceState, seat: str | None, lang: str = "en") -> dict[str, Any]:
        return views.view(state, seat, lang)

    def income(self, state: FranceState, seat: str) -> tuple[Line, ...]:
        return tuple(
            Line(x.seat, x.amount, x.code, R["income"], x.params)
            for x in state.last_income
            if x.seat == seat
        )

    def last_lines(self, state: FranceState) -> tuple[tuple[str, Line], ...]:
        return tuple(
            (x.seat, Line(x.seat, x.amount, x.code, R["income"], x.params))
            for x in state.last_lines
        )

    def score(self, state: FranceState) -> tuple[ScoreRow, ...]:
        return views.score(state)

    def is_over(self, state: FranceState) -> bool:
        return state.phase == "over"

    def winners(self, state: FranceState) -> tuple[str, ...]:
        return state.winners

    def sample_chance(self, state: FranceState, rng: random.Random) -> Any:
        return sample_chance(state, rng)

    def reveal(self, state: FranceState, sealed: Reveal) -> FranceState:
        """An election's markers, all turned in one event (§10.2 step 3)."""
        return rounds.after_election(hear_ye.reveal(state, sealed))

    def dice_move(self, state: FranceState, dice: Any, by: str | None = None) -> Any:
        """Dice from the table as the chance move the step waits for (``dice_input``)."""
        return dice_move(state, dice, by)

    def dice_pool(self, state: FranceState) -> list[dict[str, Any]] | None:
        return dice_pool(state)

    def money(self, state: FranceState) -> tuple[int, dict[str, int]]:
        """Each family's Deniers, for the money-by-round plot."""
        return state.round, {f.seat: f.deniers for f in state.families}

    def preview(
        self, state: FranceState, move: Any, seat: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """What a legal option gives ``seat``: its price, Deniers and Victory Points after it."""
        return preview(state, move, seat, lang)

    def names(self, state: FranceState, lang: str = "en") -> dict[str, str]:
        """Lords, Villages, Fiefs and cards by id with their names (engine.game ``names``)."""
        return names(state, lang)

    def is_pass(self, move: Any) -> bool:
        """A seat box's pass button: ending one's turn in a step, or answering no."""
        return isinstance(move, Done) or (isinstance(move, Answer) and not move.yes)

    def label(
        self,
        move: dict[str, Any],
        lang: str = "en",
        public: bool = True,
        names: dict[str, str] | None = None,
    ) -> str | None:
        """A drawn card is named only to its owner (its phone), never in the public log; other
        moves are the catalog's (``names`` fill them there, engine.present)."""
        kind = move.get("kind")
        if public and kind in ("deal", "deal-lord"):
            return message(f"{GAME_KEY}:label/{kind}-hidden", lang, to=move.get("to", ""))
        if public and kind == "give-card":
            return message(f"{GAME_KEY}:label/give-card-hidden", lang, seat=move.get("seat", ""))
        if kind == "answer":
            code = "answer-yes" if move.get("yes") else "answer-no"
            return message(f"{GAME_KEY}:label/{code}", lang, seat=move.get("seat", ""))
        return None


GAME = France1429()

__all__ = ["DISASTERS", "GAME", "INFO", "Refused"]
