"""Safari's engine: a whole game of Burn the Witch in WebKit (tests/support/
webkit.py), one phone among the local stack's four bots, played through taps alone
(tests/support/btw_ui_table.py's player). At the first step the seat moves to a new WebKit
phone by its one-time link (the old phone is told, the link opens nothing a second time);
mid-game the new phone's page is reloaded (as iOS reloads a tab it evicted) and is back on
the step with its seat, and plays on to the result."""

from tests.support.webkit import WebKitTable, create_a_room_with_bots, held_panel_title

HUMAN = "Zoe"
SEAT_JS = "() => localStorage.getItem('party.seat')"
REFUSAL_JS = "() => (document.querySelector('main .error') || {}).textContent || null"
ALERT_JS = "() => (document.querySelector('[role=alert]') || {}).textContent || ''"


def _moved_to_a_new_phone(old, webkit):
    """The seat's own "move my seat" link, opened on a new WebKit phone: that phone now."""
    old.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")  # the footer's button
    old.click("#move-seat")
    link = old.wait_for("() => (document.getElementById('seat-link') || {}).href", what="a link")
    new = webkit()
    new.goto(link)
    new.wait_for_phase("witching_hour")
    assert "seat=" not in new.evaluate("() => location.href")  # the key left the address bar
    assert f"{HUMAN}'s seat moved to a new phone" in new.text("header .seat-news")
    old.wait_for(ALERT_JS, what="the old phone told")
    assert "Your seat moved to another phone" in old.evaluate(ALERT_JS)
    old.goto(link)  # the same link a second time
    old.wait_for(f"() => ({ALERT_JS})().includes('used already')", what="the link refused")
    assert old.phase() == "home"
    return new


def test_a_webkit_phone_plays_burn_the_witch_to_the_end_through_a_reload(stack, webkit):
    phone = webkit()
    create_a_room_with_bots(phone, stack.http_url, "burn_the_witch", HUMAN)
    assert "Burn the Witch" in phone.text(".game-name")
    phone.click("#start")
    phone.wait_for_phase("witching_hour")
    # Her house, one press-and-hold away: its faction.
    assert held_panel_title(phone, "btw-hold", "btw-sheet").strip()
    phone = _moved_to_a_new_phone(phone, webkit)

    table = WebKitTable(lambda locale: phone, stack.http_url, seed=14, names=[HUMAN])
    refusals: list[str] = []  # what the screen said of a tap it did not take
    act = table.act

    def act_and_note_refusals(name: str) -> None:
        refusal = phone.evaluate(REFUSAL_JS)
        if refusal and refusal not in refusals:
            refusals.append(refusal)
        act(name)

    table.act = act_and_note_refusals
    # The first vote waits for her ballot (timers off): the page goes away mid-step.
    table.play(until=lambda: table.phase(HUMAN) == "vote", timeout=90)
    seat = phone.evaluate(SEAT_JS)
    assert seat and '"token"' in seat
    phone.reload()
    phone.wait_for_phase("vote")
    assert phone.evaluate(SEAT_JS) == seat

    table.play(until=lambda: table.phase(HUMAN) in ("over", "game_over"), timeout=150)
    phone.wait_for_phase("game_over")
    assert any(word in phone.text("main h1") for word in ("Zealots", "Sympathizers"))
    seen = table.phases[HUMAN]
    assert {"witching_hour", "accuse", "vote"} <= set(seen), seen
    assert refusals == [], refusals
