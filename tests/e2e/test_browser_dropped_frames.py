"""A frame API Gateway throttles is not a move lost in silence. The local stack's
throttle fault (`POST /local/faults/throttle?frames=N`) answers the next N frames that are
not pings as API Gateway does, `{"message": "Too Many Requests", …}` with no `type`, and
drops them. The host's "Start the game" is the move: the bots in the lobby send nothing
but pings, so the throttled frames are surely the host's, and a started game is plain to
see. Screenshots go to build/test-artifacts/."""

import pytest
from playwright.sync_api import expect

from tests.support.local_stack_process import BOTS_SEATED_MS, BROWSER_TIME_SCALE, LocalStackProcess
from tests.support.strings import strings
from tests.support.ui_table import ARTIFACTS, LOCALES


@pytest.fixture
def stack():
    """A stack of its own for each test: the fault takes the next frames from any phone,
    and the bots of an earlier test's room play on once its host is marked Away (a game
    minute after the page closed: 15 s at this clock), so their moves would take it."""
    process = LocalStackProcess("--bots", "4", "--think", "0.05-0.2", time_scale=BROWSER_TIME_SCALE)
    yield process
    process.interrupt()


def _strings(language: str) -> dict[str, str]:
    return strings(language)


def _host_a_lobby_of_bots(page, stack, t: dict[str, str]) -> None:
    """Zoe creates a room and waits until the stack's four bots sit in it (after that they
    send only pings until the game starts)."""
    page.goto(stack.http_url + "/")
    page.fill("#name", "Zoe")
    page.get_by_role("button", name=t["create_room"], exact=True).click()
    expect(page.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)


def test_a_throttled_move_is_sent_again_and_lands(stack, phones):
    t = _strings("en")
    page = phones()
    _host_a_lobby_of_bots(page, stack, t)
    before = stack.stats()["gateway"]["throttled"]

    stack.post("/local/faults/throttle?frames=1")
    page.get_by_role("button", name=t["start"], exact=True).click()
    expect(page.get_by_role("heading", name=t["role_check"])).to_be_visible(timeout=10_000)
    assert stack.stats()["gateway"]["throttled"] == before + 1  # the first try was dropped
    expect(page.get_by_role("alert")).to_have_count(0)  # the retry landed: nothing to tell


@pytest.mark.parametrize("language", ["en", "zh-Hant", "uk", "th"])
def test_a_move_throttled_twice_is_told_to_the_player_in_their_language(stack, phones, language):
    t = _strings(language)
    page = phones(LOCALES[language])
    _host_a_lobby_of_bots(page, stack, t)
    before = stack.stats()["gateway"]["throttled"]

    stack.post("/local/faults/throttle?frames=2")
    page.get_by_role("button", name=t["start"], exact=True).click()
    alert = page.get_by_role("alert")
    expect(alert).to_have_text(t["not_sent"], timeout=10_000)
    assert stack.stats()["gateway"]["throttled"] == before + 2  # the move and its one retry
    page.wait_for_timeout(2_500)  # longer than a retry's delay: a third try would start it
    code = page.locator("p.code").inner_text()
    expect(page.get_by_role("heading", level=1)).to_have_text(t["lobby"].format(code=code))
    expect(alert).to_have_text(t["not_sent"])
    expect(alert).to_be_in_viewport()  # above the Start button the host tapped, not off-screen
    page.screenshot(path=ARTIFACTS / f"dropped-frame-{language}.png")

    # "Try again" is good advice: the fault is used up, so the same tap now starts the game.
    page.get_by_role("button", name=t["start"], exact=True).click()
    expect(page.get_by_role("heading", name=t["role_check"])).to_be_visible(timeout=10_000)
    expect(alert).to_have_count(0)
