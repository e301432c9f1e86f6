"""Five phones (browser contexts at 360×640) play whole games through the UI only, on the
local stack: every step's screen, a mid-game reload, a contrast and label audit of every
screen seen, no seat token in any URL or log line, and a game where every countdown runs
out. Screenshots go to build/test-artifacts/."""

import contextlib
import json
import re

import pytest
from playwright.sync_api import expect

from tests.support.local_stack_process import BROWSER_TIME_SCALE, LocalStackProcess
from tests.support.ui_table import (
    ARTIFACTS,
    CONTRAST_JS,
    TIMED_STEPS,
    UiTable,
    screenshot,
)

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]


@pytest.fixture(scope="module")
def stack():
    # The handlers log at the deployed level (template.yaml's LogLevel), so the token scan
    # reads every line they would write to CloudWatch; the metrics stay off, as `make dev`'s.
    process = LocalStackProcess("--log-level", "INFO", time_scale=BROWSER_TIME_SCALE)
    yield process
    process.interrupt()


def _audited(table: UiTable, prefix: str) -> list[str]:
    """Screenshot and audit (contrast ≥ 4.5:1, every control named) each new screen."""
    problems: list[str] = []

    def audit(phone, screen):
        name = f"{prefix}-{screen['phase']}{'-turn' if screen['turn'] else ''}" + (
            "-spectator" if screen["spectator"] else ""
        )
        screenshot(phone, ARTIFACTS, name)
        problems.extend(f"{name}: {p}" for p in phone.page.evaluate(CONTRAST_JS))

    table.on_new_screen = audit
    return problems


def _urls_and_seat_tokens(table: UiTable) -> tuple[list[str], set[str]]:
    """What every phone asks for (pages, files, sockets) and shows in its address bar, and
    every seat token it is given (a `joined` frame), filled in as the phones play."""
    urls: list[str] = []
    tokens: set[str] = set()

    def joined_token(payload: str | bytes) -> None:
        with contextlib.suppress(ValueError):
            message = json.loads(payload)
            if isinstance(message, dict) and message.get("type") == "joined":
                tokens.add(message["token"])

    def on_socket(socket) -> None:
        urls.append(socket.url)
        socket.on("framereceived", joined_token)

    for phone in table.phones:
        phone.page.on("request", lambda request: urls.append(request.url))
        phone.page.on("websocket", on_socket)
        # replaceState and pushState too: what the history (and a shared screenshot) keeps
        phone.page.on("framenavigated", lambda frame: urls.append(frame.url))
    return urls, tokens


def test_five_phones_play_a_whole_game_through_the_ui(stack, browser):
    table = UiTable(browser, stack.http_url, NAMES, seed=5)
    urls, tokens = _urls_and_seat_tokens(table)
    problems = _audited(table, "game")
    table.open_room(discussion_limit="")  # Off: every step waits for the players
    table.start()

    # Mid-game, a phone reloads: same seat, same screen.
    cy = table.phones[2]
    table.play(until=lambda: cy.phase in ("proposal", "game_over"), timeout=180)
    phase = cy.page.locator("main").get_attribute("data-phase")
    cy.page.reload()
    expect(cy.page.locator("main")).to_have_attribute("data-phase", phase, timeout=10_000)
    expect(cy.page.locator("header")).to_contain_text("online")
    cy.page.locator("#ctw-hold").dispatch_event("pointerdown")  # held: the role shows
    expect(cy.page.locator("#ctw-sheet")).to_contain_text(
        re.compile(
            r"Villager|Witch|Crow|Jester|"
            r"Seer|Herbalist|Knight|Pickpocket"
        )
    )
    cy.page.locator("#ctw-hold").dispatch_event("pointerup")  # released: hidden again
    expect(cy.page.locator("#ctw-sheet")).to_be_hidden()

    table.play(until=lambda: table.all_in("game_over"), timeout=420)
    for phone in table.phones:
        page = phone.page
        expect(page.get_by_role("heading", level=1)).to_contain_text(re.compile("win"))
        expect(page.locator("main .reveal-card")).to_have_count(len(NAMES))  # every role revealed
        expect(page.locator("main ul.story li").first).to_contain_text("Day 1")  # the timeline
    # Each phone keeps the result until its player goes back to the lobby, where
    # the host plays again.
    table.host.page.get_by_role("button", name="To the lobby").click()
    host_sees = table.host.page.get_by_role("button", name="Play again")
    expect(host_sees).to_be_visible()
    seen = {phase for phone in table.phones for phase in phone.phases}
    # (A game can end at its first exile vote, with no vote result screen: the deal is the
    # server's.)
    assert {"role_check", "place_choice", "witches", "evening", "discussion", "proposal",
            "approval", "approval_result", "vote", "game_over"} <= seen, seen  # fmt: skip
    assert [e for phone in table.phones for e in phone.errors] == []
    assert problems == []
    # What `make dev` prints is for people: after a whole game, no raw metric JSON.
    assert '"_aws"' not in stack.output() and "CloudWatchMetrics" not in stack.output()

    # No seat token in any URL or log line (whoever reads a log could take the seat): not in
    # what any phone asked for, showed or keeps in its history, nor in anything the stack
    # printed (the gateway's and the handlers' logs, which a deployed stack would keep).
    urls += [phone.page.url for phone in table.phones]
    stored = {json.loads(phone.page.evaluate("localStorage.getItem('party.seat')"))["token"]
              for phone in table.phones}  # fmt: skip
    assert len(tokens) == len(NAMES) and stored == tokens  # every seat's token was seen
    assert any(url.startswith("ws://") for url in urls), urls  # sockets' URLs were seen
    log = stack.output()
    leaks = [f"{token[:4]}… in {where[:200]!r}" for token in tokens
             for where in [*urls, *log.splitlines()] if token in where]  # fmt: skip
    assert leaks == [], leaks


def test_with_a_discussion_limit_every_countdown_runs_out(double_speed_stack, browser):
    """Nobody taps on a timed step: each countdown shows, runs out, and the game moves on
    (RULES §9). Phones still confirm the steps that have no timer (Ready, OK, a card)."""
    table = UiTable(browser, double_speed_stack.http_url, NAMES, seed=7)
    table.open_room(discussion_limit="30")
    table.start()
    ann = table.host
    table.play(until=lambda: ann.phase == "place_choice", timeout=60, lazy=True)
    countdown = ann.page.locator("header .countdown")
    expect(countdown).to_be_visible()
    first = int(countdown.inner_text().strip("⏱ s"))
    assert 20 <= first <= 30
    expect(countdown).not_to_have_text(f"⏱ {first} s", timeout=5_000)  # it counts down

    def a_day_of_countdowns_ran_out() -> bool:
        seen = {phase for phone in table.phones for phase in phone.phases}
        return "vote_result" in seen or "game_over" in seen

    table.play(until=a_day_of_countdowns_ran_out, timeout=360, lazy=True)
    seen = {phase for phone in table.phones for phase in phone.phases}
    assert set(TIMED_STEPS) - {"guard"} <= seen, seen  # the Knight gathers on a timeout
    assert [e for phone in table.phones for e in phone.errors] == []
    for phone in table.phones:  # a countdown running out never marks a cat Away (§9)
        expect(phone.page.get_by_text("You are marked Away")).to_have_count(0)
