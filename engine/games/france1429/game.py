"""The France 1429 game module (``engine.game.Game`` on the declarative flow): options, data,
setup, who acts, legal moves, checks, chance for a simulated table, views and scores.

Each move is checked and applied in one pass (``attempt``): the rules refuse with every reason
and the state is untouched, or return the next state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine import flow as core_flow
from engine.adapter import GameBase, check_seats, resolve_options
from engine.data import GameData
from engine.flow import Reveal
from engine.game import GameInfo, Interpretation, Line, OptionSpec, ScoreRow, SimSetup
from engine.games.france1429 import (
    cards,
    drawing,
    fighting,
    hear_ye,
    movement,
    papacy,
    purchase,
    relics,
    rounds,
    setup,
    views,
    war,
)
from engine.games.france1429.data import SPEC, FranceData, refusals
from engine.games.france1429.moves import (
    CHANCE_TYPES,
    MOVE_TYPES,
    Absolve,
    Annul,
    Answer,
    AskCard,
    AskPass,
    Attack,
    BattleRoll,
    Buy,
    Candidate,
    Capture,
    Cavalcade,
    Deal,
    DealLord,
    Diplomacy,
    DisasterDie,
    Discard,
    Done,
    Draw,
    Excommunicate,
    GiveCard,
    GiveRelic,
    GiveTitle,
    Grant,
    HitDie,
    Interject,
    Join,
    LordDie,
    Losses,
    March,
    Pillage,
    PlaceRelics,
    PlaceStart,
    PlayCard,
    PlayLord,
    Propose,
    RelicDie,
    Resolve,
    Siege,
    TakeRelic,
    UseRelic,
    Vote,
    actor,
)
from engine.games.france1429.refs import R, Refused, refuse
from engine.games.france1429.sources import GAME_KEY, RULEBOOK, ref
from engine.games.france1429.state import DISASTERS, FranceState
from engine.interpret import interpret as core_interpret
from engine.layout import Placed, Rect
from engine.violations import InputError, RuleViolation, Violation

OPTIONS = (
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
        "en",
        ("en", "pl"),
        ref("§12.2, §15 item 11", "p.17 §11.1.1", "§11.1.1"),
        "The Holy Spear's +1 hit: only when its holder attacks (EN) or in every battle (PL).",
    ),
    OptionSpec(
        "relic_transfer",
        "en",
        ("en", "pl"),
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
        "reroll",
        ("reroll", "discard"),
        ref("§11.2, §15 item 5", "p.8 §2.3", "§2.3"),
        "A Disaster of a type already on its Bishopric: roll again (EN) or discard (PL).",
    ),
    OptionSpec(
        "assassination",
        "en",
        ("en", "pl"),
        ref("§11.4, §15 item 6", "p.16 §10.3", "§10.3"),
        "Assassination: the target rolls 1D6 and dies on 1-3 (EN) or always dies (PL).",
    ),
    OptionSpec(
        "tax_follows_title",
        "en",
        ("en", "pl"),
        ref("§6.1", "FAQ Phase 3", "FAQ"),
        "A tax whose title changed hands: the new holder collects (EN) or only the "
        "taxing family (PL).",
    ),
    OptionSpec(
        "king_needs_title",
        "en",
        ("en", "pl"),
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
        "pl",
        ("pl", "en"),
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
    ),
)


class France1429(GameBase):
    """Fief: France 1429 (see ``engine.game.Game`` for the contract)."""

    info = INFO
    state_type = FranceState
    move_types = MOVE_TYPES
    flow = rounds.FLOW
    data_spec = SPEC

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
        from engine.games.france1429.layout import TABLE_READING

        return core_interpret(self, TABLE_READING, state, seen)

    def window_moves(self, state: FranceState, seat: str) -> list[Interject]:
        """The Opportunity and Lord opportunity cards ``seat`` may play out of turn now (the
        phone offers them; ``engine.present.window_json``)."""
        return window_moves(state, seat)

    def layout(self, state: FranceState, regions: Mapping[str, Rect]) -> tuple[Placed, ...]:
        """Where every counter lies on the camera profile's board (``camera/profile.json``)."""
        from engine.games.france1429.layout import layout

        return layout(state, regions)

    def check_position(self, state: FranceState) -> list[Violation]:
        from engine.games.france1429.position import check_position

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
        return hear_ye.reveal(state, sealed)

    def dice_move(self, state: FranceState, dice: Any, by: str | None = None) -> Any:
        """Dice from the table as the chance move the step waits for (``dice_input``)."""
        from engine.games.france1429.dice_input import dice_move

        return dice_move(state, dice, by)

    def dice_pool(self, state: FranceState) -> list[dict[str, Any]] | None:
        from engine.games.france1429.dice_input import dice_pool

        return dice_pool(state)

    def money(self, state: FranceState) -> tuple[int, dict[str, int]]:
        """Each family's Deniers, for the money-by-round plot."""
        return state.round, {f.seat: f.deniers for f in state.families}

    def preview(
        self, state: FranceState, move: Any, seat: str, lang: str = "en"
    ) -> dict[str, Any] | None:
        """What a legal option gives ``seat``: its price, Deniers and Victory Points after it."""
        from engine.games.france1429.preview import preview

        return preview(state, move, seat, lang)

    def names(self, state: FranceState, lang: str = "en") -> dict[str, str]:
        """Lords, Villages, Fiefs and cards by id with their names (engine.game ``names``)."""
        from engine.games.france1429.preview import names

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
        from engine.i18n import message

        kind = move.get("kind")
        if public and kind in ("deal", "deal-lord"):
            return message(f"{GAME_KEY}:label/{kind}-hidden", lang, to=move.get("to", ""))
        if public and kind == "give-card":
            return message(f"{GAME_KEY}:label/give-card-hidden", lang, seat=move.get("seat", ""))
        if kind == "answer":
            code = "answer-yes" if move.get("yes") else "answer-no"
            return message(f"{GAME_KEY}:label/{code}", lang, seat=move.get("seat", ""))
        return None


# --- the rules' dispatch -----------------------------------------------------------------------


CARD_PHASES = ("play", "purchase", "movement", "battles")
ANSWERED = ("consent", "passage", "annul", "diplomacy", "stop-uprising", "cancel", "grant",
            "relic", "teeth")  # fmt: skip


def apply(state: FranceState, move: Any) -> FranceState:
    """The next state, or ``Refused`` with the reason (state untouched); after a move in
    which Lords died, the Teeth of Saint Géronce's family is asked (FR-34)."""
    asking = bool(state.pending) and state.pending[-1].kind == "teeth"
    if state.fallen and not asking:
        state = replace(state, fallen=())
    after = _apply(state, move)
    if after.fallen and not (after.pending and after.pending[-1].kind == "teeth"):
        after = relics.ask_teeth(after)
    return after


def _apply(state: FranceState, move: Any) -> FranceState:
    if state.last_lines:
        state = replace(state, last_lines=())  # itemised lines belong to the move that made them
    pending = state.pending[-1] if state.pending else None
    if pending is not None:
        if isinstance(move, Deal) and pending.kind == "deal":
            return drawing.deal(state, move)
        if isinstance(move, LordDie) and pending.kind in ("plague-die", "assassination"):
            return drawing.lord_die(state, move)
        if isinstance(move, LordDie) and pending.kind == "stop-die":
            return cards.stop_die(state, move.lord, move.value)
        if isinstance(move, RelicDie) and pending.kind == "relic-die":
            return relics.relic_die(state, move)
        if isinstance(move, HitDie) and pending.kind == "uprising":
            if move.value not in state.rules.battle_faces:
                raise refuse("die/face", "opportunity", value=move.value)
            return cards.resolve_uprising(state, move.value)
        if isinstance(move, PlayCard | Answer) and pending.kind == "rally":
            if move.seat != pending.seat or (isinstance(move, Answer) and move.yes):
                raise refuse("answer/not-asked", "permission", seat=move.seat)
            if isinstance(move, PlayCard):
                return cards.rally_play(state, move)
            return cards.rally_pass(state)
        if isinstance(move, GiveCard | Answer) and pending.kind == "card":
            if move.seat != pending.seat:
                raise refuse("answer/not-asked", "permission", seat=move.seat)
            if isinstance(move, GiveCard):
                return papacy.give_card(state, move)
            return rounds.pop(state)
        if isinstance(move, Answer) and pending.kind in ANSWERED:
            if move.seat != pending.seat:
                raise refuse("answer/not-asked", "permission", seat=move.seat)
            if pending.kind == "consent":
                return fighting.answer_proposal(state, move)
            if pending.kind == "annul":
                return papacy.answer_annulment(state, move)
            if pending.kind == "diplomacy":
                return papacy.answer_diplomacy(state, move)
            if pending.kind == "grant":
                return purchase.answer_grant(state, move.yes)
            if pending.kind == "relic":
                return relics.answer_give(state, move.yes)
            if pending.kind == "teeth":
                return relics.answer_teeth(state, move.yes)
            if pending.kind == "cancel":
                return cards.answer_cancel(state, move.seat, move.yes)
            if pending.kind == "stop-uprising":
                return cards.answer_stop(state, move.seat, move.yes)
            return movement.answer_passage(state, move)
        raise refuse("round/waiting", "round", waiting=pending.kind)
    if isinstance(move, Interject):
        if not out_of_turn(state, move.seat):
            raise refuse("round/not-now", "round", kind=type(move).kind)
        return cards.interject(state, move)
    if state.battle is not None:
        return _battle(state, move)
    if state.election is not None:
        return _election(state, move)
    phase = state.phase
    if isinstance(move, DealLord) and phase == "deal-lord":
        return setup.deal_lord(state, move)
    if isinstance(move, PlaceRelics) and phase == "relics":
        return relics.place(state, move)
    if isinstance(move, DisasterDie) and phase == "disasters":
        return drawing.disaster_die(state, move)
    if isinstance(move, CHANCE_TYPES) or actor(move) != state.current():
        raise refuse("round/not-now", "round", kind=type(move).kind)
    if isinstance(move, PlaceStart) and phase == "place":
        return setup.place_start(state, move)
    if isinstance(move, Done) and phase == "movement" and movement.must_ride_on(state, move.seat):
        raise refuse("cavalcade/ride-on", "cavalcade", lord="")
    if isinstance(move, Done) and phase in rounds.SEAT_PHASES and phase != "place":
        return rounds.end_turn(state)
    if isinstance(move, Propose) and phase == "marriage":
        return fighting.propose(state, move)
    if isinstance(move, Discard) and phase == "draw":
        return drawing.discard(state, move)
    if isinstance(move, Draw) and phase == "draw":
        return drawing.draw(state, move)
    if isinstance(move, PlayLord) and phase == "play":
        return cards.play_lord(state, move)
    if isinstance(move, PlayCard) and phase in ("play", "purchase", "movement", "battles"):
        return cards.play(state, move)
    if isinstance(move, Buy) and phase == "purchase":
        return purchase.buy(state, move)
    if isinstance(move, March) and phase == "movement":
        return movement.move(state, move)
    if isinstance(move, Cavalcade) and phase == "movement":
        return movement.cavalcade(state, move)
    if isinstance(move, AskPass) and phase == "movement":
        return movement.ask(state, move)
    if isinstance(move, TakeRelic) and phase in CARD_PHASES:
        return relics.take(state, move)
    if isinstance(move, GiveRelic) and phase in CARD_PHASES:
        return relics.give(state, move)
    if isinstance(move, UseRelic) and phase == "play":
        return relics.use(state, move)
    if isinstance(move, Diplomacy) and phase in CARD_PHASES:
        return papacy.diplomacy(state, move)
    if isinstance(move, AskCard) and phase in CARD_PHASES:
        return papacy.ask_card(state, move)
    if isinstance(move, Excommunicate | Absolve | Annul) and phase in CARD_PHASES:
        if isinstance(move, Excommunicate):
            return papacy.excommunicate(state, move)
        if isinstance(move, Absolve):
            return papacy.absolve(state, move)
        return papacy.annul(state, move)
    if isinstance(move, Attack) and phase == "battles":
        return war.attack(state, move)
    if isinstance(move, Capture) and phase == "battles":
        return fighting.capture(state, move)
    if isinstance(move, Siege) and phase == "battles":
        return fighting.siege(state, move)
    if isinstance(move, Grant) and phase == "purchase":
        return purchase.grant(state, move)
    if isinstance(move, GiveTitle) and phase == "purchase":
        return fighting.give_title(state, move)
    if isinstance(move, Pillage) and phase == "pillage":
        return fighting.pillage(state, move)
    raise refuse("round/not-now", "round", kind=type(move).kind)


def out_of_turn(state: FranceState, seat: str) -> bool:
    """``seat`` is not the one the game waits for and the opportunity window is open to it."""
    pos = rounds.position(state)
    return any(seat in w.seats for w in pos.windows) and seat not in pos.actors


def window_moves(state: FranceState, seat: str) -> list[Interject]:
    """The Opportunity and Lord opportunity cards ``seat`` may play out of turn now (FR-10);
    not among ``legal_moves``, which are the moves of the seats the game waits for."""
    return cards.window_moves(state, seat, rounds.position(state).actors)


def _battle(state: FranceState, move: Any) -> FranceState:
    """A move inside a battle: the table's roll, an owner's losses, a decision."""
    b = state.battle
    assert b is not None
    if isinstance(move, Join) and b.stage == "join":
        return war.join(state, move)
    if isinstance(move, BattleRoll) and b.stage == "roll":
        return war.roll(state, move)
    if isinstance(move, Losses) and b.stage == "losses":
        return war.take_losses(state, move)
    if isinstance(move, Resolve) and b.stage in ("attacker", "defender"):
        return war.resolve(state, move)
    deciding = b.decider(b.attacker if b.stage == "attacker" else b.defender)
    if isinstance(move, PlayCard) and b.stage in ("attacker", "defender"):
        if move.seat != deciding:
            raise refuse("battle/not-your-decision", "battle", seat=move.seat)
        return cards.play(state, move)
    raise refuse("round/not-now", "round", kind=type(move).kind)


def _election(state: FranceState, move: Any) -> FranceState:
    """A move inside an election: a candidacy (or a pass) in turn, or a sealed vote."""
    el = state.election
    assert el is not None
    if el.stage == "candidates":
        if actor(move) != state.order()[el.turn]:
            raise refuse("round/not-now", "round", kind=type(move).kind)
        if isinstance(move, Candidate):
            return hear_ye.declare(state, move)
        if isinstance(move, Done):
            return hear_ye.pass_candidacy(state)
    if isinstance(move, Vote):
        return hear_ye.check_vote(state, move)
    raise refuse("round/not-now", "round", kind=type(move).kind)


def legal_moves(state: FranceState) -> list[Any]:
    """Every legal move of the seat the game waits for (none while the table must report)."""
    if state.phase == "over":
        return []
    if state.pending:
        top = state.pending[-1]
        if top.kind == "cancel":
            return [Answer(top.seat, yes) for yes in cards.cancel_answers(state)]
        if top.kind == "card":
            return list(papacy.card_answers(state))
        if top.kind == "rally":
            return list(cards.rally_moves(state))
        if top.kind == "relic":
            return [Answer(top.seat, yes) for yes in relics.give_answers(state)]
        if top.kind in ANSWERED:
            return [Answer(top.seat, True), Answer(top.seat, False)]
        return []
    if state.battle is not None:
        b = state.battle
        if b.stage == "join":
            return list(war.join_moves(state))
        if b.stage == "losses":
            return list(war.options(state, b.decider(b.owing[0])))
        if b.stage == "roll":
            return []
        deciding = b.decider(b.attacker if b.stage == "attacker" else b.defender)
        plays = [m for m in cards.card_moves(state, deciding) if isinstance(m, PlayCard)]
        return [*war.resolve_moves(state), *plays]
    if state.election is not None:
        el = state.election
        if el.stage == "candidates":
            seat = state.order()[el.turn]
            return [*hear_ye.candidate_moves(state, seat), Done(seat)]
        sealed = set(state.sealed.seats())
        return [v for s in hear_ye.voters(state) if s not in sealed
                for v in hear_ye.vote_moves(state, s)]  # fmt: skip
    phase = state.phase
    if phase in ("deal-lord", "disasters", "relics"):
        return []
    seat = state.current()
    done: list[Any] = [Done(seat)]
    if phase == "place":
        return [PlaceStart(seat, v) for v in setup.placeable(state)]
    if phase == "marriage":
        return [*fighting.propose_moves(state, seat), *done]
    if phase == "draw":
        fam = state.family(seat)
        out: list[Any] = []
        if not fam.drawn:
            out += [Discard(seat, c) for c in dict.fromkeys(fam.hand)]
        out += [
            Draw(seat, d) for d in ("lords", "fortune") if drawing.can_draw(state, seat, d) is None
        ]
        return [*out, *done]
    if phase in CARD_PHASES:
        done = [
            *papacy.pope_moves(state, seat),
            *papacy.diplomacy_moves(state, seat),
            *papacy.ask_card_moves(state, seat),
            *relics.relic_moves(state, seat),
            *done,
        ]
    if phase == "play":
        return [*cards.card_moves(state, seat), *done]
    if phase == "purchase":
        buys = [
            *purchase.buy_moves(state, seat),
            *fighting.give_moves(state, seat),
            *purchase.grant_moves(state, seat),
        ]
        return [*buys, *cards.card_moves(state, seat), *done]
    if phase == "movement":
        rides = [*movement.move_moves(state, seat), *movement.cavalcade_moves(state, seat)]
        if movement.must_ride_on(state, seat):
            done = []
        return [*rides, *cards.card_moves(state, seat), *done]
    if phase == "battles":
        fights = [*war.attack_moves(state, seat), *fighting.battle_moves(state, seat),
                  *fighting.siege_moves(state, seat)]  # fmt: skip
        return [*fights, *cards.card_moves(state, seat), *done]
    if phase == "pillage":
        return [*fighting.pillage_moves(state, seat), *done]
    return []


def _weighted(counts: dict[str, int], rng: random.Random) -> str:
    pool = [k for k, v in sorted(counts.items()) for _ in range(v)]
    return pool[rng.randrange(len(pool))]


def sample_chance(state: FranceState, rng: random.Random) -> Any:
    """What a simulated table reports next: a card drawn, a die rolled (None: a seat acts)."""
    if state.phase == "over":
        return None
    if state.pending:
        top = state.pending[-1]
        if top.kind == "deal":
            return Deal(top.by, _weighted(drawing.deck_of(state, top.deck), rng))
        if top.kind in ("plague-die", "assassination"):
            return LordDie(top.queue[0], rng.randint(1, 6))
        if top.kind == "stop-die":
            return LordDie(top.lord, rng.randint(1, 6))
        if top.kind == "relic-die":
            return RelicDie(rng.randint(1, 6))
        if top.kind == "uprising":
            faces = state.rules.battle_faces
            return HitDie(faces[rng.randrange(len(faces))])
        return None
    if state.battle is not None and state.battle.stage == "roll":
        b = state.battle
        faces = state.rules.battle_faces
        a = tuple(faces[rng.randrange(len(faces))] for _ in range(war.dice(state, b, b.attacker)))
        d = tuple(faces[rng.randrange(len(faces))] for _ in range(war.dice(state, b, b.defender)))
        return BattleRoll(a, d)
    if state.phase == "deal-lord":
        lords = {k: v for k, v in state.lord_deck.items() if state.rules.lord(k) is not None}
        return DealLord(state.current(), _weighted(lords, rng))
    if state.phase == "disasters":
        return DisasterDie(rng.randint(1, 6))
    if state.phase == "relics":
        order = list(state.rules.relics)
        rng.shuffle(order)
        return PlaceRelics(tuple(order))
    return None


GAME = France1429()

__all__ = ["DISASTERS", "GAME", "INFO", "Refused"]
