"""A table of phone-sized browser pages playing Catch the Witch through the UI only.

Each phone looks at its own screen (the `main` element's `data-phase`, `data-seq` and
`data-turn` and the buttons on it) and taps what a player would. No protocol shortcuts:
everything goes through clicks on the page. Used by the end-to-end tests and by
`tests/support/screens.py` (`make screens`: the screenshots in docs/screens/).
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect
from playwright.sync_api import Error as PlaywrightError

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]  # fmt: skip
PHONE = {"width": 360, "height": 640}
#: Screenshots of the browser tests (kept by CI as artifacts).
ARTIFACTS = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"
LOCALES = {"en": "en-GB", "zh-Hant": "zh-TW", "uk": "uk-UA", "th": "th-TH"}

#: Steps with a countdown when the room has a discussion limit (RULES §9), and the witches'.
TIMED_STEPS = ("place_choice", "witches", "discussion", "proposal", "approval", "vote", "guard")
#: Steps a phone confirms with its one big button (Ready, OK, End talk).
CONFIRM_STEPS = ("role_check", "evening", "discussion", "approval_result", "ritual_result",
                 "vote_result")  # fmt: skip

#: What one phone sees, read in one round trip.
_SCREEN_JS = """() => {
  const main = document.querySelector("main");
  const visible = (el) => el.offsetParent !== null;
  const buttons = [...main.querySelectorAll("button")].map((b, index) => ({
    index, text: b.textContent.trim(), cls: b.className, pressed: b.getAttribute("aria-pressed"),
    disabled: b.disabled, inGrid: Boolean(b.closest(".grid")), inPanel: Boolean(b.closest(".panel")),
    inDetails: Boolean(b.closest("details")), visible: visible(b),
    row: (b.closest(".grid") || { className: "" }).className,
  })).filter((b) => b.visible);
  const error = main.querySelector(".error");
  return { phase: main.dataset.phase, seq: main.dataset.seq, turn: main.dataset.turn === "true",
           spectator: Boolean(main.querySelector(".banner")),  // a frog, exiled or Away
           buttons, error: error ? error.textContent : null,
           heading: (main.querySelector("h1, h2") || {}).textContent || "" };
}"""

#: Text a screen shows must reach WCAG AA contrast (4.5:1) against what is behind it.
CONTRAST_JS = """() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return { r, g, b, a }; };
  const lum = ({ r, g, b }) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (el) => { for (; el; el = el.parentElement) { const c = parse(getComputedStyle(el).backgroundColor);
    if (c && c.a > 0.5) return c; } return { r: 255, g: 255, b: 255, a: 1 }; };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.offsetParent === null && el.tagName !== "BODY") continue;
    if (el.closest(".qr, option")) continue;  // disabled controls too: a player reads them
    const style = getComputedStyle(el);
    const fg = parse(style.color), bg = background(el);
    let opacity = 1; for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const mix = { r: fg.r * opacity + bg.r * (1 - opacity), g: fg.g * opacity + bg.g * (1 - opacity), b: fg.b * opacity + bg.b * (1 - opacity) };
    const [hi, lo] = [lum(mix), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) failures.push(`${ratio.toFixed(2)}:1 "${node.textContent.trim().slice(0, 30)}" (${style.color} on rgb(${bg.r},${bg.g},${bg.b}))`);
  }
  for (const control of document.querySelectorAll("button, input, select")) {
    const name = control.getAttribute("aria-label") || (control.labels && control.labels.length) || control.textContent.trim();
    if (!name) failures.push(`unnamed ${control.tagName.toLowerCase()} ${control.outerHTML.slice(0, 60)}`);
  }
  return failures;
}"""


#: Puts each Content-Security-Policy violation of a document on its console, where
#: `collect_csp_violations` reads it (an init script: it runs before the page's own).
_CSP_REPORTER = """document.addEventListener("securitypolicyviolation", (e) => console.error(
  `[csp] ${e.effectiveDirective} refused ${e.blockedURI || "inline"} in ${e.sourceFile || e.documentURI}` +
  `:${e.lineNumber}:${e.columnNumber} ${JSON.stringify(e.sample)}`));"""


#: How Chromium's console words a violation (its own line, besides the page's event):
#: "Executing inline script violates the following Content Security Policy directive …"
#: (older Chromium releases: "Refused to …").
_CHROMIUM_CSP_LINE = re.compile(r"violates the following Content Security Policy|^Refused to ")


def collect_csp_violations(context: BrowserContext, violations: list[str]) -> None:
    """Every Content-Security-Policy violation in a page of ``context`` (popups and reloads
    included) is printed and added to ``violations``: its `securitypolicyviolation` event
    (the directive, what was refused and where) and Chromium's own console line, which
    also tells what no document's event reaches, such as a page framing the site."""
    context.add_init_script(_CSP_REPORTER)

    def on_console(message: ConsoleMessage) -> None:
        if message.text.startswith("[csp] ") or _CHROMIUM_CSP_LINE.search(message.text):
            where = message.page.url if message.page else "?"
            violations.append(f"CSP violation on {where}: {message.text.strip()}")
            print(violations[-1], flush=True)

    context.on("console", on_console)


@dataclass
class Phone:
    name: str
    page: Page
    #: The screen seq this phone last acted on (act once per screen, then wait for a new one).
    acted_on: tuple[tuple, float, str] | None = None
    #: Refusals of a tap on the screen the phone was showing: each one is a bug.
    errors: list[str] = field(default_factory=list)
    #: Refusals of a tap that crossed a new view (a real player's race too): allowed.
    raced: list[str] = field(default_factory=list)
    phases: list[str] = field(default_factory=list)
    #: The last button the table tapped: (phase, seq, its text).
    last_tapped: tuple[str, str, str] | None = None

    @property
    def phase(self) -> str:
        return self.phases[-1] if self.phases else ""

    def screen(self) -> dict:
        return self.page.evaluate(_SCREEN_JS)

    def tap(self, button: dict, seq: str | None = None) -> None:
        """Tap a button of the screen just read, if it is still there with the same text
        and, given its ``seq``, on the same view (else a view arrived meanwhile: the next
        look decides again; a button of the next step may read the same, a name)."""
        exact = re.compile(f"^\\s*{re.escape(button['text'])}\\s*$")
        main = f'main[data-seq="{seq}"]' if seq else "main"
        with contextlib.suppress(PlaywrightError):
            button_now = self.page.locator(f"{main} button").nth(button["index"])
            button_now.filter(has_text=exact).click(timeout=2_000)


class UiTable:
    """Phones at one table. `lazy` phones act only where a step has no timer."""

    def __init__(self, browser: Browser, base_url: str, names: list[str], language: str = "en",
                 seed: int = 1) -> None:  # fmt: skip
        self.base_url = base_url
        self.rng = random.Random(seed)
        self.phones = []
        for name in names:
            context = browser.new_context(viewport=PHONE, has_touch=True, locale=LOCALES[language])
            page = context.new_page()
            phone = Phone(name, page)
            page.on(
                "pageerror", lambda error, phone=phone: phone.errors.append(f"pageerror {error}")
            )
            # The local stack sends the site's CSP: a violation is an error too.
            collect_csp_violations(context, phone.errors)
            self.phones.append(phone)
        self.code = ""
        #: Called with (phone, screen) the first time each (phase, your turn) is seen.
        self.on_new_screen: Callable[[Phone, dict], None] | None = None
        self._seen: set[tuple[str, bool]] = set()

    @property
    def host(self) -> Phone:
        return self.phones[0]

    # -- lobby ------------------------------------------------------------------------------
    def open_room(self, discussion_limit: str = "") -> str:
        """The host creates a room (discussion limit: "" = Off, or seconds); the others
        join, half by typing the code and half by opening the link. Returns the code."""
        host = self.host.page
        host.goto(self.base_url + "/")
        expect(host.locator("main")).to_have_attribute("data-phase", "home")
        self._notice(self.host)
        host.fill("#name", self.host.name)
        host.select_option("#limit", discussion_limit)
        host.locator("main button.big").last.click()  # the create form's button
        code = host.locator("p.code")
        expect(code).to_be_visible(timeout=15_000)
        self.code = code.inner_text().strip()
        for i, phone in enumerate(self.phones[1:]):
            by_link = i % 2 == 1
            phone.page.goto(
                f"{self.base_url}/?room={self.code}" if by_link else self.base_url + "/"
            )
            phone.page.fill("#name", phone.name)
            if not by_link:
                phone.page.fill("#code", self.code)
            phone.page.locator("main .panel button.big").first.click()  # Join
            expect(phone.page.locator("p.code")).to_have_text(self.code, timeout=15_000)
        expect(host.locator(".seats li")).to_have_count(len(self.phones), timeout=15_000)
        self._notice(self.host)
        return self.code

    def start(self) -> None:
        self.host.page.locator("#start").click()
        for phone in self.phones:
            expect(phone.page.locator("main")).to_have_attribute("data-phase", "role_check",
                                                                 timeout=15_000)  # fmt: skip

    # -- playing ----------------------------------------------------------------------------
    def play(self, until: Callable[[], bool], timeout: float, lazy: bool = False,
             shuffle: bool = False) -> None:  # fmt: skip
        """Every phone acts on its own screen until `until()` or the timeout; with
        ``shuffle``, in a new order each round (seeded: the table's rng)."""
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, (
                f"timed out; phases {[p.phases[-3:] for p in self.phones]}"
            )
            order = list(self.phones)
            if shuffle:
                self.rng.shuffle(order)
            for phone in order:
                self._act(phone, lazy)
            time.sleep(0.05)

    def all_in(self, phase: str) -> bool:
        return all(p.phase == phase for p in self.phones)

    def _act(self, phone: Phone, lazy: bool) -> None:
        screen = phone.screen()
        if not phone.phases or phone.phases[-1] != screen["phase"]:
            phone.phases.append(screen["phase"])
        if screen["error"] and screen["error"] not in phone.errors + phone.raced:
            tapped_this_screen = phone.acted_on and phone.acted_on[2] == screen["seq"]
            (phone.errors if tapped_this_screen else phone.raced).append(screen["error"])
            # Where it was refused, for a failure's captured output (the list holds the words).
            print(f"[{phone.name}] {'refused' if tapped_this_screen else 'raced'} on "
                  f"{screen['phase']} (seq {screen['seq']}) after tapping "
                  f"{phone.last_tapped!r}: {screen['error']}", flush=True)  # fmt: skip
        self._notice(phone, screen)
        # A screen is what the server sent (seq) plus what the player toggled on it.
        key = (screen["seq"], screen["heading"],
               tuple((b["text"], b["pressed"], b["disabled"]) for b in screen["buttons"]))  # fmt: skip
        now = time.monotonic()
        if phone.acted_on and phone.acted_on[0] == key and now - phone.acted_on[1] < 5:
            return  # already tapped on this screen: wait for the server's answer
        choice = self._choose(screen, lazy)
        if choice is not None:
            phone.acted_on = (key, now, screen["seq"])
            button = next(b for b in screen["buttons"] if b["index"] == choice)
            phone.last_tapped = (screen["phase"], screen["seq"], button["text"])
            phone.tap(button, screen["seq"])

    def _choose(self, screen: dict, lazy: bool) -> int | None:
        """The button a player would tap on this screen (None: nothing to do)."""
        phase, rng, my_turn = screen["phase"], self.rng, screen["turn"]
        if lazy and phase in TIMED_STEPS:
            return None  # let the countdown run out
        buttons = [b for b in screen["buttons"] if not b["disabled"] and not b["inDetails"]]
        big = [b for b in buttons if "big" in b["cls"].split()]
        grid = [b for b in buttons if b["inGrid"]]
        pressed = any(b["pressed"] == "true" for b in grid + big)
        pick = lambda options: rng.choice(options)["index"] if options else None  # noqa: E731
        if phase in CONFIRM_STEPS:
            powers = [b for b in grid if b["inPanel"]]
            if powers and rng.random() < 0.7:  # the Seer looks; the Pickpocket peeks, takes
                return pick(powers)
            return big[0]["index"] if big else None
        if phase == "approval":
            return None if pressed or not big else big[0 if rng.random() < 0.8 else -1]["index"]
        if phase == "proposal":
            if not my_turn:
                return None
            if big:  # enabled once exactly N cats are picked
                return big[0]["index"]
            return pick([b for b in grid if b["pressed"] == "false"])
        if phase == "witches":
            return self._night_popup(buttons)
        if not my_turn or pressed:
            return None
        if phase == "ritual":  # Nightshade's tile is on every row; only a witch's plays it
            grid = [b for b in grid if "☠" not in b["text"]] or grid
        if grid:  # a place, guard place, card or exile vote
            return pick(grid)
        # The Knight's Gather or Guard, or the witch's "back" when no cat is at her place.
        return pick([b for b in buttons if not b["inPanel"]])

    def _night_popup(self, buttons: list[dict]) -> int | None:
        """The witches' turn: a witch's place, spell and target, or anyone else's guess of
        them (the same pop-up), one row after the other; nothing once they are chosen."""
        rows = {kind: [b for b in buttons if f"popup-{kind}" in b["row"]]
                for kind in ("places", "spells", "targets")}  # fmt: skip
        chosen = {kind: next((b for b in row if b["pressed"] == "true"), None)
                  for kind, row in rows.items()}  # fmt: skip
        pick = lambda options: self.rng.choice(options)["index"] if options else None  # noqa: E731
        if not rows["places"] or not chosen["places"]:
            return pick(rows["places"])
        if not chosen["spells"]:
            return pick(rows["spells"])
        targeted = any(icon in chosen["spells"]["text"] for icon in ("🐸", "🫳"))
        if not targeted or chosen["targets"]:
            return None
        witch = any("🐈" in b["text"] for b in rows["places"])  # the counts are hers alone
        return pick([b for b in rows["targets"] if "📍" in b["text"] or not witch])

    # -- screenshots and checks --------------------------------------------------------------
    def _notice(self, phone: Phone, screen: dict | None = None) -> None:
        screen = screen or phone.screen()
        key = (screen["phase"], screen["turn"], screen["spectator"])
        if key not in self._seen:
            self._seen.add(key)
            if self.on_new_screen:
                self.on_new_screen(phone, screen)

    def close(self) -> None:
        for phone in self.phones:
            phone.page.context.close()


def screenshot(phone: Phone, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    phone.page.screenshot(path=path)
    return path
