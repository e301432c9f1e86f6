"""RULES-burn-the-witch.md §6 Time limits, Away, automatic choices: the optional timers and
their penalties, every other choice's limit, Away and leaving; and the room's game
interface around them (host, rematch)."""

import pytest

from engine.burn_the_witch import all_views, apply, new_game, start, tables
from engine.errors import IllegalAction
from engine.rng import new_rng_state

from .support import (
    GAME,
    NAMES,
    T0,
    D,
    N,
    W,
    a_trait_of,
    burn_by_round,
    house,
    move,
    play_with_bots,
    refused,
    rig,
    started,
    time_out,
    villager_of,
)


def deal():
    return [[W, N, N, N], [W, N, N, N], [D, D, D, N], [D, D, D, N], [N, N, N, N]]


def timed(**kwargs):
    return started(deal(), timers=True, timer_seconds=60, **kwargs)


# -- the optional timers ---------------------------------------------------------------------
def test_s6_without_timers_accuse_vote_and_execute_wait():
    state = started(deal())
    assert state.deadline is None
    assert refused(state, None, type="timeout") == "timer_none"
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Ed")[0]))
    assert state.phase == "vote" and state.deadline is None


def test_s6_with_timers_each_step_has_the_rooms_limit():
    state = timed()
    assert state.deadline == state_start(state) + 60


def state_start(state):
    return T0 + tables.WITCHING_HOUR_SECONDS


def test_s6_an_accusation_not_made_in_time_costs_the_accuser_a_villager_and_the_round():
    state = timed()
    assert refused(state, None, now=state.deadline - 1, type="timeout", step=state.step) == (
        "timer_not_due"
    )
    assert refused(state, None, type="timeout", step=state.step - 1) == "timer_stale"
    state = time_out(state)
    assert state.phase == "choose_villager"
    assert (state.pending.kind, state.pending.chooser, state.pending.payer) == (
        "penalty", "Ann", "Ann")  # fmt: skip
    assert {"kind": "timed_out", "round": 1, "step": "accuse", "player": "Ann"} in state.history
    state = move(state, "Ann", type="choose_villager", villager=villager_of(state, "Ann", N))
    assert state.history[-1]["cause"] == "penalty" and state.history[-1]["by"] == "Ann"
    assert state.accuser == "Ed" and state.executioner == "Di" and state.round == 2


def test_s6_a_vote_not_finished_costs_each_late_voter_a_villager_then_the_execution_follows():
    state = timed()
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Ed")[0]))
    state = move(state, "Ann", type="vote", burn=4, save=0)
    state = move(state, "Bo", type="vote", burn=3, save=1)
    state = time_out(state)
    assert state.last_vote.burn == 7 and state.last_vote.save == 1
    payers = []
    while state.phase == "choose_villager":  # going right from Ann: Ed, Di, Cy
        payers.append(state.pending.payer)
        state = move(state, state.pending.chooser, type="choose_villager",
                     villager=villager_of(state, state.pending.payer, N))  # fmt: skip
    assert payers == ["Ed", "Di", "Cy"]
    assert state.phase == "execute" and state.executioner == "Ed"


def test_s6_late_voters_pay_going_right_from_the_accuser_the_accuser_first():
    state = timed()
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Ed")[0]))
    state = move(state, "Bo", type="vote", burn=4, save=0)
    state = time_out(state)  # Ann, the accuser, never voted either
    payers = []
    while state.phase == "choose_villager":
        payers.append(state.pending.payer)
        state = move(state, state.pending.chooser, type="choose_villager",
                     villager=villager_of(state, state.pending.payer, N))  # fmt: skip
    assert payers == ["Ann", "Ed", "Di", "Cy"]


def test_s6_an_execution_not_made_in_time_costs_the_executioner_a_villager_instead():
    state = timed()
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Ed")[0]))
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        state = move(state, name, type="vote", burn=0, save=4)
    state = time_out(state)
    assert state.pending.payer == "Ed" and state.pending.kind == "penalty"
    assert state.deadline == 1001 + 60 + 60  # the vote ended at 1001; the choice: the room's limit
    state = time_out(state)  # chosen at random
    assert len(house(state, "Ed")) == 3
    assert state.accuser == "Ed"  # the executioner accuses next, as after any round


def test_s6_every_other_choice_has_a_limit_with_timers_off_too():
    state = started(deal())
    state = burn_by_round(state, villager_of(state, "Cy", D))
    assert state.deadline == 1001 + tables.TRIAL_SECONDS
    state = time_out(state)
    assert state.phase == "choose_villager"
    assert state.deadline == 1001 + tables.TRIAL_SECONDS + tables.CHOICE_SECONDS


def test_s6_a_choice_not_made_in_time_is_told_then_made_at_random():
    state = timed()
    state = time_out(time_out(state))  # the accusation, then Ann's villager to lose
    timed_out = [e for e in state.history if e["kind"] == "timed_out"]
    assert timed_out == [
        {"kind": "timed_out", "round": 1, "step": "accuse", "player": "Ann"},
        {"kind": "timed_out", "round": 1, "step": "choose_villager", "player": "Ann"},
    ]
    assert state.history[state.history.index(timed_out[1]) + 1]["kind"] == "burn"


# -- Away -------------------------------------------------------------------------------------
def test_s6_only_the_host_marks_a_player_away_once():
    state = started(deal())
    assert refused(state, "Bo", type="mark_away", target="Cy") == "btw_host_marks_away"
    state = move(state, "Ann", type="mark_away", target="Cy")
    assert refused(state, "Ann", type="mark_away", target="Cy") == "already_away"
    assert refused(state, "Ann", type="mark_away", target="Zed") == "btw_no_such_player"
    assert all_views(state)["Bo"]["players"][2] == {
        "name": "Cy", "seat": 3, "away": True, "has_villagers": True}  # fmt: skip


def test_s6_an_away_host_who_marks_another_player_away_is_back():
    state = started(deal())
    state = move(state, "Ann", type="mark_away", target="Ann")  # marking oneself: Away
    assert state.player("Ann").away
    state = move(state, "Ann", type="mark_away", target="Cy")  # acting again ends Away
    assert state.player("Cy").away and not state.player("Ann").away


def test_s6_a_player_leaving_is_no_act_of_the_away_host():
    state = started(deal())
    state = move(state, "Ann", type="mark_away", target="Ann")
    state, _ = GAME.leave(state, "Bo", 2000)
    assert state.player("Bo").away and state.player("Ann").away


def test_s6_an_away_player_votes_all_save_at_once_and_acting_again_ends_away():
    state = started(deal())
    state = move(state, "Ann", type="mark_away", target="Cy")
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Ed")[0]))
    assert state.votes["Cy"].burn == 0 and state.votes["Cy"].save == 4
    state = move(state, "Cy", type="vote", burn=4, save=0)
    assert not state.player("Cy").away and state.votes["Cy"].burn == 4


def test_s6_an_away_accuser_and_executioner_act_at_once():
    state = started(deal())
    state = move(state, "Ann", type="mark_away", target="Ed")
    state = move(state, "Ann", type="mark_away", target="Ann")
    assert state.phase == "vote" and state.accused_trait is not None
    for name in ("Bo", "Cy", "Di"):
        state = move(state, name, type="vote", burn=len(house(state, name)), save=0)
    assert len(state.history) >= 3 and state.history[2]["kind"] == "burn"
    assert state.history[2]["by"] == "Ed" and state.player("Ed").away


def test_s6_an_away_pointer_locks_a_random_point_at_once():
    state = burn_by_round(started(deal()), villager_of(started(deal()), "Cy", D))
    state = move(state, "Ann", type="mark_away", target="Bo")
    assert "Bo" in state.trial.locked and state.trial.points["Bo"] != "Bo"


def test_s6_an_away_pointers_target_is_drawn_at_random():
    on_trial = burn_by_round(started(deal()), villager_of(started(deal()), "Cy", D))
    targets = set()
    for seed in range(40):
        state = on_trial.model_copy(update={"rng": new_rng_state(seed * 7919)})
        state = move(state, "Ann", type="mark_away", target="Bo")
        targets.add(state.trial.points["Bo"])
    assert targets == {"Ann", "Cy", "Di", "Ed"}


def test_s6_an_away_coven_bewitches_at_once():
    state = rig([[N, N, N, N], [D, D, N, N], [W, W, D, N], [D, D, N, N], [D, N, N, N]])
    state.players[2].away = True
    state, _ = start(state, T0)
    assert state.bewitched in {"Bo", "Di"} and state.phase == "witching_hour"


def test_s6_a_game_where_everyone_is_away_plays_itself_to_the_end():
    state = new_game(NAMES[:7], seed=5)
    for player in state.players:
        player.away = True
    state, _ = start(state, T0)
    state, _effects = apply(state, {"type": "timeout", "step": state.step}, state.deadline)
    while state.phase != "over":  # only the trials and choices wait for their clocks
        state = time_out(state)
    assert state.outcome is not None


def test_s6_a_player_who_leaves_is_marked_away():
    state = started(deal())
    state, _ = GAME.leave(state, "Bo", 2000)
    assert state.player("Bo").away
    again, effects = GAME.leave(state, "Bo", 2001)
    assert again is state and effects == []


@pytest.mark.parametrize("timers", [False, True])
@pytest.mark.parametrize("count", range(5, 11))
def test_s6_every_game_ends(count, timers):
    from engine.burn_the_witch.state import Settings

    state = new_game(NAMES[:count], Settings(timers=timers, timer_seconds=30), seed=count)
    state, _ = start(state, T0)
    state = play_with_bots(state, seed=count)
    assert state.phase == "over" and state.outcome is not None


# -- the room's interface -----------------------------------------------------------------------
def test_s6_a_rematch_waits_for_the_end_and_deals_again_with_the_same_seats():
    state, _ = start(new_game(NAMES[:6], seed=2), T0)
    with pytest.raises(IllegalAction):
        GAME.rematch(state, 9)
    over = play_with_bots(state, seed=2)
    again = GAME.rematch(over, 9)
    assert again.step > over.step and again.phase == "witching_hour" and again.outcome is None
    assert [p.name for p in again.players] == NAMES[:6]
    assert GAME.set_host(again, "Cy").host == "Cy" and again.host == "Ann"


def test_s6_a_rematch_keeps_the_away_marks():
    state, _ = start(new_game(NAMES[:6], seed=2), T0)
    over = play_with_bots(state, seed=2)
    over.player("Cy").away = True
    again = GAME.rematch(over, 9)
    assert [p.away for p in again.players] == [False, False, True, False, False, False]


def test_s6_late_voters_penalties_may_empty_the_executioners_house_then_the_next_executes():
    state = timed()
    ed = state.player("Ed")
    ed.burned += ed.villagers[1:]
    ed.villagers = ed.villagers[:1]
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Bo")[0]))
    for name in ("Ann", "Bo", "Cy", "Di"):
        state = move(state, name, type="vote", burn=4, save=0)
    state = time_out(state)  # Ed, the executioner, never voted
    assert state.pending.payer == "Ed"
    state = move(state, "Ed", type="choose_villager", villager=house(state, "Ed")[0])
    assert state.phase == "execute" and state.executioner == "Di"
    state = move(state, "Di", type="execute", villager=state_complying_innocent(state))
    assert state.accuser == "Di"


def state_complying_innocent(state):
    from engine.burn_the_witch.queries import complying, living

    plain = {v.name for _, v in living(state) if v.identity == N}
    return next(name for name in complying(state) if name in plain)
