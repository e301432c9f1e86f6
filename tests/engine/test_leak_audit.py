"""The leak audit itself: it must catch a view that shows a secret."""

import random

import pytest

import engine.catch_the_witch.views as views_module
from engine.catch_the_witch.autoplay import play_new
from engine.catch_the_witch.domain import Phase
from tests.support.leaks import assert_no_leak


def mid_game_states(cats: int = 7):
    states = []
    play_new(cats, seed=3, observer=lambda _, s: states.append(s))
    return [s for s in states if s.phase is not Phase.GAME_OVER]


@pytest.mark.parametrize("cats", [7, 9])  # 9: with a Pickpocket (§2.1)
def test_the_audit_passes_on_the_real_views(cats):
    rng = random.Random(1)
    for state in mid_game_states(cats)[::10]:
        for viewer in [*state.names(), None]:
            assert_no_leak(state, viewer, rng)


_own_gathered = views_module._gathered


@pytest.mark.parametrize(
    "plant",
    [
        # every role shown to everyone
        lambda mp: mp.setattr(views_module, "_known_role", lambda s, cat, me, over: cat.role),
        # every hand shown
        lambda mp: mp.setattr(
            views_module,
            "_role_set",
            lambda s: {c.name: [i.value for i in c.hand] for c in s.players},
        ),
        # today's places shown
        lambda mp: mp.setattr(
            views_module, "_role_set", lambda s: dict(s.days[-1].places) if s.days else {}
        ),
        # every cat's gathered cards shown to each (me.gathered is one's own)
        lambda mp: mp.setattr(
            views_module,
            "_gathered",
            lambda s, me: [g for cat in s.players for g in _own_gathered(s, cat)],
        ),
        # every cat's notes shown (spells, guard)
        lambda mp: mp.setattr(
            views_module,
            "_role_set",
            lambda s: {c.name: [n.public() for n in c.notes] for c in s.players},
        ),
        # every Pickpocket peek shown
        lambda mp: mp.setattr(
            views_module,
            "_role_set",
            lambda s: {c.name: [p.public() for p in c.peeks] for c in s.players},
        ),
    ],
    ids=["roles", "hands", "places", "gathered", "notes", "peeks"],
)
def test_the_audit_catches_a_planted_leak(plant, monkeypatch):
    states = mid_game_states(9)
    plant(monkeypatch)
    rng = random.Random(2)
    caught = 0
    for state in states[::5]:
        try:
            for viewer in state.names():
                assert_no_leak(state, viewer, rng)
        except AssertionError:
            caught += 1
    assert caught > 0
