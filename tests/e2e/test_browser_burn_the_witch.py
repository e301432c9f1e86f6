"""Five phones (browser contexts at 360×640, touch) play a whole game of Burn the
Witch through taps alone on the local stack: the create form offers it with its player
range, the lobby names it, every step's screen (the witching hour with the coven's pop-up,
accuse, vote with a ballot per villager, execute, trials and hex choices when the deal
brings them, the end with the story), the house behind press-and-hold, one reload mid-game
(same seat, same screen), and a contrast and label audit of every screen seen.
Screenshots go to build/test-artifacts/btw-*.png."""

import random
import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.support.btw_ui_table import NAMES, SCREEN_JS, Table, choose, open_room
from tests.support.local_stack_process import BROWSER_TIME_SCALE, LocalStackProcess
from tests.support.strings import strings
from tests.support.ui_table import ARTIFACTS, CONTRAST_JS


@pytest.fixture(scope="module")
def stack():
    # no bots: the five phones are the table
    process = LocalStackProcess(time_scale=BROWSER_TIME_SCALE)
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


def dealt(house: str) -> str:
    """The held house's dealt identities (counts and devout)."""
    found = re.search(r"Innocents: \d+ \(devout among them: \d+\) · Witches: \d+", house)
    assert found, house
    return found.group(0)


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
    for text in houses.values():
        dealt(text)
        assert re.search(r"Zealot|Sympathizer", text), text

    # Mid-game a phone reloads: same seat, same screen.
    cy = table.pages["Cy"]
    table.play(until=lambda: table.phase("Cy") in ("vote", "execute", "game_over"), timeout=120)
    phase = table.phase("Cy")
    cy.reload()
    expect(cy.locator("main")).to_have_attribute("data-phase", phase, timeout=10_000)
    if phase != "game_over":
        # The same house, dealt the same (the faction may have changed: bewitched, §2).
        assert dealt(held_house(cy)) == dealt(houses["Cy"])
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


#: The phones of the timers test, each in its own language (Ann and Bo in English: the
#: lobby's checks in open_room read English).
LANGUAGE_OF = {"Ann": "en", "Bo": "en", "Cy": "zh-Hant", "Di": "uk", "Eve": "th"}
STRINGS = {code: strings(code) for code in set(LANGUAGE_OF.values())}


def say(name: str, key: str, **params: object) -> str:
    """A string as `name`'s phone shows it (frontend/js/i18n.js `t`)."""
    text = STRINGS[LANGUAGE_OF[name]][key]
    return re.sub(r"\{(\w+)\}", lambda found: str(params[found.group(1)]), text)


def ran_out_line(name: str, player: str, step: str) -> str:
    return say(name, "btw_story_timed_out", player=player, step=say(name, "btw_phase_" + step))


class TimersTable:
    """The timers test's five phones: nobody taps while a step's timer is let run out."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.pages = table.pages
        #: The kinds of timer seen running out, each checked on every phone.
        self.ran_out: list[str] = []

    def screen(self, name: str) -> dict:
        return self.pages[name].evaluate(SCREEN_JS)

    def actor(self) -> str:
        """The one phone this step waits for (the accuser, executioner or chooser)."""
        acting = [n for n in NAMES if choose(self.screen(n), random.Random(0)) is not None]
        assert len(acting) == 1, acting
        return acting[0]

    def all_in(self, phase: str, timeout: float = 15_000) -> None:
        for page in self.pages.values():
            expect(page.locator("main")).to_have_attribute("data-phase", phase, timeout=timeout)

    def countdown_everywhere(self) -> None:
        for page in self.pages.values():
            expect(page.locator("header .countdown")).to_have_text(re.compile(r"\d"))

    def told(self, name: str, text: str) -> int:
        """How many lines of `name`'s news (or of the story, once the game is over) read
        `text`."""
        return self.pages[name].locator(".news li, .story-round li").filter(has_text=text).count()

    def runs_out(self, step: str, player: str, kind: str) -> None:
        """Nobody taps: every phone shows the countdown, then, once it runs out, names the
        step and whose time ran out in the news, in its own language (in the story if the
        engine's pick ended the game)."""
        self.countdown_everywhere()
        before = {n: self.told(n, ran_out_line(n, player, step)) for n in NAMES}
        end = time.monotonic() + 60
        for name in NAMES:
            line = ran_out_line(name, player, step)
            while self.told(name, line) <= before[name]:
                assert time.monotonic() < end, f"{name}'s phone never told {line!r}"
                time.sleep(0.2)
        self.ran_out.append(kind)

    def tap_until(
        self, done: Callable[[], bool], hold: Callable[[dict], bool], timeout: float
    ) -> None:
        """Every phone taps what its screen offers until `done`, but where `hold(screen)`
        (judged on the very screen it would tap: a step may begin between two looks)."""
        end = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < end, f"timed out; phases {self.table.phases}"
            for name in NAMES:
                self.table.act(name, hold)
            time.sleep(0.05)


def test_with_timers_on_every_kind_of_timer_runs_out_on_every_phone(double_speed_stack, phones):
    """§6 with timers on at 30 s (the create form), five phones in four languages. Nobody taps
    until each kind of timer has run out once: the witching hour, the accusation, the
    accuser's villager to lose, a vote (one player never votes), an execution, and the first
    Trial by Fire, hex choice and retribution the deal brings (the server deals at random:
    a test cannot fix the deal, so these come or not). Each is checked on every phone:
    the countdown shows, then the news names whose time ran out and the step, in the
    phone's language, and the game goes on. Everything else is played by taps to the end.

    In the vote, Bo casts burn on every villager, then changes to save and casts again
    (§3.2: changeable until the last vote is in); the counts shown on every phone are the
    changed ballot's. The witching hour and the trial always run their fixed length (§2,
    §4): no news line names them (the coven's would tell who holds it); the trial's end
    shows its points instead."""
    table = Table(phones, double_speed_stack.http_url, seed=2)
    timers = TimersTable(table)
    open_room(table, timer_seconds=30)
    ann = table.pages["Ann"]
    expect(table.pages["Bo"].locator("main")).to_contain_text(
        "Timers on accuse, vote and execute: 30 s"
    )
    for name, code in LANGUAGE_OF.items():
        if code != "en":
            table.pages[name].select_option("#language", code)
    ann.locator("#start").click()

    # The witching hour: its countdown on the scene and in the strip; it ends by itself.
    timers.all_in("witching_hour")
    for page in table.pages.values():
        expect(page.locator(".btw-clock")).to_have_text(re.compile(r"\d"))
    timers.countdown_everywhere()
    timers.all_in("accuse", timeout=45_000)
    timers.ran_out.append("witching_hour")

    # The accusation runs out: the accuser loses a villager of their own, chosen by them;
    # that choice runs out too, and the engine picks.
    accuser = timers.actor()
    timers.runs_out("accuse", accuser, "accuse")
    timers.all_in("choose_villager")
    assert timers.actor() == accuser
    timers.runs_out("choose_villager", accuser, "choose_villager")

    def to_let_run_out(screen: dict) -> bool:
        """Whether a phone's screen (SCREEN_JS) shows a step whose timer this test has not
        yet let run out (the phone taps nothing there)."""
        phase = screen["phase"]
        if phase == "choose_villager":  # a hex's choice: "☠️"; a penalty's or trial's: "🔥"
            return screen["heading"].startswith("☠️") and "hex" not in timers.ran_out
        return phase in ("trial", "vote", "execute", "retribution") and phase not in timers.ran_out

    def over() -> bool:
        return all(table.phase(n) == "game_over" for n in NAMES)

    def every_phone_waits() -> bool:
        return over() or all(to_let_run_out(timers.screen(n)) for n in NAMES)

    every_kind = {"witching_hour", "accuse", "choose_villager", "vote", "execute"}
    end = time.monotonic() + 600
    while True:
        while not over():
            assert time.monotonic() < end, f"timed out; ran out {timers.ran_out}"
            timers.tap_until(every_phone_waits, to_let_run_out, timeout=end - time.monotonic())
            if over():
                break
            phase = table.phase("Ann")
            if phase == "trial":
                trial_runs_out(timers)
            elif phase == "vote":
                vote_changed_then_runs_out(timers)
            elif phase in ("execute", "retribution"):
                timers.runs_out(phase, timers.actor(), phase)
            else:
                timers.runs_out("choose_villager", timers.actor(), "hex")
        for name in NAMES:
            expect(table.pages[name].locator("main h1")).to_have_text(re.compile(r"\S"))
        if every_kind <= set(timers.ran_out):
            break
        # The deal decides whether a kind comes up before the end: a vote's runner-out burns
        # a villager of their own (§6), which may end the game before any execution. The
        # table plays again, and the kinds still missing run out in the next game.
        assert time.monotonic() < end, f"timed out; ran out {timers.ran_out}"
        ann.get_by_role("button", name=say("Ann", "to_lobby")).click()
        ann.locator("#start").click()
        timers.all_in("witching_hour", timeout=30_000)
    print("timers run out:", timers.ran_out)


def trial_runs_out(timers: TimersTable) -> None:
    """§4: nobody points; the sand runs out (2 minutes, by the book, timers or not) and every
    phone's news tells the trial: nobody pointed, and who burns one of their own."""
    for page in timers.pages.values():
        expect(page.locator(".trial-clock .btw-clock")).to_have_text(re.compile(r"\d"))
    timers.countdown_everywhere()
    for name in NAMES:
        nobody = say(name, "btw_story_trial_n", n="\0", points=say(name, "btw_nobody_pointed"),
                     chosen="\0")  # fmt: skip
        told = re.compile(".+".join(re.escape(part) for part in nobody.split("\0")))
        expect(timers.pages[name].locator(".news")).to_contain_text(told, timeout=150_000)
    timers.ran_out.append("trial")


def vote_changed_then_runs_out(timers: TimersTable) -> None:
    """Bo burns, casts, changes to save and casts again; every other voter but one saves;
    the last never votes and runs out of time. Every phone shows the counts of the changed
    ballot (no burn), never the first (§3.2)."""
    pages = timers.pages
    voters = [n for n in NAMES if pages[n].locator(".ballot-row").count()]
    changer = "Bo" if "Bo" in voters else voters[0]
    silent = next(n for n in reversed(voters) if n != changer)
    timers.countdown_everywhere()
    bo = pages[changer]
    rows = bo.locator(".ballot-row").count()
    for choice, burn, save in (("burn", rows, 0), ("save", 0, rows)):
        for row in range(rows):
            button = bo.locator(".ballot-row").nth(row).locator(f"button.{choice}")
            button.click()
            expect(button).to_have_attribute("aria-pressed", "true")
        bo.locator("#btw-cast").click()
        expect(bo.locator(".ballot [role=status]")).to_contain_text(
            say(changer, "btw_your_vote", burn=burn, save=save)
        )
    saved = 0
    for name in voters:
        if name == silent:
            continue
        page = pages[name]
        count = page.locator(".ballot-row").count()
        saved += count
        if name == changer:
            continue
        for row in range(count):
            page.locator(".ballot-row").nth(row).locator("button.save").click()
        page.locator("#btw-cast").click()
        expect(page.locator(".ballot [role=status]")).to_be_visible()
    timers.runs_out("vote", silent, "vote")
    for name in NAMES:
        counts = say(
            name, "btw_story_vote", burn=0, save=saved, outcome=say(name, "btw_outcome_save")
        )
        expect(pages[name].locator(".news")).to_contain_text(counts)


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
