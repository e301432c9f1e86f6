"""The phone client in a real browser (Debian's Chromium, Playwright), on the local stack:
one person creates a room, four bots join, the game starts and the first screens work;
a reload keeps the seat and the screen; the same flow in each of the four languages; the
host's custom role set with live validation, and handing over host. Screenshots go to
build/test-artifacts/."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.support.local_stack_process import BOTS_SEATED_MS
from tests.support.strings import strings as all_strings
from tests.support.ui_table import ARTIFACTS, CONTRAST_JS, LOCALES


@pytest.fixture
def phone(phones):
    return phones()


def _create_a_room_for_bots(page, stack, create: str = "Create a room") -> None:
    """Zoe creates a room; the stack's four bots join it."""
    page.goto(stack.http_url + "/")
    page.fill("#name", "Zoe")
    page.get_by_role("button", name=create, exact=True).click()
    expect(page.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)


def test_a_person_starts_a_game_against_bots_and_a_reload_keeps_the_seat(stack, phone):
    page = phone
    _create_a_room_for_bots(page, stack)
    expect(page.get_by_role("img", name="QR code of the join link").locator("svg")).to_be_visible()
    page.screenshot(path=ARTIFACTS / "smoke-lobby.png")

    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Your secret role")).to_be_visible(timeout=10_000)
    hold = page.get_by_role("button", name="Press and hold to see your role")
    role_box = page.locator(".role-box")
    hold.hover()
    page.mouse.down()
    expect(role_box).to_contain_text(" — ")  # "<role> — <side>"
    page.screenshot(path=ARTIFACTS / "smoke-role.png")
    page.mouse.up()
    expect(role_box).not_to_contain_text(" — ")  # released: hidden again
    page.get_by_role("button", name="Ready", exact=True).click()

    expect(page.get_by_role("heading", name="Choose a place for tonight")).to_be_visible(
        timeout=20_000
    )
    page.screenshot(path=ARTIFACTS / "smoke-place.png")
    # A witch gathers nothing: the bots end the step without her. Anyone else is waited for,
    # and a reload must come back to the same seat (the token is in localStorage) and screen.
    witch = page.get_by_text("Witches choose their place during the witches' turn.").count() > 0
    page.reload()
    expect(page.locator("header")).to_contain_text("online", timeout=10_000)
    if witch:
        expect(page.get_by_role("heading", name="The witches are out…")).to_be_visible(
            timeout=20_000
        )
        return
    expect(page.get_by_role("heading", name="Choose a place for tonight")).to_be_visible(
        timeout=10_000
    )
    gather = page.get_by_role("button", name="Gather", exact=True)
    if gather.count():  # the Knight first chooses to gather
        gather.click()
    page.locator("main .grid button").first.click()
    expect(page.get_by_role("heading", name="Choose a place for tonight")).to_be_hidden(
        timeout=30_000
    )
    page.screenshot(path=ARTIFACTS / "smoke-next.png")


def test_the_language_follows_the_browser_is_switchable_and_remembered(stack, phones):
    page = phones("zh-TW")
    page.goto(stack.http_url + "/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("抓女巫")
    expect(page.get_by_role("button", name="建立房間")).to_be_visible()
    page.screenshot(path=ARTIFACTS / "home-zh-Hant.png")
    for code, title, create in [("uk", "Спіймай відьму", "Створити кімнату"),
                                ("th", "จับแม่มด", "สร้างห้อง"),
                                ("en", "Catch the Witch", "Create a room")]:  # fmt: skip
        page.select_option("#language", code)
        expect(page.get_by_role("heading", level=1)).to_contain_text(title)
        expect(page.get_by_role("button", name=create)).to_be_visible()
        assert page.evaluate("document.documentElement.lang") == code
        page.screenshot(path=ARTIFACTS / f"home-{code}.png")
    page.select_option("#language", "uk")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Спіймай відьму")
    page.get_by_role("link", name=_strings("uk")("rules")).click()  # the rules, in Ukrainian
    expect(page.get_by_role("heading", level=1)).to_have_text("Як грати в «Спіймай відьму»")
    page.get_by_role("link", name="ไทย").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("วิธีเล่นจับแม่มด")
    page.screenshot(path=ARTIFACTS / "rules-th.png")


def _strings(language: str):
    strings = all_strings(language)

    def text(key: str, **params) -> str:
        return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), strings[key])

    return text


@pytest.mark.parametrize("language", list(LOCALES))
def test_lobby_role_check_and_first_morning_in_each_language(stack, phones, language):
    t = _strings(language)
    page = phones(LOCALES[language])
    _create_a_room_for_bots(page, stack, t("create_room"))
    code = page.locator("p.code").inner_text()
    expect(page.get_by_role("heading", level=1)).to_have_text(t("lobby", code=code))
    page.screenshot(path=ARTIFACTS / f"flow-{language}-1-lobby.png", full_page=True)

    page.get_by_role("button", name=t("start"), exact=True).click()
    expect(page.get_by_role("heading", name=t("role_check"))).to_be_visible(timeout=10_000)
    page.get_by_role("button", name=t("hold_to_reveal")).hover()
    page.mouse.down()
    expect(page.locator(".role-box")).to_contain_text(" — ")
    page.screenshot(path=ARTIFACTS / f"flow-{language}-2-role.png")
    page.mouse.up()
    page.get_by_role("button", name=t("ready"), exact=True).click()

    morning = page.get_by_role("heading", name=t("choose_place")).or_(
        page.get_by_role("heading", name=t("witches_turn"))
    )
    expect(morning).to_be_visible(timeout=20_000)
    expect(page.locator("header")).to_contain_text(t("day", n=1))
    page.screenshot(path=ARTIFACTS / f"flow-{language}-3-morning.png")


def test_the_host_sets_a_custom_role_set_validated_live_and_hands_over_host(stack, phone):
    page = phone
    _create_a_room_for_bots(page, stack)
    start = page.get_by_role("button", name="Start the game")
    status = page.locator("main p[role=status]")
    witches = page.locator("output[aria-label=Witch]")

    page.get_by_role("button", name="Custom").click()
    expect(page.get_by_text("Roles: 5, cats: 5")).to_be_visible()  # starts from the table
    page.get_by_role("button", name="One more Witch").click()
    expect(status).to_have_text("The role set has 6 roles for 5 cats.")  # error_roles_count
    expect(start).to_be_disabled()
    page.get_by_role("button", name="One more Witch").click()
    for role in ("Villager", "Crow"):
        page.get_by_role("button", name=f"One fewer {role}").click()
    expect(witches).to_have_text("3")
    expect(status).to_have_text("There must be fewer witches than other cats.")
    page.get_by_role("button", name="One fewer Witch").click()
    page.get_by_role("button", name="One more Villager").click()
    # Two changes one after the other (lobby_settings.js sends one at a time): two round
    # trips to the server, which a loaded CI machine has taken over 5 s for.
    expect(status).to_have_text("Ready to start.", timeout=15_000)
    expect(start).to_be_enabled()
    page.screenshot(path=ARTIFACTS / "custom-roles.png", full_page=True)
    page.get_by_role("button", name="Default").click()
    expect(page.get_by_text("cats: 5")).to_have_count(0)

    page.get_by_text("Hand over host").click()
    bot = page.locator(".seats li .name").nth(1).inner_text().split(" ")[0]
    page.get_by_role("button", name=bot, exact=True).click()
    expect(page.get_by_text("Waiting for the host to start…")).to_be_visible()
    expect(page.locator(".seats li").nth(1)).to_contain_text("(host)")
    expect(start).to_have_count(0)


def test_the_create_form_names_the_game_and_a_seat_kept_under_the_old_key_is_kept(stack, phone):
    """The create form offers the games (one, preselected) and sends the chosen one; the
    lobby names it. A phone that kept its seat and language under the keys of the client
    before the shell (`ctw.*`) keeps both after a reload, and the old keys are gone."""
    page = phone
    sent: list[str] = []
    urls: list[str] = []
    page.on(
        "websocket",
        lambda ws: (urls.append(ws.url), ws.on("framesent", lambda payload: sent.append(payload))),
    )
    page.goto(stack.http_url + "/")
    expect(page.get_by_role("radio", name="Catch the Witch")).to_be_checked()
    page.fill("#name", "Zoe")
    page.select_option("#limit", "60")
    page.check("#reveal")  # a second field keeps the first one's change
    page.get_by_role("button", name="Create a room", exact=True).click()
    expect(page.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)
    created = [json.loads(p) for p in sent if '"create_room"' in p]
    assert [c["game"] for c in created] == ["catch_the_witch"], created
    assert created[0]["settings"]["discussion_limit"] == 60, created
    assert created[0]["settings"]["reveal_role_on_exile"] is True, created
    expect(page.locator("main .game-name")).to_contain_text("Catch the Witch")
    code = page.locator("p.code").inner_text()

    page.evaluate("""() => {
      localStorage.setItem("ctw.seat", localStorage.getItem("party.seat"));
      localStorage.setItem("ctw.lang", "uk");
      localStorage.removeItem("party.seat");
      localStorage.removeItem("party.lang");
    }""")
    page.reload()
    # A reload loads the page, opens a socket and resumes the seat: three round trips that a
    # loaded CI machine took over 5 s to make once.
    expect(page.get_by_role("heading", level=1)).to_have_text(
        _strings("uk")("lobby", code=code), timeout=15_000
    )
    expect(page.locator("main .game-name")).to_contain_text("Спіймай відьму")
    keys = page.evaluate("Object.keys(localStorage)")
    assert {"party.seat", "party.lang"} <= set(keys), keys
    # A seated phone names its room in every frame (one round trip fewer), not in
    # create_room; after the reload its first frame names its seat, the token in the frame
    # and in no URL.
    assert "room" not in created[0], created
    resumes = [json.loads(p) for p in sent if '"resume"' in p]
    seat = json.loads(page.evaluate("localStorage.getItem('party.seat')"))
    assert [(r["room"], r["token"]) for r in resumes] == [(code.replace(" ", ""), seat["token"])]
    assert len(urls) == 2 and not [u for u in urls if "token" in u or "?" in u], urls
    assert not [k for k in keys if k.startswith("ctw.")], keys


def test_the_contrast_and_label_audit_flags_what_it_should(phone):
    """The audit that runs on every screen of the UI game (tests/support/ui_table.py) can fail,
    on a disabled control's faded words too."""
    phone.set_content(
        '<body style="background:#2b2140;color:#fdf8ee"><main>'
        '<p>Readable</p><p style="color:#776688">Too faint</p>'
        '<button></button><button disabled style="opacity:.3">Off</button>'
        '<label for="x">Name</label><input id="x"><input id="y"></main></body>'
    )
    problems = phone.evaluate(CONTRAST_JS)
    assert len(problems) == 4, problems
    assert problems[0].startswith("2.9") and "Too faint" in problems[0]
    # A disabled control is read too (faded villagers are Burn the Witch's main public facts).
    assert sum('"Off"' in p for p in problems) == 1
    assert sum("unnamed button" in p for p in problems) == 1
    assert sum("unnamed input" in p and 'id="y"' in p for p in problems) == 1
