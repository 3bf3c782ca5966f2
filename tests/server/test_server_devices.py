"""``herald serve`` with no hardware runs virtual devices: online on the table display, rolls live.

The server starts its own mosquitto (when installed) and the firmware's virtual seat boxes and
dice tower; a python-socketio client and Debian's chromium look at what the table shows.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import Tabs
from browser_support import SERVER_SHOTS, needs_chromium, shot
from srv_support import SEATS, Served, join, live_client, serve

MOSQUITTO = shutil.which("mosquitto") or (
    "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None
)


def wait_for(predicate: Any, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or predicate}")


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    if MOSQUITTO is None:
        pytest.skip("mosquitto not installed (make system-deps installs it as root)")
    db = tmp_path_factory.mktemp("devices") / "d.db"
    # a game without dice: the tower rolls on its own only when told to (--tower-every)
    served = serve(db, "--sim", "table", "--move-delay", "0.05", "--tower-every", "20")
    yield served
    served.stop()


def panel_of(client: Any) -> dict[str, Any]:
    """The whole device panel (asked again if the per-client request limit said wait)."""
    found: dict[str, Any] = {}

    def got() -> bool:
        found.update(client.call("devices", {}, timeout=5))
        return "devices" in found

    wait_for(got, what="the device panel")
    return found


def children(pid: int) -> list[str]:
    out = subprocess.run(["ps", "-eo", "ppid=,args="], capture_output=True, text=True).stdout
    return [line.split(None, 1)[1] for line in out.splitlines() if line.split()[0] == str(pid)]


def test_virtual_devices_are_online_and_rolls_reach_socketio(table: Served) -> None:
    assert "private mosquitto" in table.output
    rolls: list[dict[str, Any]] = []
    panels: list[dict[str, Any]] = []
    lock = threading.Lock()
    client = live_client()
    client.on("roll", lambda data: rolls.append(data))
    client.on("devices", lambda data: panels.append(data))
    join(client, table.base)
    try:
        wanted = {f"seat-{s}" for s in SEATS} | {"tower-1"}

        def online() -> set[str]:
            with lock:
                panel = client.call("devices", {}, timeout=5)
            return {d["device"] for d in panel.get("devices", []) if d["online"]}

        def paired() -> dict[str, str]:
            with lock:
                panel = client.call("devices", {}, timeout=5)
            return {d["device"]: d["paired"] for d in panel.get("devices", []) if d["paired"]}

        # generous waits: five device processes start and pair on a machine CI may load
        wait_for(lambda: wanted <= online(), timeout=60, what="virtual devices online")
        # they paired themselves with the codes the server showed, as a real box does
        wait_for(lambda: len(paired()) == len(wanted), timeout=60, what="virtual devices paired")
        devices = panel_of(client)["devices"]
        assert {d["device"]: d["paired"] for d in devices} == {
            **{f"seat-{s}": f"seat:{s}" for s in SEATS},
            "tower-1": "table",
        }
        # issue 25, point 9: no box sent a wrong code ("not paired · 10 errors" once)
        assert all(d["errors"] == 0 for d in devices if d["device"].startswith("seat-")), devices
        # The virtual tower told to roll on its own (at start, then every 20 s): the panel keeps it.
        panel = panel_of(client)
        assert panel["note"].startswith("Virtual seat boxes")
        assert panel["pairing"]["open"] is False  # closed once every virtual device paired
        wait_for(lambda: client.call("devices", {}, timeout=5).get("rolls"), what="a roll")
        roll = panel_of(client)["rolls"][0]
        assert roll["device"] == "tower-1" and isinstance(roll["seq"], int)
        assert [d["sides"] for d in roll["dice"]] == [6, 6]
    finally:
        client.disconnect()
    kids = " ".join(children(table.proc.pid))
    assert "firmware.seat_box" in kids and "firmware.dice_tower" in kids


def test_a_dice_tower_roll_reaches_a_socketio_client_as_roll(tmp_path: Path) -> None:
    """Hardware path: ``--mqtt`` to a broker, a (virtual) tower on it, a table-room client."""
    from bridge.devices.local import LocalBroker

    if MOSQUITTO is None:
        pytest.skip("mosquitto not installed (make system-deps installs it as root)")
    broker = LocalBroker.start_new()
    served = serve(tmp_path / "r.db", "--sim", "off", "--mqtt", broker.url)
    host = live_client()
    tower = subprocess.Popen(
        [sys.executable, "-m", "firmware.dice_tower", "--mqtt", broker.url, "--table", "t1",
         "--device", "tower-9", "--dice", "6:red,6", "--settle-ms", "50",
         "--state-dir", str(tmp_path / "vdev")],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    rolls: list[dict[str, Any]] = []
    client = live_client()
    client.on("roll", lambda data: rolls.append(data))
    try:
        assert "MQTT broker" in served.output
        join(client, served.base)
        join(host, served.base, served.host_token)

        def tower_pending() -> bool:
            pending = host.call("devices", {}, timeout=5).get("pairing", {}).get("pending", [])
            return any(p["device"] == "tower-9" for p in pending)

        wait_for(tower_pending, what="the unpaired tower listed for the host")
        # a viewer cannot pair it; the host can (an approval on the host page)
        refused = client.call("device_pair", {"device": "tower-9", "seat": None}, timeout=5)
        assert refused["ok"] is False and refused["code"] == "devices/host-only"
        assert host.call("device_pair", {"device": "tower-9", "seat": None}, timeout=5)["ok"]

        def tower_online() -> bool:
            devices = client.call("devices", {}, timeout=5).get("devices", [])
            return any(d["device"] == "tower-9" and d["online"] and d["paired"] for d in devices)

        wait_for(tower_online, what="tower online")
        assert tower.stdin is not None
        tower.stdin.write("roll 2 5\n")
        tower.stdin.flush()
        wait_for(lambda: rolls, what="roll event")
        roll = rolls[0]
        assert {k: roll[k] for k in ("device", "seq", "dice")} == {
            "device": "tower-9", "seq": 1,
            "dice": [{"sides": 6, "value": 2, "color": "red"}, {"sides": 6, "value": 5}],
        }  # fmt: skip
        assert roll["used"] is False and roll["text"]
    finally:
        client.disconnect()
        host.disconnect()
        tower.terminate()
        tower.wait(10)
        served.stop()
        broker.stop()


@needs_chromium
def test_table_display_shows_the_device_panel(browser: Tabs, table: Served) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = browser.table(errors)
    page.goto(table.table_url)
    online = page.locator('#devices li[data-online="true"]')
    expect(online).to_have_count(len(SEATS) + 1, timeout=30_000)
    expect(page.locator("#rolls li[data-seq]").first).to_be_visible(timeout=30_000)
    expect(page.locator("#h-devices")).to_have_text("Devices")
    page.locator("#devices-box").scroll_into_view_if_needed()
    shot(page, SERVER_SHOTS, "table-devices.png")
    assert errors == []


@needs_chromium
def test_pairing_codes_show_on_the_host_page_and_never_on_the_table_display(
    browser: Tabs, table: Served
) -> None:
    """Issue 26, finding 1: a viewer with no token got every pairing code in its device panel.
    Now the table display says pairing is open and for whom; the codes are on the host page."""
    from playwright.sync_api import expect

    seat = SEATS[0]
    host = live_client(reconnection=False)
    join(host, table.base, table.host_token)
    try:
        # the seat's virtual box must have paired itself first (this test may run first)

        def box_paired() -> bool:
            devices = panel_of(host).get("devices", [])
            return any(d["device"] == f"seat-{seat}" and d["paired"] for d in devices)

        wait_for(box_paired, timeout=60, what=f"seat-{seat} paired")
        unpaired = host.call("device_unpair", {"device": f"seat-{seat}"}, timeout=30)
        assert unpaired["ok"], unpaired
        codes = host.call("device_pairing", {"open": True}, timeout=30)["pairing"]["codes"]
        assert list(codes) == [seat] and len(codes[seat]) == 12  # only the seat with no box
        errors: list[str] = []
        viewer = browser.table(errors)
        viewer.goto(table.table_url)
        expect(viewer.locator("#pairing-waiting")).to_contain_text("Pairing is open on the host")
        expect(viewer.locator("#pairing-waiting")).to_contain_text(seat.capitalize(),
                                                                   ignore_case=True)  # fmt: skip
        expect(viewer.locator("#pairing .pair-codes")).to_have_count(0)
        assert codes[seat] not in viewer.content()
        polish = browser.table(errors, locale="pl-PL")
        polish.goto(table.table_url + ("&" if "?" in table.table_url else "?") + "lang=pl")
        expect(polish.locator("#pairing-waiting")).to_contain_text("Parowanie jest otwarte")
        assert codes[seat] not in polish.content()
        hosting = browser.table(errors)
        hosting.goto(table.host_url)
        expect(hosting.locator(f'#pairing .pair-codes li[data-target="{seat}"] code')).to_have_text(
            codes[seat], timeout=30_000
        )
        shot(viewer, SERVER_SHOTS, "table-pairing-viewer.png")
        shot(hosting, SERVER_SHOTS, "table-pairing-host.png")
        assert errors == []
    finally:
        host.call("device_pairing", {"open": False}, timeout=30)
        host.call("device_pair", {"device": f"seat-{seat}", "seat": seat}, timeout=30)
        host.disconnect()


@needs_chromium
def test_the_polish_device_panel_names_seats_in_polish(browser: Tabs, table: Served) -> None:
    """A device sentence names a seat by its key ("green") and a pairing as "seat:green": the
    Polish table display says the seat's colour in Polish, as everywhere else on the page."""
    from playwright.sync_api import expect

    from engine.i18n import message

    first, second = SEATS[0], SEATS[1]
    said = message("devices/wrong-seat", "pl", seat=first, paired=f"seat:{second}",
                   who=f"seat-{first}", device=f"seat-{first}", seq=1)  # fmt: skip
    errors: list[str] = []
    page = browser.table(errors, locale="pl-PL")
    page.goto(table.table_url + ("&" if "?" in table.table_url else "?") + "lang=pl")
    expect(page.locator('#devices li[data-online="true"]').first).to_be_visible(timeout=30_000)
    page.wait_for_function("() => document.querySelectorAll('[data-seat]').length > 0")
    shown = page.evaluate("text => HeraldDevices.words(text)", said)
    for seat in (first, second):
        assert message(f"ui/colour-{seat}", "pl") in shown, shown
    assert f"seat:{second}" not in shown and f'"{first}"' not in shown, shown
    assert errors == []


def test_serve_without_mosquitto_or_pty_still_runs_and_says_why(tmp_path: Path) -> None:
    """Neither transport available: the server runs, the panel note says why."""
    from bridge.devices import local
    from bridge.devices.stack import DeviceOptions, DeviceStack
    from bridge.referee import Referee
    from bridge.store import EventStore
    from engine import get_game

    class NoPty:
        def __init__(self) -> None:
            raise local.Unavailable("pseudo-terminals are unavailable (test)")

    store = EventStore(tmp_path / "n.db")
    referee = Referee.open(store, get_game("middle-ages"), "t1", SEATS, {})
    mp = pytest.MonkeyPatch()
    mp.setattr(local, "find_mosquitto", lambda: None)
    mp.setattr(local, "PtyCable", NoPty)
    stack = DeviceStack(DeviceOptions(dedup_path=tmp_path / "n.devices"))
    try:
        note = stack.start(referee, lambda td: None)
    finally:
        stack.stop()
        mp.undo()
        store.close()
    assert note.startswith("Devices are offline: mosquitto is not installed")
    assert "pseudo-terminals are unavailable" in note


def test_the_private_broker_refuses_anonymous_clients(table: Served) -> None:
    """Issue 16: anyone on the machine could publish as any device on the server's own
    mosquitto (anonymous on loopback). Now it takes only Herald and its devices' users."""
    import re

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    found = re.search(r"private mosquitto on port (\d+)", table.output)
    assert found, table.output
    answered = threading.Event()
    result: list[Any] = []

    def on_connect(client: Any, userdata: Any, flags: Any, code: Any, props: Any) -> None:
        result.append(code)
        answered.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_connect = on_connect
    client.connect("127.0.0.1", int(found.group(1)))
    client.loop_start()
    try:
        assert answered.wait(10), "no CONNACK"
    finally:
        client.loop_stop()
        client.disconnect()
    assert result[0].is_failure, "an anonymous client got into the private broker"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_viewer_flooding_panel_requests_without_reading_costs_the_server_little(
    table: Served,
) -> None:
    """Issue 16, finding 2: a viewer with no token sent 300 ``devices`` requests without
    reading the replies and the server grew by 146 MB, for good. Now the panel is bounded,
    whole panels are rate-limited per client (the rest get a short refusal), and a client whose
    queue is not read gets no pushes: the server stays small and other viewers are served."""
    import socket as socketlib

    import websocket

    url = f"ws://127.0.0.1:{table.port}/socket.io/?EIO=4&transport=websocket"
    before = rss_kib(table.proc.pid)
    flood = websocket.create_connection(
        url, timeout=10, sockopt=((socketlib.SOL_SOCKET, socketlib.SO_RCVBUF, 4096),)
    )
    try:
        assert flood.recv().startswith("0{")  # Engine.IO open
        flood.send("40")  # Socket.IO connect, no token: a viewer
        assert any(flood.recv().startswith("40{") for _ in range(20)), "no Socket.IO connect"
        for ack in range(1, 301):
            flood.send(f'42{ack}["devices",{{}}]')
        # meanwhile an ordinary viewer still gets the panel
        client = live_client()
        join(client, table.base)
        try:
            assert "devices" in panel_of(client)
        finally:
            client.disconnect()
        grown = rss_kib(table.proc.pid) - before
        assert grown < 30 * 1024, f"the server grew by {grown} KiB"
        # now read what the flood got: a few whole panels, the rest short refusals
        flood.settimeout(10)
        panels = refusals = 0
        dropped = False
        try:
            while panels + refusals < 300:
                frame = flood.recv()
                if frame.startswith("43"):
                    body = frame[frame.index("[") :]
                    if '"devices":[' in body:
                        panels += 1
                    elif "devices/too-many-requests" in body:
                        refusals += 1
        except websocket.WebSocketConnectionClosedException:
            dropped = True  # the server may drop a client that keeps asking without reading
        assert panels <= 40, f"{panels} whole panels built for one viewer"
        assert dropped or refusals == 300 - panels
    finally:
        flood.close()


@needs_chromium
def test_the_table_display_asks_to_roll_again_when_a_tower_lost_rolls(
    browser: Tabs, tmp_path: Path
) -> None:
    """Issue 16, finding 3: a tower's drop report becomes a notice that stays on the table
    display (not only a passing toast), also for a display opened after it."""
    import json

    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion
    from playwright.sync_api import expect

    from bridge.devices.local import LocalBroker

    if MOSQUITTO is None:
        pytest.skip("mosquitto not installed (make system-deps installs it as root)")
    broker = LocalBroker.start_new()
    served = serve(tmp_path / "lost.db", "--sim", "off", "--mqtt", broker.url)
    host = live_client()
    tower = mqtt.Client(CallbackAPIVersion.VERSION2)
    topic = "herald/t1/devices/tower-9/"
    try:
        tower.connect("127.0.0.1", broker.port)
        tower.loop_start()
        hello = {"t": "hello", "v": 1, "device": "tower-9", "device_kind": "dice_tower",
                 "fw": "0.1.0", "proto": 1, "boot": 2}  # fmt: skip
        tower.publish(topic + "info", json.dumps(hello), qos=1, retain=True).wait_for_publish(5)
        join(host, served.base, served.host_token)

        def pending() -> bool:
            waiting = host.call("devices", {}, timeout=5).get("pairing", {}).get("pending", [])
            return any(p["device"] == "tower-9" for p in waiting)

        wait_for(pending, what="the tower waiting for the host")
        assert host.call("device_pair", {"device": "tower-9", "seat": None}, timeout=5)["ok"]
        report = {"v": 1, "device": "tower-9", "boot": 2, "seq": 1, "kind": "dropped",
                  "count": 3, "first": 4, "last": 6}  # fmt: skip
        page = browser.table()
        page.goto(served.table_url)
        box = page.locator('#devices li[data-device="tower-9"]')
        expect(box).to_be_visible(timeout=30_000)
        tower.publish(topic + "event", json.dumps(report), qos=1).wait_for_publish(5)
        shown = '#device-notices li[data-code="devices/lost-rolls"]'
        lost = page.locator(shown)
        expect(lost).to_have_count(1, timeout=30_000)
        expect(lost).to_contain_text("3 rolls")
        expect(lost).to_contain_text("Roll again")
        page.locator("#devices-box").scroll_into_view_if_needed()
        shot(page, SERVER_SHOTS, "table-lost-rolls.png")
        later = browser.new_page()  # a display opened afterwards still shows it
        later.goto(served.table_url)
        expect(later.locator(shown)).to_have_count(1, timeout=30_000)
    finally:
        host.disconnect()
        tower.loop_stop()
        tower.disconnect()
        served.stop()
        broker.stop()
