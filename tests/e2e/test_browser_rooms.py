"""Rooms on the phone (Debian's Chromium, Playwright, the local stack): a
join refused (no open room with that code) and a kick that keeps the cat out are told in
the player's language; the 8-letter code is shown as two groups of four and may be typed
so, in lower case. Screenshots go to build/test-artifacts/."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser_smoke import _create_a_room_for_bots, _strings
from tests.support.ui_table import ARTIFACTS, LOCALES


@pytest.mark.parametrize("language", list(LOCALES))
def test_a_refused_join_a_kick_and_a_kept_out_rejoin_in_each_language(stack, phones, language):
    t = _strings(language)
    host = phones("en-GB")
    _create_a_room_for_bots(host, stack)
    shown = host.locator("p.code").inner_text()
    assert len(shown) == 9 and shown[4] == " ", shown  # "ABCD EFGH"
    page = phones(LOCALES[language])
    page.goto(stack.http_url + "/")
    page.fill("#name", "Kit")
    error = page.locator("main p.error")

    page.fill("#code", "QQQQ-QQQQ")
    page.get_by_role("button", name=t("join"), exact=True).click()
    expect(error).to_have_text(t("error_cannot_join"))
    page.screenshot(path=ARTIFACTS / f"rooms-{language}-cannot-join.png")

    page.fill("#code", shown.lower())  # as read off the host's screen
    page.get_by_role("button", name=t("join"), exact=True).click()
    expect(host.locator(".seats li")).to_have_count(6, timeout=10_000)
    host.get_by_role("button", name="Remove Kit").click()
    expect(error).to_have_text(t("error_kicked", minutes=10), timeout=10_000)
    expect(host.locator(".seats li")).to_have_count(5)

    page.fill("#name", "K1t")  # a look-alike; the host's own address: the name keeps it out
    page.fill("#code", shown)
    page.get_by_role("button", name=t("join"), exact=True).click()
    # The kick closed the phone's socket (DeleteConnection): the join waits for the new one,
    # which a loaded machine can take a few seconds to open.
    expect(error).to_have_text(t("error_kept_out"), timeout=15_000)
    page.screenshot(path=ARTIFACTS / f"rooms-{language}-kept-out.png")
