"""The presenter: committed events in, what each client sees out.

After boardgame.io's ``filter-player-view.ts`` beside its ``master.ts`` (STYLE.md 8a): the referee
(bridge/referee.py) decides and commits; this module turns what it committed into payloads. It
keeps the displays' series (the log with its undo marks, money by round, the score after each
move that changed it) and renders, per state, the public view, each seat's view, itemised income
and prompts in any shipped language, and the JSON Patch of the view against the state before.

Rendering is lazy: an ``Update`` is cheap to make and computes a payload only when a transport
reads it, once per language, so a state nobody reads in Polish is never rendered in Polish and a
table with no phone connected never renders a seat's view (issue 28's fan-out aim). The pieces
that change after the fact (the log entries an undo marks) are copied when the update is made.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from bridge import autopass, json_diff
from bridge.labels import move_label, prompt_json
from bridge.store import StoredEvent
from engine import log, present
from engine.game import HOST, Game
from engine.game import dice_pool as game_dice_pool
from engine.game import money as game_money
from engine.i18n import LANGUAGES, message, violation_text
from engine.refs import readable
from engine.violations import Violation

LOG_TAIL = 40
"""How many log entries the table display receives with each state."""


# --- wording: a refusal's sentences in a reader's language, in one place ---------------------


def worded(reply: dict[str, Any], lang: str) -> dict[str, Any]:
    """``reply`` (an error or violation payload) with its sentences in ``lang``: a Polish phone
    at a table whose referee speaks English reads its refusals in Polish. Codes and data stay;
    a sentence that cannot be rebuilt from them stays as it was."""
    try:
        if reply.get("kind") == "error":
            text = message(str(reply["code"]), lang, **dict(reply.get("params") or {}))
            return {**reply, "message": text}
        if reply.get("violations"):
            found = [{**v, "message": _violation_text(v, lang)} for v in reply["violations"]]
            return {**reply, "message": found[0]["message"], "violations": found}
    except (KeyError, TypeError, ValueError):
        pass
    return reply


def _violation_text(violation: dict[str, Any], lang: str) -> str:
    code, ref, params, game = (violation[k] for k in ("code", "ref", "params", "game"))
    return violation_text(Violation(code, ref, dict(params), game), lang)


def violation_langs(violations: tuple[dict[str, Any], ...]) -> dict[str, dict[str, Any]]:
    """A violation payload's sentences in every shipped language (``Notice.langs``): each
    violation's message rebuilt from its code and parameters, the first one as ``message``."""
    langs: dict[str, dict[str, Any]] = {}
    for lang in LANGUAGES:
        got = worded({"kind": "violation", "violations": list(violations)}, lang)
        if got.get("message") is not None:
            langs[lang] = {"message": got["message"], "violations": got["violations"]}
    return langs


@dataclass(frozen=True)
class Notice:
    """A message for a room rather than a state change: a violation observed, a die rolled, a
    table source asking what it could not tell apart (``question``, bridge/questions.py)."""

    event: Literal["violation", "roll", "confirm", "question"]
    payload: dict[str, Any]
    seat: str | None = None
    langs: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    """The payload's sentences in each shipped language (``lang -> fields to replace``): a
    Polish phone at a table whose referee speaks English reads the pushed violation or
    confirm request in Polish. A language missing here reads ``payload`` as it is."""

    def in_lang(self, lang: str) -> dict[str, Any]:
        """The payload as a client reading ``lang`` receives it."""
        other = self.langs.get(lang)
        return {**self.payload, **other} if other else self.payload


# --- one state, rendered on demand -----------------------------------------------------------


def income_lines(game: Game[Any, Any], state: Any, seats: tuple[str, ...], lang: str) -> Any:
    """Each seat's itemised income as the pages show it (amount, sentence, rule reference)."""
    return {
        seat: [
            {
                "amount": line.amount,
                "text": game.describe(line, lang),
                "ref": line.ref,
                "where": readable(line.ref),
            }
            for line in game.income(state, seat)
        ]
        for seat in seats
    }


class _Render:
    """The payloads of one state, each built on first use per language and kept.

    Several threads may read one state (the web transport under the referee's lock, the devices'
    worker after it), so building is serialised; what is built is never changed afterwards.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        session: log.Session,
        seats: tuple[str, ...],
        session_id: int,
        auto_on_top: int,
    ) -> None:
        self.game = game
        self.session = session
        self.seats = seats
        self.session_id = session_id
        self.auto_on_top = auto_on_top
        self._lock = threading.RLock()
        self._public: dict[str, dict[str, Any]] = {}
        self._seat_views: dict[str, dict[str | None, dict[str, Any]]] = {}
        self._income: dict[str, dict[str, Any]] = {}
        self._prompts: dict[str, dict[str, dict[str, Any]]] = {}

    def public(self, lang: str) -> dict[str, Any]:
        """The table display's view (``engine.present``), alone: no seat's view is built."""
        with self._lock:
            if lang not in self._public:
                held = self._seat_views.get(lang)
                if held is not None:
                    self._public[lang] = held[None]
                else:
                    self._public[lang] = present.view(self.game, self.session.state, None, lang)
            return self._public[lang]

    def seat_views(self, lang: str) -> dict[str | None, dict[str, Any]]:
        """Every seat's view at once (``present.views`` shares the parts every seat has)."""
        with self._lock:
            if lang not in self._seat_views:
                self._seat_views[lang] = present.views(
                    self.game, self.session.state, (None, *self.seats), lang
                )
            return self._seat_views[lang]

    def income(self, lang: str) -> dict[str, Any]:
        with self._lock:
            if lang not in self._income:
                self._income[lang] = income_lines(self.game, self.session.state, self.seats, lang)
            return self._income[lang]

    def prompts(self, lang: str, state_id: int) -> dict[str, dict[str, Any]]:
        """Each seat's ``prompt`` payload: its prompts, the moves it may make out of turn, and
        whether it may take back its last move (or the passes played for others after it)."""
        with self._lock:
            if lang in self._prompts:
                return self._prompts[lang]
            game, session = self.game, self.session
            state = session.state
            prompts = game.prompts(state)
            out: dict[str, dict[str, Any]] = {}
            for seat in self.seats:
                mine = [prompt_json(game, p, lang, state) for p in prompts if p.seat == seat]
                out[seat] = {
                    "state_id": state_id,
                    "session": self.session_id,
                    "seat": seat,
                    "your_turn": bool(mine),
                    "prompts": mine,
                    "window_moves": present.window_json(game, state, seat, lang),
                    "can_undo": log.can_undo(session, seat)
                    or autopass.undo_plan(session, seat, self.auto_on_top) is not None,
                }
            self._prompts[lang] = out
            return out


class Update:
    """Everything the transports push after one accepted event (or on request, a snapshot).

    ``table`` is the full ``state`` payload (public view, log tail, coin series: what a
    connecting client gets), ``seats`` the ``seat_state`` payloads and ``prompts`` the ``prompt``
    payloads, each keyed by seat. ``change`` is the ``state`` payload broadcast to the table room
    after the event: the same fields except that the log and the coin series are replaced by what
    this event changed in them (``log_added``, ``log_undone``, ``coins_changed``), ``income`` by
    the seats whose itemised income changed (``income_changed``) and the view by its JSON Patch
    against the state before (``view_patch``), because resending the same history to every
    client on every move was half of each message (bench/fanout.py).

    Each payload is built when first read, in this update's language (``in_lang`` gives the same
    update in another one; only the sentences differ, the log's labels stay in the table's
    language).
    """

    def __init__(
        self,
        state_id: int,
        lang: str,
        base: dict[str, Any],
        now: _Render,
        before: _Render | None,
        history: dict[str, Any],
        delta: dict[str, Any] | None,
        home: str | None = None,
    ) -> None:
        self.state_id = state_id
        self.lang = lang
        self.home = home or lang
        """The table's language: the income of ``table`` and ``change`` stays in it."""
        self._base = base
        self._now = now
        self._before = before
        self._history = history
        self._delta = delta
        """What this event changed in the series; None: ``change`` is the whole ``table``."""
        self._langs: dict[str, Update] = {}

    def in_lang(self, lang: str) -> Update:
        """This update as a client reading ``lang`` receives it."""
        if lang == self.lang or lang not in LANGUAGES:
            return self
        if lang not in self._langs:  # kept: each payload is then built once per language
            self._langs[lang] = Update(self.state_id, lang, self._base, self._now, self._before,
                                       self._history, self._delta, self.home)  # fmt: skip
        return self._langs[lang]

    @cached_property
    def table(self) -> dict[str, Any]:
        history = self._history
        return {
            **self._base,
            "view": self._now.public(self.lang),
            "snapshot": True,
            "income": self._now.income(self.home),
            "log": [dict(e) for e in history["log"]],
            "coins_by_round": {r: dict(c) for r, c in history["coins"].items()},
            "score_by_move": {m: dict(c) for m, c in history["scores"].items()},
        }

    @cached_property
    def change(self) -> dict[str, Any]:
        delta = self._delta
        if delta is None:
            return self.table
        income = self._now.income(self.home)
        before = self._before.income(self.home) if self._before is not None else {}
        return {
            **self._base,
            **self._view_change(),
            "snapshot": False,
            "income_changed": {s: v for s, v in income.items() if before.get(s) != v},
            **delta,
        }

    def _view_change(self) -> dict[str, Any]:
        """The public view as a change sends it: an RFC 6902 JSON Patch (``view_patch``) against
        the view of the state just before, else (the first state this process holds) the whole
        ``view``. A client that missed a state cannot apply the patch and asks for a snapshot
        (``sync``)."""
        view = self._now.public(self.lang)
        if self._before is None:
            return {"view": view}
        return {"view_patch": json_diff.diff(self._before.public(self.lang), view)}

    @cached_property
    def seats(self) -> dict[str, dict[str, Any]]:
        shown = self._now.seat_views(self.lang)
        income = self._now.income(self.lang)
        return {
            seat: {**self._base, "seat": seat, "view": shown[seat], "income": income[seat]}
            for seat in self._now.seats
        }

    @property
    def prompts(self) -> dict[str, dict[str, Any]]:
        return self._now.prompts(self.lang, self.state_id)


# --- the displays' series and the updates of one table ---------------------------------------


def fresh_history() -> dict[str, Any]:
    """The display series of a new session, as a snapshot keeps them: the log, coins by round,
    the score after each move that changed it, and the seats' names."""
    return {"log": [], "coins": {}, "scores": {}, "names": {}}


@dataclass
class _Changes:
    """What accepted events changed in the series since the last update was made."""

    added: list[dict[str, Any]] = field(default_factory=list)
    undone: list[int | None] = field(default_factory=list)
    rounds: set[str] = field(default_factory=set)
    scores: set[str] = field(default_factory=set)


class Presenter:
    """One table's displays: the series the referee's events feed, and the updates it publishes.

    Not thread-safe on its own: the referee calls it with its lock held.
    """

    def __init__(self, game: Game[Any, Any], lang: str, history: dict[str, Any] | None = None):
        self.game = game
        self.lang = lang
        self.history: dict[str, Any] = {**fresh_history(), **(history or {})}
        self.history.pop("undo", None)  # a snapshot of before issue 28 kept a second undo chain
        self._changed = _Changes()
        self._last: _Render | None = None

    def reset(self, game: Game[Any, Any], names: dict[str, str]) -> None:
        """A new session at this table: empty series, the seats' names kept."""
        self.game = game
        self.history = {**fresh_history(), "names": dict(names)}
        self._changed = _Changes()
        self._last = None

    @property
    def names(self) -> dict[str, str]:
        return dict(self.history["names"])

    def record(
        self, session: log.Session, event: log.Event, stored: StoredEvent, frame: bool = False
    ) -> None:
        """Add one committed event to the series (``session`` is the session after it).

        An undo marks the move the engine's undo chain took back: the newest move of the log
        that is not undone (a chance move ends the chain, so that move is always after it).
        ``frame``: the camera's picture of the event is in the store (the log shows a link).
        """
        entries: list[dict[str, Any]] = self.history["log"]
        entry: dict[str, Any] = {"seq": stored.seq, "time": stored.time, "source": stored.source,
                                 "undone": False}  # fmt: skip
        if frame:
            entry["frame"] = True
        if event.kind == "undo":
            by = event.by or HOST
            target, taken = None, {}
            for old in reversed(entries):
                if "undoes" not in old and not old["undone"]:
                    old["undone"] = True
                    target, taken = old["seq"], dict(old.get("labels") or {})
                    break
            entry.update(kind="undo", actor=by, undoes=target)
            # the move taken back, in every shipped language: the pages name it ("you took
            # back: red: Lord to the Mill"), not just that something was undone
            entry["undoes_labels"] = taken
            entry["label"] = message("label/undo", self.lang, by=by, seq=target)
            entry["labels"] = {lang: message("label/undo", lang, by=by, seq=target)
                               for lang in LANGUAGES}  # fmt: skip
            self._changed.undone.append(target)
        else:
            move = stored.payload["move"]  # encoded once, by the store
            entry.update(kind=move.get("kind", "move"), actor=self.game.actor(event.move))
            key, state = self.game.info.key, session.state
            entry["label"] = move_label(key, move, self.lang, state=state)
            # every shipped language's label: a page reading another language shows its own
            entry["labels"] = {lang: move_label(key, move, lang, state=state) for lang in LANGUAGES}
        entries.append(entry)
        self._changed.added.append(entry)
        state = session.state
        found = game_money(self.game, state)
        if found is not None:
            rnd, coins = found
            self.history["coins"][str(rnd)] = dict(coins)
            self._changed.rounds.add(str(rnd))
        # the game's own score measure after each move that changed it, for the plot
        totals = {r.seat: r.total for r in self.game.score(state)}
        series: dict[str, dict[str, int]] = self.history["scores"]
        if not series or series[max(series, key=int)] != totals:
            series[str(stored.seq)] = totals
            self._changed.scores.add(str(stored.seq))

    def auto_on_top(self, session: log.Session) -> int:
        """How many of the newest undoable moves the referee played itself (bridge/autopass.py):
        the engine's undo chain holds the newest moves of the log that are not undone."""
        depth, frame = 0, session.undo_chain
        while frame is not None:
            depth, frame = depth + 1, frame.parent
        count = 0
        for entry in reversed(self.history["log"]):
            if count == depth:
                break
            if "undoes" in entry or entry["undone"]:
                continue
            if entry["source"] != autopass.SOURCE:
                break
            count += 1
        return count

    def update(
        self,
        session: log.Session,
        row_id: int,
        table_id: str,
        seats: tuple[str, ...],
        accepted_at: float,
        auto_pass: bool,
        snapshot: bool = False,
    ) -> Update:
        """The update of ``session``'s current state; its ``change`` carries what changed since
        the last update made. ``snapshot`` makes ``change`` the full payload (a new session:
        clients must reset)."""
        game, state = self.game, session.state
        sid = session.state_id
        base = {
            "state_id": sid,
            "game": game.info.key,
            "table_id": table_id,
            "session": row_id,
            "seats": list(seats),
            "to_act": list(game.to_act(state)),
            "over": bool(game.is_over(state)),
            # the dice a step waits for (wire dice without values): a phone may type them in
            "dice_pool": game_dice_pool(game, state),
            "accepted_at": accepted_at,
            "names": dict(self.history["names"]),
            "auto_pass": auto_pass,
        }
        history = self.history
        kept = {
            "log": [dict(e) for e in history["log"][-LOG_TAIL:]],
            "coins": dict(history["coins"]),  # each round's dict is replaced, never changed
            "scores": dict(history["scores"]),
        }
        changed, self._changed = self._changed, _Changes()
        delta = None
        if not snapshot:
            delta = {
                "log_added": [dict(e) for e in changed.added[-LOG_TAIL:]],
                "log_undone": [s for s in changed.undone if s is not None],
                "coins_changed": {r: dict(history["coins"][r]) for r in sorted(changed.rounds)},
                "score_changed": {
                    m: dict(history["scores"][m]) for m in sorted(changed.scores, key=int)
                },
            }
        now = _Render(game, session, seats, row_id, self.auto_on_top(session))
        before = None if snapshot else self._last
        self._last = now
        return Update(sid, self.lang, base, now, before, kept, delta)


__all__ = [
    "LOG_TAIL",
    "Notice",
    "Presenter",
    "Update",
    "fresh_history",
    "income_lines",
    "violation_langs",
    "worded",
]
