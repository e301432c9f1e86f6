"""Random Burn the Witch games (hypothesis): every count 5–10, timers off and on, Away marks,
silent phones (with timers on).

Checks for every game (RULES-burn-the-witch §8): it ends, exactly one faction wins, victory
is checked after every execution (the game ends at the first burn that meets a victory
condition, whatever burned it: a round, a trial, a hex, a retribution or a penalty), no bot
move is refused, the state survives a JSON round-trip, and no view leaks a secret (the
non-interference audit of leaks.py) for the players and the table screen, one view
per step in turn. PROPERTY_GAMES sets the number of games (200 by default), as for Catch the Witch.
"""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.burn_the_witch import tables
from engine.burn_the_witch.command_line import GAME, SIDES, new_state, play, settings_for

from .leaks import assert_no_leak

pytestmark = pytest.mark.slow  # random games: no coverage tracing; full count in make soak

GAMES = int(os.environ.get("PROPERTY_GAMES", "200"))


@st.composite
def games(draw):
    count = draw(st.integers(tables.MIN_PLAYERS, tables.MAX_PLAYERS))
    seed = draw(st.integers(0, 2**32))
    limit = draw(st.sampled_from([None, 30, 120]))
    away = draw(st.lists(st.integers(0, count - 1), max_size=2, unique=True))
    # With timers on, a silent phone's steps time out: §6's penalties, and more random
    # choices (trials choosing a hexed owner: retributions).
    silent = draw(st.lists(st.integers(0, count - 1), max_size=2, unique=True)) if limit else []
    return count, seed, limit, away, silent


def victory_met(witches_burned: int, innocents_burned: int, state) -> str | None:
    """§1's conditions on the counts so far: the reason a side has won, if any."""
    if witches_burned == tables.setup_row(len(state.players)).witches:
        return "all_witches_burned"
    if innocents_burned >= state.wrongly_condemned:
        return "threshold_reached"
    return None


def assert_victory_checked_after_every_burn(state, table: dict) -> None:
    """Replays the public burns in order: no condition is met before the last burn, and the
    last one meets the condition the result names."""
    burns = [event for event in table["history"] if event["kind"] == "burn"]
    witches = innocents = 0
    for index, burn in enumerate(burns):
        if burn["identity"] == "witch":
            witches += 1
        else:
            innocents += 1
        met = victory_met(witches, innocents, state)
        if index < len(burns) - 1:
            assert met is None, f"burn {index} ({burn['cause']}) won, yet the game went on"
        else:
            assert met == table["outcome"]["reason"], (burn, table["outcome"])


@settings(max_examples=GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(games())
def test_random_games_end_properly_and_never_leak(game):
    count, seed, limit, away, silent = game
    state, _ = GAME.start(new_state(count, seed, settings_for(limit)), 0.0)
    names = [p.name for p in state.players]
    for index in away:  # the host marks a few players Away from the start
        mark = {"type": "mark_away", "player": names[0], "target": names[index]}
        state, _ = GAME.apply(state, GAME.parse_move(mark), 0.0)
    audit = random.Random(seed)
    viewers = [*names, None]  # every player and the public table screen
    steps_seen: set[int] = set()

    def observe(action: dict, now_state) -> None:
        table = GAME.table_view(now_state)
        over = GAME.is_over(now_state)
        met = table["witches_left"] == 0 or table["innocents_burned"] >= table["wrongly_condemned"]
        assert over == met, (action, table["witches_left"], table["innocents_burned"])
        if now_state.step in steps_seen:
            return
        steps_seen.add(now_state.step)
        # Each step audits one view, the players' and the table screen's in turn, which
        # keeps 520 games near a minute (test_leak_audit.py audits every view of fewer
        # games at every step).
        assert_no_leak(now_state, viewers[now_state.step % len(viewers)], audit)

    bots = {name for index, name in enumerate(names) if index not in silent}
    run = play(state, bot_seed=seed, observer=observe, bot_players=bots)
    final = run.state
    assert run.illegal_actions == 0, run.errors[:3]
    assert GAME.is_over(final)
    table = GAME.table_view(final)
    assert table["outcome"]["winner"] in SIDES
    assert (table["outcome"]["winner"] == "zealots") == (
        table["outcome"]["reason"] == "all_witches_burned"
    )
    assert_victory_checked_after_every_burn(final, table)
    assert GAME.state_model.model_validate_json(final.model_dump_json()) == final
