"""Issue 15, deliverable 4: a finished game opens in the browser's step-by-step viewer
(replay.html), roles hidden until the end or shown (Debian's Chromium, Playwright, the
local stack serving the client).

The files are real downloads: whole bot games played through the room service (in
memory), fetched with ``{"action": "replay"}`` as a phone does. The viewer gets a file the
way the result screen's "Watch the replay" leaves it (localStorage) or opened from
disk. Every step of a game of each game is drawn (a script error anywhere fails the
test); screenshots go to docs/screens/replay-*.png."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.service.test_replay_download import downloaded
from tests.support.service_harness import Harness
from tests.support.untranslated import strings

SCREENS = Path(__file__).parents[2] / "docs" / "screens"
CATS = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"]


def _file(game: str, seed: int) -> dict:
    harness = Harness()
    harness.table(CATS, game=None if game == "catch_the_witch" else game)
    harness.send("Ann", action="start")
    harness.play_with_bots(CATS, seed=seed)
    return downloaded(harness, "Ann")


@pytest.fixture(scope="module")
def files() -> dict[str, dict]:
    return {
        "catch_the_witch": _file("catch_the_witch", 3),
        "burn_the_witch": _file("burn_the_witch", 5),
    }


def _watch(page, stack, file: dict) -> None:
    """The viewer as "Watch the replay" leaves it: the file in localStorage."""
    page.add_init_script(f"localStorage.setItem('party.replay', {json.dumps(json.dumps(file))})")
    page.goto(stack.http_url + "/replay.html")


def _position(page) -> str:
    return page.locator("#replay-position").inner_text()


@pytest.mark.parametrize("game", ["catch_the_witch", "burn_the_witch"])
def test_every_step_of_a_finished_game_is_shown_in_order(stack, phones, files, game):
    file = files[game]
    say = strings("en")
    page = phones("en-GB")
    _watch(page, stack, file)
    count = len(file["steps"])
    expect(page.locator("#replay-position")).to_have_text(
        say["replay_step"].replace("{n}", "1").replace("{of}", str(count))
    )
    phases = [page.locator("main").get_attribute("data-phase")]
    for _ in range(count - 1):
        page.click("#replay-next")
        phases.append(page.locator("main").get_attribute("data-phase"))
    assert phases == [step["view"]["phase"] for step in file["steps"]]
    assert page.locator("#replay-next").is_disabled()
    # The last step is the result, every role revealed, as on the phones.
    last = file["steps"][-1]["view"]
    outcome = last.get("outcome") or last.get("result")
    winner = ("btw_" if game == "burn_the_witch" else "") + f"winner_{outcome['winner']}"
    assert say[winner] in page.locator("main").inner_text()


def test_roles_stay_hidden_until_shown_and_then_every_move_of_the_step_is_listed(
    stack, phones, files
):
    file = files["catch_the_witch"]
    say = strings("en")
    page = phones("en-GB")
    _watch(page, stack, file)
    page.click("#replay-next")  # the first step with moves in it after the role check
    expect(page.locator(".replay-roles")).to_have_count(0)
    expect(page.locator(".replay-moves")).to_have_count(0)
    hidden = page.locator("main").inner_text()
    page.screenshot(path=SCREENS / "replay-step.png")
    page.check("#replay-roles")
    roles = page.locator(".replay-roles li")
    expect(roles).to_have_count(len(CATS))
    witches = [p["name"] for p in file["steps"][-1]["view"]["players"] if p.get("role") == "witch"]
    assert witches and all(
        f"{name} {say['role_witch']}" in roles.all_inner_texts() for name in witches
    )
    moves = page.locator(".replay-moves li")
    first, second = file["steps"][1]["at"], file["steps"][2]["at"]
    expect(moves).to_have_count(second - first)
    # Every step's moves, and never a ritual's card (RULES §7), even with the roles shown.
    listed = []
    for _ in range(len(file["steps"]) - 2):
        page.click("#replay-next")
        listed += page.locator(".replay-moves li").all_inner_texts()
    played = [line for line in listed if "play card" in line]
    assert played and not [line for line in played if "card:" in line], played
    page.click("#replay-first")
    page.click("#replay-next")
    page.screenshot(path=SCREENS / "replay-roles.png", full_page=True)
    page.uncheck("#replay-roles")
    assert page.locator("main").inner_text() == hidden


def test_a_downloaded_file_opens_from_disk_and_a_wrong_one_is_refused_in_words(
    stack, phones, files, tmp_path
):
    say = strings("en")
    page = phones("en-GB")
    page.goto(stack.http_url + "/replay.html")
    expect(page.locator("main")).to_contain_text(say["replay_intro"][:20])
    wrong = tmp_path / "notes.json"
    wrong.write_text('{"players": []}', encoding="utf-8")
    page.set_input_files("#replay-file", str(wrong))
    expect(page.locator("main .error")).to_have_text(say["replay_unreadable"])
    right = tmp_path / "game.json"
    right.write_text(json.dumps(files["catch_the_witch"]), encoding="utf-8")
    page.set_input_files("#replay-file", str(right))
    count = len(files["catch_the_witch"]["steps"])
    expect(page.locator("#replay-position")).to_have_text(f"Step 1 of {count}")
    page.locator("input[type=range]").fill(str(count - 1))
    expect(page.locator("#replay-position")).to_have_text(f"Step {count} of {count}")
