"""The result screen on a phone (Debian's Chromium, Playwright, the
local stack serving the client). The witch score says what it counts, in each language;
"Watch the replay" is a button like "Download the replay" beside it; the final reveal turns
every role's card over, one after another in seat order within 1.5 s, once: not under
prefers-reduced-motion, and not again when the screen is drawn anew. The end view is the
engine's own, of a seeded 9-cat bot game; the phone's socket is answered by the test (a game
to its end through the UI takes minutes), as the room sends a finished game: the game's
last view, then the lobby with `last_result` (docs/protocol.md). Screenshots go to
build/test-artifacts/end-<language>-<width>.png."""

import json

import pytest
from playwright.sync_api import expect

from engine.catch_the_witch.autoplay import play
from engine.catch_the_witch.rules import new_game
from engine.catch_the_witch.views import view
from tests.e2e.test_browser_shell import ASKS_FOR_THE_VIEW, PROD, _eventually
from tests.e2e.test_browser_smoke import _strings
from tests.support.ui_table import ARTIFACTS, LOCALES

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy"]
#: The whole reveal, first card to last (end.js REVEAL_MS), with a frame's slack.
REVEAL_MS = 1500

#: Each reveal card's own animations (not its back's): [{delay, duration, state}].
REVEAL_TIMING_JS = """() => [...document.querySelectorAll("main .reveal-card")].map((card) =>
  card.getAnimations().map((a) => ({ delay: a.effect.getTiming().delay, duration: a.effect.getTiming().duration,
                                     state: a.playState })))"""
#: Every animation of the reveal still running (the cards' and their backs').
REVEAL_RUNNING_JS = """() => document.getAnimations().filter((a) => a.playState === "running"
  && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest("ul.reveal")).length"""


def finished_views(state) -> dict:
    """The first seat's last game view, and the lobby the room returns to with the game's
    public result (the table screen's too)."""
    names = [cat.name for cat in state.players]
    last = {**view(state, names[0]), "room": "ABCDEFGH", "connected": {}}
    result = {**view(state, None), "room": "ABCDEFGH"}
    lobby = {"phase": "lobby", "game": "catch_the_witch", "room": "ABCDEFGH", "host": names[0],
             "you": names[0], "seats": [{"name": n, "connected": True} for n in names],
             "settings": {"discussion_limit": 120, "roles": None, "reveal_role_on_exile": False},
             "default_roles": None, "start_problem": None, "auto_away": True,
             "player_range": {"min": 4, "max": 12}, "last_result": result}  # fmt: skip
    return {"last": last, "lobby": lobby, "result": result}


@pytest.fixture(scope="module")
def finished() -> dict:
    run = play(new_game(NAMES, {}, seed=1), bot_seed=1)
    assert run.state.outcome is not None
    frogs = sum(1 for cat in run.state.players if cat.form.value == "frog")
    assert frogs > 0, "a game with frogs: the witch score is not 0"
    return finished_views(run.state)


def end_on_a_phone(page, stack, finished: dict) -> dict:
    """The first seat's phone sees its game end; returns what the test's server holds: the
    socket (to send more views) and the frames the page sent."""
    server: dict = {"sockets": [], "sent": []}

    def route(ws):
        server["sockets"].append(ws)

        def from_page(message):
            frame = json.loads(message)
            server["sent"].append(frame["action"])
            if (
                frame["action"] in ASKS_FOR_THE_VIEW
                and len(server["sockets"]) == 1
                and len(server["sent"]) == 1
            ):
                for seq, shown in enumerate((finished["last"], finished["lobby"]), 1):
                    ws.send(
                        json.dumps({"type": "view", "seq": seq, "rev": str(seq), "view": shown})
                    )

        ws.on_message(from_page)

    page.route_web_socket(PROD, route)
    seat = {"room": "ABCDEFGH", "token": "t", "name": finished["last"]["you"]}
    page.add_init_script(f"localStorage.setItem('party.seat', {json.dumps(json.dumps(seat))})")
    page.goto(stack.http_url + "/?room=ABCDEFGH")
    expect(page.locator("main")).to_have_attribute("data-phase", "game_over", timeout=10_000)
    return server


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_witch_score_says_what_it_counts(stack, phones, finished, language):
    say = _strings(language)
    page = phones(LOCALES[language])
    end_on_a_phone(page, stack, finished)
    score = page.locator("main .witch-score")
    expect(score).to_contain_text(say("witch_score", n=finished["result"]["reveal"]["witch_score"]))
    expect(score).to_contain_text(say("witch_score_explained"))
    # What it counts is on the cards: every frog's card is marked as one.
    frogs = [p["name"] for p in finished["result"]["players"] if p["form"] == "frog"]
    marked = page.locator('main .reveal-card[data-form="frog"] .reveal-name').all_inner_texts()
    assert marked == frogs and len(frogs) == finished["result"]["reveal"]["witch_score"]
    page.wait_for_function(f"() => ({REVEAL_RUNNING_JS})() === 0", timeout=5_000)  # face up
    for width, height in ((360, 640), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=ARTIFACTS / f"end-{language}-{width}.png")
        page.locator("#download-replay").scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / f"end-{language}-{width}-replay.png")


#: How each replay control looks: its tag, size and the styles a button's look is made of.
LOOKS_JS = """() => ["watch-replay", "download-replay"].map((id) => {
  const el = document.getElementById(id), style = getComputedStyle(el), box = el.getBoundingClientRect();
  return { tag: el.tagName, width: Math.round(box.width), height: Math.round(box.height), underline: style.textDecorationLine,
           look: ["font-size", "font-weight", "border-radius", "background-color", "color", "min-height", "padding-top"]
             .map((p) => style.getPropertyValue(p)) };
})"""


def test_watch_the_replay_is_a_button_like_its_neighbour_and_opens_the_viewer(
    stack, phones, finished
):
    page = phones()
    server = end_on_a_phone(page, stack, finished)
    for width, height in ((360, 640), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        watch, download = looks = page.evaluate(LOOKS_JS)
        assert watch["tag"] == download["tag"] == "BUTTON", looks
        assert watch["underline"] == "none" and watch["look"] == download["look"], looks
        assert (watch["width"], watch["height"]) == (download["width"], download["height"]), looks
    # Tapped: the viewer opens in a new tab, this one stays (its seat), and the file is asked for.
    with page.context.expect_page() as opened:
        page.get_by_role("button", name="Watch the replay").click()
    assert opened.value.url.endswith("/replay.html"), opened.value.url
    expect(page.locator("main")).to_have_attribute("data-phase", "game_over")
    _eventually(page, lambda: "replay" in server["sent"])


def test_the_reveal_turns_the_cards_over_in_seat_order_once(stack, phones, finished):
    page = phones()
    server = end_on_a_phone(page, stack, finished)
    cards = page.locator("main .reveal-card")
    expect(cards).to_have_count(len(NAMES))
    assert cards.locator(".reveal-name").all_inner_texts() == NAMES  # seat order
    timing = page.evaluate(REVEAL_TIMING_JS)
    # One turn per card, started when the screen was drawn (on a loaded machine the first
    # ones may be over by the time they are read: finished, not turned again).
    assert all(len(card) == 1 and card[0]["state"] in ("running", "finished") for card in timing), (
        timing
    )
    delays = [card[0]["delay"] for card in timing]
    assert delays == sorted(delays) and delays[0] < delays[-1], delays  # one after another
    last = timing[-1][0]
    assert last["delay"] + last["duration"] <= REVEAL_MS, timing  # the last face up in 1.5 s
    page.wait_for_function(f"() => ({REVEAL_RUNNING_JS})() === 0", timeout=5_000)
    # Drawn anew (a newer copy of the result, as when the lobby changes): new cards, face up,
    # nothing turning again.
    page.evaluate('document.querySelector("main .reveal-card").dataset.old = "1"')
    newer = {**finished["lobby"], "last_result": {**finished["result"], "reveal": {
        **finished["result"]["reveal"], "witch_score": 99}}}  # fmt: skip
    server["sockets"][0].send(json.dumps({"type": "view", "seq": 3, "rev": "3", "view": newer}))
    expect(page.locator("main .witch-score")).to_contain_text("99")
    assert page.locator("main .reveal-card[data-old]").count() == 0, "the screen was not drawn anew"
    assert page.evaluate(REVEAL_RUNNING_JS) == 0
    assert page.evaluate(REVEAL_TIMING_JS) == [[]] * len(NAMES)


def test_no_card_turns_under_reduced_motion(stack, browser, finished):
    page = browser.new_context(
        viewport={"width": 360, "height": 640}, reduced_motion="reduce"
    ).new_page()
    end_on_a_phone(page, stack, finished)
    expect(page.locator("main .reveal-card")).to_have_count(len(NAMES))
    assert page.evaluate("() => document.getAnimations().length") == 0
    assert page.evaluate(REVEAL_RUNNING_JS) == 0
