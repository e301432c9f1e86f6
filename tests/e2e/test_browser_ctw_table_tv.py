"""Catch the Witch's table screen is made for a TV. At
1280×720 and at 1920×1080, with the largest table (twelve cats, some long names) and a
five-cat one, in every language, at every kind of step and at the result in the lobby:
nothing scrolls and nothing is cut off the screen, no text is under 24 px (32 px at
1920×1080, with the page's zoom), the step's heading and its countdown are in view, every
cat has its chip with its state in the strip, whole, the step's public facts are shown (the
duck's ingredients, the proposal, the votes revealed, the ritual's result, the exile, the
roles at the end), and no seat's words appear ("Your secret role", "Hold…", "your …").

The views are the engine's public views (view(state, None)) of seeded bot games, the latest
of each step (a mid-game one: frogs, exiles, votes under way), sent to one table screen page
per size and language (test_browser_table_layout.TableScreen); the page's files are served
by the test (no stack). The measuring is Burn the Witch's TV test's (MEASURE_JS).
Screenshots: docs/screens/table-ctw-<size>-<language>.png (the approval result, twelve
cats) and build/test-artifacts/ctw-tv-*.png."""

import functools
import re
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.catch_the_witch.autoplay import play
from engine.catch_the_witch.rules import new_game
from engine.catch_the_witch.views import view
from tests.e2e.test_browser_btw_table_tv import MEASURE_JS, SIZES
from tests.e2e.test_browser_end_screen import finished_views
from tests.e2e.test_browser_table_layout import TableScreen
from tests.support.strings import strings as phone_strings
from tests.support.ui_table import ARTIFACTS, LOCALES

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
SCREENS = ROOT / "docs" / "screens"
#: Where the test serves the client from (Playwright's routes: no server, no stack).
SITE = "http://table.test"
TABLES = {
    12: ["Alexandrina", "Bo", "Cyrus", "Dimitri", "Evangeline", "Fay", "Gustav", "Hal", "Ivy",
         "Jo", "Kit", "Maximiliano"],
    5: ["Ann", "Bo", "Cy", "Di", "Evangeline"],
}  # fmt: skip
#: Seeded bot games with a squabble, frogs and exiles (the twelve cats' runs six days).
SEEDS = {12: 2, 5: 1}
#: Every kind of step, in the order a game shows them; "result": the lobby after the game.
STEPS = ("role_check", "morning", "place_choice", "witches", "evening", "discussion",
         "proposal", "approval", "approval_result", "ritual", "ritual_result", "squabble",
         "vote", "vote_result", "result")  # fmt: skip
#: The step shown in docs/screens (a mid-game one, the proposal's votes revealed).
PICTURED = "approval_result"
#: A seat's words, which a table screen never shows (its views have no `me`).
SEAT_KEYS = ["role_check", "hold_to_reveal", "hold_secrets", "secrets_hint", "your_hand",
             "your_gathered", "your_notes", "night_watch_text", "place_hint", "guess_hint",
             "you_are_ready", "you_are_frog", "you_are_exiled", "you_are_away", "play_card",
             "propose_n", "powers_control", "to_lobby", "rematch", "narrate_role_check"]  # fmt: skip
#: A countdown's seconds, as long as a discussion's (three digits).
COUNTDOWN_S = 118

#: Each cat's chip in the strip: its accessible name, its class (the form), and whether its
#: name is whole (not cut by an ellipsis) and on the screen.
CHIPS_JS = """() => [...document.querySelectorAll("header#status .cat")].map((chip) => {
  const name = chip.querySelector(".cat-name"), box = chip.getBoundingClientRect();
  return { label: chip.getAttribute("aria-label"), cls: chip.className,
    whole: name.scrollWidth <= name.clientWidth + 1 && chip.offsetParent !== null,
    inside: box.top >= -1 && box.bottom <= innerHeight + 1 && box.left >= -1 && box.right <= innerWidth + 1 };
})"""
#: The step's heading and the countdown, each: shown on the screen (null: none).
IN_VIEW_JS = """() => Object.fromEntries(["main h1, main h2", "header#status .countdown"].map((css) => {
  const el = document.querySelector(css); if (!el) return [css, null];
  const box = el.getBoundingClientRect();
  return [css, el.offsetParent !== null && box.height > 0 && box.top >= -1 && box.bottom <= innerHeight + 1];
}))"""

#: Every animation that ends (the votes revealed, the cards turned), at its end.
SETTLE_JS = """() => document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  .forEach((a) => { try { a.finish(); } catch { /* gone with a redraw */ } })"""


def _bot_game(names: list[str], seed: int) -> dict[str, dict]:
    """The latest table view of each step, preferring one that shows most: a vote under way,
    an evening with news, a proposal after one rejected, an exile; then the lobby with the game's result."""
    shown: dict[str, dict] = {}

    def telling(public: dict) -> bool:
        voters = sum(1 for cat in public["players"] if cat["form"] == "human")
        today = public["today"] or {}
        return {
            "approval": lambda: 0 < len(public["voted"] or []) < voters,
            "vote": lambda: 0 < len(public["voted"] or []) < voters,
            "evening": lambda: bool(today.get("new_frogs")),
            "proposal": lambda: bool(today.get("proposals")),
            "vote_result": lambda: bool((today.get("vote") or {}).get("exiled")),
        }.get(public["phase"], lambda: True)()

    def observe(action, state) -> None:
        public = view(state, None)
        if public["phase"] not in shown or telling(public):
            shown[public["phase"]] = public

    run = play(new_game(names, {}, seed=seed), bot_seed=seed, observer=observe)
    shown["result"] = {**finished_views(run.state)["lobby"], "you": None}
    return {
        step: {**v, "watching": True, "room": "ABCDEFGH", "connected": v.get("connected", {})}
        for step, v in shown.items()
    }


@pytest.fixture(scope="module")
def games() -> dict[int, dict[str, dict]]:
    return {cats: _bot_game(names, SEEDS[cats]) for cats, names in TABLES.items()}


def _serve_the_client(context) -> SimpleNamespace:
    """The client's files from frontend/, /table as table.html, and a config.json pointing
    the page's socket at /prod (answered by TableScreen's route)."""

    def serve(route):
        path = route.request.url.split("?")[0].split("#")[0][len(SITE) :].lstrip("/")
        if path == "config.json":
            route.fulfill(json={"websocket_url": SITE.replace("http", "ws") + "/prod"})
        elif path == "table":
            route.fulfill(path=FRONTEND / "table.html")
        elif (FRONTEND / path).is_file():
            route.fulfill(path=FRONTEND / path)
        else:
            route.fulfill(status=404)

    context.route(f"{SITE}/**", serve)
    return SimpleNamespace(http_url=SITE)


@functools.cache
def _texts(language: str) -> dict[str, str]:
    return phone_strings(language)


def _plain(text: str) -> str:
    return " ".join(text.split())


def _facts(step: str, v: dict, language: str) -> list[str]:
    """What the step makes public, as words that must be on the screen: a phrase's words
    before its first placeholder, and the names and ingredients it lists."""
    strings = _texts(language)

    def head(key: str) -> str:
        return strings[key].split("{")[0].strip(" :：")

    if step == "result":
        over = v["last_result"]
        roles = over["reveal"]["roles"]
        return [head(f"winner_{over['outcome']['winner']}"), *roles,
                *(strings[f"role_{role}"] for role in roles.values())]  # fmt: skip
    today = v.get("today") or {}
    duck = [strings[f"ingredient_{i}"] for i in today.get("required", [])]
    news = [*today.get("new_frogs", []), *today.get("restored", [])]
    proposals = today.get("proposals") or []
    last = proposals[-1] if proposals else {}
    vote = today.get("vote") or {}
    facts = {
        "role_check": [strings[f"role_{role}"] for role in v.get("role_set", {})],
        "morning": duck,
        "place_choice": duck,
        "witches": duck,
        "evening": [*news, *duck],
        "discussion": [head("discussion"), *news, *duck],
        "proposal": [*duck, v.get("chief"), proposals and head("rejected")],
        "approval": [head("approval"), last.get("chief"), *last.get("members", [])],
        "approval_result": [head("passed" if last.get("passed") else "rejected"),
                            *last.get("members", []), *last.get("yes", []), *last.get("no", [])],
        "ritual": [*duck, *today.get("ritual_members", [])],
        "ritual_result": [head("success" if today.get("ritual_result") == "success" else "failure")],
        "squabble": [head("squabble")],
        "vote": [head("vote")],
        "vote_result": [vote.get("exiled") or head("nobody_exiled"), *vote.get("votes", {})],
    }[step]  # fmt: skip
    return [fact for fact in facts if fact]


def _layout_problems(page, least_px: float, shown: dict) -> list[str]:
    """Scrolling, text too small or off the screen, no heading, no countdown in view."""
    measured = page.evaluate(MEASURE_JS)
    found = [f"scrolls ({measured['wide']}×{measured['tall']})"] if measured["scrolls"] else []
    found += [
        f"{t['px']:.0f} px {t['text']!r}" for t in measured["texts"] if t["px"] < least_px - 0.5
    ]
    found += [f"cut off {t['text']!r}" for t in measured["texts"] if not t["inside"]]
    in_view = page.evaluate(IN_VIEW_JS)
    if not in_view["main h1, main h2"]:
        found.append("no step heading in view")
    if shown.get("deadline") and not in_view["header#status .countdown"]:
        found.append("no countdown in view")
    return found


def _strip_problems(page, shown: dict) -> list[str]:
    """Every cat's chip, in seat order, with its form, its name whole and on the screen."""
    if shown["phase"] == "lobby":
        return []
    chips, players = page.evaluate(CHIPS_JS), shown["players"]
    if [chip["label"].split(",")[0] for chip in chips] != [cat["name"] for cat in players]:
        return [f"chips {[chip['label'] for chip in chips]}"]
    return [f"chip {chip['label']!r}" for chip, cat in zip(chips, players, strict=True)
            if not (chip["whole"] and chip["inside"] and cat["form"] in chip["cls"].split())]  # fmt: skip


def _words_problems(page, shown: dict, language: str) -> list[str]:
    """A seat's words anywhere in view; a public fact of the step missing."""
    main = _plain(page.locator("main").inner_text())
    text = _plain(page.locator("header#status").inner_text()) + " " + main
    seat_words = [_plain(_texts(language)[key].split("{")[0]) for key in SEAT_KEYS]
    found = [f"a seat's words {words!r}" for words in seat_words if words in text]
    if "↻" in text or (language == "en" and re.search(r"\byour?\b", text, re.IGNORECASE)):
        found.append(f"a seat's words in {text[:120]!r}")
    step = "result" if shown["phase"] == "lobby" else shown["phase"]
    facts = _facts(step, shown, language)
    return found + [f"missing {fact!r}" for fact in facts if _plain(fact) not in main]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_table_screen_fits_a_tv_at_every_step_without_a_seats_words(
    browser, games, size, language
):
    viewport, least_px = SIZES[size]
    context = browser.new_context(viewport=viewport, locale=LOCALES[language])
    site = _serve_the_client(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: list[str] = []
    tv = None
    for cats, steps in games.items():
        assert set(STEPS) <= set(steps), sorted(steps)
        for step in STEPS:
            shown = steps[step]
            if shown.get("deadline"):
                shown = {**shown, "deadline": time.time() + COUNTDOWN_S}
            if tv is None:
                tv = TableScreen(page, site, shown, language)
            else:
                tv.show(shown)
            page.wait_for_timeout(30)
            found = [
                *_layout_problems(page, least_px, shown),
                *_strip_problems(page, shown),
                *_words_problems(page, shown, language),
            ]
            problems += [f"{cats} cats, {step}: {problem}" for problem in found]
            if found or language == "en" or (cats == 12 and step == PICTURED):
                page.evaluate(SETTLE_JS)  # the pictures as the room sees them once a moment is over
            if found or language == "en":
                page.screenshot(path=ARTIFACTS / f"ctw-tv-{size}-{cats}-{step}-{language}.png")
            if cats == 12 and step == PICTURED:
                page.screenshot(path=SCREENS / f"table-ctw-{size}-{language}.png")
    assert errors == [], errors
    assert problems == [], "\n".join(problems[:60])
