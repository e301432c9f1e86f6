"""A finished game opens in the browser's step-by-step viewer
(replay.html), roles hidden until the end or shown (Debian's Chromium, Playwright, the
local stack serving the client). The file is the viewer's (no moves, which would tell
secrets), and a file the viewer cannot read is refused in words, forgotten and the picker
offered again.

The files are real downloads: whole bot games played through the room service (in
memory), fetched with ``{"action": "replay"}`` as a phone does. The viewer gets a file the
way the result screen's "Watch the replay" leaves it (localStorage) or opened from
disk. Every step of a game of each game is drawn (a script error anywhere fails the
test); screenshots go to docs/screens/replay-*.png.

In every language, each step of both games is told in words: what
happened since the step before, a sentence a public fact; roles, or factions and
villager identities, from the first step when shown; no engine words, no English on a
page in another language, and nothing that speaks to a seat (the viewer has none)."""

import copy
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser_btw_table_tv import SEAT_KEYS as BTW_SEAT_KEYS
from tests.service.test_replay_download import downloaded
from tests.support.service_harness import Harness
from tests.support.ui_table import LOCALES
from tests.support.untranslated import SEEN_TEXT_JS, english_words, strings

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
    outcome = last["outcome"]
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
    # A file of the older, first kind (every move, no "kind"): its steps are still shown.
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
    """Each of these once blanked the viewer (an uncaught TypeError), and it
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


#: A phone's words to its own seat (and its refresh control): none in the viewer, which has
#: no seat. Burn the Witch's are the table screen's test's; these are Catch the Witch's and
#: the vote's and the end's of Burn the Witch.
SEAT_KEYS = [*BTW_SEAT_KEYS, "role_check", "secrets_hint", "hold_secrets", "hold_to_reveal",
             "you_are_ready", "night_watch_text", "btw_vote_ballots", "btw_faction_zealot",
             "btw_faction_sympathizer"]  # fmt: skip
#: Engine words: a move's type and its fields ("point · target: Tofu · locked: true"),
#: "— timeout", a key or phase in snake_case, a move's type or field as the engine
#: names it.
ENGINE_WORDS = re.compile(
    r"\b[a-z_]+ · [a-z_]+: |— timeout|\b[a-z]+_[a-z_]+\b"
    r"|\b(?:point|bewitch|retribute|timeout|target|locked|direction|true|false|null)\b"
)
#: What a step shows, read at once: its position, every word seen, the news, the roles.
READ_JS = f"""() => ({{
  position: document.querySelector("#replay-position").textContent,
  seen: ({SEEN_TEXT_JS})(),
  news: [...document.querySelectorAll(".replay-news li")].map((li) => li.innerText),
  newsBlock: document.querySelectorAll(".replay-news").length,
  roles: [...document.querySelectorAll(".replay-roles li")].map((li) => li.innerText),
}})"""


def _fill(text: str, **params) -> str:
    for key, value in params.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def _expected_news(game: str, previous: dict | None, view: dict, say: dict) -> list[str]:
    """Words the step's news must hold: each public result it is the first step to show."""
    if game == "burn_the_witch":
        before = len(previous["history"]) if previous else 0
        burned = [e for e in view["history"][before:] if e["kind"] == "burn"]
        words = [say[f"btw_name_{e['villager'].lower()}"] for e in burned]
        if view.get("outcome"):
            words.append(say[f"btw_winner_{view['outcome']['winner']}"])
        return words
    today, phase = view.get("today") or {}, view["phase"]
    if phase == "morning":
        return [_fill(say["narrate_morning"].split("{ingredients}")[0], n=view["day"])]
    if phase == "approval_result":
        p = today["proposals"][-1]
        key = "replay_proposal_passed" if p["passed"] else "replay_proposal_rejected"
        return [
            _fill(
                say[key],
                chief=p["chief"],
                yes=", ".join(p["yes"]) or "—",
                no=", ".join(p["no"]) or "—",
            )
        ]
    if phase == "ritual_result":
        return [say["success" if today["ritual_result"] == "success" else "failure"]]
    if phase == "vote_result":
        exiled = today["vote"]["exiled"]
        return [_fill(say["exiled"], name=exiled) if exiled else say["nobody_exiled"]]
    if phase == "game_over":
        return [say[f"winner_{view['outcome']['winner']}"]]
    return []


def _roles_problems(game: str, view: dict, last: dict, roles: list[str], say: dict) -> list[str]:
    """Every player's role (Catch the Witch), or faction and villagers' identities (Burn
    the Witch), as the last step reveals them, told on this step."""
    if game == "catch_the_witch":
        wanted = [f"{p['name']} {say['role_' + p['role']]}" for p in last["players"]]
        return [f"role {line!r} not shown" for line in wanted if line not in roles]
    result, problems = last["outcome"], []
    if len(roles) != len(view["houses"]):
        problems.append(f"{len(roles)} players' factions for {len(view['houses'])} houses")
    for house, line in zip(view["houses"], roles, strict=False):
        faction = say["btw_" + result["factions"][house["owner"]]]
        if not line.startswith(f"{house['owner']} ") or faction not in line:
            problems.append(f"{house['owner']}: no faction in {line!r}")
        for villager in house["villagers"] + house["burned"]:
            name = say[f"btw_name_{villager['name'].lower()}"]
            identity = say["btw_" + result["identities"][villager["name"]]]
            if not re.search(rf"{re.escape(name)} \S+ {re.escape(identity)}", line):
                problems.append(f"{house['owner']}: {name} without {identity} in {line!r}")
    return problems


@pytest.mark.parametrize("language", list(LOCALES))
def test_every_step_of_both_games_is_told_in_words_in_the_viewers_language(
    stack, phones, files, language, tmp_path
):
    """The viewer once said no role until the last step, told moves in
    engine words in English whatever the language, and showed a phone's leftovers (a
    "Waiting for … ↻" that refreshes nothing, an empty "Your secret role"). Each step of a
    whole game of each game is read once, roles shown from the first step."""
    say = strings(language)
    seat_words = [say[key] for key in SEAT_KEYS] + [say["waiting_for"].split("{names}")[0]]
    page = phones(LOCALES[language])
    page.goto(stack.http_url + "/replay.html")
    problems: list[str] = []
    shot, mid_game = False, ("en", "burn_the_witch", "choose_villager")
    for game, file in files.items():
        chosen = tmp_path / f"{game}.json"
        chosen.write_text(json.dumps(file), encoding="utf-8")
        steps = [step["view"] for step in file["steps"]]
        page.set_input_files("#replay-file", str(chosen))
        first = _fill(say["replay_step"], n=1, of=len(steps))
        expect(page.locator("#replay-position")).to_have_text(first)
        page.locator("#replay-roles").set_checked(True)
        for i, view in enumerate(steps):
            if i:
                page.click("#replay-next")
            shown = page.evaluate(READ_JS)
            where = f"{game} step {i + 1} ({view['phase']})"
            assert shown["position"] == _fill(say["replay_step"], n=i + 1, of=len(steps)), where
            seen = shown["seen"]
            problems += [
                f"{where}: engine words {m.group(0)!r}" for m in ENGINE_WORDS.finditer(seen)
            ]
            problems += [f"{where}: a seat's words {w!r}" for w in seat_words if w in seen]
            if "↻" in seen:
                problems.append(f"{where}: a refresh control ↻")
            if language != "en" and (english := english_words(seen, set(CATS))):
                problems.append(f"{where}: English {english}")
            if shown["newsBlock"] != 1:
                problems.append(f"{where}: no news block")
            news = "\n".join(shown["news"])
            previous = steps[i - 1] if i else None
            wanted = _expected_news(game, previous, view, say)
            problems += [
                f"{where}: news without {w!r}: {shown['news']}" for w in wanted if w not in news
            ]
            problems += [
                f"{where}: {p}" for p in _roles_problems(game, view, steps[-1], shown["roles"], say)
            ]
            if not shot and mid_game == (language, game, view["phase"]):
                # Mid-game: a trial's points told, every identity shown.
                page.screenshot(path=SCREENS / "replay-btw-step.png", full_page=True)
                shot = True
    assert problems == [], "\n".join(problems[:40])
