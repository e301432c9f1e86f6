"""Random games (hypothesis): every count 4–12, with and without limits, with Away marks.

Checks for every game: it ends by the Knights' day with exactly one outcome, no bot
action is illegal, the state survives a JSON round-trip, and no view leaks a secret
(tests/support/leaks.py) for any cat or the table screen at any step.
"""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.catch_the_witch import GameState, Phase, apply, new_game, rules, view
from engine.catch_the_witch.autoplay import bot_names, play
from tests.support.leaks import assert_no_leak

pytestmark = pytest.mark.slow  # random games: no coverage tracing; full count in make soak

GAMES = int(os.environ.get("PROPERTY_GAMES", "200"))


@st.composite
def games(draw):
    count = draw(st.integers(4, 12))
    seed = draw(st.integers(0, 2**32))
    limit = draw(st.sampled_from([None, 30, 120]))
    reveal = draw(st.booleans())
    away = draw(st.lists(st.integers(0, count - 1), max_size=2, unique=True))
    return count, seed, limit, reveal, away


@settings(max_examples=GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(games())
def test_random_games_end_properly_and_never_leak(game):
    count, seed, limit, reveal, away = game
    names = bot_names(count)
    state = new_game(names, {"discussion_limit": limit, "reveal_role_on_exile": reveal}, seed=seed)
    for index in away:  # the host marks a few cats Away from the start
        state, _ = apply(
            state, {"type": "mark_away", "player": names[0], "target": names[index]}, 0
        )
    audit = random.Random(seed)
    steps_seen: set[int] = set()

    def observe(action: dict, now_state: GameState) -> None:
        if now_state.step in steps_seen:
            return
        steps_seen.add(now_state.step)
        for viewer in [*names, None]:  # every cat and the public table screen
            assert_no_leak(now_state, viewer, audit)
            assert str(now_state.rng) not in str(view(now_state, viewer))

    run = play(state, bot_seed=seed, observer=observe)
    final = run.state
    assert run.illegal_actions == 0, run.errors[:3]
    assert final.phase is Phase.GAME_OVER
    assert final.outcome is not None
    assert final.outcome.day <= rules.knights_day(final)
    assert final.outcome.winner == final.outcome.reason.winner
    assert GameState.model_validate_json(final.model_dump_json()) == final
