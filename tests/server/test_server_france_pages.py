"""France 1429 at the table (issue 13, "Table display"): the map on the table display and the
phones, and a sealed vote that no other page sees before the reveal (digest §10.2: every
family's markers are turned at once).

A real ``herald serve`` resumes a France 1429 session that the move-level simulated table
(seed 1, four seats) has played into a Bishop election: one family has sealed its vote, another
has not. Debian's chromium shows the table display and both families' phones; the second seals
its vote on its phone, and the reveal shows every family's markers. Screenshots go to
``artifacts/pages/`` (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_fixtures import Tabs
from browser_support import PAGES_SHOTS, PHONE_SIZE, needs_chromium, shot
from played_support import PlayedStores, Point, Stop
from srv_support import Served, join, live_client, serve

from engine import codec, get_game
from engine.game import dice_pool
from engine.games.france1429 import war
from engine.games.france1429.state import FranceState

WAIT_MS = 30_000
SEATS = ("blue", "green", "pink", "yellow")
MAX_MOVES = 4000  # the seeded table reaches each situation; more move kinds, longer paths

pytestmark = [needs_chromium, pytest.mark.slow(seconds=40)]


def point(stop: Stop) -> Point:
    """The simulated table (seed 1, four seats) played until ``stop(game, state)``."""
    return Point("france1429", SEATS, seed=1, name=stop.__name__, stop=stop, max_moves=MAX_MOVES)


def half_sealed(game: Any, state: FranceState) -> bool:
    """An election with one sealed vote, waiting for one other family's (a later family whose
    only possible vote makes itself may follow it: issue 25, point 6)."""
    sealed = [s for s, _ in state.sealed.commits]
    election = state.election
    if election is None or election.stage != "vote" or len(sealed) != 1:
        return False
    return len([s for s in game.to_act(state) if s not in sealed]) == 1


def losses_after_a_capture(game: Any, state: FranceState) -> bool:
    """A battle whose roll hit, with a Lord already captured and losses still owed."""
    b = state.battle
    return b is not None and bool(b.hits and b.owing) and any(x.captor for x in state.lords)


@pytest.fixture(scope="module")
def election(
    played: PlayedStores, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Served, str, str]]:
    game = played.get(point(half_sealed), along=ALONG)
    db, state = game.copy(tmp_path_factory.mktemp("france-pages")), game.state
    sealed = state.sealed.commits[0][0]
    waiting = next(s for s in get_game("france1429").to_act(state) if s != sealed)
    served = serve(db, "--game", "france1429", "--sim", "off")
    yield served, sealed, waiting
    served.stop()


@pytest.fixture(scope="module")
def battle(
    played: PlayedStores, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Served, FranceState]]:
    game = played.get(point(losses_after_a_capture), along=ALONG)
    db, state = game.copy(tmp_path_factory.mktemp("france-battle")), game.state
    served = serve(db, "--game", "france1429", "--sim", "off")
    yield served, state
    served.stop()


def opportunity(game: Any, state: FranceState) -> bool:
    """A family the game is not waiting for may play an Opportunity card out of turn."""
    return any(game.window_moves(state, s) for s in SEATS if s not in game.to_act(state))


@pytest.fixture(scope="module")
def window(
    played: PlayedStores, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Served, FranceState]]:
    game = played.get(point(opportunity), along=ALONG)
    db, state = game.copy(tmp_path_factory.mktemp("france-window")), game.state
    served = serve(db, "--game", "france1429", "--sim", "off")
    yield served, state
    served.stop()


def held(page: Any, expr: str) -> Any:
    """Everything a page received and holds (its latest state), as JSON."""
    return page.evaluate(f"JSON.stringify({expr})")


def test_the_map_and_a_sealed_vote_unseen_until_the_reveal(
    browser: Tabs, election: tuple[Served, str, str]
) -> None:
    from playwright.sync_api import expect

    served, sealed_by, voter = election
    errors: list[str] = []
    display = browser.table(errors)
    display.goto(served.host_url + "?lang=en")
    expect(display.locator("#fr-map")).to_be_visible(timeout=WAIT_MS)
    view = display.evaluate("window.heraldTable.latest().view")

    # the map: every Village of the drawing, coloured by its controller; Lords and troop stacks
    spots = view["map"]["villages"]
    assert display.locator("#fr-map .fr-village").count() == len(spots) == len(view["villages"])
    for village in view["villages"]:
        mark = display.locator(f"#fr-map .fr-village[data-village='{village['id']}']")
        assert mark.get_attribute("data-controller") == (village["controller"] or "")
        for seat, troops in village["troops"].items():
            chip = mark.locator(f".fr-stack[data-seat='{seat}']")
            assert chip.get_attribute("data-maa") == str(troops["maa"])
            assert chip.get_attribute("data-knights") == str(troops["knights"])
    lords = view["lords"]
    assert display.locator("#fr-map .fr-lord").count() == len(lords)
    captives = [x for x in lords if x["captor"]]
    assert display.locator("#fr-map .fr-lord.lying").count() == len(captives)
    assert display.locator("#fr-map .fr-fiefs [data-fief]").count() == len(view["map"]["fiefs"])
    assert display.locator("#fr-map .fr-mitre").count() == len(view["map"]["bishoprics"])
    expect(display.locator("#fr-phase")).to_contain_text("Marriages and elections")

    # the election panel: one of the sealed votes is in, and whose, never what it holds
    voters = view["election"]["voters"]
    count = display.locator("#fr-election .fr-sealed-count")
    expect(count).to_have_text(f"Sealed votes in: 1 of {len(voters)}")
    expect(display.locator(f".fr-voters li[data-voter='{sealed_by}']")).to_have_attribute(
        "data-sealed", "yes"
    )
    expect(display.locator(f".fr-voters li[data-voter='{voter}']")).to_have_attribute(
        "data-sealed", "no"
    )

    # the phones: the sealing seat sees its own markers; the other phone and the table do not
    own = browser.phone(errors, locale="en-GB")
    own.goto(served.seat_urls[sealed_by])
    expect(own.locator("#fr-your-vote")).to_be_visible(timeout=WAIT_MS)
    said = own.locator("#fr-your-vote").inner_text()
    assert said.startswith("You sealed: FOR ")
    other = browser.phone(errors, locale="en-GB")
    other.goto(served.seat_urls[voter])
    expect(other.locator("#fr-vote")).to_be_visible(timeout=WAIT_MS)
    # the phone draws the map from the public state (its seat view carries no drawing)
    expect(other.locator("#fr-map .fr-village")).to_have_count(len(spots), timeout=WAIT_MS)
    for page in (display, other, own):  # every label from the catalog, none left as a code
        assert "france1429:ui/" not in page.inner_text("body")
    for page in (display, other):
        assert page.locator("#fr-your-vote").count() == 0
        assert said not in page.inner_text("body")
    assert '"yours"' not in held(display, "window.heraldTable.latest()")
    assert '"yours"' not in held(other, "window.heraldSeat.table()")
    width = other.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_SIZE["width"], f"the phone page scrolls sideways ({width}px)"
    shot(display, PAGES_SHOTS, "france1429-table-election.png")
    shot(other, PAGES_SHOTS, "france1429-phone-vote.png")
    shot(own, PAGES_SHOTS, "france1429-phone-sealed.png")

    # the other family seals FOR the first candidate, DECOY on none: one reveal shows both
    before = held(display, "window.heraldTable.latest().view.last_election")
    other.locator("#fr-vote [data-marker='for'] button[data-choice='1']").click()
    other.locator("#fr-vote [data-marker='decoy'] button[data-choice='0']").click()
    other.locator("#fr-seal").click()
    # the panel may already show an earlier election's reveal (at this point, the Bishop of
    # bishopric 5's): wait for this election's own to reach the table display
    this = view["election"]
    display.wait_for_function(
        """([office, bishopric, before]) => {
          const last = window.heraldTable.latest().view.last_election;
          return !!last && last.office === office && last.bishopric === bishopric
            && JSON.stringify(last) !== before;
        }""",
        arg=[this["office"], this["bishopric"], before],
        timeout=WAIT_MS,
    )
    revealed = display.locator("#fr-last-election")
    expect(revealed).to_be_visible(timeout=WAIT_MS)
    last = display.evaluate("window.heraldTable.latest().view.last_election")
    # every voter's markers are turned; a family left one possible vote after this seal voted
    # by itself (issue 25, point 6) and is turned with them
    assert set(voters) <= {m[0] for m in last["markers"]}
    first = view["election"]["candidates"][0]
    assert [voter, first, ""] in last["markers"]
    for seat in voters:
        expect(revealed.locator(f".fr-markers li[data-seat='{seat}']")).to_contain_text("FOR")
    assert not errors, errors


def test_the_battle_panel_counts_as_the_rules_do(
    browser: Tabs, battle: tuple[Served, FranceState]
) -> None:
    """Both sides' strength points and Battle Dice as digest §9.2 counts them (``war``), the
    roll's hits, who still owes losses (§9.4), and a captured Lord lying on the map (§9.4)."""
    from playwright.sync_api import expect

    served, state = battle
    b = state.battle
    assert b is not None
    errors: list[str] = []
    display = browser.table(errors)
    display.goto(served.host_url + "?lang=en")
    panel = display.locator("#fr-battle")
    expect(panel).to_be_visible(timeout=WAIT_MS)
    assert panel.get_attribute("data-village") == b.village
    for role, seat in (("attacker", b.attacker), ("defender", b.defender)):
        side = panel.locator(f".fr-side[data-side='{role}']")
        assert side.get_attribute("data-seat") == seat
        # an allied family fighting on this side adds its strength points (§9.2)
        allies = getattr(b, "attackers" if role == "attacker" else "defenders", ())
        members = [seat, *(s for s in allies if s != seat)]
        points = sum(war.strength(state, s, b.village) for s in members)
        expect(side.locator(".fr-sp")).to_have_text(str(points))
        expect(side.locator(".fr-dice")).to_have_text(str(war.dice(state, b, seat)))
        expect(side.locator(".fr-hits")).to_have_text(str(b.hits.get(seat, "—")))
        assert ("owing" in (side.get_attribute("class") or "")) == (seat in b.owing)
    for lord in state.lords:
        token = display.locator(f"#fr-map .fr-lord[data-lord='{lord.id}']")
        expect(token).to_have_class("fr-lord lying" if lord.captor else "fr-lord standing")
    assert "france1429:ui/" not in display.inner_text("body")
    polish = browser.phone(errors, locale="pl-PL")
    polish.goto(served.seat_urls[b.defender] + "?lang=pl")
    expect(polish.locator("#fr-battle")).to_contain_text("Obrońca", timeout=WAIT_MS)
    assert "france1429:ui/" not in polish.inner_text("body")
    shot(polish, PAGES_SHOTS, "france1429-phone-battle-pl.png")
    shot(display, PAGES_SHOTS, "france1429-table-battle.png")
    assert not errors, errors


def test_an_opportunity_card_is_offered_out_of_turn_on_its_owners_phone_only(
    browser: Tabs, window: tuple[Served, FranceState]
) -> None:
    """Digest §11.4: an Opportunity card may be played any time but the Draw step (FR-10). The
    phone of a family the game is not waiting for offers each card it may play now, with its
    target; a tap plays it (the rules take it out of turn); no other phone shows the offer."""
    from playwright.sync_api import expect

    served, state = window
    game = get_game("france1429")
    owner = next(s for s in SEATS if s not in game.to_act(state) and game.window_moves(state, s))
    offered = game.window_moves(state, owner)
    errors: list[str] = []
    phone = browser.phone(errors, locale="en-GB")
    phone.goto(served.seat_urls[owner] + "?lang=en")
    buttons = phone.locator("#window .window-move")
    expect(buttons).to_have_count(len(offered), timeout=WAIT_MS)
    expect(phone.locator("#window")).to_contain_text("You may play now, out of turn")
    held_prompt = phone.evaluate("window.heraldSeat.prompt()")
    assert [m["move"]["kind"] for m in held_prompt["window_moves"]] == ["interject"] * len(offered)
    for other in (s for s in SEATS if s != owner):
        page = browser.phone(locale="en-GB")
        page.goto(served.seat_urls[other] + "?lang=en")
        expect(page.locator("#summary")).to_have_attribute("data-state-id", str(
            held_prompt["state_id"]), timeout=WAIT_MS)  # fmt: skip
        mine = page.evaluate("window.heraldSeat.prompt()")
        assert all(m["move"]["seat"] == other for m in (mine or {}).get("window_moves", [])), (
            "another family's cards reached this phone"
        )
        page.close()
    shot(phone, PAGES_SHOTS, "france1429-phone-opportunity.png")
    buttons.first.click()
    expect(phone.locator("#summary")).not_to_have_attribute(
        "data-state-id", str(held_prompt["state_id"]), timeout=WAIT_MS
    )
    assert not errors, errors


def battle_dice_due(game: Any, state: FranceState) -> bool:
    """A battle waiting for both sides' Battle Dice (digest §9.3)."""
    pool = game.dice_pool(state) or []
    colours = {d.get("color") for d in pool}
    return state.battle is not None and {"black", "white"} <= colours


@pytest.fixture(scope="module")
def rolling(
    played: PlayedStores, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Served, FranceState]]:
    game = played.get(point(battle_dice_due), along=ALONG)
    db, state = game.copy(tmp_path_factory.mktemp("france-dice")), game.state
    # no virtual tower: the dice must come from the phone
    served = serve(db, "--game", "france1429", "--sim", "off", "--virtual-devices", "off")
    yield served, state
    served.stop()


def test_a_phone_types_in_the_battle_dice_the_table_rolled(
    browser: Tabs, rolling: tuple[Served, FranceState]
) -> None:
    """Issue 13, "Dice": with no dice tower, the Battle Dice rolled at the table are typed on a
    phone: one row per die the battle waits for, named by side (FR-35: the attacker's black, the
    defender's white), in the phone's language; the roll is taken as the table's (§9.3)."""
    from playwright.sync_api import expect

    served, state = rolling
    b = state.battle
    assert b is not None
    pool = get_game("france1429").dice_pool(state) or []
    before = served.health()["state_id"]
    errors: list[str] = []
    phone = browser.phone(errors, locale="pl-PL")
    phone.goto(served.seat_urls[b.attacker] + "?lang=pl")
    rows = phone.locator("#dice-typed .dice-row")
    expect(rows).to_have_count(len(pool), timeout=WAIT_MS)
    names = rows.locator(".die-name").all_inner_texts()
    attackers = sum(1 for d in pool if d["color"] == "black")
    assert names == ["Kość bitwy atakującego"] * attackers + ["Kość bitwy obrońcy"] * (
        len(pool) - attackers
    )
    send = phone.locator("#dice-typed-send")
    expect(send).to_be_disabled()
    for i in range(len(pool)):
        rows.nth(i).locator("button[data-value='6']").click()
    expect(send).to_be_enabled()
    shot(phone, PAGES_SHOTS, "france1429-phone-dice-typed-pl.png")
    send.click()
    expect(rows).to_have_count(0, timeout=WAIT_MS)  # the roll was taken: no dice are due now
    assert served.health()["state_id"] > before
    assert not errors, errors


def a_move_brings_dice(game: Any, state: FranceState) -> bool:
    """One family to act, one of whose moves leads to a step that awaits the table's dice."""
    acting = game.to_act(state)
    if len(acting) != 1 or acting[0] not in SEATS or dice_pool(game, state):
        return False
    moves = game.legal_moves(state)
    return len(moves) <= 60 and any(dice_move_of(game, state, m) for m in moves)


def dice_move_of(game: Any, state: FranceState, move: Any) -> bool:
    return bool(dice_pool(game, game.apply_unchecked(state, move)))


TOASTS = """document.addEventListener("DOMContentLoaded", () => {
  window.heraldToasts = [];
  const box = document.getElementById("toast");
  new MutationObserver(() => {
    for (const t of box.querySelectorAll(".toast")) window.heraldToasts.push(t.textContent);
  }).observe(box, { childList: true });
});"""
"""Every toast a page raises, kept for the test (a toast leaves the page after a few seconds)."""

EN_ROLL = re.compile(
    r"^“Dice tower 1”: (Battle roll: attacker [\d, ]*, defender [\d, ]*|Disaster die: \d"
    r"|Uprising die: \d|Relic die: \d|.+ rolls \d)$"
)
PL_ROLL = re.compile(
    r"^„Wieża do kości 1”: (Rzut bitwy: atakujący [\d, ]*, obrońca [\d, ]*|Kość katastrofy: \d"
    r"|Kość buntu: \d|Kość relikwii: \d|.+ wyrzuca \d)$"
)


def test_a_dice_toast_only_when_a_step_awaits_dice_and_in_france_faces(
    browser: Tabs, played: PlayedStores, tmp_path: Path
) -> None:
    """Issue 15, point 7 for France 1429: while a family has to move the virtual tower does not
    roll; once a step awaits dice the simulated table hands them to the tower, whose roll is
    toasted once on the table display and on a Polish phone as the log says it (the Battle Dice
    as hit symbols, §9.3: 0-3 a die, not the d6's pips)."""

    played_game = played.get(point(a_move_brings_dice), along=ALONG)
    db, state = played_game.copy(tmp_path, "dice.db"), played_game.state
    game = get_game("france1429")
    (seat,) = game.to_act(state)
    move = next(m for m in game.legal_moves(state) if dice_move_of(game, state, m))
    served = serve(db, "--game", "france1429", "--sim", "table", "--move-delay", "0.05")
    errors: list[str] = []
    phone_client = live_client(reconnection=False)
    try:
        display = browser.table()
        polish = browser.phone(locale="pl-PL")
        for page, url in ((display, served.table_url), (polish, served.seat_urls[seat])):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.add_init_script(TOASTS)
            page.goto(
                url + ("&" if "?" in url else "?") + ("lang=pl" if page is polish else "lang=en")
            )
            page.wait_for_function("() => Array.isArray(window.heraldToasts)", timeout=WAIT_MS)
        # while the family has to move, no step awaits dice: the tower has not rolled
        assert display.evaluate("window.heraldRolls || 0") == 0
        # (the virtual seat boxes may have said they paired: only roll toasts count here)
        assert [t for t in held_toasts(display) if "Dice tower" in t] == []
        assert [t for t in held_toasts(polish) if "Wieża do kości" in t] == []
        # the family moves (from its phone's connection); the step after it awaits dice
        join(phone_client, served.base, served.token(seat))
        sent = codec.encode(move)
        ack = phone_client.call("intent", {"state_id": served.health()["state_id"], "kind": "move",
                                           "move": sent})  # fmt: skip
        assert ack["ok"], ack
        for page in (display, polish):
            page.wait_for_function(
                "() => window.heraldToasts.some((t) => /Dice tower 1|Wieża do kości 1/.test(t))",
                timeout=WAIT_MS * 2,
            )
        english = [t for t in held_toasts(display) if "Dice tower" in t]
        polish_said = [t for t in held_toasts(polish) if "Wieża do kości" in t]
        assert english and polish_said
        assert all(EN_ROLL.match(t) for t in english), english
        assert all(PL_ROLL.match(t) and "wyrzuciło" not in t for t in polish_said), polish_said
        for said in english:  # Battle Dice said as hit symbols, never as a d6's 4-6
            if said.startswith("“Dice tower 1”: Battle roll"):
                assert all(int(n) <= 3 for n in re.findall(r"\d+", said.split(":", 1)[1]))
        # every roll the display received was one a step took, and each was toasted once
        # (one evaluation: the page's script runs nothing in between)
        rolls, toasted, unused = display.evaluate(
            "[window.heraldRolls,"
            " window.heraldToasts.filter((t) => t.includes('Dice tower')).length,"
            " document.querySelectorAll('#rolls li:not(.used)').length]"
        )
        assert rolls == toasted and unused == 0, held_toasts(display)
        shot(display, PAGES_SHOTS, "france1429-table-dice-toast.png")
    finally:
        if phone_client.connected:
            phone_client.disconnect()
        served.stop()
    assert not errors, errors


def held_toasts(page: Any) -> list[str]:
    return [str(t) for t in page.evaluate("window.heraldToasts")]


ALONG = tuple(
    point(stop)
    for stop in (half_sealed, losses_after_a_capture, opportunity, battle_dice_due,
                 a_move_brings_dice)
)  # fmt: skip
"""Every point these tests start at: seed 1 passes them all, so it is played once for all."""
