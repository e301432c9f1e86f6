"""On the table screen (a TV: 1280×720, which cannot scroll):
the yes/no vote on a proposal and the exile vote fill the screen (the proposal large, a
tile per voter saying who has voted, never how); every step of a 12-cat game fits without
scrolling in each language, the role check speaks to the table, not to one seat; and the
final reveal turns the cards over as a phone does. The views are the engine's own public
views (view(state, None)) of a seeded bot game, sent by the test on the page's socket.
Screenshots: build/test-artifacts/table-<step>.png."""

import json

import pytest
from playwright.sync_api import expect

from engine.catch_the_witch.autoplay import play
from engine.catch_the_witch.rules import new_game
from engine.catch_the_witch.views import view
from tests.e2e.test_browser_end_screen import (
    REVEAL_RUNNING_JS,
    REVEAL_TIMING_JS,
    end_on_a_phone,
    finished_views,
)
from tests.e2e.test_browser_shell import PROD
from tests.e2e.test_browser_smoke import _strings
from tests.support.ui_table import ARTIFACTS, LOCALES

TV = {"width": 1280, "height": 720}
#: Twelve cats, the most a table seats; a long name or two, as people type them.
NAMES = ["Alexandrina", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Maximiliano"]  # fmt: skip
#: How much of the screen under the strip a vote fills, at least.
FILLED = 0.6
#: The least font size of the names on a vote's tiles, to be read from across a room.
READABLE_PX = 28

#: Overflow, and how far down the screen under the strip the step's content reaches.
MEASURE_JS = """() => {
  const main = document.querySelector("main"), top = main.getBoundingClientRect().top;
  const shown = [...main.querySelectorAll("*")].filter((e) => e.offsetParent !== null);
  const bottom = Math.max(...shown.map((e) => e.getBoundingClientRect().bottom));
  const right = Math.max(...shown.map((e) => e.getBoundingClientRect().right));
  return { tall: document.documentElement.scrollHeight, wide: document.documentElement.scrollWidth,
           right, filled: (bottom - top) / (innerHeight - top) };
}"""
#: The vote's tiles: each one's words, whether it says voted, and its names' font size.
TILES_JS = """() => [...document.querySelectorAll("main .vote-board li")].map((li) => ({
  text: li.textContent, voted: li.classList.contains("has-voted"),
  px: parseFloat(getComputedStyle(li.querySelector(".voter")).fontSize) }))"""


@pytest.fixture(scope="module")
def game() -> dict:
    """The table's view of each step of the game, the first time it shows; the two votes
    once a few cats have voted; and, as "result", the lobby the game returns to. Then the
    first seat's own views of the end (``finished``)."""
    shown: dict[str, dict] = {}

    def observe(action, state):
        public = view(state, None)
        key = public["phase"]
        if key in ("approval", "vote") and 3 <= len(public["voted"]) < len(NAMES):
            key += "-partial"
        shown.setdefault(key, public)

    run = play(new_game(NAMES, {}, seed=3), bot_seed=3, observer=observe)
    assert {"role_check", "approval-partial", "vote-partial", "ritual"} <= set(shown), sorted(shown)
    finished = finished_views(run.state)
    shown["result"] = {**finished["lobby"], "you": None}
    steps = {key: {**v, "watching": True, "room": "ABCDEFGH", "connected": v.get("connected", {})}
             for key, v in shown.items()}  # fmt: skip
    return {"steps": steps, "finished": finished}


@pytest.fixture(scope="module")
def steps(game) -> dict[str, dict]:
    return game["steps"]


class TableScreen:
    """A table screen page, watching a room whose views the test sends."""

    def __init__(self, page, stack, first: dict, language: str = "en"):
        self.page, self.socket, self.seq = page, None, 1

        def route(ws):
            self.socket = ws
            ws.on_message(
                lambda message: (
                    json.loads(message)["action"] == "watch"
                    and ws.send(json.dumps({"type": "view", "seq": 1, "rev": "1", "view": first}))
                )
            )

        page.route_web_socket(PROD, route)
        page.goto(f"{stack.http_url}/table?room=ABCDEFGH&lang={language}#key={'A' * 22}")
        self._shown(first)

    def show(self, shown: dict) -> None:
        self.seq += 1
        self.socket.send(
            json.dumps({"type": "view", "seq": self.seq, "rev": str(self.seq), "view": shown})
        )
        self._shown(shown)

    def _shown(self, shown: dict) -> None:
        main = self.page.locator("main")
        expect(main).to_have_attribute("data-seq", str(self.seq), timeout=10_000)
        phase = (
            "game_over"
            if shown["phase"] == "lobby" and shown.get("last_result")
            else shown["phase"]
        )
        expect(main).to_have_attribute("data-phase", phase)


def test_the_votes_fill_the_tv_with_who_has_voted_never_how(stack, browser, steps):
    page = browser.new_context(viewport=TV, locale="en-GB").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tv = TableScreen(page, stack, steps["role_check"])
    say = _strings("en")
    for key in ("approval-partial", "vote-partial"):
        shown = steps[key]
        tv.show(shown)
        page.screenshot(path=ARTIFACTS / f"table-{key}.png")
        measured = page.evaluate(MEASURE_JS)
        assert measured["tall"] <= TV["height"] and measured["wide"] <= TV["width"], (key, measured)
        assert measured["filled"] >= FILLED, (key, measured)
        voters = [p["name"] for p in shown["players"] if p["form"] == "human"]
        voted = set(shown["voted"])
        tiles = page.evaluate(TILES_JS)
        # Every voter in seat order, each marked voted or not, and nothing else: never a vote.
        assert [(t["text"], t["voted"]) for t in tiles] == [
            (("✔" if name in voted else "⏳") + name, name in voted) for name in voters
        ], tiles
        assert all(t["px"] >= READABLE_PX for t in tiles), tiles
        expect(page.locator("main")).to_contain_text(
            say("voted_so_far", n=len(voted), of=len(voters))
        )
    proposal = steps["approval-partial"]["today"]["proposals"][-1]
    tv.show(steps["approval-partial"])
    chief_and_members = page.locator("main .proposal")
    expect(chief_and_members).to_contain_text(say("chief", name=proposal["chief"]))
    expect(chief_and_members).to_contain_text(say("members", names=", ".join(proposal["members"])))
    assert float(chief_and_members.evaluate("e => getComputedStyle(e).fontSize")[:-2]) >= 36
    assert errors == [], errors


@pytest.mark.parametrize("language", list(LOCALES))
def test_every_step_fits_a_tv_without_scrolling(stack, browser, steps, language):
    page = browser.new_context(viewport=TV, locale=LOCALES[language]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tv = TableScreen(page, stack, steps["role_check"], language)
    overflowing = {}
    for key, shown in steps.items():
        tv.show(shown)
        measured = page.evaluate(MEASURE_JS)
        if (
            measured["tall"] > TV["height"]
            or max(measured["wide"], measured["right"]) > TV["width"]
        ):
            overflowing[key] = measured
            page.screenshot(path=ARTIFACTS / f"table-overflow-{language}-{key}.png")
    if language == "en":
        page.wait_for_function(f"() => ({REVEAL_RUNNING_JS})() === 0", timeout=5_000)  # face up
        page.screenshot(path=ARTIFACTS / "table-result.png")
    assert overflowing == {}, overflowing
    assert errors == [], errors


def test_the_role_check_speaks_to_the_table_not_to_a_seat(stack, browser, steps):
    """The roles in play, not a seat's "Your secret role" (UX.md: never a seat's wording)."""
    page = browser.new_context(viewport=TV).new_page()
    TableScreen(page, stack, steps["role_check"])
    say = _strings("en")
    main = page.locator("main")
    expect(main.locator("h2")).not_to_have_text(say("role_check"))
    shown = main.locator("ul.role-set li").all_inner_texts()
    wanted = steps["role_check"]["role_set"].items()
    assert len(shown) == len(wanted), shown
    for text, (role, count) in zip(shown, wanted, strict=True):
        assert text.startswith(f"{count} ×") and text.endswith(say(f"role_{role}")), (
            text,
            role,
            count,
        )


def test_the_table_turns_the_cards_over_as_a_phone_does(stack, browser, phones, game):
    """The same reveal, card by card in seat order, on the TV and on a phone."""
    page = browser.new_context(viewport=TV).new_page()
    tv = TableScreen(page, stack, game["steps"]["vote-partial"])
    tv.show(game["steps"]["result"])
    on_tv = page.evaluate(REVEAL_TIMING_JS)
    phone = phones()
    end_on_a_phone(phone, stack, game["finished"])
    on_phone = phone.evaluate(REVEAL_TIMING_JS)
    assert len(on_tv) == len(on_phone) == len(NAMES)
    assert all(len(card) == 1 and card[0]["state"] == "running" for card in on_tv + on_phone)

    def turns(cards):  # each card's length and its start after the first card's
        return [(c[0]["duration"], round(c[0]["delay"] - cards[0][0]["delay"])) for c in cards]

    assert all(
        abs(a - b) <= 1 and d == e
        for (d, a), (e, b) in zip(turns(on_tv), turns(on_phone), strict=True)
    )
