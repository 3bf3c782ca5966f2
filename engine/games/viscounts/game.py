"""The Viscounts game module (``engine.game.Game`` on the declarative flow): options, data,
setup, who acts, legal moves, checks, chance for a simulated table, views and scores.

Registered as ``herald.games`` entry point ``viscounts``. The solo AI (digest §8) is not built,
so the game seats 2-4 players (VW-19); the camera and Tabletop Simulator profiles are still to
come (docs/viscounts-plan.md work packages 6 and 8).
"""

from __future__ import annotations

import random
from typing import Any

from engine.adapter import GameBase, check_seats, resolve_options
from engine.data import GameData
from engine.flow import Position, Step, SubGame, TurnFlow
from engine.game import GameInfo, Line, OptionSpec, Prompt, ScoreRow, SimSetup
from engine.games.viscounts import scoring, turn, views
from engine.games.viscounts.data import SPEC, refusals
from engine.games.viscounts.data_types import ViscountsData
from engine.games.viscounts.moves import CHANCE_TYPES, MOVE_TYPES
from engine.games.viscounts.refs import R, Refused
from engine.games.viscounts.sources import GAME_KEY, RULEBOOK, ref
from engine.games.viscounts.state import VState
from engine.violations import InputError, RuleViolation, Violation

OPTIONS = (
    OptionSpec("data", "stand-in", (), ref("§11 item 1"),
               "The printed contents: 'stand-in' (complete, invented), 'box' (what the seed "
               "gives; refused while values are missing), or a file."),
    OptionSpec("max_rounds", 0, (), ref("§1"),
               "Stop after this many rounds with the final scoring (0: play until Poverty or "
               "Prosperity ends the game); for simulated tables."),
    OptionSpec("skip_action", True, (True, False), ref("§4 phase 3, §11 item 10"),
               "Whether a player may take no main action (VW-7; the seed does not say)."),
)  # fmt: skip

INFO = GameInfo(
    key=GAME_KEY,
    name="Viscounts of the West Kingdom",
    min_players=2,
    max_players=4,
    rulebook=RULEBOOK,
    components={"townsfolk": 110, "manuscripts": 35, "workers per colour": 20},
    options=OPTIONS,
    # random play rarely draws Debts or Deeds: a simulated table caps its games at 8 rounds
    simulations=tuple(SimSetup(n, {"data": "stand-in", "max_rounds": 8}) for n in (2, 3, 4)),
)

FLOW = TurnFlow(
    steps=(
        Step("lay", ("lay",), "table"),
        Step("pairs", ("pick-pair",)),
        Step("play", ("play",)),
        Step("move", ("travel",)),
        Step("action", ("trade", "build", "workers", "transcribe", "skip")),
        Step("hire", ("hire", "pass")),
        Step("over", ()),
    ),
    subgames=(
        SubGame("choice", (Step("answer", ("choose",)),)),
        SubGame("reveal", (Step("card", ("reveal",), "table"),)),
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
        check_seats(INFO, players)
        opts = resolve_options(INFO, options)
        if data is None or not isinstance(data.value, ViscountsData):
            raise InputError("setup/data", "Viscounts' data are loaded by the caller "
                             "(engine.data.load) and handed in", "$.options.data")  # fmt: skip
        problems = refusals(data.value, len(players))
        if problems:
            raise RuleViolation(problems)
        opts = {k: v for k, v in opts.items() if k != "data" or isinstance(v, str)}
        return turn.initial(players, opts, data.value)

    def seats(self, state: VState) -> tuple[str, ...]:
        return state.seats

    def position(self, state: VState) -> Position:
        who = turn.actor(state)
        if who is None:
            return Position("over", ())
        if state.ask is not None:
            if state.ask.asks == "reveal":
                return Position("card", ("table",), ("reveal",))
            return Position("answer", (who,), ("choice",))
        step = (
            state.phase
            if state.phase in ("lay", "pairs", "play", "move", "action", "hire")
            else "play"
        )
        return Position(step, (who,))

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

    def is_pass(self, move: Any) -> bool:
        """A seat box's pass button: no Hire, no main action, or declining what is asked."""
        from engine.games.viscounts.moves import Choose, Pass, Skip

        if isinstance(move, Choose):
            return move.option in ("decline", "keep")
        return isinstance(move, Pass | Skip)

    def names(self, state: VState) -> dict[str, str]:
        """Every component id with the words a player reads (engine.game ``names``)."""
        from engine.games.viscounts.labels import names

        return names(state)

    def label(
        self,
        move: dict[str, Any],
        lang: str = "en",
        public: bool = True,
        names: dict[str, str] | None = None,
    ) -> str | None:
        from engine.games.viscounts.labels import label

        return label(move, lang, public, names)

    def preview(
        self, state: VState, move: Any, seat: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """What a legal option gives ``seat`` (engine.preview)."""
        from engine.games.viscounts.labels import preview

        return preview(state, move, seat, lang)

    def previews(
        self, state: VState, moves: list[Any], seat: str, lang: str = "en"
    ) -> list[dict[str, Any] | None]:
        """Every option of a prompt previewed at once (a Build prompt has dozens)."""
        from engine.games.viscounts.labels import previews

        return previews(state, moves, seat, lang)


GAME = Viscounts()

__all__ = ["GAME", "INFO", "Refused"]
