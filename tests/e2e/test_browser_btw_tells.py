"""Burn the Witch's secret steps tell no one's side (the tells test
of Catch the Witch, for the second game). One player's phone, her house and seat the same, shows
the same blocks and buttons in the same places, the same countdown and hold bar, whether
she holds the coven, was bewitched, holds one witch, or holds only innocents (devout or
plain): in the witching hour (the coven's prompt against the others' decoy), while another
player accuses, at the vote's ballot screen, and at the execution. Their house panels, held, are the same size with as many buttons,
and closed show nothing. Every language, at 360×640 and 390×844.

The views are the engine's own (a rigged deal, tests/engine/burn_the_witch/support.py); each
phone's socket is answered by the test, as in test_browser_btw_round_log.py."""

import json

import pytest
from playwright.sync_api import expect

from engine.burn_the_witch import apply, start
from tests.e2e.test_browser_btw_round_log import _view
from tests.e2e.test_browser_shell import ASKS_FOR_THE_VIEW, PROD
from tests.e2e.test_browser_tells import LAYOUTS, SIZES
from tests.e2e.test_browser_tells import _show as _relayout
from tests.engine.burn_the_witch import support
from tests.engine.burn_the_witch.support import D, N, W, move
from tests.support.tells import LOOK_JS, PANEL_JS, differences, panel_differences

#: Ann's phone with the same house (the same villagers, the same seat) and each secret she
#: could hold: the deal's identities (Ann's house first) and the coven's tap, if any. Di
#: accuses first, so Ann waits, votes and watches (or executes) alike in each.
SECRETS = {
    "the coven holder": ([[W, W, N, N], [N, N, N, N], [D, D, D, N], [D, D, D, N], [N, N, N, N]], ("Ann", "left")),
    "bewitched": ([[N, N, N, N], [W, W, N, N], [D, D, D, N], [D, D, D, N], [N, N, N, N]], ("Bo", "right")),
    "a witch holder": ([[W, N, N, N], [W, N, N, N], [D, D, D, N], [D, D, D, N], [N, N, N, N]], None),
    "a zealot with devout": ([[D, D, D, N], [W, N, N, N], [D, D, D, N], [W, N, N, N], [N, N, N, N]], None),
    "a zealot": ([[N, N, N, N], [W, N, N, N], [D, D, D, N], [D, D, D, N], [W, N, N, N]], None),
}  # fmt: skip


STEPS = ("witching_hour", "accuse", "vote", "execute")


def _steps(houses: list[list[str]], tap: tuple[str, str] | None) -> dict:
    state, _ = start(support.rig(houses, first="Di", timers=True), support.T0)
    assert state.phase == "witching_hour"
    witching = state
    if tap:
        coven, direction = tap
        state, _ = apply(state, {"type": "bewitch", "direction": direction, "player": coven},
                         support.T0 + 1)  # fmt: skip
    state = support.time_out(state)
    assert state.phase == "accuse" and state.accuser == "Di"
    accusing = state
    trait = next(t for v in state.player("Di").villagers for t in v.traits)
    voting = move(state, "Di", type="accuse", trait=trait)
    assert voting.phase == "vote"
    executing = support.vote_all(voting, burn=True)
    assert executing.phase == "execute", executing.phase
    return {"witching_hour": witching, "accuse": accusing, "vote": voting, "execute": executing}


@pytest.fixture(scope="module")
def steps() -> dict:
    found = {secret: _steps(*deal) for secret, deal in SECRETS.items()}
    factions = {
        secret: by_step["accuse"].player("Ann").faction for secret, by_step in found.items()
    }
    assert factions == {"the coven holder": "sympathizer", "bewitched": "sympathizer",
                        "a witch holder": "sympathizer", "a zealot with devout": "zealot",
                        "a zealot": "zealot"}, factions  # fmt: skip
    return found


def _same_clock(look: dict) -> dict:
    """Every phone here shows one view's deadline (the same by construction), read on a
    stack at 4×, where a second of reading between two phones is 4 s of countdown: whether a
    countdown shows is compared, not its second (tells.differences allows 2 s of game time,
    for the 1× stack of the Catch the Witch tells test)."""
    return {**look, "countdown": None if look["countdown"] is None else 0}


class Phone:
    """Ann's phone, its socket answered by the test: it shows the view it is given."""

    def __init__(self, browser, stack, view: dict):
        self.view, self.seq, self.socket = view, 1, None
        context = browser.new_context(viewport=SIZES[360], has_touch=True, locale="en-GB")
        self.page = context.new_page()
        self.page.route_web_socket(PROD, self._route)
        self.page.add_init_script('localStorage.setItem("party.seat", JSON.stringify('
                                  '{room: "ABCDEFGH", token: "t", name: "Ann"}))')  # fmt: skip
        self.page.goto(stack.http_url + "/?room=ABCDEFGH")
        self._shown()

    def _route(self, ws) -> None:
        self.socket = ws
        ws.on_message(
            lambda message: json.loads(message)["action"] in ASKS_FOR_THE_VIEW and self._send()
        )

    def _send(self) -> None:
        self.socket.send(
            json.dumps({"type": "view", "seq": self.seq, "rev": str(self.seq), "view": self.view})
        )

    def _shown(self) -> None:
        expect(self.page.locator("main")).to_have_attribute(
            "data-phase", self.view["phase"], timeout=10_000
        )
        expect(self.page.locator("main")).to_have_attribute("data-seq", str(self.seq))

    def show(self, view: dict) -> None:
        self.view, self.seq = view, self.seq + 1
        self._send()
        self._shown()


def test_anns_phone_looks_the_same_whatever_her_secret(stack, browser, steps):
    """Each step in turn on the same five phones (one for each secret), each step in every
    language at both widths."""
    deadline = stack.clock.now() + 600
    first = next(iter(SECRETS))
    phones: dict[str, Phone] = {}
    found = []
    for step in STEPS:
        for secret, by_step in steps.items():
            shown = {**_view(by_step[step], "Ann"), "deadline": deadline}
            if secret in phones:
                phones[secret].show(shown)
            else:
                phones[secret] = Phone(browser, stack, shown)
        for language, width in LAYOUTS:
            for phone in phones.values():
                _relayout(phone.page, language, width)
            looks = {
                secret: _same_clock(phone.page.evaluate(LOOK_JS))
                for secret, phone in phones.items()
            }
            panels = {secret: phone.page.evaluate(PANEL_JS) for secret, phone in phones.items()}
            assert looks[first]["bar"] is not None and panels[first]["open"], (looks, panels)
            for secret in list(SECRETS)[1:]:
                # Held, the panel is read close up by its owner (its lines differ, as a Catch
                # the Witch role sheet's do); what shows across the table is its size, and
                # that released it is empty and hidden.
                told = differences(looks[first], looks[secret]) + panel_differences(
                    panels[first], panels[secret]
                )
                before = panels[secret]["before"]
                if before["children"] or not before["hidden"]:
                    told.append(f"the closed panel shows {before}")
                found += [
                    f"{step}, {language} at {width}: Ann as {secret} against {first}: {d}"
                    for d in told
                ]
    for phone in phones.values():
        phone.page.context.close()
    assert found == [], "\n".join(found)
