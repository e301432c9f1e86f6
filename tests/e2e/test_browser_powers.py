"""The Seer's, Pickpocket's and Herbalist's powers once lived only in the
held panel (hold the bar, slide to "Keep open", release, tap a name), nothing on the
discussion screen said a look was available, and the lock button covered the second row
of names.

On a twelve-cat discussion (the engine's own views; the server here is the test's), the
Seer's phone and a villager's show one control of the same text in the same box at 360
and 390 px. One tap on it opens the panel and sends nothing; every name in it is in view
and uncovered; the Seer taps a name, one frame goes, and the answer marks that cat. The
villager's tap marks a suspect with one frame too (a ping): the Wi-Fi sees the same."""

import json
import re

from playwright.sync_api import expect

from tests.support.table import Table
from tests.support.ui_table import ARTIFACTS

PROD = re.compile(r".*/prod.*")
#: Twelve cats (RULES §2.1's set): eleven names in each panel, the most a table gives.
TWELVE = {
    "Ann": "witch", "Bo": "herbalist", "Cy": "seer", "Di": "knight", "Eve": "witch",
    "Fay": "villager", "Gus": "pickpocket", "Hal": "crow", "Ivy": "jester", "Jo": "witch",
    "Kit": "villager", "Lu": "villager",
}  # fmt: skip
SEER, VILLAGER = "Cy", "Fay"
SIZES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
#: The control every phone shows where a power may be used, found as a player finds it.
CONTROL = "🔮 Powers & suspects"

#: Each name button in the open panel that is out of view or under another element, at
#: its centre (what a thumb would hit there).
COVERED_NAMES_JS = """() => [...document.querySelectorAll("#ctw-sheet .grid button")].filter((b) => {
  const r = b.getBoundingClientRect();
  const under = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return !under || !b.contains(under);
}).map((b) => b.textContent)"""


def _discussion_of_day_one() -> Table:
    table = Table(TWELVE)
    table.ready_all()
    table.morning()
    table.each_waiting("choose_place", place="river")
    table.witches_at("forest", Ann=("none", None), Eve=("none", None), Jo=("none", None))
    table.ok_all()
    assert table.phase.value == "discussion"
    return table


def _phone(phones, stack, table: Table, name: str):
    """A phone seated as `name`, served by the test: each frame it sends is kept, a Seer's
    look is played on the table, and every frame is answered by the cat's newest view."""
    page = phones()
    sent: list[dict] = []
    seq = iter(range(1, 1000))

    def route(ws):
        def from_page(message):
            frame = {k: v for k, v in json.loads(message).items() if k != "pad"}
            sent.append(frame)
            if frame["action"] == "seer_look":
                table.do(name, "seer_look", target=frame["target"])
            view = {**table.view(name), "room": "ABCDEFGH", "connected": {}}
            n = next(seq)
            ws.send(
                json.dumps({"type": "view", "seq": n, "rev": str(n), "view": view}, default=str)
            )

        ws.on_message(from_page)

    page.route_web_socket(PROD, route)
    page.add_init_script(
        "localStorage.setItem('party.seat', JSON.stringify("
        f"{{room: 'ABCDEFGH', token: 't', name: '{name}'}}))"
    )
    page.goto(stack.http_url + "/?room=ABCDEFGH")
    expect(page.locator("main")).to_have_attribute("data-phase", "discussion", timeout=10_000)
    return page, sent


def _sent_since(page, sent: list[dict], before: int) -> list[str]:
    """The actions of the frames the page sent from `before` on, once its socket has been
    quiet a while (the test's server hears a frame a moment after the tap that sent it)."""
    count = -1
    while count != len(sent):
        count = len(sent)
        page.wait_for_timeout(300)
    return [frame["action"] for frame in sent[before:]]


def _box(locator) -> tuple[int, ...]:
    box = locator.bounding_box()
    return tuple(round(box[k] / 24) for k in ("x", "y", "width", "height"))


def test_a_power_is_one_tap_away_on_every_phone_alike_and_no_name_is_covered(stack, phones):
    table = _discussion_of_day_one()
    seer, seer_sent = _phone(phones, stack, table, SEER)
    villager, villager_sent = _phone(phones, stack, table, VILLAGER)
    #: Each phone, and what its panel says first.
    roles = {"seer": (seer, seer_sent, "Look into one cat now"),
             "villager": (villager, villager_sent, "Mark your suspects")}  # fmt: skip
    for size in SIZES:
        looks = {}
        for role, (page, sent, title) in roles.items():
            page.set_viewport_size(size)
            control = page.get_by_role("button", name=CONTROL, exact=True)
            expect(control).to_be_visible()
            looks[role] = (_box(control), control.inner_text())
            before = len(sent)
            control.tap()  # once: no hold, no slide
            sheet = page.locator("#ctw-sheet")
            expect(sheet).to_be_visible()
            # What a power does now is the first thing in the panel.
            expect(sheet.locator(".sheet-body > *").first).to_contain_text(title)
            expect(sheet.locator(".grid button")).to_have_count(len(TWELVE) - 1)
            assert page.evaluate(COVERED_NAMES_JS) == [], size
            page.screenshot(path=ARTIFACTS / f"powers-{role}-{size['width']}.png")
            assert _sent_since(page, sent, before) == []  # opening it sends nothing
            page.locator("#ctw-hold").tap()  # the bar closes it
            expect(sheet).to_be_hidden()
        # The same text in the same box: a neighbour cannot tell the Seer's phone.
        assert looks["seer"] == looks["villager"], (size, looks)

    seer.get_by_role("button", name=CONTROL, exact=True).tap()
    before = len(seer_sent)
    seer.locator("#ctw-sheet").get_by_role("button", name="Ann", exact=True).tap()
    # What she saw marks the name, in the panel still open.
    expect(seer.locator("#ctw-sheet").get_by_role("button", name="Ann 🧙")).to_be_visible()
    expect(seer.locator("#ctw-sheet")).to_contain_text("Ann is a WITCH.")
    assert _sent_since(seer, seer_sent, before) == ["seer_look"]

    villager.get_by_role("button", name=CONTROL, exact=True).tap()
    before = len(villager_sent)
    name = villager.locator("#ctw-sheet").get_by_role("button", name="Ann", exact=True)
    name.tap()
    expect(name).to_have_attribute("aria-pressed", "true")
    assert _sent_since(villager, villager_sent, before) == ["ping"]  # one frame, as hers
