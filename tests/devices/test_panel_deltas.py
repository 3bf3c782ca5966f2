"""Issue 16, finding 2: the device panel went to every viewer whole on every change (441 KB with
1,500 fake ids). Now a viewer asks for the whole panel once and then gets ``devices_delta``:
only the records that changed (or went), coalesced.

Herald's device stack and an in-process referee on a real mosquitto (the fixture of
test_devices_referee); registry changes are made directly, as the hub makes them.
"""

from __future__ import annotations

from typing import Any

from conftest import wait_for
from test_devices_referee import Table, table  # noqa: F401 (the fixture)


def deltas(t: Table) -> list[dict[str, Any]]:
    return [p for e, p, _ in t.emitted if e == "devices_delta"]


def test_a_change_pushes_only_the_changed_record_and_bursts_are_coalesced(
    table: Table,  # noqa: F811
) -> None:
    registry = table.devices.hub.registry
    for i in range(10):
        table.devices.desk.pair(f"box-{i}", None)
        registry.update(f"box-{i}", paired="table", online=True)
    wait_for(lambda: {c["device"] for d in deltas(table) for c in d["changed"]}
             >= {f"box-{i}" for i in range(10)}, what="the first pushes")  # fmt: skip
    seen = len(deltas(table))
    for battery in range(100, 0, -1):  # a hundred changes of one device in a burst
        registry.update("box-3", battery=battery)
    wait_for(lambda: any(c["battery"] == 1 for d in deltas(table)[seen:]
                         for c in d["changed"]), what="the last change pushed")  # fmt: skip
    burst = deltas(table)[seen:]
    assert len(burst) < 100, "every change was pushed on its own"
    for delta in burst:
        assert [c["device"] for c in delta["changed"]] == ["box-3"]
        assert delta["removed"] == []
    registry.forget("box-7")
    wait_for(lambda: any(d["removed"] == ["box-7"] for d in deltas(table)), what="a removal")
