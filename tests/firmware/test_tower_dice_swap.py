"""A dice tower whose tray pairs with other dice: the host hal's ``dice`` command, then a roll."""

from __future__ import annotations

from firmware.dice_tower import DiceTower
from firmware.hal_host import Script, VirtualDiceSensor, parse_dice


class Store:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def load(self, key: str) -> str | None:
        return self.data.get(key)

    def save(self, key: str, value: str) -> None:
        self.data[key] = value


def run(script: Script, tower: DiceTower, ms: int) -> None:
    for now in range(0, ms, 5):
        script.poll(now)
        tower.poll(now)


def test_the_dice_command_swaps_the_dice_and_the_next_roll_reports_them_typed() -> None:
    sensor = VirtualDiceSensor(2)
    tower = DiceTower("tower-1", parse_dice("6,6"), Store(), sensor=sensor)
    tower.detector.settle_ms = 100
    script = Script(sensor=sensor, device=tower, settle_ms=100)
    script.lines.extend(["dice 6:red:strength,6:black:horse,6:white:armour", "roll 1 4 6"])
    run(script, tower, 2000)
    ((_, msg),) = tower.outbox.due(10_000)
    assert msg["dice"] == [
        {"sides": 6, "value": 1, "color": "red", "type": "strength"},
        {"sides": 6, "value": 4, "color": "black", "type": "horse"},
        {"sides": 6, "value": 6, "color": "white", "type": "armour"},
    ]
    assert tower.detector.count == 3 and tower.detector.settle_ms == 100


def test_a_malformed_dice_command_changes_nothing() -> None:
    sensor = VirtualDiceSensor(2)
    tower = DiceTower("tower-1", parse_dice("6,6"), Store(), sensor=sensor)
    script = Script(sensor=sensor, device=tower)
    script.command("dice six:red", 0)
    assert len(tower.dice) == 2 and script.actions == []


def test_a_stalled_device_loop_still_sees_every_roll_in_order() -> None:
    """On a loaded machine the virtual device's loop may sleep far longer than its 5 ms pass;
    the script must then delay its changes, not make a roll's faces and the next roll's drop in
    one pass (the tower then saw one roll where four were made: a lost roll on CI)."""
    sensor = VirtualDiceSensor(2)
    tower = DiceTower("tower-1", parse_dice("6,6"), Store(), sensor=sensor)
    tower.detector.settle_ms = 100
    script = Script(sensor=sensor, device=tower, settle_ms=100)
    rolls = [(1, 2), (3, 4), (5, 6), (2, 2)]
    script.lines.extend(f"roll {a} {b}" for a, b in rolls)
    now = 0
    for step in range(2000):
        now += 450 if step % 3 == 2 else 5  # a pass that took 450 ms every third pass
        script.poll(now)
        tower.poll(now)
    sent = [[d["value"] for d in msg["dice"]] for _, msg in tower.outbox.due(10**9)]
    assert sent == [list(r) for r in rolls]
