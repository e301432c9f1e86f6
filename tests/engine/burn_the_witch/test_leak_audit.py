"""The leak audit: no view shows another player's identities,
ballots or faction, nor the owner's identities in villager order, at any step; and the audit
itself catches a view that does."""

import random

import pytest

import engine.burn_the_witch.views as views_module
from engine.burn_the_witch import new_game, start
from engine.burn_the_witch.state import Settings

from .leaks import assert_no_leak
from .support import NAMES, T0, play_with_bots


def states_of_a_game(count, seed, timers=False):
    states = []
    state, _ = start(new_game(NAMES[:count], Settings(timers=timers), seed=seed), T0)
    play_with_bots(state, seed, observer=states.append)
    return states


def covens_game(count):
    """A seed whose deal has a coven, so a bewitching happens."""
    for seed in range(100):
        state = new_game(NAMES[:count], seed=seed)
        if any(p.dealt.witches == 2 for p in state.players):
            return seed
    raise AssertionError("no coven in 100 deals")  # pragma: no cover


@pytest.mark.parametrize("count", range(5, 11))
def test_no_view_depends_on_a_secret_at_any_step(count):
    rng = random.Random(count)
    seed = covens_game(count)
    states = states_of_a_game(count, seed, timers=count % 2 == 0)
    assert any(s.bewitched for s in states)
    for state in states:
        for viewer in [*NAMES[:count], None]:
            assert_no_leak(state, viewer, rng)


def mid_game_states():
    states = states_of_a_game(7, covens_game(7))
    return [s for s in states if s.phase != "over"]


def audit_catches(states):
    rng = random.Random(2)
    with pytest.raises(AssertionError):
        for state in states:
            for viewer in [*NAMES[:7], None]:
                assert_no_leak(state, viewer, rng)


def test_the_audit_catches_identities_in_the_houses(monkeypatch):
    house = views_module._house
    monkeypatch.setattr(views_module, "_house", lambda p: {
        **house(p), "identities": [v.identity for v in p.villagers]})  # fmt: skip
    audit_catches(mid_game_states())


def leak_into_private(monkeypatch, leak):
    """Plant ``leak(state, player)``'s items in every private view."""
    private = views_module._private
    monkeypatch.setattr(views_module, "_private", lambda s, p, public: {
        **private(s, p, public), "leak": leak(s, p)})  # fmt: skip


def test_the_audit_catches_an_owner_shown_their_identities_in_villager_order(monkeypatch):
    leak_into_private(monkeypatch, lambda s, p: [v.identity for v in p.villagers])
    audit_catches(mid_game_states())


def test_the_audit_catches_another_players_faction(monkeypatch):
    leak_into_private(monkeypatch, lambda s, p: {q.name: q.faction for q in s.players})
    audit_catches(mid_game_states())


def test_the_audit_catches_the_ballots(monkeypatch):
    leak_into_private(monkeypatch, lambda s, p: {n: b.burn for n, b in s.votes.items()})
    audit_catches(mid_game_states())


def test_the_audit_catches_points_before_the_reveal(monkeypatch):
    trial = views_module._trial

    def leaky(s):
        shown = trial(s)
        return shown and {**shown, "points": dict(s.trial.points)}

    monkeypatch.setattr(views_module, "_trial", leaky)
    audit_catches(mid_game_states())


def test_the_audit_catches_the_bewitched_shown_to_a_zealot(monkeypatch):
    leak_into_private(monkeypatch, lambda s, p: s.bewitched)
    audit_catches(mid_game_states())
