"""The client runs under the site's Content-Security-Policy with
no violation (Debian's Chromium, Playwright, on the local stack, which sends the headers
of template.yaml's FrontendHeadersPolicy on every response, HSTS aside).

Every page is opened under the policy, each violation printed and counted
(tests/support/ui_table.py `collect_csp_violations`): the phone (a room with the stack's
bots, the lobby's QR codes, a game started and its first steps), the table screen (keyed,
following the lobby and those steps), the replay viewer (every step of a finished game
of each game, roles shown: each step's spectator screen and its moments), and the rules
page of each game in each language. A whole game on phones runs under the same collector
in tests/e2e/test_browser_game.py (every UiTable phone). A control shows the policy is
enforced and the collector catches what it must: an inline style and script, and a page
framing the site."""

import json
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser_replay_viewer import _file
from tests.support.error_codes import LANGUAGES
from tests.support.local_stack_process import BOTS_SEATED_MS
from tests.support.ui_table import PHONE, collect_csp_violations

LAPTOP = {"width": 1280, "height": 720}
GAMES = ("catch_the_witch", "burn_the_witch")


@pytest.fixture
def violations() -> list[str]:
    """What the pages a test opens violate: none, or the test fails listing them."""
    found: list[str] = []
    yield found
    assert found == [], "\n".join(found)


def _open(browser, violations: list[str], viewport: dict = PHONE):
    context = browser.new_context(viewport=viewport, has_touch=True, locale="en-GB")
    collect_csp_violations(context, violations)
    page = context.new_page()
    page.on("pageerror", lambda error: violations.append(f"pageerror {error}"))
    return page


def _until(page, condition, timeout: float = 5) -> None:
    end = time.monotonic() + timeout
    while not condition() and time.monotonic() < end:
        page.wait_for_timeout(50)


def test_the_site_is_served_with_its_headers_and_they_are_enforced(stack, browser):
    """The phone's page has the policy, its WebSocket origin this stack's; an inline style
    or script is refused and reported, and no page may frame the site."""
    found: list[str] = []
    page = _open(browser, found)
    response = page.goto(stack.http_url + "/")
    websocket = stack.http_url.replace("http://", "ws://")
    csp = response.headers["content-security-policy"]
    assert f"connect-src 'self' {websocket};" in csp and "script-src 'self';" in csp
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "strict-transport-security" not in response.headers  # plain http
    expect(page.locator("header")).to_contain_text("online")  # its socket is allowed
    assert found == []

    ran = page.evaluate("""() => {
      document.body.insertAdjacentHTML("beforeend", '<p id="inline" style="color: red">x</p>');
      const script = document.createElement("script");
      script.textContent = "window.inlineRan = true";
      document.head.append(script);
      return [getComputedStyle(document.getElementById("inline")).color, window.inlineRan];
    }""")
    assert ran[0] != "rgb(255, 0, 0)" and ran[1] is None  # neither applied nor run
    framing = page.context.new_page()  # another page (about:blank, no policy) framing ours
    framing.set_content(f'<iframe src="{stack.http_url}/"></iframe>')
    _until(framing, lambda: any("frame-ancestors" in v for v in found))
    assert framing.frames[1].url.startswith("chrome-error:")  # the site did not load in it
    text = "\n".join(found)
    assert "[csp] style-src-attr refused inline" in text, text
    assert "[csp] script-src-elem refused inline" in text, text
    assert "Applying inline style violates" in text, text  # Chromium's own lines
    assert "Executing inline script violates" in text, text
    assert "Framing 'http://127.0.0.1:" in text and "frame-ancestors 'none'" in text, text


def test_phone_and_table_screen_play_under_the_policy(stack, browser, violations):
    """A person creates a room, the stack's four bots join; the host's keyed table link
    opens on a laptop; the game starts and both follow its first steps."""
    phone = _open(browser, violations)
    phone.goto(stack.http_url + "/")
    phone.fill("#name", "Zoe")
    phone.get_by_role("button", name="Create a room", exact=True).click()
    expect(phone.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)
    expect(phone.locator(".qr svg").first).to_be_visible()
    link = phone.locator("#table-screen .link a").get_attribute("href")
    table = _open(browser, violations, LAPTOP)
    table.goto(link)
    expect(table.locator(".seats li")).to_have_count(5, timeout=10_000)

    phone.get_by_role("button", name="Start the game").click()
    expect(phone.get_by_role("heading", name="Your secret role")).to_be_visible(timeout=10_000)
    expect(table.locator("main")).to_have_attribute("data-phase", "role_check", timeout=10_000)
    phone.get_by_role("button", name="Ready", exact=True).click()
    expect(table.locator("main")).not_to_have_attribute("data-phase", "role_check",
                                                        timeout=20_000)  # fmt: skip
    phone.goto(stack.http_url + "/")  # a reload: back to its seat, under the policy too
    expect(phone.locator("header")).to_contain_text("online", timeout=10_000)


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_viewer_draws_every_step_under_the_policy(stack, browser, violations, game):
    file = _file(game, seed=3 if game == "catch_the_witch" else 5)
    page = _open(browser, violations)
    page.add_init_script(f"localStorage.setItem('party.replay', {json.dumps(json.dumps(file))})")
    page.goto(stack.http_url + "/replay.html")
    count = len(file["steps"])
    expect(page.locator("#replay-position")).to_have_text(f"Step 1 of {count}")
    if page.locator("#replay-roles").count():
        page.check("#replay-roles")
    for _ in range(count - 1):
        page.click("#replay-next")
    expect(page.locator("#replay-position")).to_have_text(f"Step {count} of {count}")


def test_every_rules_page_renders_under_the_policy(stack, browser, violations):
    """The page's script is its own file now (no inline script), and the fragments' styles
    are classes (no style attribute): each game's rules in each language render whole."""
    page = _open(browser, violations)
    for game in GAMES:
        for language in LANGUAGES:
            page.goto(f"{stack.http_url}/rules.html?lang={language}&game={game}")
            expect(page.locator("main h1")).to_have_count(1)
            expect(page.locator("nav.languages a")).to_have_count(len(LANGUAGES))
            dense = page.locator("table.dense")
            if dense.count():  # Burn the Witch's setup table: its shared rows, small type
                expect(dense.locator("tr")).not_to_have_count(1)
                sizes = dense.evaluate("t => [getComputedStyle(t).fontSize, "
                                       "getComputedStyle(document.body).fontSize]")  # fmt: skip
                assert float(sizes[0][:-2]) < float(sizes[1][:-2]), sizes
