"""Issue 14: five phones (browser contexts at 360×640, touch) play a whole game of Burn the
Witch through taps alone on the local stack: the create form offers it with its player
range, the lobby names it, every step's screen (the witching hour with the coven's pop-up,
accuse, vote with a ballot per villager, execute, trials and hex choices when the deal
brings them, the end with the story), the house behind press-and-hold, one reload mid-game
(same seat, same screen), and a contrast and label audit of every screen seen.
Screenshots go to build/test-artifacts/btw-*.png."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.btw_ui_table import NAMES, Table, open_room
from tests.support.local_stack_process import LocalStackProcess
from tests.support.ui_table import ARTIFACTS, CONTRAST_JS


@pytest.fixture(scope="module")
def stack():
    process = LocalStackProcess()  # no bots: the five phones are the table
    yield process
    process.interrupt()


def held_house(page: Page, shot: str = "") -> str:
    """What the house panel shows while the bar is held (a screenshot `shot`); released, it
    hides again."""
    bar = page.locator("#btw-hold")
    bar.dispatch_event("pointerdown")
    text = page.locator("#btw-sheet").inner_text()
    if shot:
        page.screenshot(path=ARTIFACTS / f"{shot}.png")
    bar.dispatch_event("pointerup")
    expect(page.locator("#btw-sheet")).to_be_hidden()
    return text


def test_five_phones_play_a_whole_game_of_burn_the_witch_through_taps(stack, phones):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table = Table(phones, stack.http_url, seed=14)
    problems: list[str] = []

    def audit(name: str, page: Page, screen: dict) -> None:
        """Each step's screen, once: a screenshot, contrast ≥ 4.5:1, every control named."""
        shot = f"btw-{screen['shown']}"
        page.screenshot(path=ARTIFACTS / f"{shot}.png")
        problems.extend(f"{shot}: {p}" for p in page.evaluate(CONTRAST_JS))

    table.on_new_screen = audit
    open_room(table)
    table.pages["Ann"].locator("#start").click()
    for page in table.pages.values():
        expect(page.locator("main")).to_have_attribute(
            "data-phase", "witching_hour", timeout=15_000
        )

    # The witching hour: the same scene on every phone, and inside it the same pop-up with
    # Left and Right (the coven holder's bewitches; the others' is a harmless guess).
    def shape(page: Page) -> tuple:
        boxes = [page.locator(".btw-scene").bounding_box()]
        boxes += [b.bounding_box() for b in page.locator(".witch-popup button").all()]
        return tuple((round(b["width"]), round(b["height"]), round(b["y"])) for b in boxes)

    shapes = {name: shape(page) for name, page in table.pages.items()}
    assert len(set(shapes.values())) == 1, shapes
    assert len(shapes["Ann"]) == 3, shapes  # the scene and its two buttons
    houses = {name: held_house(page, f"btw-house-{name}") for name, page in table.pages.items()}
    for name, text in houses.items():
        assert re.search(r"Innocents: \d+ \(devout among them: \d+\) · Witches: \d+", text), (
            name,
            text,
        )
        assert re.search(r"Zealot|Sympathizer", text), text

    # Mid-game a phone reloads: same seat, same screen.
    cy = table.pages["Cy"]
    table.play(until=lambda: table.phase("Cy") in ("vote", "execute", "game_over"), timeout=120)
    phase = table.phase("Cy")
    cy.reload()
    expect(cy.locator("main")).to_have_attribute("data-phase", phase, timeout=10_000)
    if phase != "game_over":
        assert held_house(cy) == houses["Cy"]  # the same house, dealt the same
        expect(cy.locator(".house.mine h3")).to_contain_text("Cy")

    table.play(until=lambda: all(table.phase(n) == "game_over" for n in NAMES), timeout=600)
    for name in NAMES:
        table.act(name)  # the result screen, audited too

    ann = table.pages["Ann"]
    expect(ann.locator("h1")).to_contain_text(re.compile(r"The (Zealots|Sympathizers) win"))
    expect(ann.locator("main")).to_contain_text("Round 1")
    expect(ann.locator(".story-round").first).to_be_visible()
    seen = {phase for phases in table.phases.values() for phase in phases}
    assert {"witching_hour", "accuse", "vote", "execute", "game_over"} <= seen, seen
    assert problems == [], problems
    # Back to the lobby: the room still plays Burn the Witch, and Start reads Play again.
    ann.locator("#to-lobby").click()
    expect(ann.locator(".game-name")).to_contain_text("Burn the Witch")
    expect(ann.locator(".last-result")).to_contain_text(re.compile(r"(Zealots|Sympathizers) win"))
    expect(ann.locator("#start")).to_contain_text("Play again")


def test_with_timers_on_an_accusation_nobody_makes_runs_out_on_every_phone(stack, phones):
    """§6: timers on (30 s, set on the create form); nobody taps. The witching hour ends by
    itself, then the accuser's 30 s run out: the accuser burns a villager of their own, told
    on every phone with the countdown of that choice."""
    table = Table(phones, stack.http_url, seed=2)
    open_room(table, timer_seconds=30)
    ann = table.pages["Ann"]
    expect(table.pages["Bo"].locator("main")).to_contain_text(
        "Timers on accuse, vote and execute: 30 s"
    )
    ann.locator("#start").click()
    for page in table.pages.values():
        expect(page.locator("main")).to_have_attribute("data-phase", "accuse", timeout=45_000)
    expect(ann.locator("header .countdown")).to_contain_text(re.compile(r"[1-3]?\d s"))
    for page in table.pages.values():
        expect(page.locator("main")).to_have_attribute(
            "data-phase", "choose_villager", timeout=45_000
        )
        expect(page.locator("main h1")).to_contain_text("Out of time")
        expect(page.locator(".news")).to_contain_text(re.compile(r"ran out of time \(Accuse\)"))
        expect(page.locator("header .countdown")).to_be_visible()


def test_the_host_switches_the_rooms_game_in_the_lobby(stack, phones):
    """A room made for Catch the Witch: the host taps Burn the Witch (`settings` with `game`,
    docs/protocol.md); every phone's lobby names it with its range and settings, and Start
    says what is missing until five are seated. Needs the room service's game choice."""
    table = Table(phones, stack.http_url, seed=1)
    ann = table.pages["Ann"]
    ann.goto(table.base_url + "/")
    ann.fill("#name", "Ann")
    ann.locator("main button.big").last.click()  # Catch the Witch, preselected
    expect(ann.locator(".game-name")).to_contain_text(
        "Catch the Witch · 4–12 players", timeout=15_000
    )
    room = ann.locator("p.code").inner_text().strip()
    for name in NAMES[1:4]:
        page = table.pages[name]
        page.goto(f"{table.base_url}/?room={room}")
        page.fill("#name", name)
        page.locator("main .panel button.big").first.click()
        expect(page.locator("p.code")).to_have_text(room, timeout=15_000)
    expect(ann.locator("#start")).to_be_enabled()  # four cats: enough for Catch the Witch

    ann.locator(".game-choice button", has_text="Burn the Witch").click()
    expect(ann.locator(".game-name")).to_contain_text("Burn the Witch · 5–10 players")
    expect(table.pages["Bo"].locator(".game-name")).to_contain_text("Burn the Witch")
    expect(ann.locator("#btw-first-accuser")).to_be_visible()
    expect(ann.locator(".start-bar [role=status]")).to_contain_text("needs 5 to 10 players")
    expect(ann.locator("#start")).to_be_disabled()
    ann.select_option("#btw-first-accuser", "Cy")  # the host's pick, sent at once
    expect(table.pages["Di"].locator("main")).to_contain_text("First accuser: Cy")
    expect(ann.locator("footer a")).to_have_attribute("href", re.compile(r"game=burn_the_witch"))

    eve = table.pages["Eve"]
    eve.goto(f"{table.base_url}/?room={room}")
    eve.fill("#name", "Eve")
    eve.locator("main .panel button.big").first.click()
    expect(ann.locator("#start")).to_be_enabled(timeout=15_000)
    ann.locator("#start").click()
    expect(eve.locator("main")).to_have_attribute("data-phase", "witching_hour", timeout=15_000)
    expect(eve.locator("#btw-hold")).to_be_visible()
