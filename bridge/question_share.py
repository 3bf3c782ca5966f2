"""How often the camera asks (issue #29 point 4): of the seat moves a table shows, the share
read without a question, per game (``herald bench questions``; docs/vision.md, "How often the
camera asks").

Two measures, both seeded:

- ``rules``: seeded simulated games (every ``SimSetup`` the game declares; random legal
  moves, sampled chance), each table-visible seat move laid out by the game's ``layout`` and
  read back by its ``interpret`` as a perfect camera would report it. What is left is what the
  rules cannot tell apart from the table alone. A move is ``read`` when the camera's reading
  begins with it (the rest of a sequence is the seat's next prompt), ``read_other`` when the
  camera read another move without asking (a rule narrowed the tie, ``engine.interpret.
  Narrowing``: a longer walk to the same town is read as the shortest; the simulated players
  choose at random, people do not pay for nothing), ``asked`` otherwise, by kind of move.
- ``camera``: the simulated camera of ``herald serve`` (``bridge.camera``: rendered frames, the
  real tracker and pipeline) playing ``moves`` steps; each step's move is ``read`` (observed
  from the frames), ``asked`` (a question was sent) or ``entered`` (neither: a move the table
  shows that the camera did not name, entered on the phone or the host display without a
  question: a table move such as the decks laid, which the camera waits for). Moves the table
  does not show (cards into a hand, a pass) are counted apart (``unseen``).

A benchmark reports, it never asserts.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from bridge.camera import CameraConfig, open_camera_table, profile_seats
from bridge.game_files import camera_profile, placer
from bridge.referee import Referee
from bridge.store import EventStore
from engine import data as gamedata
from engine import registry
from engine.game import SimSetup
from engine.interpret import kind_of
from vision.sim import lay_out


def _setups(game: Any) -> tuple[SimSetup, ...]:
    return tuple(game.info.simulations) or (SimSetup(max(game.info.min_players, 3)),)


def rules_share(key: str, moves: int = 400, seed: int = 1) -> dict[str, Any]:
    """The ``rules`` measure of one game (see the module docstring)."""
    game = registry.get_game(key)
    profile = camera_profile(key)
    place = placer(key, profile)
    shown = read = other = 0
    asked: Counter[str] = Counter()
    for setup in _setups(game):
        state = gamedata.setup(game, profile_seats(profile)[: setup.players], setup.options)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.is_over(state):
                break
            legal = game.legal_moves(state)
            move = rng.choice(legal) if legal else game.sample_chance(state, rng)
            if move is None:
                break
            after = game.apply_unchecked(state, move)
            before_layout = lay_out(place(state), profile)[0]
            layout, seen = lay_out(place(after), profile)
            if legal and layout != before_layout:
                kinds = sorted({kind_of(o["component"]) for o in seen} | {"tile"})
                coverage = {"component": "coverage", "attrs": {"kinds": kinds}}
                verdict = game.interpret(state, [*seen, coverage])
                if verdict.unchanged:  # drawn, but of nothing the game reads: the phone says it
                    state = after
                    continue
                shown += 1
                first = verdict.moves[:1] or _shared_start(verdict.candidates)
                if first == (move,):
                    read += 1
                elif first:
                    other += 1
                else:
                    asked[type(move).__name__] += 1
            state = after
    return {
        "shown": shown,
        "read": read,
        "read_other": other,
        "asked": sum(asked.values()),
        "asked_by_kind": dict(asked.most_common()),
        "share_without_question": round((read + other) / shown, 3) if shown else None,
        "share_read_as_made": round(read / shown, 3) if shown else None,
    }


def _shared_start(candidates: tuple[tuple[Any, ...], ...]) -> tuple[Any, ...]:
    """The first move every candidate begins with (what ``bridge.camera`` observes)."""
    firsts = {c[0] for c in candidates if c}
    return (next(iter(firsts)),) if len(firsts) == 1 and all(candidates) else ()


def camera_share(key: str, moves: int = 40, seed: int = 1) -> dict[str, Any]:
    """The ``camera`` measure of one game (see the module docstring): ``moves`` steps of the
    simulated camera through the real pipeline, in process."""
    game = registry.get_game(key)
    profile = camera_profile(key)
    place = placer(key, profile)
    setup = _setups(game)[0]
    seats = profile_seats(profile)[: setup.players]
    counts: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = {"asked": Counter(), "entered": Counter()}
    with tempfile.TemporaryDirectory(prefix="herald-asks-") as tmp:
        store = EventStore(Path(tmp) / "q.db")
        referee = Referee.open(store, game, "bench", seats, setup.options)
        config = CameraConfig(fps=0, confirm_s=0, pass_share=0, seed=seed)
        camera = open_camera_table(referee, "camera-sim", config)
        referee.attach(camera)
        camera.settle()
        for _ in range(moves):
            state = referee.session.state
            if game.is_over(state):
                break
            chosen, asked = len(camera.stats.chosen), camera.reader.asked
            how = camera.step("move")
            if len(camera.stats.chosen) == chosen:
                continue  # nothing made (a mirror, idle)
            move, _ = camera.stats.chosen[-1]
            visible = lay_out(place(game.apply_unchecked(state, move)), profile)[0] != lay_out(
                place(state), profile)[0]  # fmt: skip
            if not visible:
                counts["unseen"] += 1
            elif how == "camera":
                counts["read"] += 1
            else:
                how = "asked" if camera.reader.asked > asked else "entered"
                counts[how] += 1
                kinds[how][type(move).__name__] += 1
        store.close()
    shown = counts["read"] + counts["asked"] + counts["entered"]
    return {
        **{k: counts[k] for k in ("read", "asked", "entered", "unseen")},
        "shown": shown,
        "asked_by_kind": dict(kinds["asked"]),
        "entered_by_kind": dict(kinds["entered"]),
        "share_read": round(counts["read"] / shown, 3) if shown else None,
        "share_without_question": round(1 - counts["asked"] / shown, 3) if shown else None,
    }


__all__ = ["camera_share", "rules_share"]
