"""The Chief's first tap on a fresh proposal screen selects that cat (the first
tap was once lost whenever nothing had redrawn the screen since the step began). One person
plays with four bots (seat 1: the first Chief) through the UI up to the first proposal,
then taps one name, once."""

from playwright.sync_api import expect

from tests.support.bot_table import table_of
from tests.support.local_stack_process import BOTS_SEATED_MS


def test_the_chiefs_first_tap_on_a_fresh_proposal_selects_the_cat(stack, phones):
    page = phones()
    page.goto(stack.http_url + "/")
    page.fill("#name", "Zoe")
    page.select_option("#limit", "")
    page.get_by_role("button", name="Create a room", exact=True).click()
    expect(page.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)
    page.get_by_role("button", name="Start the game").click()
    table = table_of([page])
    plays = table._choose
    table._choose = lambda screen, lazy: (
        None if screen["phase"] == "proposal" else plays(screen, lazy)
    )
    zoe = table.phones[0]
    table.play(until=lambda: zoe.phase == "proposal", timeout=120)
    main = page.locator("main")
    expect(main).to_have_attribute("data-turn", "true")  # seat 1 is the first Chief
    name = page.locator("main .grid button").first
    expect(name).to_have_attribute("aria-pressed", "false")
    name.tap()
    expect(name).to_have_attribute("aria-pressed", "true", timeout=3_000)
    assert zoe.errors == []
