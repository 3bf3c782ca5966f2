"""The one checked entry point: generic gates first, then the game's own rules.

python-chess keeps queries apart from the command; boardgame.io checks "game over", "whose turn"
and "is this move allowed now" before a game's code runs. Same here: ``check`` lists every
violation, ``apply`` raises ``RuleViolation`` or returns the next state, and the JSON entry points
validate against the game's JSON Schema before decoding so bad input never reaches the rules.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import jsonschema_rs

from engine import codec, flow
from engine import data as gamedata
from engine.capabilities import ATTEMPT, COMPLETES_STATE, capability
from engine.game import Game
from engine.violations import InputError, RuleViolation, Violation

GENERIC_REF = "engine: turn order and phase gates"


def check(game: Game[Any, Any], state: Any, move: Any) -> list[Violation]:
    """Every rule ``move`` breaks in ``state`` (empty when legal)."""
    if game.is_over(state):
        return [Violation("game/over", GENERIC_REF)]
    on_flow = flow.on_flow(game)
    if on_flow is not None:
        refused = flow.gate(on_flow, state, move)
        return refused or game.check(state, move)
    actor = game.actor(move)
    waiting = game.to_act(state)
    if actor not in waiting:
        return [
            Violation(
                "turn/not-your-turn",
                GENERIC_REF,
                {"actor": actor, "waiting": ", ".join(waiting) or "-"},
            )
        ]
    return game.check(state, move)


def apply(game: Game[Any, Any], state: Any, move: Any) -> Any:
    """The state after ``move``; raises ``RuleViolation`` (state untouched) when it is illegal."""
    on_flow = flow.on_flow(game)
    if on_flow is None:
        violations = check(game, state, move)
        if violations:
            raise RuleViolation(violations)
        return game.apply_unchecked(state, move)
    if game.is_over(state):
        raise RuleViolation([Violation("game/over", GENERIC_REF)])
    pos = on_flow.position(state)  # once: the gate and the sealed-step test share it
    refused = flow.gate(on_flow, state, move, pos)
    if refused:
        raise RuleViolation(refused)
    if flow.is_sealed_move(on_flow, state, move, pos):
        problems = game.check(state, move)
        if problems:
            raise RuleViolation(problems)
        return flow.commit(on_flow, state, move)
    attempt = capability(game, ATTEMPT)
    if attempt is not None:
        # a game whose checks compute the next state anyway checks and applies in one pass
        return attempt.attempt(state, move)
    problems = game.check(state, move)
    if problems:
        raise RuleViolation(problems)
    return game.apply_unchecked(state, move)


def to_act(game: Game[Any, Any], state: Any) -> tuple[str, ...]:
    """Who the game waits for (the flow's actors for a game on the declarative flow)."""
    if game.is_over(state):
        return ()
    on_flow = flow.on_flow(game)
    if on_flow is not None:
        return flow.actors(on_flow, state)
    return game.to_act(state)


_SCHEMAS: dict[str, dict[str, Any]] = {}
_VALIDATORS: dict[tuple[str, str], tuple[Any, Any]] = {}


def schema(game: Game[Any, Any]) -> dict[str, Any]:
    """The JSON Schema of a game's state and moves (shipped with the game, see tests)."""
    found = _SCHEMAS.get(game.info.key)
    if found is None:
        found = _SCHEMAS[game.info.key] = _make_schema(game)
    return found


def _make_schema(game: Game[Any, Any]) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    state_ref = codec.schema_for(game.state_type, defs)
    move_ref = codec.schema_for(codec.union_of(game.move_types), defs)
    defs["Move"] = move_ref
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://herald.invalid/schema/{game.info.key}.json",
        "title": f"{game.info.name} state and moves",
        "$defs": defs,
        "oneOf": [{"$ref": state_ref["$ref"]}, {"$ref": "#/$defs/Move"}],
        "properties": {},
        "x-state": state_ref["$ref"],
        "x-move": "#/$defs/Move",
    }


def _validator(game: Game[Any, Any], ref: str) -> tuple[Any, Any]:
    """Two validators of one schema: jsonschema-rs answers "valid?" about a hundred times
    faster (a state carrying its game's printed data set: 2 ms against 190 ms; every move from
    a phone and every state file passes here); Python's jsonschema words the refusal."""
    key = (game.info.key, ref)
    found = _VALIDATORS.get(key)
    if found is None:
        full = schema(game)
        sub = {"$schema": full["$schema"], "$defs": full["$defs"], "$ref": ref}
        worded = jsonschema.validators.validator_for(sub)(sub)
        found = _VALIDATORS[key] = (jsonschema_rs.validator_for(sub), worded)
    return found


def _validate(game: Game[Any, Any], ref: str, data: Any, what: str) -> None:
    fast, worded = _validator(game, ref)
    try:
        valid: bool | None = fast.is_valid(data)
    except ValueError:  # not JSON (a set, a non-string key): Python's validator judges alone
        valid = None
    if valid:
        return
    error = jsonschema.exceptions.best_match(worded.iter_errors(data))
    if error is None:
        if valid is None:
            return
        # the two validators disagree (they implement one draft): refuse, as the fast one did
        raise InputError("input/schema", f"not a valid {what}: does not match the schema", "$")
    path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path)
    raise InputError("input/schema", f"not a valid {what}: {error.message}", path)


def decode_state(game: Game[Any, Any], data: Any, read: gamedata.Reader | None = None) -> Any:
    """A state from JSON, validated against the game's schema first. A state that names its
    data set instead of holding it (``engine.data.expand_state``) gets the set loaded: a
    shipped one, or a file through ``read``; a game that derives fields fills in those a hand-
    written position leaves out (``complete_state``)."""
    data = gamedata.expand_state(game, data, read)
    completes = capability(game, COMPLETES_STATE)
    if completes is not None:
        data = completes.complete_state(data)
    _validate(game, schema(game)["x-state"], data, f"{game.info.key} state")
    return codec.decode(game.state_type, data)


_MOVE_REFS: dict[str, dict[str, str]] = {}


def move_refs(game: Game[Any, Any]) -> dict[str, str]:
    """Each move kind of the game → the schema reference of its move type (empty when some
    move type has no constant ``kind`` to tell it by); worked out once per game."""
    found = _MOVE_REFS.get(game.info.key)
    if found is None:
        found = _MOVE_REFS[game.info.key] = _move_refs(game)
    return found


def _move_refs(game: Game[Any, Any]) -> dict[str, str]:
    defs = schema(game)["$defs"]
    union = defs["Move"]
    found: dict[str, str] = {}
    for node in union.get("anyOf", union.get("oneOf", [union])):
        ref = node.get("$ref")
        kind = None
        if ref is not None:
            kind = defs[ref.rsplit("/", 1)[-1]].get("properties", {}).get("kind", {}).get("const")
        if not isinstance(kind, str) or kind in found:
            return {}
        found[kind] = ref
    return found


def decode_move(game: Game[Any, Any], data: Any) -> Any:
    """A move from JSON, validated against the game's schema first.

    A move is judged against the type its ``kind`` names, so a refusal names the field that is
    missing or wrong ("'seat' is a required property") rather than "not valid under any of the
    given schemas"; a missing or unknown ``kind`` is refused listing the kinds there are."""
    what = f"{game.info.key} move"
    kinds = move_refs(game)
    if isinstance(data, dict) and kinds:
        kind = data.get("kind")
        if kind not in kinds:
            said = "has no 'kind'" if "kind" not in data else f"has kind {json.dumps(kind)}"
            raise InputError(
                "input/schema",
                f"not a valid {what}: it {said}; the kinds are {', '.join(sorted(kinds))}",
                "$.kind",
            )
        _validate(game, kinds[kind], data, f"{what} {kind!r}")
    else:
        _validate(game, "#/$defs/Move", data, what)
    return codec.decode(codec.union_of(game.move_types), data)


def encode(obj: Any) -> Any:
    """JSON for a state or a move."""
    return codec.encode(obj)
