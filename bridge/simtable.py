"""The simulated table: what ``herald serve`` plays when no camera or device is attached.

It stands where the camera and the dice tower stand: it reads the published state, waits a human
pace, and hands the referee the next *observation* as JSON through ``Referee.observe`` — exactly
the path a real observation takes (schema validation, rules, store, publication). Chance is
drawn with the game's ``sample_chance`` from a seeded ``random.Random``, so a seed replays a game.

It is also a ``Transport``: each published update wakes it, so a move made on a phone restarts
its clock instead of racing it (and a stale observation is refused, never applied).

Dice go through the devices when it is given a ``roller`` (``herald serve`` hands it the virtual
dice tower, ``DeviceStack.roll``): when the game waits for dice (its optional ``dice_pool``), the
simulated table draws the values and has the tower roll them; the roll comes back as the tower's
event (MQTT or serial, the device hub, ``Game.dice_move``, ``Referee.observe``), exactly as a
real tower's. If no roll arrives within ``ROLL_WAIT`` seconds it observes the dice itself.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from bridge.referee import Notice, Referee, Update
from bridge.worker import Worker
from engine import codec
from engine.game import TABLE, dice_pool

log = logging.getLogger(__name__)

ROLL_WAIT = 5.0
"""Seconds to wait for the dice tower's roll before the simulated table observes the dice."""

Roller = Callable[[list[dict[str, Any]]], bool]
"""``roller(dice)``: have a dice tower roll these wire dice (with values); False if it cannot."""

SimMode = Literal["all", "table", "off"]
"""``all``: chance and every seat's moves; ``table``: chance only (people play on phones)."""


@dataclass(frozen=True)
class SimConfig:
    """How the simulated table plays: pace (seconds per move, ± jitter share) and seed."""

    mode: SimMode = "all"
    delay: float = 1.5
    jitter: float = 0.33
    seed: int = 1
    restart_after: float | None = None
    """Seconds after the end of a game before the simulated table starts a new one (same game,
    seats and options, phones stay joined: ``Referee.new_game``); None: the game stays over."""


class SimTable:
    """A background driver playing legal moves through the referee's observation path."""

    def __init__(self, referee: Referee, config: SimConfig, roller: Roller | None = None) -> None:
        self.referee = referee
        self.config = config
        self.roller = roller
        self.moves = 0
        self.tower_rolls = 0
        self._asked: tuple[tuple[int, int], float] | None = None  # (session, state_id), when
        self._over_since: tuple[int, float] | None = None  # (session, when it was seen over)
        self.restarts = 0
        self._rng = random.Random(config.seed)
        self._worker = Worker("herald-simtable", self._run)
        self._wake = self._worker.woken
        self._stop = self._worker.stopping

    # Transport: every published update is a reason to look at the table again.
    def publish(self, update: Update) -> None:
        self._wake.set()

    def notice(self, notice: Notice) -> None:
        """Notices need no action from the simulated table."""

    def start(self) -> None:
        if self.config.mode == "off" or self._worker.running:
            return
        self.referee.attach(self)
        self._worker.wake()
        self._worker.start()

    def stop(self) -> None:
        if self._worker.stop():
            self.referee.detach(self)

    def _pause(self) -> float:
        spread = self.config.delay * self.config.jitter
        return max(0.0, self.config.delay + self._rng.uniform(-spread, spread))

    def _run(self) -> None:
        while not self._stop.is_set():
            asked = self._asked
            timeout = None if asked is None else ROLL_WAIT
            if self._over_since is not None and self.config.restart_after is not None:
                timeout = self.config.restart_after  # look again when the new game is due
            self._wake.wait(timeout)
            self._wake.clear()
            if self._stop.wait(self._pause()):
                return
            self.step()

    def step(self) -> bool:
        """Observe one move if the table (or, in ``all`` mode, a seat) is to act; True if made."""
        referee = self.referee
        session = referee.session
        game, state = referee.game, session.state
        if game.is_over(state):
            return self._restart_when_due()
        self._over_since = None
        move: Any = game.sample_chance(state, self._rng)
        if move is not None and self.roller is not None:
            pool = dice_pool(game, state)
            if pool and self._tower(pool, (referee.row.id, session.state_id)):
                return False  # the tower's roll comes back through the devices
        if move is None:
            if self.config.mode != "all" or TABLE in game.to_act(state):
                return False
            moves = game.legal_moves(state)
            if not moves:
                return False
            move = moves[self._rng.randrange(len(moves))]
        self._asked = None
        outcome = referee.observe("simtable", codec.encode(move), session.state_id)
        if outcome.ok:
            self.moves += 1
        else:
            self._wake.set()  # stale (a phone moved first): look again after the pause
        return outcome.ok

    def _restart_when_due(self) -> bool:
        """A little after the end, a new game (the simulated table never stays over); True if
        one was started."""
        wait = self.config.restart_after
        if wait is None:
            return False
        now = time.monotonic()
        session = self.referee.row.id
        if self._over_since is None or self._over_since[0] != session:
            self._over_since = (session, now)
        if now - self._over_since[1] < wait:
            return False
        outcome = self.referee.new_game("simtable")
        self._over_since = None
        if outcome.ok:
            self.restarts += 1
        return outcome.ok

    def _tower(self, pool: list[dict[str, Any]], key: tuple[int, int]) -> bool:
        """Ask the tower to roll ``pool`` for state ``key``; True while its roll is awaited."""
        assert self.roller is not None
        now = time.monotonic()
        if self._asked is not None and self._asked[0] == key:
            if now - self._asked[1] < ROLL_WAIT:
                return True
            log.warning(
                "the dice tower sent no roll in %.0f s: the simulated table rolls", ROLL_WAIT
            )
            return False
        dice = [{**d, "value": self._rng.randint(1, int(d["sides"]))} for d in pool]
        if not self.roller(dice):
            return False
        self._asked = (key, now)
        self.tower_rolls += 1
        return True
