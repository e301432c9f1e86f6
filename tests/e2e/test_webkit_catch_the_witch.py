"""Safari's engine: a whole game of Catch the Witch in WebKit (tests/support/
webkit.py), one phone among the local stack's four bots, played through taps alone
(tests/support/ui_table.py's player), with the host's table screen open in a second WebKit
session following it to the result. On the way the phone is put away twice, as iPhones are,
and is back on the table's step with its seat each time, playing on: it opens the rules in
its tab and comes Back (WebKit restores the page from its back-forward cache, its socket
closed), and its socket drops (a locked screen, a Wi-Fi handover). At the end its replay
opens in a new tab from the tap."""

import time

from tests.support.bot_table import table_of
from tests.support.webkit import (
    TABLE_SCREEN,
    WebKitPhone,
    create_a_room_with_bots,
    held_panel_title,
)

#: The page's WebSocket, found by the next frame it sends and closed. The phone is woken
#: ("online") to send that frame (a ping): Selenium has no init script to wrap the socket
#: before the page's modules make it. Settles once the page has seen the socket close (its
#: own onclose, set first, has run): then its status says it is reconnecting.
DROP_SOCKET_JS = """() => new Promise((dropped) => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    WebSocket.prototype.send = send;
    send.call(this, data);
    this.addEventListener("close", () => dropped(document.getElementById("status").textContent));
    this.close();
  };
  window.dispatchEvent(new Event("online"));
})"""
SEAT_JS = "() => localStorage.getItem('party.seat')"
ONLINE_JS = "() => document.getElementById('status').textContent.includes('online')"
#: The step a screen shows, once it is not ``left`` (the step the phone went away from).
MOVED_ON_JS = """(left) => { const phase = document.querySelector("main").dataset.phase;
  return phase !== left && phase; }"""


def test_a_webkit_phone_plays_catch_the_witch_to_the_end_put_away_twice_with_a_tv(stack, webkit):
    phone = webkit()
    create_a_room_with_bots(phone, stack.http_url, "catch_the_witch")
    seat = phone.evaluate(SEAT_JS)
    assert seat and '"token"' in seat

    # The host's table link, opened on a laptop: a session of its own, with its own storage
    # (the phone's seat is not there: two WebKit phones would hold two seats).
    link = phone.attribute("#table-screen .link a", "href")
    assert "#key=" in link, link
    tv = webkit(TABLE_SCREEN)
    tv.goto(link)
    tv.wait_for_phase("lobby")
    assert tv.count("ul.seats li") == 5
    assert "key=" not in tv.driver.current_url  # the key leaves the address bar
    assert tv.evaluate(SEAT_JS) is None

    phone.click("#start")
    phone.wait_for_phase("role_check")
    # Her role, one press-and-hold away.
    assert held_panel_title(phone, "ctw-hold", "ctw-sheet").strip()
    table = table_of([phone], seed=36, phone_type=WebKitPhone)
    zoe = table.phones[0]

    # Day 1's morning, which only its timer ends: she reads the rules in the same tab while
    # the table moves on, then taps Back.
    table.play(until=lambda: zoe.phase == "morning", timeout=30)
    phone.evaluate("() => { window.__kept = true; }")
    phone.click("footer a")
    phone.wait_for("() => location.pathname.endsWith('/rules.html')", what="the rules")
    moved_on = tv.wait_for(MOVED_ON_JS, "morning", what="the table past the morning")
    phone.back()
    assert phone.evaluate("() => window.__kept === true"), "not the page kept in the cache"
    phone.wait_for_phase(moved_on)
    assert phone.evaluate(SEAT_JS) == seat

    # The first evening's discussion (two minutes of talk, her End talk tapped): its socket
    # drops.
    table.play(until=lambda: zoe.phase == "discussion", timeout=90)
    status = phone.evaluate(DROP_SOCKET_JS)
    assert "reconnecting" in status, status
    phone.wait_for(ONLINE_JS, what="online again")
    _shows_the_table_s_step(phone, tv)
    assert phone.evaluate(SEAT_JS) == seat

    table.play(until=lambda: zoe.phase == "game_over", timeout=150)
    tv.wait_for_phase("game_over")
    assert " win" in tv.text("main h1"), tv.text("main h1")  # "The witches win!"
    assert " win" in phone.text("main h1"), phone.text("main h1")
    assert zoe.errors == [], zoe.errors
    # Day 1's steps came to this phone, and it tapped its way through them (the game may
    # end at the first exile vote).
    assert {"role_check", "morning", "place_choice", "discussion", "vote"} <= set(zoe.phases)
    # Her replay, watched: the viewer opens in a new tab from the tap itself.
    phone.click("#watch-replay")
    with phone.new_tab() as viewer:
        position = viewer.wait_for(
            "() => (document.getElementById('replay-position') || {}).textContent",
            what="the replay viewer",
        )
        assert position.startswith("Step 1 of "), position
    assert phone.phase() == "game_over"


def _shows_the_table_s_step(phone, tv, timeout: float = 10) -> str:
    """Waits until the phone shows the step the table screen shows (either may move on
    meanwhile); that step."""
    end = time.monotonic() + timeout
    while (shown := (phone.phase(), tv.phase()))[0] != shown[1]:
        assert time.monotonic() < end, f"the phone, then the table: {shown}"
        time.sleep(0.05)
    return shown[0]
