"""A newcomer runs `make dev`, picks Burn the Witch and plays a whole
game with bots through taps alone in a language other than English.

One phone (360×640, touch) in zh-Hant, uk or th picks Burn the Witch on the create form,
waits for the local stack's four bots to sit down, taps Start and plays until the result
screen, only by tapping what its screen offers (tests/support/btw_ui_table.py `choose`: the
witching hour's pop-up, accuse, the vote's ballots and cast, execute, trials and hex or
retribution choices when they come). At every new view it reads what a person sees (the
visible text, the aria-labels and titles of what is visible) and, at every new step, what
the house panel shows while held; any Latin-letter word other than the players' names and
the room code fails the test, and so does Catch the Witch's name on a screen of this game.
Back in the lobby, Start offers to play again, in the phone's language."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.btw_ui_table import Table
from tests.support.local_stack_process import BOTS_SEATED_MS
from tests.support.ui_table import ARTIFACTS
from tests.support.untranslated import SEEN_TEXT_JS, english_words, strings, table_names

HUMAN = "Zoe"
#: The steps that end a game (the room's "over", then the result shown over the lobby).
OVER = ("over", "game_over")

#: What a person sees, less the host's game choice in the lobby, which offers both games by
#: name (so Catch the Witch's name there is not this game's screen saying it). One
#: evaluation: a render between two reads cannot split them.
SEEN_IN_GAME_JS = f"""() => {{ const seen = ({SEEN_TEXT_JS})();
  const choice = document.querySelector(".game-choice");
  return choice ? seen.replace(choice.innerText, "") : seen; }}"""

STEP_JS = """() => { const main = document.querySelector("main");
  return [main.dataset.phase, main.dataset.seq, (main.querySelector(".error") || {}).textContent || null]; }"""


def held_house_seen(page: Page) -> str | None:
    """What a person sees while holding the house bar (None: no bar on this screen); then
    released."""
    bar = page.locator("#btw-hold")
    if not bar.is_visible():
        return None
    bar.dispatch_event("pointerdown")
    expect(page.locator("#btw-sheet")).to_be_visible()
    text = page.evaluate(SEEN_TEXT_JS)
    bar.dispatch_event("pointerup")
    expect(page.locator("#btw-sheet")).to_be_hidden()
    return text


@pytest.mark.parametrize("language", ["zh-Hant", "uk", "th"])
def test_one_human_plays_burn_the_witch_with_bots_through_taps_without_english(
    stack, phones, language
):
    say = strings(language)
    table = Table(phones, stack.http_url, seed=14, names=[HUMAN], language=language)
    page = table.pages[HUMAN]
    english: dict[str, list[str]] = {}  # where -> the English words seen there
    wrong_game: list[str] = []  # where Catch the Witch's name showed in this game
    errors: list[str] = []  # refusals shown on the screen
    held_in: list[tuple[str, str]] = []  # the (step, view seq) where the house was held
    views_read: set[tuple[str, str]] = set()  # (step, view seq)

    def read(where: str, text: str, in_game: bool = True) -> None:
        words = english_words(text, names)
        if words and where not in english:
            english[where] = words
            page.screenshot(path=ARTIFACTS / f"btw-bots-{language}-{where}.png")
        if in_game and say["title"] in text:
            # Where it showed, with the lines around it, to find the screen that said it.
            at = text.index(say["title"])
            wrong_game.append(f"{where}: …{text[max(0, at - 80) : at + 80]}…")
            page.screenshot(path=ARTIFACTS / f"btw-bots-{language}-{where}-wrong-game.png")

    # The home page: pick Burn the Witch (its radio: the label is in the phone's language).
    page.goto(stack.http_url + "/")
    expect(page.locator("main")).to_have_attribute("data-phase", "home")
    page.fill("#name", HUMAN)
    option = page.locator("fieldset.games label.game", has_text=say["btw_game"])
    option.locator("input").check()
    expect(page.locator("#btw-timers")).to_be_visible()  # Burn the Witch's own settings
    names = {HUMAN}  # no room yet
    # The site's name is its heading, and the tab's name (the browser shows it, a screen
    # reader reads it).
    read("home", f"{page.evaluate(SEEN_TEXT_JS)}\n{page.title()}", in_game=False)
    page.locator("main button.big").last.click()  # the create form's button
    expect(page.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)  # the four bots sat
    code = page.locator("p.code").inner_text().strip()
    names = table_names(HUMAN, code)
    expect(page.locator(".game-name")).to_contain_text(say["btw_game"])
    expect(page.locator("#start")).to_be_enabled()
    read("lobby", page.evaluate(SEEN_IN_GAME_JS))
    page.locator("#start").click()
    expect(page.locator("main")).to_have_attribute("data-phase", "witching_hour", timeout=15_000)

    def inspect() -> None:
        """Reads each new view once; at each new step, also the house panel held."""
        phase, seq, error = page.evaluate(STEP_JS)
        if error and error not in errors:
            errors.append(error)
        if (phase, seq) not in views_read:
            views_read.add((phase, seq))
            read(phase, page.evaluate(SEEN_IN_GAME_JS))
        if phase in OVER or (held_in and held_in[-1][0] == phase):
            return
        held = held_house_seen(page)
        if held is not None:
            held_in.append((phase, seq))
            assert say["btw_your_villagers"] in held, held
            read(f"{phase}-held", held)

    act = table.act

    def inspect_then_act(name: str) -> None:
        inspect()
        act(name)

    table.act = inspect_then_act
    table.play(until=lambda: table.phase(HUMAN) in OVER, timeout=300)
    # The result screen: who won, in this language.
    expect(page.locator("main")).to_have_attribute("data-phase", "game_over", timeout=15_000)
    winners = [say["btw_winner_zealots"], say["btw_winner_sympathizers"]]
    expect(page.locator("main h1")).to_contain_text(re.compile("|".join(map(re.escape, winners))))
    expect(page.locator(".story-round").first).to_be_visible()
    expect(page).to_have_title(say["btw_game"])  # the tab names the room's game
    inspect()
    read("game_over-final", page.evaluate(SEEN_IN_GAME_JS))
    # Back in the lobby: the same game, and Start offers to play again.
    page.locator("#to-lobby").click()
    expect(page.locator("main")).to_have_attribute("data-phase", "lobby")
    expect(page.locator(".game-name")).to_contain_text(say["btw_game"])
    expect(page.locator("#start")).to_have_text(say["rematch"])
    read("lobby-after", page.evaluate(SEEN_IN_GAME_JS))

    seen = table.phases[HUMAN]
    assert {"witching_hour", "accuse", "vote"} <= set(seen), seen  # the rest: as the deal goes
    assert {"witching_hour", "vote"} <= {phase for phase, _ in held_in}, held_in
    assert errors == [], errors
    assert wrong_game == [], f"Catch the Witch's name ({say['title']}) on: {wrong_game}"
    # Last, so that a failure shows every other check passed.
    assert english == {}, f"English on a {language} phone: {english}"
