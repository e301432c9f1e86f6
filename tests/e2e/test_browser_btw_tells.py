"""Issue 35, deliverable 8: Burn the Witch's secret steps tell no one's side (the tells test
of issue 34, for the second game). One player's phone, her house and seat the same, shows
the same blocks and buttons in the same places, the same countdown and hold bar, whether
she holds the coven, was bewitched, holds one witch, or holds only innocents (devout or
plain): in the witching hour (the coven's prompt against the others' decoy), while another
player accuses, at the vote's ballot screen, and at the execution. Their house panels, held, are the same size with as many buttons,
and closed show nothing. Every language, at 360×640 and 390×844.

The views are the engine's own (a rigged deal, tests/engine/burn_the_witch/support.py); each
phone's socket is answered by the test, as in test_browser_btw_round_log.py."""

import pytest

from engine.burn_the_witch import apply, start
from tests.e2e.test_browser_btw_round_log import _show, _view
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


@pytest.mark.parametrize("step", ["witching_hour", "accuse", "vote", "execute"])
def test_anns_phone_looks_the_same_whatever_her_secret(stack, browser, steps, step):
    deadline = stack.clock.now() + 120
    pages = {}
    for secret, by_step in steps.items():
        context = browser.new_context(viewport=SIZES[360], has_touch=True, locale="en-GB")
        pages[secret] = context.new_page()
        _show(pages[secret], stack, {**_view(by_step[step], "Ann"), "deadline": deadline})
    found = []
    first = next(iter(SECRETS))
    for language, width in LAYOUTS:
        for page in pages.values():
            _relayout(page, language, width)
        # Read one right after another: their countdowns are compared (tells.differences).
        looks = {secret: _same_clock(page.evaluate(LOOK_JS)) for secret, page in pages.items()}
        panels = {secret: page.evaluate(PANEL_JS) for secret, page in pages.items()}
        assert looks[first]["bar"] is not None and panels[first]["open"], (looks, panels)
        for secret in list(SECRETS)[1:]:
            # Held, the panel is read close up by its owner (its lines differ, as a Catch
            # the Witch role sheet's do); what shows across the table is its size, and that
            # released it is empty and hidden.
            told = differences(looks[first], looks[secret]) + panel_differences(
                panels[first], panels[secret]
            )
            before = panels[secret]["before"]
            if before["children"] or not before["hidden"]:
                told.append(f"the closed panel shows {before}")
            found += [
                f"{step}, {language} at {width}: Ann as {secret} against {first}: {d}" for d in told
            ]
    for page in pages.values():
        page.context.close()
    assert found == [], "\n".join(found)
