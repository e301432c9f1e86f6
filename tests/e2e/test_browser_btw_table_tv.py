"""Burn the Witch's table screen is made for a TV. At 1280×720 and at
1920×1080, with the largest table (ten players, some long names) and a five-player one, in
every language, at each kind of step and at the end: nothing scrolls, nothing is cut below
the screen, no text is under 24 px (32 px at 1920×1080), every house's owner and living
villagers are shown, with the step and the newest log line, and no seat's words appear.

The views are the engine's table views of bot games (tests/engine/burn_the_witch/
support.py), sent to a table screen by the test (test_browser_table_layout.TableScreen)."""

from pathlib import Path

import pytest

from engine.burn_the_witch import new_game, start
from engine.burn_the_witch.state import Settings
from tests.e2e.test_browser_table_layout import TableScreen
from tests.engine.burn_the_witch.support import GAME, T0, play_with_bots
from tests.support.strings import strings
from tests.support.ui_table import ARTIFACTS, LOCALES

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
STRINGS = {code: strings(code) for code in LOCALES}
#: The screens and the least font size each must keep, read from across a room.
SIZES = {"1280x720": ({"width": 1280, "height": 720}, 24), "1920x1080": ({"width": 1920, "height": 1080}, 32)}  # fmt: skip
TABLES = {
    10: ["Alexandrina", "Bo", "Cyrus", "Dimitri", "Evangeline", "Fay", "Gustav", "Hal", "Ivy", "Maximiliano"],
    5: ["Ann", "Bo", "Cy", "Di", "Eve"],
}  # fmt: skip
#: A seat's words, which a table screen must never show (the table view has no `me`).
SEAT_KEYS = ["btw_no_vote", "btw_cannot_point", "btw_witching_hold", "btw_accuse_prompt",
             "btw_execute_prompt", "btw_hold_house", "btw_your_villagers", "btw_timeout_vote"]  # fmt: skip
STEPS = ("witching_hour", "accuse", "vote", "execute", "trial", "choose_villager", "over")

#: Every text on screen: its words, its rendered font size (with the page's zoom), whether
#: it lies inside the screen; and whether the page scrolls either way.
MEASURE_JS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.offsetParent === null) continue;
    if (el.closest(".visually-hidden, [aria-hidden=true] .visually-hidden")) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    texts.push({ text: node.textContent.trim().slice(0, 40),
      px: parseFloat(getComputedStyle(el).fontSize) * (el.currentCSSZoom || 1),
      bottom: Math.round(box.bottom), right: Math.round(box.right),
      inside: box.top >= -1 && box.bottom <= innerHeight + 1 && box.left >= -1 && box.right <= innerWidth + 1 });
  }
  const root = document.documentElement;
  return { texts, tall: root.scrollHeight, wide: root.scrollWidth, height: innerHeight,
    scrolls: root.scrollHeight > root.clientHeight + 1 || root.scrollWidth > root.clientWidth + 1 };
}"""


def _views(names: list[str], seed: int) -> dict[str, dict]:
    """The first table view of each step of a bot game (more games if a step is missing)."""
    shown: dict[str, dict] = {}
    for game_seed in range(seed, seed + 12):

        def observe(state) -> None:
            shown.setdefault(state.phase, GAME.table_view(state))

        state, _ = start(new_game(names, Settings(timers=True), seed=game_seed), T0)
        play_with_bots(state, seed=game_seed, observer=observe)
        if set(STEPS) <= set(shown):
            break
    return {
        step: {**view, "watching": True, "room": "ABCDEFGH", "connected": {}}
        for step, view in shown.items()
    }


@pytest.fixture(scope="module")
def views() -> dict[int, dict[str, dict]]:
    return {players: _views(names, seed=1) for players, names in TABLES.items()}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("language", list(LOCALES))
def test_the_table_screen_fits_a_tv_in_every_step_without_a_seats_words(
    stack, browser, views, size, language
):
    viewport, least_px = SIZES[size]
    page = browser.new_context(viewport=viewport, locale=LOCALES[language]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    seat_words = [STRINGS[language][key] for key in SEAT_KEYS]
    problems = []
    for players, steps in views.items():
        assert set(STEPS) <= set(steps), sorted(steps)
        tv = None
        for step in STEPS:
            shown = steps[step]
            if tv is None:
                tv = TableScreen(page, stack, shown, language)
            else:
                tv.show(shown)
            page.wait_for_timeout(50)
            measured = page.evaluate(MEASURE_JS)
            where = f"{players} players, {step}"
            if measured["scrolls"]:
                problems.append(
                    f"{where}: scrolls ({measured['wide']}×{measured['tall']} in {measured['height']})"
                )
            problems += [
                f"{where}: {t['px']:.0f} px {t['text']!r}"
                for t in measured["texts"]
                if t["px"] < least_px - 0.5
            ]
            problems += [
                f"{where}: cut off {t['text']!r}" for t in measured["texts"] if not t["inside"]
            ]
            text = page.locator("body").inner_text()
            problems += [
                f"{where}: a seat's words {w!r}" for w in seat_words if w.split("{")[0] in text
            ]
            owners = page.locator(".tv-house .tv-owner").all_inner_texts()
            if owners != [house["owner"] for house in shown["houses"]]:
                problems.append(f"{where}: houses {owners}")
            if step != "over":
                living = sum(len(house["villagers"]) for house in shown["houses"])
                if page.locator(".tv-villager:not(.empty)").count() != living:
                    problems.append(f"{where}: not every living villager")
                if shown["history"] and not page.locator(".tv-log li").count():
                    problems.append(f"{where}: no log line")
            if language == "en" or step in ("vote", "over"):
                page.screenshot(path=ARTIFACTS / f"btw-tv-{size}-{players}-{step}-{language}.png")
            if players == max(TABLES) and step == "vote":  # the reviewers' picture of it
                page.screenshot(path=SCREENS / f"table-btw-{size}-{language}.png")
    assert errors == [], errors
    assert problems == [], "\n".join(problems[:40])
