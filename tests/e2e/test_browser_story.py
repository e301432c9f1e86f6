"""The result screen tells the whole story, day by day, on a 360×640 phone in
each language (Debian's Chromium, Playwright, the local stack serving the client). The end
view is the engine's own, of a seeded 9-cat bot game that has every kind of fact; the
phone's socket is answered by the test (a game to its end through the UI takes minutes).
Screenshots go to build/test-artifacts/story-<language>.png."""

import json

import pytest
from playwright.sync_api import expect

from engine.catch_the_witch import view
from engine.catch_the_witch.autoplay import play
from engine.catch_the_witch.rules import new_game
from tests.e2e.test_browser_shell import ASKS_FOR_THE_VIEW, PROD
from tests.support.ui_table import ARTIFACTS, LOCALES

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy"]
#: A deal whose story has a guard, spells that worked and failed, a rejected proposal, a
#: skipped exile vote, an exile, Seer looks and a Pickpocket's theft (found by trying seeds).
SEED = 1
#: Words of each story line, in each language: every kind of fact is told, translated.
TOLD = {
    "en": ["guarded", "it worked", "it failed", "looked into", "peeked into", "proposed", "Rejected", "skipped"],
    "zh-Hant": ["守護了", "成功了", "失敗了", "查看了", "偷看了", "提案", "否決", "跳過"],
    "uk": ["охороняє", "спрацювало", "не спрацювало", "дивиться на", "зазирає в лапи", "пропонує", "Відхилено", "пропустили"],
    "th": ["เฝ้า", "ได้ผล", "ไม่ได้ผล", "ดู", "แอบดูมือ", "เสนอ", "ไม่ผ่าน", "ข้าม"],
}  # fmt: skip


#: The last day's title just under the table strip (which stays at the top of the screen).
SCROLL_TO_THE_LAST_DAY = """() => {
  const day = [...document.querySelectorAll("ul.story > li > details")].pop();
  const strip = document.querySelector("header#status").offsetHeight;
  window.scrollTo(0, day.getBoundingClientRect().top + window.scrollY - strip - 8);
}"""


@pytest.fixture(scope="module")
def end_view() -> dict:
    run = play(new_game(NAMES, {}, seed=SEED), bot_seed=SEED)
    assert run.state.outcome is not None
    return {**view(run.state, "Ann"), "room": "ABCDEFGH", "connected": {}}


def _show(page, stack, end: dict) -> list:
    """The phone of Ann, seated in room ABCDEFGH, gets the end view as its whole view; the
    sockets the page opened are returned, to send it more."""
    sockets = []

    def route(ws):
        sockets.append(ws)

        def from_page(message):
            if json.loads(message)["action"] in ASKS_FOR_THE_VIEW and len(sockets) == 1:
                ws.send(json.dumps({"type": "view", "seq": 1, "rev": "1", "view": end}))

        ws.on_message(from_page)

    page.route_web_socket(PROD, route)
    page.add_init_script(
        'localStorage.setItem("party.seat", JSON.stringify({room: "ABCDEFGH", token: "t", name: "Ann"}))'
    )
    page.goto(stack.http_url + "/?room=ABCDEFGH")
    return sockets


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_result_tells_the_whole_story_day_by_day(stack, phones, end_view, language):
    page = phones(LOCALES[language])
    sockets = _show(page, stack, end_view)
    main = page.locator("main")
    expect(main).to_have_attribute("data-phase", "game_over", timeout=10_000)
    days = page.locator("ul.story > li > details")
    expect(days).to_have_count(len(end_view["reveal"]["timeline"]))
    # Oldest first; only the last day, the one that decided the game, is open.
    assert days.evaluate_all("ds => ds.map(d => d.open)") == [False] * (days.count() - 1) + [True]
    page.evaluate(SCROLL_TO_THE_LAST_DAY)
    page.screenshot(path=ARTIFACTS / f"story-{language}.png")
    for day in days.all()[:-1]:
        day.locator("summary").click()
    assert days.evaluate_all("ds => ds.every(d => d.open)")  # the player opened them all
    text = main.inner_text()
    for words in TOLD[language]:
        assert words in text, words
    for name in NAMES:
        assert name in text
    assert "{" not in text and "story_" not in text
    # A view arriving while the player reads (the lobby changing) keeps the days they opened.
    # (Its witch score changed only so that the screen is drawn again, visibly.)
    newer = {**end_view, "reveal": {**end_view["reveal"], "witch_score": 99}}
    sockets[0].send(json.dumps({"type": "view", "seq": 2, "rev": "2", "view": newer}))
    expect(main).to_contain_text("99")
    assert days.evaluate_all("ds => ds.every(d => d.open)")
