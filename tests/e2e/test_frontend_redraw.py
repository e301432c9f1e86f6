"""The taps a redraw must never lose (frontend/js/redraw.js, in Debian's Chromium with real
pointer input, no server: the module alone on a page of its own). A view arriving while a
finger is on a button is drawn after the tap has landed; a control held across redraws is
the one held until the finger lifts (or HOLD_MAX_MS pass: its pointerup was lost); a screen
whose markup has not changed keeps its elements, so a pressed button stays the one pressed;
the strip's countdown ticking beside a tracker does not take the tracker's tap. A control
shows the guard is what keeps the tap: the same redraw drawn at once swallows it.

Whole games keep these promises too: tests/e2e/test_browser_shell.py (a view arriving
during a tap, in the lobby and in a step), test_browser_first_tap.py (the Chief's first
tap on a fresh proposal), test_browser_strip.py (a tracker tapped beside the countdown)."""

import re

import pytest

from tests.support.module_page import FRONTEND, module_page

REDRAW = (FRONTEND / "js" / "redraw.js").read_text()
HOLD_MAX_MS = int(re.search(r"export const HOLD_MAX_MS = (\d+);", REDRAW).group(1))
TAP_SETTLE_MS = int(re.search(r"export const TAP_SETTLE_MS = (\d+);", REDRAW).group(1))

#: A screen like the shell's: a button drawn from a "view" (its label and whether it is
#: pressed), each drawing a new element; every click is logged with the drawing it hit.
SETUP_JS = """async () => {
  const redraw = await import("/js/redraw.js");
  const screen = document.getElementById("screen");
  window.clicks = [];
  window.drawings = 0;
  window.view = { label: "Ready", pressed: false };
  window.draw = () => {
    const button = document.createElement("button");
    const drawing = ++window.drawings;
    button.textContent = window.view.label;
    button.setAttribute("aria-pressed", String(window.view.pressed));
    button.addEventListener("click", () => window.clicks.push(drawing));
    return redraw.replaceIfChanged(screen, [button]);
  };
  window.drawSoon = redraw.tapSafe(() => window.draw());
  window.redraw = redraw;
  window.draw();
}"""


@pytest.fixture
def page(browser):
    with module_page(browser, "redraw", SETUP_JS) as page:
        yield page


def _finger_down_on_the_button(page) -> None:
    box = page.locator("#screen button").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def _a_view_arrives(page, label: str, pressed: bool = False) -> None:
    page.evaluate(
        "([label, pressed]) => { window.view = { label, pressed }; window.drawSoon(); }",
        [label, pressed],
    )


def test_a_view_arriving_during_a_tap_is_drawn_after_the_tap_lands(page):
    _finger_down_on_the_button(page)
    _a_view_arrives(page, "Ready (2 waiting)")
    assert page.locator("#screen button").inner_text() == "Ready", "not drawn under the finger"
    page.mouse.up()
    assert page.evaluate("window.clicks") == [1], "the tap landed on the button it began on"
    page.locator("#screen button", has_text="Ready (2 waiting)").wait_for(timeout=2 * TAP_SETTLE_MS)
    assert page.evaluate("window.drawings") == 2, "drawn once, after the click"


def test_without_the_guard_a_redraw_under_the_finger_swallows_the_tap(page):
    """Why the guard exists: the button pressed is gone when the finger lifts."""
    _finger_down_on_the_button(page)
    page.evaluate(
        "() => { window.view = { label: 'Ready (2 waiting)', pressed: false }; window.draw(); }"
    )
    page.mouse.up()
    assert page.evaluate("window.clicks") == []


def test_a_control_held_across_redraws_stays_the_one_held_until_the_finger_lifts(page):
    page.evaluate("() => { window.held = document.querySelector('#screen button'); }")
    _finger_down_on_the_button(page)
    for n in range(3):  # views keep coming while the finger is down
        _a_view_arrives(page, f"Ready ({n} waiting)")
        page.wait_for_timeout(200)
    assert page.evaluate("window.held === document.querySelector('#screen button')")
    page.mouse.up()
    assert page.evaluate("window.clicks") == [1]
    page.locator("#screen button", has_text="Ready (2 waiting)").wait_for(timeout=2 * TAP_SETTLE_MS)
    assert page.evaluate("window.drawings") == 2, "the newest view, drawn once"


def test_a_finger_down_longer_than_a_press_lets_the_view_be_drawn(page):
    """A pointerup can be lost (a system gesture, a notification): the screen must not
    freeze. Past HOLD_MAX_MS the waiting view is drawn."""
    _finger_down_on_the_button(page)
    _a_view_arrives(page, "Vote")
    page.wait_for_timeout(HOLD_MAX_MS / 2)
    assert page.locator("#screen button").inner_text() == "Ready"
    page.locator("#screen button", has_text="Vote").wait_for(timeout=HOLD_MAX_MS)
    page.mouse.up()


def test_a_pressed_button_stays_the_element_pressed_when_the_view_is_the_same(page):
    _a_view_arrives(page, "Ann", pressed=True)
    page.locator("#screen button[aria-pressed=true]").focus()
    page.evaluate("() => { window.pressed = document.querySelector('#screen button'); }")
    _a_view_arrives(page, "Ann", pressed=True)  # the same view again: nothing to change
    assert page.evaluate("window.pressed === document.querySelector('#screen button')")
    assert page.evaluate("document.activeElement === window.pressed"), "focus stays"
    page.locator("#screen button").tap()
    assert page.evaluate("window.clicks") == [2], "the tap is the drawn button's"
    redrawn = page.evaluate(
        "() => window.redraw.replaceIfChanged(document.getElementById('screen'),"
        " [window.pressed.cloneNode(true)], { force: true })"
    )
    assert redrawn and page.evaluate(
        "window.pressed !== document.querySelector('#screen button')"
    ), "a new step draws afresh (its handlers are the new step's)"


def test_a_tracker_tapped_beside_the_ticking_countdown_keeps_its_tap(page):
    """The strip is redrawn every second (morph): only what changed is replaced."""
    page.evaluate("""() => {
      const strip = document.createElement("div");
      document.body.prepend(strip);
      const row = (seconds) => {
        const tracker = document.createElement("button");
        tracker.textContent = "🔏 2/3";
        tracker.addEventListener("click", () => window.clicks.push("tracker"));
        const countdown = document.createElement("span");
        countdown.textContent = `⏱ ${seconds} s`;
        const facts = document.createElement("div");
        facts.append(tracker, countdown);
        return [facts];
      };
      window.tick = (seconds) => window.redraw.morph(strip, row(seconds));
      window.tick(30);
    }""")
    tracker = page.get_by_role("button", name="🔏 2/3")
    page.evaluate("() => { window.tracker = document.querySelector('div button'); }")
    box = tracker.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => window.tick(29)")
    page.mouse.up()
    assert page.evaluate("window.clicks") == ["tracker"]
    assert page.evaluate("window.tracker === document.querySelector('div button')")
    assert page.get_by_text("⏱ 29 s").is_visible()
