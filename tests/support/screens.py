"""Screenshots of every screen at 360×640 and 390×844 into docs/screens/, so reviewers can see the
game without playing it: `make screens` (needs /usr/bin/chromium, like `make test`).

Five phones play games through the UI on the local stack (tests/support/ui_table.py), new
seeds until every step and a spectator's screen were seen; the first time any phone shows a
screen (a step, on its turn or waiting; a few as a frog/exiled spectator) it is saved, in
English and, through the phone's language menu, in each other language
(docs/screens/<language>/). Then five phones play games of Burn the Witch the same way
(tests/support/btw_ui_table.py), new deals until every step was shown, saved as
`btw-NN-<step>.png`. Then the home and rules screens in each language. docs/screens/README.md
lists them; its sections from the first "## " heading on (the e2e tests' table and replay
screens) are written by hand and kept.
"""

import sys
from pathlib import Path
from typing import get_args

from playwright.sync_api import sync_playwright

from engine.burn_the_witch.state import Phase as BtwPhase
from engine.catch_the_witch.domain import Phase
from tests.support import btw_ui_table
from tests.support.local_stack_process import LocalStackProcess
from tests.support.ui_table import CHROMIUM, FLAGS, LOCALES, PHONE, Phone, UiTable, screenshot

OUT = Path(__file__).resolve().parents[2] / "docs" / "screens"
NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]
#: A frog's or an exiled cat's screens look like everyone's plus a banner: a few suffice.
SPECTATOR_SAMPLES = ("place_choice", "vote", "game_over")
#: The steps a game of five may show (every step but the Knight's: five cats have none,
#: tables.ROLE_COUNTS): games are played (new seeds) until each was seen, and a
#: spectator's screen too. One game may miss some (a proposal rejected skips the ritual;
#: the 4-second squabble can pass while another screen is being saved).
FIVE_CAT_STEPS = frozenset(phase.value for phase in Phase) - {Phase.GUARD.value}
#: Seeds tried before giving up.
GAMES_AT_MOST = 8


#: The second width every screen is saved at (a common phone width), in a ``390/`` folder
#: beside each language's: 390×844, the iPhones 12 to 15 (the first is PHONE, 360×640).
WIDE = {"width": 390, "height": 844}


def in_every_language(phone, name: str) -> None:
    """The phone's screen as it is (English), then in each other language through its own
    language menu, and back: the same moment of the game in four languages, each at 360
    and at 390 px wide."""
    page = phone.page
    for language in LOCALES:
        folder = OUT if language == "en" else OUT / language
        if language != "en":
            page.select_option("#language", language)
            page.wait_for_function("lang => document.documentElement.lang === lang", arg=language)
        screenshot(phone, folder, name)
        page.set_viewport_size(WIDE)
        screenshot(phone, folder / "390", name)
        page.set_viewport_size(PHONE)
    page.select_option("#language", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


#: Burn the Witch's steps as phones show them (the engine's "over" is the game-over
#: screen): games are played, each with a new deal, until every one was shown (a
#: retribution, an execution or a choice of villager comes only with some deals), at
#: most BTW_GAMES_AT_MOST.
BTW_STEPS = frozenset(get_args(BtwPhase)) - {"over"} | {"game_over"}
BTW_GAMES_AT_MOST = 12
#: What this script makes (the e2e tests add table-*.png and replay-*.png: kept).
OWN_SCREENS = ("[0-9][0-9]-*.png", "btw-*.png", "home-*.png", "rules-*.png")


def burn_the_witch_screens(browser, base_url: str) -> tuple[list[tuple[str, str]], set[str]]:
    """Games of Burn the Witch through the UI: the host's lobby, then every step the first
    time a phone shows it, then the end, each in every language; more games (new deals)
    until every step has been shown (BTW_STEPS). The screens saved, and the steps never
    shown."""
    saved: list[tuple[str, str]] = [("btw-00-lobby", "the lobby, on the host's phone")]

    def table_phone(locale: str):
        return browser.new_context(viewport=PHONE, has_touch=True, locale=locale).new_page()

    table = btw_ui_table.Table(table_phone, base_url, seed=3)

    def save(name: str, page, screen: dict) -> None:
        shot = f"btw-{len(saved):02d}-{screen['shown']}"
        in_every_language(Phone(name, page), shot)
        saved.append((shot, f"{name}'s phone"))

    seen = table.seen  # steps saved, across the games below
    names = btw_ui_table.NAMES
    left = set(BTW_STEPS)
    for game in range(BTW_GAMES_AT_MOST):
        if game:  # a screen the deal did not bring: another room, another deal
            table = btw_ui_table.Table(table_phone, base_url, seed=3 + game)
            table.seen = seen
        btw_ui_table.open_room(table)
        ann = table.pages["Ann"]
        if not game:
            in_every_language(Phone("Ann", ann), "btw-00-lobby")
        table.on_new_screen = save
        ann.locator("#start").click()
        table.play(until=lambda t=table: all(t.phase(n) == "game_over" for n in names), timeout=600)
        table.act("Ann")  # the end
        for page in table.pages.values():
            page.context.close()
        left = BTW_STEPS - {_step_of(shown) for shown in seen}
        if not left:
            break
    return saved, left


def _step_of(name: str) -> str:
    """The step a screen's name starts with ("vote-your-turn", "place_choice-spectator")."""
    return name.split("-")[0]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for pattern in OWN_SCREENS:
        for old in OUT.glob(f"**/{pattern}"):
            old.unlink()
    saved: list[tuple[str, str]] = []
    btw_saved: list[tuple[str, str]] = []
    btw_left: set[str] = set()
    stack = LocalStackProcess()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for seed in range(1, GAMES_AT_MOST + 1):
                table = UiTable(browser, stack.http_url, NAMES, seed=seed)

                def save(phone, screen, table=table):
                    name = (
                        screen["phase"]
                        + ("-your-turn" if screen["turn"] else "")
                        + ("-spectator" if screen["spectator"] else "")
                    )
                    if any(name == n for n, _ in saved) or (
                        screen["spectator"] and screen["phase"] not in SPECTATOR_SAMPLES
                    ):
                        return
                    in_every_language(phone, f"{len(saved) + 1:02d}-{name}")
                    saved.append((name, f"{phone.name}'s phone"))

                table.on_new_screen = save
                table.open_room(discussion_limit="300")
                table.start()
                table.play(until=lambda table=table: table.all_in("game_over"), timeout=600)
                table.close()
                if not _steps_left(saved):
                    break
            btw_saved, btw_left = burn_the_witch_screens(browser, stack.http_url)
            for language, locale in LOCALES.items():
                page = browser.new_context(viewport=PHONE, locale=locale).new_page()
                page.goto(stack.http_url + "/")
                page.wait_for_selector("main[data-phase=home]")
                page.screenshot(path=OUT / f"home-{language}.png")
                page.goto(stack.http_url + f"/rules.html?lang={language}")
                page.wait_for_selector("main h1")
                page.screenshot(path=OUT / f"rules-{language}.png")
                page.context.close()
            browser.close()
    finally:
        stack.interrupt()
    lines = ["# Screens (360×640)", "",
             "Made by `make screens` (tests/support/screens.py): five phones play games through the UI",
             "on the local stack until every step and a spectator's screen were seen; each screen is",
             "saved the first time a phone shows it, in English here and in the same name under",
             "`zh-Hant/`, `uk/` and `th/`; each also at 390×844 in that folder's `390/`.",
             ""]  # fmt: skip
    lines += [f"- `{i:02d}-{name}.png` — {who}" for i, (name, who) in enumerate(saved, 1)]
    lines += [
        "",
        "Burn the Witch (games until every step was shown; each the first time a phone shows it):",
        "",
    ]
    lines += [f"- `{name}.png` — {who}" for name, who in btw_saved]
    lines += ["", "Home and rules in each language: " + ", ".join(
        f"`home-{lang}.png`, `rules-{lang}.png`" for lang in LOCALES) + "."]  # fmt: skip
    readme = OUT / "README.md"
    kept = readme.read_text().partition("\n## ")[2] if readme.exists() else ""
    readme.write_text("\n".join(lines) + "\n" + (f"\n## {kept}" if kept else ""))
    print(f"{len(saved)} game screens and {2 * len(LOCALES)} home/rules screens in {OUT}")
    # A step never seen fails the run; the rest is saved all the same, and listed.
    missed = sorted(_steps_left(saved)) + sorted(f"Burn the Witch's {step}" for step in btw_left)
    if missed:
        print(f"never seen, after every game tried: {missed}", file=sys.stderr)
        return 1
    return 0


def _steps_left(saved: list[tuple[str, str]]) -> set[str]:
    """The steps (and the spectator's screen) no phone has shown yet."""
    seen = {_step_of(name) for name, _ in saved}
    spectator = any(name.endswith("-spectator") for name, _ in saved)
    return (FIVE_CAT_STEPS - seen) | (set() if spectator else {"a spectator's screen"})


if __name__ == "__main__":
    sys.exit(main())
