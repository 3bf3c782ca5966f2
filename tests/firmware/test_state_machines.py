"""Firmware state machines on CPython, driven with exact timings (no hardware, no sleeping)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware.debounce import Button
from firmware.dice_tower import DiceTower, RollDetector
from firmware.led import AMBER, DARK, GREEN, ILLEGAL_MS, RED, Led
from firmware.outbox import BootCounter, Outbox
from firmware.seat_box import SeatBox


def run_levels(button: Button, levels: list[tuple[int, int]], step: int = 1) -> list[str]:
    """Feed (level, duration_ms) segments at 1 ms polling; collect what the button reports."""
    out, now = [], 0
    for level, duration in levels:
        for _ in range(0, duration, step):
            action = button.update(level, now)
            if action:
                out.append(action)
            now += step
    return out


def test_clean_press_and_hold() -> None:
    assert run_levels(Button("b"), [(1, 50), (0, 100), (1, 100)]) == ["press"]
    assert run_levels(Button("b", hold_ms=800), [(1, 50), (0, 1000), (1, 100)]) == ["hold"]


def test_glitch_shorter_than_debounce_is_ignored() -> None:
    assert run_levels(Button("b", debounce_ms=30), [(1, 50), (0, 20), (1, 100)]) == []


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(1, 5)), max_size=10), st.integers(1, 6))
def test_contact_bounce_yields_exactly_one_press(bounce: list[tuple[int, int]], gap: int) -> None:
    """Any burst of bounces (each under 30 ms in all) around one real press: one press."""
    trimmed, total = [], 0
    for level, ms in bounce:
        if total + ms >= 29:
            break
        trimmed.append((level, ms))
        total += ms
    levels = [(1, 60), *trimmed, (0, 200), *trimmed, (1, 100)]
    assert run_levels(Button("b"), levels) == ["press"]


class Rgb:
    def __init__(self) -> None:
        self.colors: list[tuple[int, int, int]] = []

    def set(self, r: int, g: int, b: int) -> None:
        self.colors.append((r, g, b))


def test_led_patterns_and_illegal_reverts() -> None:
    rgb = Rgb()
    led = Led(rgb)
    led.show("your-turn", 0)
    led.update(0)
    assert rgb.colors[-1] == GREEN
    led.show("illegal", 100)
    led.update(100)
    assert rgb.colors[-1] == RED
    led.update(200)
    assert rgb.colors[-1] == DARK
    led.update(100 + ILLEGAL_MS)
    assert led.pattern == "your-turn" and rgb.colors[-1] == GREEN
    led.show("waiting", 5000)
    led.update(5000)
    assert rgb.colors[-1] == AMBER
    led.update(5600)
    assert rgb.colors[-1] == DARK


class Store:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}
        self.writes = 0

    def load(self, key: str) -> str | None:
        return self.data.get(key)

    def save(self, key: str, value: str) -> None:
        self.data[key] = value
        self.writes += 1


def test_every_boot_has_a_new_epoch_for_one_flash_write() -> None:
    """Events are ``(boot, seq)``: seqs restart at 1 in every boot, so the boot must never
    repeat, and counting it costs one flash write per start."""
    store = Store()
    boots = [BootCounter(store).boot for _ in range(5)]
    assert boots == [1, 2, 3, 4, 5] and store.writes == 5
    counter = BootCounter(store)
    assert counter.bump(40) == 40 and BootCounter(store).boot == 41


def test_outbox_resends_with_backoff_until_settled() -> None:
    box = Outbox(limit=2, retry_ms=100, max_retry_ms=400)
    box.add(1, {"seq": 1})
    assert [s for s, _ in box.due(0)] == [1]
    assert box.due(50) == []
    assert [s for s, _ in box.due(100)] == [1]
    assert box.due(250) == [] and [s for s, _ in box.due(300)] == [1]  # 200 ms later
    box.add(2, {"seq": 2})
    box.add(3, {"seq": 3})  # full: the oldest is dropped
    assert box.dropped == 1 and box.settle(2) and not box.settle(2)
    box.resend_all()
    assert [s for s, _ in box.due(301)] == [3]


class Pin:
    def __init__(self) -> None:
        self.level = 1

    def value(self) -> int:
        return self.level


def test_seat_box_emits_events_and_obeys_commands() -> None:
    pins = {"confirm": Pin(), "pass": Pin(), "undo": Pin()}
    rgb = Rgb()
    box = SeatBox("seat-red", "red", pins, rgb, Store())
    now = 0
    for level, ms in [(1, 50), (0, 100), (1, 100)]:
        pins["pass"].level = level
        for _ in range(ms):
            box.poll(now)
            now += 1
    assert len(box.outbox) == 1
    ((seq, msg),) = box.outbox.due(now)
    assert msg == {
        "v": 1, "device": "seat-red", "boot": 1, "seq": seq, "kind": "button",
        "seat": "red", "button": "pass", "action": "press",
    }  # fmt: skip
    box.on_command({"t": "ack", "seq": seq, "boot": 1}, now)
    assert len(box.outbox) == 0
    box.on_command({"t": "led", "pattern": "your-turn"}, now)
    box.poll(now)
    assert rgb.colors[-1] == GREEN
    box.on_command({"t": "led", "pattern": "rainbow"}, now)  # unknown: ignored
    assert box.led.pattern == "your-turn"
    box.on_command({"t": "nak", "seq": 99, "code": "devices/bad-field"}, now)
    assert box.led.pattern == "illegal"


def detect(events: list[tuple[int, bool, list[int | None] | None]], **kw) -> list[list[int]]:
    """Replay (ms, beam, faces) changes at 5 ms polling until the last change + 1 s."""
    det = RollDetector(2, **kw)
    rolls = []
    state = (False, None)
    changes = dict((t, (b, f)) for t, b, f in events)
    end = max(changes) + 1000
    for now in range(0, end, 5):
        state = changes.get(now, state)
        result = det.update(state[0], state[1], now)
        if result is not None:
            rolls.append(result)
    return rolls


def test_a_drop_that_settles_is_one_roll() -> None:
    assert detect([(0, True, None), (20, False, None), (200, False, [4, 2])]) == [[4, 2]]


def test_toppling_die_restarts_the_settle_wait() -> None:
    events = [(0, True, None), (20, False, None), (200, False, [4, 2]), (400, False, [4, 5])]
    assert detect(events) == [[4, 5]]


def test_picking_up_and_putting_back_is_not_a_roll() -> None:
    events = [(0, False, [3, 3]), (100, False, None), (300, False, [6, 6]), (900, False, [1, 6])]
    assert detect(events) == []


def test_a_beam_glitch_or_a_drop_that_never_settles_is_not_a_roll() -> None:
    assert detect([(0, True, None), (1, False, [2, 2])], beam_ms=3) == []  # < beam_ms
    det = RollDetector(2, max_tumble_ms=500)
    det.update(True, None, 0)
    det.update(True, None, 10)
    for now in range(20, 1000, 10):
        assert det.update(False, [1, None], now) is None
    assert det.false_triggers == 1


def test_dice_tower_manual_buttons() -> None:
    pins = {"die0": Pin(), "die1": Pin(), "send": Pin()}
    tower = DiceTower(
        "tower-1", [{"sides": 6}, {"sides": 4, "color": "red"}], Store(), buttons=pins
    )
    now = 0
    for name in ["die0", "die0", "die1", "die1", "die1", "die1", "send"]:
        for level, ms in [(0, 60), (1, 60)]:
            pins[name].level = level
            for _ in range(ms):
                tower.poll(now)
                now += 1
    ((_, msg),) = tower.outbox.due(now)
    assert msg["dice"] == [{"sides": 6, "value": 3}, {"sides": 4, "value": 1, "color": "red"}]


def press_code(box: SeatBox, pins: dict[str, Pin], digits: str, now: int) -> int:
    """Press ``digits`` (1 confirm, 2 pass, 3 undo) on the box, 100 ms down and up each."""
    from firmware.pairing import BUTTON_OF

    for digit in digits:
        for level in (0, 1):
            pins[BUTTON_OF[digit]].level = level
            for _ in range(100):
                box.poll(now)
                now += 1
    return now


def test_an_answer_to_a_pairing_request_drops_the_digits_pressed_before_it() -> None:
    """Issue 25, point 9: digits of a second entry of a code, pressed while Herald's answer to
    the first was on its way, stayed in the box; the next code entered started with them and
    every code after was wrong. Herald's answer now starts the entry afresh."""
    pins = {"confirm": Pin(), "pass": Pin(), "undo": Pin()}
    box = SeatBox("seat-red", None, pins, Rgb(), Store())
    code = "123123123123"
    now = press_code(box, pins, code, 0)
    (request,) = box.take_control(now)
    assert request["code"] == code
    now = press_code(box, pins, code[:5], now)  # the same code again, interrupted
    box.on_command({"t": "unpaired", "code": "devices/pairing-closed"}, now)
    now = press_code(box, pins, "321321321321", now)
    (request,) = box.take_control(now)
    assert request["code"] == "321321321321"


def test_a_pairing_request_is_sent_again_until_herald_answers_it() -> None:
    """A request published before Herald listened was lost (the server then re-entered codes
    every 3 s, which piled entries up on a loaded machine). The box sends it again itself, and
    waits as long as Herald asks when it is being slowed down."""
    pins = {"confirm": Pin(), "pass": Pin(), "undo": Pin()}
    box = SeatBox("seat-red", None, pins, Rgb(), Store())
    now = press_code(box, pins, "222222222222", 0)
    assert len(box.take_control(now)) == 1
    assert box.take_control(now + 100) == []
    assert len(box.take_control(now + box.PAIR_RESEND_MS)) == 1
    now += box.PAIR_RESEND_MS
    box.on_command({"t": "unpaired", "code": "devices/pair-wait", "retry_ms": 9000}, now)
    assert box.take_control(now + box.PAIR_RESEND_MS) == []
    assert len(box.take_control(now + 9000)) == 1
    box.on_command({"t": "paired", "role": "seat", "seat": "red"}, now + 9000)
    assert box.take_control(now + 60000) == [] and not box.wants_code()


def test_a_code_entry_a_stall_turned_into_a_hold_is_entered_again_from_the_start() -> None:
    """Issue 25, point 9, under load: a virtual box's process stalled during a press, its loop
    saw the button down past the hold time (a hold starts the entry over), and the code was
    never sent; the server used to type every code again every 3 s, which piled entries up
    (misaligned digits: wrong codes; presses after the pairing: the seat's buttons). Now the
    host hal types a code once, and enters it again, after a hold, only if the entry ended
    without a request."""
    from firmware.hal_host import Script

    pins = {"confirm": Pin(), "pass": Pin(), "undo": Pin()}
    box = SeatBox("seat-red", None, pins, Rgb(), Store())
    script = Script(pins=pins, device=box)
    code = "123321123321"
    script.lines.append(f"pair {code}")
    requests: list[str] = []
    now, stalled = 0, False
    while now < 20_000:
        script.poll(now)
        box.poll(now)
        requests += [m["code"] for m in box.take_control(now)]
        if requests:
            break
        if not stalled and pins["pass"].level == 0:  # the second digit is down: stall 1.5 s
            stalled, now = True, now + 1500
        now += 5
    assert stalled and requests == [code]
    box.on_command({"t": "paired", "role": "seat", "seat": "red"}, now)
    for _ in range(2000):  # nothing more is pressed once the box is paired
        script.poll(now)
        box.poll(now)
        now += 5
    assert len(box.outbox) == 0 and box.take_control(now + 60_000) == []
