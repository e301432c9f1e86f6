"""Issue 15, deliverable 4: a finished game opens in the browser's step-by-step viewer
(replay.html), roles hidden until the end or shown (Debian's Chromium, Playwright, the
local stack serving the client). Issue 32: the file is the viewer's (no moves), and a
file the viewer cannot read is refused in words, forgotten and the picker offered again.

The files are real downloads: whole bot games played through the room service (in
memory), fetched with ``{"action": "replay"}`` as a phone does. The viewer gets a file the
way the result screen's "Watch the replay" leaves it (localStorage) or opened from
disk. Every step of a game of each game is drawn (a script error anywhere fails the
test); screenshots go to docs/screens/replay-*.png."""

import copy
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


def test_roles_stay_hidden_until_shown_and_then_come_from_the_end_screen(stack, phones, files):
    file = files["catch_the_witch"]
    say = strings("en")
    page = phones("en-GB")
    _watch(page, stack, file)
    page.click("#replay-next")  # the first step after the role check
    expect(page.locator(".replay-roles")).to_have_count(0)
    hidden = page.locator("main").inner_text()
    page.screenshot(path=SCREENS / "replay-step.png")
    page.check("#replay-roles")
    roles = page.locator(".replay-roles li")
    expect(roles).to_have_count(len(CATS))
    witches = [p["name"] for p in file["steps"][-1]["view"]["players"] if p.get("role") == "witch"]
    assert witches and all(
        f"{name} {say['role_witch']}" in roles.all_inner_texts() for name in witches
    )
    # The file holds no moves: none is listed on any step.
    for _ in range(len(file["steps"]) - 2):
        page.click("#replay-next")
        expect(page.locator(".replay-moves")).to_have_count(0)
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
    # A file of issue 15's first kind (every move, no "kind"): its steps are still shown.
    old = {key: value for key, value in files["burn_the_witch"].items()
           if key not in ("kind", "format")}  # fmt: skip
    old["actions"] = [{"type": "timeout", "t": old["started_at"] + 30}]
    old["steps"] = [{"at": 0, **step} for step in old["steps"]]
    right.write_text(json.dumps(old), encoding="utf-8")
    page.set_input_files("#replay-file", str(right))
    expect(page.locator("#replay-position")).to_have_text(f"Step 1 of {len(old['steps'])}")
    expect(page.locator("main .error")).to_have_count(0)


def _players_x(file: dict) -> dict:
    """A real file whose players (the file's and every step's) are a string."""
    broken = copy.deepcopy(file)
    broken["players"] = "x"
    for step in broken["steps"]:
        step["view"]["players"] = "x"
    return broken


def test_a_malformed_file_is_refused_in_words_forgotten_and_the_picker_offered_again(
    stack, phones, files, tmp_path
):
    """Issue 32, point 6: each of these blanked the viewer (an uncaught TypeError), and it
    stayed blank after a reload, the file being kept in localStorage. Now it says so in
    the page's language, forgets the file and offers the picker; a reload shows the
    picker alone. A file of a newer viewer format is refused in its own words."""
    malformed = [
        ('{"steps":[1,2]}', "replay_damaged"),
        ('{"steps":[{"view":null}]}', "replay_damaged"),
        (json.dumps(_players_x(files["burn_the_witch"])), "replay_damaged"),
        (json.dumps({**files["catch_the_witch"], "format": 2}), "replay_too_new"),
        ("not json at all", "replay_unreadable"),
    ]
    say = strings("uk")
    page = phones("uk-UA")
    page.goto(stack.http_url + "/replay.html")
    expect(page.locator("main")).to_contain_text(say["replay_intro"][:20])
    for text, problem in malformed:
        # As "Watch the replay" leaves it: kept in localStorage, read when the page loads.
        page.evaluate("(text) => localStorage.setItem('party.replay', text)", text)
        page.reload()
        expect(page.locator("main .error")).to_have_text(say[problem])
        expect(page.locator("#replay-file")).to_be_visible()
        assert page.evaluate("localStorage.getItem('party.replay')") is None, text[:60]
        page.reload()  # forgotten: the picker alone, no error and no blank page
        expect(page.locator("main")).to_contain_text(say["replay_intro"][:20])
        expect(page.locator("main .error")).to_have_count(0)
        # Opened from disk: the same words, and the picker again.
        chosen = tmp_path / "chosen.json"
        chosen.write_text(text, encoding="utf-8")
        page.set_input_files("#replay-file", str(chosen))
        expect(page.locator("main .error")).to_have_text(say[problem])
        expect(page.locator("#replay-file")).to_be_visible()
        expect(page.locator("#replay-position")).to_have_count(0)
    # A good file after them opens as ever, and the error is gone.
    good = tmp_path / "good.json"
    good.write_text(json.dumps(files["catch_the_witch"]), encoding="utf-8")
    page.set_input_files("#replay-file", str(good))
    expect(page.locator("#replay-position")).to_be_visible()
    expect(page.locator("main .error")).to_have_count(0)
