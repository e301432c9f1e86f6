"""A seat moves to a new phone by its one-time link (docs/protocol.md "A seat on a new phone"),
in Chromium on the local stack: the seated phone shows its link and QR code, a new phone
opening the link takes the seat mid-game (its secret role with it), every screen is told,
the old phone is told and goes back to the start, and the link opens nothing a second time.
The key never stays in the new phone's address bar."""

import re

from playwright.sync_api import expect

from tests.support.local_stack_process import BOTS_SEATED_MS
from tests.support.ui_table import ARTIFACTS

SEAT_LINK = re.compile(r"#seat=[A-Z]+\.[A-Za-z0-9_-]+$")


def test_a_seat_moves_to_a_new_phone_mid_game_once(stack, phones):
    old, new, late = phones(), phones(), phones()
    old.goto(stack.http_url + "/")
    old.fill("#name", "Zoe")
    old.get_by_role("button", name="Create a room", exact=True).click()
    expect(old.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)
    old.get_by_role("button", name="Start the game").click()
    expect(old.get_by_role("heading", name="Your secret role")).to_be_visible(timeout=10_000)
    role = _held_role(old)

    old.get_by_role("button", name="Move my seat to another phone").click()
    expect(old.get_by_role("heading", name="Your seat on another phone")).to_be_visible()
    expect(old.get_by_role("img", name="QR code of the seat's link").locator("svg")).to_be_visible()
    old.screenshot(path=ARTIFACTS / "seat-move-link.png")
    link = old.locator("#seat-link").get_attribute("href")
    assert SEAT_LINK.search(link), link

    new.goto(link)
    expect(new.get_by_role("heading", name="Your secret role")).to_be_visible(timeout=10_000)
    assert "#seat=" not in new.url and "seat=" not in new.evaluate("location.href")
    expect(new.locator("header .seat-news")).to_contain_text("Zoe's seat moved to a new phone")
    new.screenshot(path=ARTIFACTS / "seat-move-new-phone.png")
    assert _held_role(new) == role  # the seat's secret came with it
    # The old phone was told, and holds no seat: it is back at the start.
    expect(old.get_by_role("alert")).to_contain_text(
        "Your seat moved to another phone", timeout=10_000
    )
    expect(old.locator("#name")).to_be_visible()
    assert old.evaluate("localStorage.getItem('party.seat')") is None

    late.goto(link)
    expect(late.get_by_role("alert")).to_contain_text(
        "This seat link was used already or is out of date", timeout=10_000
    )
    expect(late.locator("#name")).to_be_visible()
    # The seat is the new phone's: a reload there keeps it.
    new.reload()
    expect(new.get_by_role("heading", name="Your secret role")).to_be_visible(timeout=10_000)


def _held_role(page) -> str:
    """The role the phone shows while its owner holds the role button."""
    page.get_by_role("button", name="Press and hold to see your role").hover()
    page.mouse.down()
    box = page.locator(".role-box")
    expect(box).to_contain_text(" — ")  # "<role> — <side>"
    role = box.inner_text()
    page.mouse.up()
    return role
