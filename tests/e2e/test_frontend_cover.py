"""Catch the Witch's place-choice cover (frontend/js/games/catch_the_witch/cover.js, in
Debian's Chromium, no server: the game's modules alone on a page of their own, with the
shell's `ctx` recorded). Every phone in human form sends two frames in each place choice,
as the guarding Knight's does (Guard, then his guard place): its place, then a cover 0.8–4 s
later (docs/security.md, "Frames from phones"). The cover follows the place sent: the last
cat to choose gets no view of its own place (the step's end answers it, with the next
step's view), and its phone must send the cover all the same, or the Wi-Fi would see one
frame fewer from it on every day without a guard, and two on a guarding day from the
Knight, who chooses last.

A whole game's frames are compared in tests/e2e/test_browser_tells.py."""

import pytest

from tests.support.module_page import module_page

#: The least wait (COVER_DELAY_MS[0]), with Math.random() at 0; half a second's margin.
WAIT_MS = 800 + 500

#: The place screen's module and the game's view hook, with a `ctx` that records the frames.
SETUP_JS = """async () => {
  window.morning = await import("/js/games/catch_the_witch/morning.js");
  window.game = await import("/js/games/catch_the_witch/index.js");
  Math.random = () => 0; // the cover's least wait (COVER_DELAY_MS)
  window.frames = [];
  window.ctx = {
    draft: {},
    send: (action, fields) => window.frames.push({ action, ...fields }),
    cover: (step) => window.frames.push({ action: "cover", step }),
  };
}"""


@pytest.fixture
def page(browser):
    with module_page(browser, "cover", SETUP_JS) as page:
        yield page


def _view(step: int, phase: str, **me) -> dict:
    return {"game": "catch_the_witch", "phase": phase, "step": step, "day": 2,
            "me": {"name": "Bo", "role": "villager", "form": "human", **me}}  # fmt: skip


def _choose_place(page, view: dict, place: str = "forest") -> None:
    page.evaluate("([v, place]) => window.morning.choosePlace(v, window.ctx, place)", [view, place])


def _a_view_arrives(page, view: dict) -> None:
    page.evaluate("(v) => window.game.afterView(v, window.ctx)", view)


def _frames_after_the_wait(page) -> list[dict]:
    page.wait_for_timeout(WAIT_MS)
    return page.evaluate("window.frames")


def test_the_last_cat_to_choose_sends_its_cover_though_no_view_shows_its_place(page):
    place_choice = _view(16, "place_choice")
    _a_view_arrives(page, place_choice)
    _choose_place(page, place_choice)
    # Hers was the last place: the step's end answers it, the witches' turn, no place shown.
    _a_view_arrives(page, _view(17, "witches"))
    assert _frames_after_the_wait(page) == [
        {"action": "choose_place", "place": "forest"},
        {"action": "cover", "step": 16},  # the step it covers, ended or not
    ]


def test_a_place_changed_is_covered_once(page):
    place_choice = _view(16, "place_choice")
    _choose_place(page, place_choice, "forest")
    _a_view_arrives(page, _view(16, "place_choice", place="forest"))
    _choose_place(page, place_choice, "lake")
    assert [frame["action"] for frame in _frames_after_the_wait(page)] == [
        "choose_place", "choose_place", "cover",
    ]  # fmt: skip


def test_a_knight_who_turns_to_guard_before_his_cover_leaves_sends_none(page):
    """His Guard and guard place are his two frames: a cover would be a third."""
    place_choice = _view(16, "place_choice", role="knight")
    _choose_place(page, place_choice)
    page.evaluate("() => window.ctx.send('choose_guard', {})")
    _a_view_arrives(page, _view(17, "guard", role="knight", guarding=True))
    assert [frame["action"] for frame in _frames_after_the_wait(page)] == [
        "choose_place", "choose_guard",
    ]  # fmt: skip


def test_each_day_has_its_own_cover(page):
    _choose_place(page, _view(16, "place_choice"))
    _choose_place(page, _view(30, "place_choice"))
    covers = [frame for frame in _frames_after_the_wait(page) if frame["action"] == "cover"]
    assert covers == [{"action": "cover", "step": 16}, {"action": "cover", "step": 30}]
