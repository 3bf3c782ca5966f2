"""Issue 16, finding 3 (the loss half): a broker outage longer than a device's buffer lost rolls
and neither side said so. Now the device reports what its outbox had to drop, once Herald is
reachable again, and the referee raises a visible notice on the table display (and the host
page) asking the table to roll again or confirm by hand.

A real mosquitto (stopped and restarted on its port), Herald's device stack with an in-process
referee, and the firmware's virtual dice tower (host hal) with a small outbox so a short outage
overflows it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import Broker, VirtualDevice, wait_for
from test_devices_referee import TABLE, Table, table  # noqa: F401 (the fixture)


def test_rolls_lost_in_an_outage_are_reported_and_the_table_is_asked_to_roll_again(
    table: Table,  # noqa: F811
    broker: Broker,
    devices: Callable[..., VirtualDevice],
    tmp_path: Path,
) -> None:
    tower = devices(
        "dice_tower", "--mqtt", broker.url, "--table", TABLE, "--device", "tower-1",
        "--state-dir", str(tmp_path / "vdev"), "--settle-ms", "50", "--outbox", "3",
        "--keepalive", "2",
    )  # fmt: skip
    tower.wait_line("connected")
    wait_for(lambda: table.devices.desk.is_pending("tower-1"), what="the tower is pending")
    assert table.devices.host_pair({"device": "tower-1", "seat": None})["ok"]
    tower.wait_line("paired table")
    tower.send("roll 1 1")
    tower.wait_line("acked 1")

    broker.stop()
    wait_for(lambda: any(line.startswith("disconnected") for line in tower.lines),
             what="the tower to notice the outage")  # fmt: skip
    for value in range(1, 6):  # five rolls into an outbox of three: two are dropped
        tower.send(f"roll {value} {value}")
    tower.wait_line("event 6 dice")
    assert not any(line.startswith("acked") and line != "acked 1" for line in tower.lines)
    broker.start()

    def lost() -> list[tuple[dict[str, object], str]]:
        return [(p, room) for e, p, room in table.emitted
                if e == "device_notice" and p["code"] == "devices/lost-rolls"]  # fmt: skip

    wait_for(lambda: {room for _, room in lost()} >= {"table", "host"},
             what=lambda: f"a lost-rolls notice; device said {tower.lines}")  # fmt: skip
    notice = lost()[0][0]
    assert notice["device"] == "tower-1"
    assert notice["params"]["count"] == 2
    assert (notice["params"]["first"], notice["params"]["last"]) == (2, 3)
    assert "2 rolls" in notice["message"] and "Roll again" in notice["message"]
    # the table display keeps it in its panel too
    assert any(n["code"] == "devices/lost-rolls" for n in table.devices.panel()["notices"])
    # what the outbox kept still arrives, once each
    wait_for(lambda: len(table.devices.rolls) == 4, what="the kept rolls")
    assert [r["values"] for r in table.devices.rolls] == [[1, 1], [3, 3], [4, 4], [5, 5]]
