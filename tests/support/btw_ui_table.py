"""Five phones at a table of Burn the Witch, played through the UI only: a room made through
the create form, then every phone taps what its own screen offers (tests/e2e/
test_browser_burn_the_witch.py, and `make screens` through tests/support/screens.py)."""

import random
import re
import time
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.ui_table import LOCALES, Phone

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]

#: What a phone shows, in one round trip: its step and every button a player could tap.
SCREEN_JS = """() => {
  const main = document.querySelector("main");
  const buttons = [...main.querySelectorAll("button")].map((b, index) => ({
    index, id: b.id, cls: b.className, text: b.textContent.trim(), disabled: b.disabled,
    pressed: b.getAttribute("aria-pressed"), popup: Boolean(b.closest(".witch-popup")),
    traits: Boolean(b.closest(".traits-grid")), grid: Boolean(b.closest(".grid")),
    row: (() => { const row = b.closest(".ballot-row");
      return row ? [...main.querySelectorAll(".ballot-row")].indexOf(row) : -1; })(),
    visible: b.offsetParent !== null && !b.closest("details"),
  })).filter((b) => b.visible);
  return { phase: main.dataset.phase, seq: main.dataset.seq, buttons,
           heading: ((main.querySelector("h1") || {}).textContent || "").trim(),
           voted: Boolean(main.querySelector(".ballot [role=status]")),
           error: (main.querySelector(".error") || {}).textContent || null };
}"""


def choose(screen: dict, rng: random.Random) -> int | None:
    """The button a player taps on this screen (None: nothing to do here)."""
    phase = screen["phase"]
    enabled = [b for b in screen["buttons"] if not b["disabled"]]
    pick = lambda options: rng.choice(options)["index"] if options else None  # noqa: E731
    if phase == "witching_hour":
        return pick([b for b in enabled if b["popup"]])
    if phase == "accuse":
        return pick([b for b in enabled if b["traits"]])
    if phase == "vote":
        rows = {b["row"] for b in enabled if b["row"] >= 0}
        for row in sorted(rows):  # one burn or save per villager of the house
            pair = [b for b in enabled if b["row"] == row]
            if not any(b["pressed"] == "true" for b in pair):
                return pick(pair)
        cast = [b for b in enabled if b["id"] == "btw-cast"]
        return cast[0]["index"] if cast and not screen["voted"] else None
    if phase in ("execute", "choose_villager"):
        return pick([b for b in enabled if "villager" in b["cls"].split()])
    if phase == "trial":
        lock = [b for b in enabled if b["id"] == "btw-lock"]
        targets = [b for b in enabled if b["grid"]]
        if any(b["pressed"] == "true" for b in screen["buttons"] if b["grid"]):
            return lock[0]["index"] if lock else None
        return pick(targets)
    if phase == "retribution":
        return pick([b for b in enabled if b["grid"]])
    return None


class Table:
    #: How a phone taps (tests/support/webkit.py has WebKit's).
    phone_type: type[Phone] = Phone

    def __init__(
        self,
        open_phone: Callable[[str], Page],
        base_url: str,
        seed: int,
        names: list[str] = NAMES,
        language: str = "en",
    ) -> None:
        """open_phone(locale): a new phone-sized touch page (tests/conftest.py `phones`); one
        per name, in `language` (a table of one among the local stack's bots: one name)."""
        self.base_url = base_url
        self.rng = random.Random(seed)
        self.pages: dict[str, Page] = {}
        for name in names:
            self.pages[name] = open_phone(LOCALES[language])
        self.acted: dict[str, tuple] = {}
        self.seen: set[str] = set()
        #: Called with (name, page, screen) the first time any phone shows a step, acting in
        #: it or not (screen["shown"]: "<phase>" or "<phase>-your-turn").
        self.on_new_screen: Callable[[str, Page, dict], None] | None = None
        self.phases: dict[str, list[str]] = {name: [] for name in names}

    def phase(self, name: str) -> str:
        return self.pages[name].locator("main").get_attribute("data-phase") or ""

    def act(self, name: str, hold: Callable[[dict], bool] | None = None) -> None:
        """`name`'s phone looks and taps what a player would, unless ``hold(screen)``."""
        page = self.pages[name]
        screen = page.evaluate(SCREEN_JS)
        if not self.phases[name] or self.phases[name][-1] != screen["phase"]:
            self.phases[name].append(screen["phase"])
        self.audit(name, screen)
        if hold is not None and hold(screen):
            return
        # What the tap was made on, not which view drew it: another player's move can bring
        # a new view of the same buttons before the server has taken this one's tap (a lock
        # tapped again there is refused: "Your point is locked").
        key = (
            screen["phase"],
            tuple((b["text"], b["pressed"], b["disabled"]) for b in screen["buttons"]),
        )
        if self.acted.get(name, (None, 0))[0] == key and time.monotonic() - self.acted[name][1] < 5:
            return  # tapped on a screen that looks the same: wait for the server's answer
        index = choose(screen, self.rng)
        if index is None:
            return
        self.acted[name] = (key, time.monotonic())
        # Tapped if still there with the same words (else a view arrived: look again).
        self.phone_type(name, page).tap(
            next(b for b in screen["buttons"] if b["index"] == index), screen["seq"]
        )

    def audit(self, name: str, screen: dict) -> None:
        """The first time any phone shows a step, acting in it or watching ("-your-turn")."""
        if screen["phase"] in ("home", "lobby"):
            return  # not a step of the game (the lobby, just before the first view)
        acting = choose(screen, random.Random(0)) is not None
        shown = screen["phase"] + ("-your-turn" if acting else "")
        if shown in self.seen:
            return
        self.seen.add(shown)
        if self.on_new_screen:
            self.on_new_screen(name, self.pages[name], {**screen, "shown": shown})

    def play(self, until: Callable[[], bool], timeout: float) -> None:
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, f"timed out; phases {self.phases}"
            for name in self.pages:
                self.act(name)
            time.sleep(0.05)


def open_room(table: Table, timer_seconds: int | None = None) -> str:
    """Ann creates a room of Burn the Witch through the create form (timers on with
    `timer_seconds`, else off); the others join."""
    ann = table.pages["Ann"]
    ann.goto(table.base_url + "/")
    expect(ann.locator("main")).to_have_attribute("data-phase", "home")
    option = ann.locator("fieldset.games label.game", has_text="Burn the Witch")
    ann.fill("#name", "Ann")
    option.locator("input").check()
    expect(ann.locator("#btw-timers")).not_to_be_checked()  # its own settings: timers off
    expect(ann.locator("footer a")).to_have_attribute("href", re.compile(r"game=burn_the_witch"))
    if timer_seconds:
        ann.locator("#btw-timers").check()
        ann.select_option("#btw-timer-seconds", str(timer_seconds))
    ann.locator("main button.big").last.click()  # the create form's button
    code = ann.locator("p.code")
    expect(code).to_be_visible(timeout=15_000)
    expect(ann.locator(".game-name")).to_contain_text("Burn the Witch · 5–10 players")
    room = code.inner_text().strip()
    # Too few yet: Start explains what is missing.
    expect(ann.locator(".start-bar [role=status]")).to_contain_text("needs 5 to 10 players")
    expect(ann.locator("#start")).to_be_disabled()
    for name in NAMES[1:]:
        page = table.pages[name]
        page.goto(f"{table.base_url}/?room={room}")
        page.fill("#name", name)
        page.locator("main .panel button.big").first.click()  # Join
        expect(page.locator("p.code")).to_have_text(room, timeout=15_000)
        expect(page.locator(".game-name")).to_contain_text("Burn the Witch")
    expect(ann.locator(".seats li")).to_have_count(5, timeout=15_000)
    expect(ann.locator("#start")).to_be_enabled()
    expect(ann.locator(".start-bar [role=status]")).to_have_text(re.compile(r"\S"))
    # The host's game choice shows Burn the Witch chosen; the settings are this game's.
    expect(ann.locator(".game-choice button[aria-pressed=true]")).to_contain_text("Burn the Witch")
    expect(ann.locator("#btw-first-accuser")).to_be_visible()
    expect(table.pages["Bo"].locator("main")).to_contain_text("First accuser")
    return room
