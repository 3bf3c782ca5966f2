"""France 1429's part of the served round (issue 13, "Tests"): round 10 of seed 5 (four seats),
a round with a Bishop election (digest §10.2) and a battle (§9).

The two phones are the first two families to seal a vote; each casts its vote with its own
buttons. The Bishop election shows how many sealed votes are in and never what they hold until
the reveal, then the markers and the result with its rule; no Socket.IO frame that reaches the
table or the other phone carries a vote's move (the reveal shows the markers, never the move),
and before the reveal neither page shows or holds the seat's own markers. The battle panel
shows both sides' strength points and Battle Dice (§9.2), the roll's hits and who owes losses
(§9.4); the round ends and the display says round 8.
"""

from __future__ import annotations

import json
from typing import Any

from browser_support import Framed
from played_support import Played, Point, Step

from engine.games.france1429 import war
from engine.games.france1429.state import FranceState

SEATS = ("blue", "green", "pink", "yellow")
SEED = 5
ROUND = 10  # seed 5's first round with both an election and a battle (the rules of #27)
WAIT_MS = 60_000


class FranceRound:
    """Round 10 of seed 5 on the table display and the phones of the first two voters."""

    point = Point(
        "france1429", SEATS, seed=SEED, name=f"round {ROUND}",
        stop=lambda game, state: state.round == ROUND,
        until=lambda game, state: state.round != ROUND, max_moves=1000,
    )  # fmt: skip
    round = ROUND
    wait_ms = WAIT_MS

    def __init__(self) -> None:
        self.start: FranceState | None = None
        self.phones_of: list[str] = []
        self.sealed: dict[str, str] = {}  # each phone seat's own "You sealed" line, until reveal
        self.cast: list[str] = []  # the phones that sealed a vote
        self.revealed = False
        self.shot_battle = False

    def phone_seats(self, played: Played) -> list[str]:
        votes = [s for s in played.steps if s.move.get("kind") == "vote"]
        battles = [s for s in played.steps if s.after.battle is not None and s.after.battle.hits]
        assert len(votes) >= 2 and battles, (
            f"round {ROUND} of seed {SEED} no longer has an election and a battle"
        )
        self.phones_of = [v.move["seat"] for v in votes[:2]]  # the first two families to seal
        return self.phones_of

    def at_start(self, display: Framed, phones: dict[str, Framed], played: Played) -> None:
        from playwright.sync_api import expect

        self.start = played.state
        expect(display.page.locator("#fr-map")).to_be_visible(timeout=WAIT_MS)
        expect(display.page.locator("#fr-phase")).to_contain_text(
            f"Round {ROUND} ", timeout=WAIT_MS
        )
        for phone in phones.values():
            expect(phone.page.locator("#fr-map .fr-village").first).to_be_visible(timeout=WAIT_MS)
        display.shot("france1429-round-1-start.png")

    def on_phone(self, step: Step, phones: dict[str, Framed]) -> bool:
        seat = str(step.move.get("seat", ""))
        if step.move.get("kind") != "vote" or seat not in phones:
            return False
        self.cast.append(seat)
        said = cast_on_phone(phones[seat].page, step)
        if said is not None:
            self.sealed[seat] = said
        return True

    def after(self, step: Step, display: Framed, phones: dict[str, Framed]) -> None:
        from playwright.sync_api import expect

        assert self.start is not None
        state: FranceState = step.after
        election = state.election is not None or state.last_election != self.start.last_election
        if election or state.battle is not None:  # the phones too, before looking at them
            for phone in phones.values():
                phone.at(step.after_id, WAIT_MS)
        if state.election is not None and state.election.stage == "vote":
            check_sealed_count(display.page, state)
            check_unseen(display, phones, self.sealed)
            if len(state.sealed.commits) == 1:
                display.shot("france1429-round-2-election-one-sealed.png")
                for s, p in phones.items():
                    p.shot(f"france1429-round-2-phone-{s}.png")
        if state.last_election is not None and not self.revealed and self.cast:
            self.revealed = True
            for s, p in phones.items():
                p.shot(f"france1429-round-3-phone-{s}-revealed.png")
            check_unseen_frames(display, phones, self.cast)
            check_reveal(display.page, state)
            display.shot("france1429-round-3-election-revealed.png")
        b = state.battle
        if b is not None and b.hits and not self.shot_battle:
            self.shot_battle = True
            check_battle(display.page, state)
            named = display.page.locator("#fr-battle h2").inner_text()
            for phone in phones.values():  # the Village by its name, as on the table
                expect(phone.page.locator("#fr-battle h2")).to_have_text(named)
            display.shot("france1429-round-4-battle.png")
            phones[self.phones_of[0]].shot("france1429-round-4-phone-battle.png")

    def at_end(self, display: Framed, phones: dict[str, Framed], played: Played, host: Any) -> None:
        from playwright.sync_api import expect

        assert self.revealed, "no reveal in the round"
        assert self.shot_battle, "no battle roll in the round"
        assert self.cast == self.phones_of, self.cast
        expect(display.page.locator("#fr-phase")).to_contain_text(
            f"Round {ROUND + 1} ", timeout=WAIT_MS
        )
        for phone in phones.values():
            expect(phone.page.get_by_role("banner")).to_contain_text(f"Round {ROUND + 1} ")
        display.shot("france1429-round-5-next-round.png")
        # the whole round's frames: the table and the other phone never got a vote's move
        check_unseen_frames(display, phones, self.cast)
        for page in (display, *phones.values()):
            assert "france1429:ui/" not in page.page.inner_text("body")


def cast_on_phone(page: Any, step: Step) -> str | None:
    """The recorded sealed vote, cast with the phone's buttons; the phone's own line about it
    (None when it was the last vote, which the reveal follows at once)."""
    from playwright.sync_api import expect

    form = page.locator("#fr-vote")
    expect(form).to_be_visible(timeout=WAIT_MS)
    form.locator(f"[data-marker='for'] button[data-choice='{step.move['vote_for']}']").click()
    form.locator(f"[data-marker='decoy'] button[data-choice='{step.move['decoy']}']").click()
    page.locator("#fr-seal").click()
    election = step.after.election
    if election is None or election.stage != "vote":  # the last vote: all are revealed at once
        expect(page.locator("#fr-last-election")).to_be_visible(timeout=WAIT_MS)
        return None
    mine = page.locator("#fr-your-vote")
    expect(mine).to_be_visible(timeout=WAIT_MS)
    said = str(mine.inner_text())
    assert said.startswith("You sealed: ")
    return said


def check_sealed_count(page: Any, state: FranceState) -> None:
    from playwright.sync_api import expect

    from engine.games.france1429 import hear_ye

    voters = hear_ye.voters(state)
    count = page.locator("#fr-election .fr-sealed-count")
    expect(count).to_have_text(f"Sealed votes in: {len(state.sealed.commits)} of {len(voters)}")
    for seat in voters:
        done = "yes" if any(s == seat for s, _ in state.sealed.commits) else "no"
        expect(page.locator(f".fr-voters li[data-voter='{seat}']")).to_have_attribute(
            "data-sealed", done
        )


def check_unseen(display: Framed, phones: dict[str, Framed], sealed: dict[str, str]) -> None:
    """Before the reveal: no page but the sealing seat's shows or holds what it sealed."""
    assert display.page.locator("#fr-your-vote").count() == 0
    for seat, said in sealed.items():
        assert said not in display.page.inner_text("body")
        for other, page in phones.items():
            if other != seat:  # the other phone shows only its own sealed vote, if any
                mine = page.page.locator("#fr-your-vote")
                if other in sealed:
                    assert mine.inner_text() == sealed[other]
                else:
                    assert mine.count() == 0
    check_unseen_frames(display, phones, list(sealed))


def check_unseen_frames(display: Framed, phones: dict[str, Framed], sealed: list[str]) -> None:
    """No frame that reached the table or another phone carries a seat's sealed vote: neither
    the move (``{"kind": "vote", "seat": ..., "vote_for": n, "decoy": n}``, also its choices in
    the seat's own prompt) nor a seat view's own markers (``yours``) on the table."""
    for frame in display.frames:
        assert '"yours"' not in frame, frame[:300]
        assert '"kind":"vote","seat"' not in frame, frame[:300]
    for seat in sealed:
        secret = f'"kind":"vote","seat":"{seat}"'
        for other, page in phones.items():
            if other != seat:
                for frame in page.frames:
                    at = frame.find(secret)
                    assert at < 0, frame[max(0, at - 400) : at + 200]


def check_reveal(page: Any, state: FranceState) -> None:
    from playwright.sync_api import expect

    last = state.last_election
    assert last is not None
    panel = page.locator("#fr-last-election")
    expect(panel).to_be_visible(timeout=WAIT_MS)
    for seat, *_ in last.markers:
        expect(panel.locator(f".fr-markers li[data-seat='{seat}']")).to_be_visible()
    expect(panel.locator(".fr-rule")).not_to_be_empty()
    held = json.loads(page.evaluate("JSON.stringify(window.heraldTable.latest().view)"))
    assert held["last_election"]["markers"] == [list(m) for m in last.markers]
    assert held["last_election"]["winner"] == last.winner


def check_battle(page: Any, state: FranceState) -> None:
    from playwright.sync_api import expect

    b = state.battle
    assert b is not None
    panel = page.locator("#fr-battle")
    expect(panel).to_be_visible(timeout=WAIT_MS)
    assert panel.get_attribute("data-village") == b.village
    for role, seat in (("attacker", b.attacker), ("defender", b.defender)):
        side = panel.locator(f".fr-side[data-side='{role}']")
        expect(side).to_have_attribute("data-seat", seat)
        expect(side.locator(".fr-sp")).to_have_text(str(war.strength(state, seat, b.village)))
        expect(side.locator(".fr-dice")).to_have_text(str(war.dice(state, b, seat)))
        expect(side.locator(".fr-hits")).to_have_text(str(b.hits.get(seat, "—")))
        assert ("owing" in (side.get_attribute("class") or "")) == (seat in b.owing)
