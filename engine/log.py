"""Event-sourcing primitives: a table session is its log; state = replay(log).

After boardgame.io's ``_stateID``: every accepted event (a move or an undo) raises ``state_id`` by
one, so a client that built an intent on an older state can be refused. Undo is an event appended
to the log, never a deletion. Chance moves (reveals, rolls) are barriers: what the table showed
cannot be taken back, so undo stops there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from engine import codec, rules
from engine import data as gamedata
from engine.game import HOST, Game
from engine.violations import InputError, RuleViolation, Violation

UNDO_REF = "engine: undo (an appended event; reveals and rolls are not undoable)"


@dataclass(frozen=True)
class Event:
    """One log entry: a move, or an undo asked for by a seat or the host."""

    kind: Literal["move", "undo"]
    move: Any = None
    by: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.kind == "move":
            return {"kind": "move", "move": codec.encode(self.move)}
        return {"kind": "undo", "by": self.by}


@dataclass(frozen=True)
class _Frame:
    """What undo needs: the state before an undoable move, and who made that move."""

    before: Any
    actor: str
    parent: _Frame | None


@dataclass(frozen=True)
class Header:
    """The first line of a log: which game, which seats, which options, and which data.

    ``data`` is ``{"source", "digest"}`` of the game's box data (``engine.data``) for a game that
    has data: a replay loads the same source and is refused when the digest differs.
    """

    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    data: dict[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "players": list(self.players),
                               "options": self.options}  # fmt: skip
        if self.data is not None:
            out["data"] = dict(self.data)
        return out


@dataclass(frozen=True)
class Session:
    """A table in progress: current state, its ``state_id``, and the undo chain."""

    game: Game[Any, Any]
    header: Header
    state: Any
    state_id: int = 0
    undo_chain: _Frame | None = None


def start(
    game: Game[Any, Any],
    players: tuple[str, ...],
    options: dict[str, Any],
    data: gamedata.GameData | None = None,
) -> Session:
    """A new session. ``data``: the game's data as the caller loaded them (``engine.data``);
    None loads the shipped or inline set the options name."""
    if data is None:
        data = gamedata.load(game, options)
    header = Header(
        game.info.key, tuple(players), dict(options), None if data is None else data.ref()
    )
    return Session(game, header, gamedata.setup(game, tuple(players), dict(options), data))


def restart(game: Game[Any, Any], header: Header, data: gamedata.GameData | None = None) -> Session:
    """The session ``header`` started, started again (a replay, a restored table): with the
    same data, or ``InputError`` naming the recorded and the loaded digests."""
    if data is None:
        data = gamedata.load(game, header.options)
    gamedata.check_same(header.data, data)
    state = gamedata.setup(game, header.players, dict(header.options), data)
    return Session(game, header, state)


def accept(session: Session, event: Event) -> Session:
    """The session after ``event``; raises ``RuleViolation`` and changes nothing when refused."""
    game = session.game
    if event.kind == "undo":
        return _undo(session, event.by)
    state = rules.apply(game, session.state, event.move)
    if game.is_chance(event.move):
        chain = None
    else:
        chain = _Frame(session.state, game.actor(event.move), session.undo_chain)
    return Session(game, session.header, state, session.state_id + 1, chain)


def can_undo(session: Session, by: str | None) -> bool:
    """Whether an undo asked for by ``by`` (a seat, the host, or None for the host) would pass."""
    frame = session.undo_chain
    return frame is not None and by in (None, HOST, frame.actor)


def to_snapshot(session: Session) -> dict[str, Any]:
    """The exact session as JSON: state, ``state_id`` and the undo chain (newest first).

    The undo chain is part of the exact state: after a restore, undo takes back the same moves it
    would have taken back before.
    """
    chain = []
    frame = session.undo_chain
    while frame is not None:
        chain.append({"before": codec.encode(frame.before), "actor": frame.actor})
        frame = frame.parent
    return {"state": codec.encode(session.state), "state_id": session.state_id, "undo": chain}


def from_snapshot(game: Game[Any, Any], header: Header, data: dict[str, Any]) -> Session:
    """The session ``to_snapshot`` described; ``InputError`` when the snapshot is malformed."""
    try:
        entries = list(data["undo"])
        frame: _Frame | None = None
        for entry in reversed(entries):
            before = rules.decode_state(game, entry["before"])
            frame = _Frame(before, str(entry["actor"]), frame)
        state = rules.decode_state(game, data["state"])
        state_id = int(data["state_id"])
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError("input/snapshot", f"not a session snapshot: {exc}") from exc
    return Session(game, header, state, state_id, frame)


def _undo(session: Session, by: str | None) -> Session:
    frame = session.undo_chain
    if frame is None:
        raise RuleViolation(Violation("undo/nothing", UNDO_REF))
    if by not in (None, HOST, frame.actor):
        raise RuleViolation(
            Violation("undo/not-yours", UNDO_REF, {"seat": by, "actor": frame.actor})
        )
    return Session(session.game, session.header, frame.before, session.state_id + 1, frame.parent)


def decode_event(game: Game[Any, Any], data: Any) -> Event:
    """An event from its JSON line (``{"kind": "move", "move": {...}}`` or an undo)."""
    if not isinstance(data, dict) or data.get("kind") not in ("move", "undo"):
        raise InputError("input/event", "an event is {'kind': 'move'|'undo', ...}")
    if data["kind"] == "undo":
        by = data.get("by")
        if by is not None and not isinstance(by, str):
            raise InputError("input/event", "'by' must be a seat name or null")
        return Event("undo", by=by)
    return Event("move", move=rules.decode_move(game, data.get("move")))


def decode_header(data: Any) -> Header:
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise InputError("input/header", "the first line must be {'game': ..., 'players': [...]}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InputError("input/header", "'players' must be a list of seat names")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise InputError("input/header", "'options' must be an object")
    recorded = data.get("data")
    if recorded is not None and not (
        isinstance(recorded, dict)
        and all(isinstance(recorded.get(k), str) for k in ("source", "digest"))
    ):
        raise InputError("input/header", "'data' must be {'source': ..., 'digest': ...}")
    return Header(data["game"], tuple(players), options, recorded)


def replay(
    game: Game[Any, Any],
    header: Header,
    events: Iterable[Event],
    data: gamedata.GameData | None = None,
) -> Session:
    """Rebuild a session from its log; raises ``RuleViolation`` naming the first bad event,
    ``InputError`` when ``data`` (None: loaded from the header's options) are not the data the
    session was played with."""
    session = restart(game, header, data)
    for event in events:
        session = accept(session, event)
    return session
