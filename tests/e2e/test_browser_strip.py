"""The table strip once broke its one-row promise. With twelve cats their
chips took three rows under the facts, wrapped further as cats were exiled, and cut names
mid-word ("Anasta…"); "Curse" was cut to "詛…" in Chinese; "🔏 0/3" had no label.

The strip is one row now, in every language, at 360 and 390 px, with the most a table
shows: twelve cats with long names in four scripts, frogs and exiled cats, an Away and an
offline cat, the Chief, the Knights' day, seals and curse under way, a three-digit
countdown, and the connection (also while it is lost). Every tracker carries its name in
small print and says it in full to a screen reader; how many cats are in each form stands
for their chips, and a tap on any tracker opens the strip's key: every cat's name whole
with its marks, and what each tracker and mark means, for a first-time player.

The phone is served a crafted view (the engine's own, of a twelve-cat table, with the worst
case written in). Screenshots: build/test-artifacts/strip-*-<language>-360.png."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_browser_shell import ASKS_FOR_THE_VIEW, PROD
from tests.e2e.test_browser_smoke import _strings
from tests.support.table import Table
from tests.support.ui_table import ARTIFACTS, LOCALES

#: Twelve cats (the most a table has, playing for 4 seals in 7 days: RULES §2.2), named as
#: players type their names, in four scripts.
TWELVE = {
    "Anastasia": "witch", "Bo": "herbalist", "Олександра": "seer", "Di": "knight",
    "Christopher": "witch", "ประเสริฐ": "villager", "Gus": "pickpocket", "張小貓": "crow",
    "Ivy": "jester", "Володимир": "witch", "Kit": "villager", "Lu": "villager",
}  # fmt: skip
NAMES = list(TWELVE)
YOU = "Bo"
WIDTHS = (360, 390)
#: Two tables' forms: several frogs and exiled cats, and the widest count ("🐈10 🐸1 🚪1").
FORMS = {"several": ({1, 5, 8}, {2, 6, 10}), "widest": ({5}, {2})}
TOP = {"x": 0, "y": 0, "width": 360, "height": 100}  # the strip, in a screenshot

#: The strip in one read (it is redrawn every game second): each item of its row and each
#: chip shown, with its box; whatever in it is cut short; and the row's own overflow.
READ_STRIP_JS = """() => {
  const strip = document.querySelector("header#status");
  const row = strip.querySelector(".facts");
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const box = (el) => { const r = el.getBoundingClientRect();
    return { text: el.textContent.trim(), left: r.left, right: r.right, middle: r.top + r.height / 2 }; };
  const cut = [...strip.querySelectorAll("*")].filter((el) => shown(el)
      && getComputedStyle(el).textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.textContent.trim());
  return { items: [...row.children, ...strip.querySelectorAll(".cat")].filter(shown).map(box),
           rowOverflows: row.scrollWidth > row.clientWidth + 1, cut,
           labels: [...row.querySelectorAll(".label")].map((el) => [el.textContent, shown(el)]) };
}"""

#: The same, with the connection lost: its item as the shell draws it then (js/strip.js),
#: put in the row for one read (the next redraw puts the live one back).
READ_STRIP_OFFLINE_JS = """async () => {
  const { connectionItem } = await import("./js/strip.js");
  document.querySelector("header#status .facts .conn").replaceWith(connectionItem("closed"));
  const banner = document.querySelector("header#status .conn-banner").getBoundingClientRect();
  return [(READ_STRIP)(), { left: banner.left, right: banner.right,
                    text: document.querySelector("header#status .conn-banner").textContent }];
}""".replace("READ_STRIP", READ_STRIP_JS)


def _worst_view(frogs: set[int], exiled: set[int], now: float) -> dict:
    """A twelve-cat table's view on the Knights' day with everything the strip can show."""
    table = Table(TWELVE)
    table.ready_all()
    view = {**table.view(YOU), "room": "ABCDEFGH"}
    view.update(day=7, days_total=7, knights_day=7, seals=2, seals_to_win=4, curse=2,
                curse_capacity=3, deadline=now + 250, chief="Di")  # fmt: skip
    for seat, cat in enumerate(view["players"]):
        cat["form"] = "frog" if seat in frogs else "exiled" if seat in exiled else "human"
    view["players"][7]["away"] = True
    view["connected"] = {name: name != "Володимир" for name in NAMES}
    return json.loads(json.dumps(view, default=str))


class _Phone:
    """A phone seated as Bo, whose socket the test answers: a ping gets the newest view, and
    `show` pushes one as the server would."""

    def __init__(self, phones, stack, language: str, view: dict):
        self.page = phones(LOCALES[language])
        self.view, self.seq, self.sockets = view, 0, []

        def route(ws):
            self.sockets.append(ws)
            ws.on_message(
                lambda message: (
                    self._send(ws) if json.loads(message)["action"] in ASKS_FOR_THE_VIEW else None
                )
            )

        self.page.route_web_socket(PROD, route)
        self.page.add_init_script(
            f'localStorage.setItem("party.seat", JSON.stringify({{room: "ABCDEFGH", token: "t", name: "{YOU}"}}))'
        )
        self.page.goto(stack.http_url + "/?room=ABCDEFGH")
        expect(self.page.locator("header#status .countdown")).to_be_visible(timeout=10_000)

    def _send(self, ws) -> None:
        self.seq += 1
        ws.send(
            json.dumps({"type": "view", "seq": self.seq, "rev": str(self.seq), "view": self.view})
        )

    def show(self, view: dict) -> None:
        self.view = view
        self._send(self.sockets[-1])
        expect(self.page.locator("main")).to_have_attribute("data-seq", str(self.seq))


def _assert_one_whole_row(read: dict, width: int, where: str) -> None:
    items = read["items"]
    middles = [item["middle"] for item in items]
    assert max(middles) - min(middles) <= 2, (where, items)  # one row (stacked items are taller)
    assert all(item["left"] >= 0 and item["right"] <= width for item in items), (where, items)
    assert not read["rowOverflows"], (where, items)  # nothing pushed out of the row
    assert read["cut"] == [], where  # no word cut short


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_strip_is_one_whole_labelled_row_and_its_key_is_a_tap_away(stack, phones, language):
    t = _strings(language)
    now = stack.clock.now()
    phone = _Phone(phones, stack, language, _worst_view(*FORMS["several"], now))
    page = phone.page
    trackers = {
        "day": (t("strip_day"), f"{t('day_of', n=7, of=7)}, {t('knights_day')}"),
        "seals": (t("strip_seals"), f"{t('strip_seals')} 2/4"),
        "curse": (t("strip_curse"), f"{t('strip_curse')} 2/3"),
        "cats": (t("strip_cats"), f"{t('strip_cats')}: {t('form_human')} 6, {t('form_frog')} 3, {t('form_exiled')} 3"),
    }  # fmt: skip
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 640})
        for forms, (frogs, exiled) in FORMS.items():
            phone.show(_worst_view(frogs, exiled, now))
            _assert_one_whole_row(
                page.evaluate(READ_STRIP_JS), width, f"{language} {width} px, {forms}"
            )
            if width == 360:
                page.screenshot(path=ARTIFACTS / f"strip-{forms}-{language}-360.png", clip=TOP)
        # The connection lost: its words in a banner, whole, and the row as it was.
        read, banner = page.evaluate(READ_STRIP_OFFLINE_JS)
        _assert_one_whole_row(read, width, f"{language} {width} px, reconnecting")
        assert banner["text"] == t("reconnecting"), banner
        assert banner["left"] >= 0 and banner["right"] <= width, banner
        if width == 360:
            page.screenshot(path=ARTIFACTS / f"strip-reconnecting-{language}-360.png", clip=TOP)

    # Each tracker: its name whole in small print, and in full for a screen reader; the
    # connection and the countdown say theirs too.
    phone.show(_worst_view(*FORMS["several"], now))
    read = page.evaluate(READ_STRIP_JS)
    assert read["labels"] == [[label, True] for label, _ in trackers.values()], read["labels"]
    for _, name in trackers.values():
        expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text=t("connected"))).to_have_count(1)
    seconds = re.escape(t("seconds", n=0)).replace("0", r"\d+")
    expect(page.locator("header#status .countdown")).to_have_attribute(
        "aria-label", re.compile(f"^{seconds}$")
    )

    # A tap on a tracker opens the key: every cat whole with its marks, what each tracker
    # and mark means; the tracker says it is open. Close folds it away again.
    page.set_viewport_size({"width": 360, "height": 640})
    page.get_by_role("button", name=trackers["curse"][1], exact=True).click()
    key = page.locator("#strip-key")
    expect(key).to_be_visible()
    expect(page.get_by_role("button", name=trackers["seals"][1], exact=True)).to_have_attribute(
        "aria-expanded", "true"
    )
    chips = page.locator("header#status .cat")
    expect(chips).to_have_count(12)
    assert chips.locator(".cat-name").all_inner_texts() == NAMES
    assert page.evaluate(READ_STRIP_JS)["cut"] == []
    expect(chips.nth(3)).to_contain_text("👑")  # Di, the Chief
    expect(chips.nth(7)).to_contain_text("💤")
    expect(chips.nth(9)).to_contain_text("📵")
    for words in (
        t("strip_key_seals", n=2, of=4),
        t("strip_key_curse", n=2, of=3),
        t("strip_key_day", n=7, of=7),
    ):
        expect(key).to_contain_text(words)
    for icon, word in (("🐈", "form_human"), ("🐸", "form_frog"), ("🚪", "form_exiled"), ("👑", "strip_chief"),
                       ("💤", "away"), ("📵", "offline")):  # fmt: skip
        expect(key.locator(".marks-legend")).to_contain_text(f"{icon} {t(word)}")
    page.screenshot(path=ARTIFACTS / f"strip-key-{language}-360.png")
    key.get_by_role("button", name=t("close_panel")).click()
    expect(key).to_be_hidden()
    expect(chips.first).to_be_hidden()
