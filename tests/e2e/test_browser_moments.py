"""Of UX.md's "moments worth a small animation" only the duck (its bob)
and the frog (its hop) once moved. Now the curse gauge fills, and the magic circle lights up on a
success or fizzles on a failure:

- right after the public change, on a witch's phone and a villager's alike, the same short
  animation runs (the view's public facts start it, never a role's);
- a redraw of the same view does not start it again: it goes on where it was, and once it
  has played it stays still;
- under prefers-reduced-motion nothing moves (the final look at once).

The phones are served the engine's own views of a four-cat table (the server here is the
test's). Screenshots: build/test-artifacts/moment-*.png."""

import json
import time

from playwright.sync_api import expect

from tests.e2e.test_browser_shell import ASKS_FOR_THE_VIEW, PROD
from tests.support.table import FOUR, Table
from tests.support.ui_table import ARTIFACTS

FISH = [["fish", "fish"]] * 7
WITCH, VILLAGER, CALM = "Ann", "Di", "Cy"  # Cy's phone asks for reduced motion
#: A moment's length (js/strip.js FILL_MS, day.js CIRCLE_MS), and how long the test lets
#: it run before drawing the same view again.
MOMENT_MS = {"curse": 1200, "circle": 1600}
REDRAW_AFTER_S = 0.4

#: The animations running in the element `selector` and under it: each one's name, its
#: length, and how far into the moment it is (a redrawn element is drawn with the moment's
#: time gone by as a negative delay: js/moments.js).
RUNNING_JS = """(selector) => {
  const el = document.querySelector(selector);
  return el ? el.getAnimations({ subtree: true }).filter((a) => a.playState === "running").map((a) => ({
    name: a.animationName, ms: a.effect.getTiming().duration,
    into: a.currentTime - a.effect.getTiming().delay })) : null;
}"""


class _Phone:
    """A cat's phone whose socket the test answers: the first ping gets the cat's view, and
    `show` pushes the next one as the server would."""

    def __init__(self, phones, stack, table: Table, name: str, reduced_motion: bool = False):
        self.table, self.name, self.seq, self.sockets = table, name, 0, []
        self.page = phones()
        if reduced_motion:
            self.page.emulate_media(reduced_motion="reduce")

        def route(ws):
            self.sockets.append(ws)
            ws.on_message(
                lambda message: (
                    self.show() if json.loads(message)["action"] in ASKS_FOR_THE_VIEW else None
                )
            )

        self.page.route_web_socket(PROD, route)
        self.page.add_init_script(
            f'localStorage.setItem("party.seat", JSON.stringify({{room: "ABCDEFGH", token: "t", name: "{name}"}}))'
        )
        self.page.goto(stack.http_url + "/?room=ABCDEFGH")
        expect(self.page.locator("main")).to_have_attribute("data-seq", "1", timeout=10_000)

    def show(self) -> None:
        """Pushes the cat's newest view (the same one again if nothing happened)."""
        self.seq += 1
        view = {**self.table.view(self.name), "room": "ABCDEFGH", "connected": {}}
        self.sockets[-1].send(json.dumps({"type": "view", "seq": self.seq, "rev": str(self.seq), "view": view},
                                         default=str))  # fmt: skip

    def drawn(self) -> None:
        expect(self.page.locator("main")).to_have_attribute("data-seq", str(self.seq))

    def running(self, selector: str) -> list[dict] | None:
        return self.page.evaluate(RUNNING_JS, selector)


def _three_phones(phones, stack, table: Table) -> list[_Phone]:
    return [_Phone(phones, stack, table, WITCH), _Phone(phones, stack, table, VILLAGER),
            _Phone(phones, stack, table, CALM, reduced_motion=True)]  # fmt: skip


def _evening_of_day_one() -> Table:
    table = Table(FOUR, required=FISH)
    table.ready_all()
    table.places(Bo="river", Cy="river", Di="river")
    table.witch("Ann", "forest")
    table.evening()
    return table


def _assert_plays_once_alike(phones: list[_Phone], selector: str, moment: str, shot: str) -> None:
    """Each phone has just been shown the change: it plays on the first two phones alike,
    not on the third (reduced motion); a redraw of the same view does not start it again,
    and after its length it is still, and stays so at a redraw."""
    witch, villager, calm = phones
    for phone in phones:
        phone.drawn()
    started = time.monotonic()
    first = {phone.name: phone.running(selector) for phone in (witch, villager)}
    assert first[WITCH], f"nothing moves in {selector}"
    names = lambda runs: sorted((run["name"], run["ms"]) for run in runs)  # noqa: E731
    assert names(first[WITCH]) == names(first[VILLAGER]), first  # the same on every phone
    assert all(run["ms"] == MOMENT_MS[moment] for run in first[WITCH]), first
    assert calm.running(selector) == [], "it moves under prefers-reduced-motion"
    witch.page.screenshot(path=ARTIFACTS / f"moment-{shot}.png")

    witch.page.wait_for_timeout(REDRAW_AFTER_S * 1000)
    for phone in phones:
        phone.show()  # the same view again: the shell draws the screen anew
    for phone in phones:
        phone.drawn()
    for phone in (witch, villager):
        again = phone.running(selector)
        into = min(run["into"] for run in first[phone.name])
        if not again:  # a slow machine: over by now, on time, and not started anew
            elapsed_ms = (time.monotonic() - started) * 1000
            assert elapsed_ms >= MOMENT_MS[moment] - into - 100, (first, elapsed_ms)
            continue
        # Where it was and on, not from its start.
        assert all(run["into"] >= into + REDRAW_AFTER_S * 1000 - 100 for run in again), (
            again,
            first,
        )

    witch.page.wait_for_timeout(
        max(0, MOMENT_MS[moment] + 100 - (time.monotonic() - started) * 1000)
    )
    witch.page.screenshot(path=ARTIFACTS / f"moment-{shot}-after.png")
    for phone in phones:
        phone.show()
    for phone in phones:
        phone.drawn()
        assert phone.running(selector) == [], f"{selector} plays again on {phone.name}'s phone"


def test_the_curse_gauge_fills_once_on_every_phone_alike(stack, phones):
    table = _evening_of_day_one()
    phones_ = _three_phones(phones, stack, table)
    gauge = "header#status .gauge-item"
    assert [phone.running(gauge) for phone in phones_] == [[], [], []]  # a proposal: nothing moves
    table.propose(["Bo", "Cy"])
    table.approve_all(False)  # rejected: the curse gauge fills one cell (RULES §3.6)
    assert table.state.curse == 1
    for phone in phones_:
        phone.show()
    _assert_plays_once_alike(phones_, gauge, "curse", "curse")


def test_the_magic_circle_lights_up_or_fizzles_once_on_every_phone_alike(stack, phones):
    for result, members, cards in (("success", ["Bo", "Cy"], {"Bo": "fish", "Cy": "fish"}),
                                   ("failure", ["Ann", "Bo"], {"Ann": "nightshade", "Bo": "fish"})):  # fmt: skip
        table = _evening_of_day_one()
        table.propose(members)
        table.approve_all(True)
        table.ok_all()
        phones_ = _three_phones(phones, stack, table)  # in the ritual
        for name, card in cards.items():
            table.do(name, "play_card", card=card)
        assert table.state.today.ritual_result.value == result
        for phone in phones_:
            phone.show()
        circle = ".magic-circle." + ("lit" if result == "success" else "fizzled")
        for phone in phones_:
            expect(
                phone.page.locator(circle)
            ).to_be_visible()  # its final look under reduced motion too
        _assert_plays_once_alike(phones_, circle, "circle", f"circle-{result}")
