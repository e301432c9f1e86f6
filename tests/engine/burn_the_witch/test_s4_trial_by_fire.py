"""RULES-burn-the-witch.md §4 Devout and Trial by Fire: the 2-minute pointing, the reveal,
ties, the chosen player's loss, chains."""

from engine.burn_the_witch import all_views, tables

from .support import D, N, W, burn_by_round, house, move, refused, started, time_out, villager_of


def deal():
    return [[W, N, N, N], [W, D, N, N], [D, D, N, N], [D, D, N, N], [N, N, N, N]]


def on_trial(**kwargs):
    """Round 1: Ann accuses, Ed burns one of Cy's devout: a Trial by Fire starts."""
    state = started(deal(), **kwargs)
    return burn_by_round(state, villager_of(state, "Cy", D))


def point(state, player, target, locked=True):
    return move(state, player, type="point", target=target, locked=locked)


def test_s4_a_burned_devout_starts_a_two_minute_trial_over_the_players_with_villagers():
    state = on_trial()
    assert state.phase == "trial" and state.deadline == 1001 + tables.TRIAL_SECONDS
    assert state.trial.targets == ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert state.trial.pointers == ["Ann", "Bo", "Cy", "Di", "Ed"]
    assert state.history[-1]["identity"] == D


def test_s4_nobody_points_at_themself_and_only_at_a_target():
    state = on_trial()
    assert refused(state, "Ann", type="point", target="Ann") == "btw_not_a_target"
    assert refused(state, "Ann", type="point", target="Zed") == "btw_not_a_target"


def test_s4_a_player_without_villagers_points_but_is_no_target():
    state = started(deal())
    state.player("Ann").burned += state.player("Ann").villagers
    state.player("Ann").villagers = []
    state.accuser, state.executioner = "Bo", "Ed"  # Ann has nothing to accuse with
    state = burn_by_round(state, villager_of(state, "Cy", D))
    assert "Ann" not in state.trial.targets and "Ann" in state.trial.pointers
    state = point(state, "Ann", "Bo")
    assert state.trial.points["Ann"] == "Bo"
    assert refused(state, "Bo", type="point", target="Ann") == "btw_not_a_target"


def test_s4_a_point_changes_until_it_is_locked_and_stays_hidden_until_revealed():
    state = on_trial()
    state = point(state, "Ann", "Bo", locked=False)
    state = point(state, "Ann", "Cy", locked=True)
    assert refused(state, "Ann", type="point", target="Di") == "btw_point_locked"
    view = all_views(state)["Bo"]
    assert view["trial"]["pointed"] == ["Ann"] and view["trial"]["locked"] == ["Ann"]
    assert view["trial"]["points"] is None and view["me"]["my_point"] is None
    assert all_views(state)["Ann"]["me"]["my_point"] == "Cy"


def test_s4_the_trial_ends_when_everyone_has_locked_and_the_most_pointed_loses_a_villager():
    state = on_trial()
    for pointer, target in [("Ann", "Ed"), ("Bo", "Ed"), ("Cy", "Ed"), ("Di", "Ann")]:
        state = point(state, pointer, target)
    assert state.phase == "trial"
    state = point(state, "Ed", "Ann")
    assert state.phase == "choose_villager"
    assert state.pending.kind == "trial" and state.pending.chooser == state.pending.payer == "Ed"
    trial = all_views(state)["Cy"]["trial"]
    assert trial["points"] == {"Ann": "Ed", "Bo": "Ed", "Cy": "Ed", "Di": "Ann", "Ed": "Ann"}
    assert trial["chosen"] == "Ed"
    assert all_views(state)["Cy"]["pending"]["choices"] == house(state, "Ed")
    assert refused(state, "Ed", type="choose_villager", villager=house(state, "Ann")[0]) == (
        "btw_not_in_house"
    )
    lost = house(state, "Ed")[0]
    state = move(state, "Ed", type="choose_villager", villager=lost)
    assert state.history[-1]["villager"] == lost and state.history[-1]["cause"] == "trial"
    assert state.phase == "accuse" and state.trial is None


def test_s4_points_not_locked_in_time_count_as_they_stand():
    state = on_trial()
    state = point(state, "Ann", "Di", locked=False)
    state = point(state, "Bo", "Ed", locked=True)
    state = point(state, "Cy", "Di", locked=False)
    state = time_out(state)
    assert state.trial.chosen == "Di"


def test_s4_a_tie_goes_to_the_most_villagers():
    state = on_trial()  # Cy has 3 villagers left, Bo 4; going right from Ann, Cy comes first
    for pointer, target in [("Ann", "Cy"), ("Di", "Cy"), ("Ed", "Bo"), ("Cy", "Bo")]:
        state = point(state, pointer, target)
    state = time_out(state)
    assert state.trial.chosen == "Bo"


def test_s4_then_to_the_first_going_right_from_the_rounds_accuser():
    state = on_trial()  # the accuser was Ann; going right: Ann, Ed, Di, Cy, Bo
    for pointer, target in [("Ann", "Bo"), ("Cy", "Ed")]:
        state = point(state, pointer, target)
    state = time_out(state)
    assert state.trial.chosen == "Ed"


def test_s4_if_nobody_pointed_every_target_is_tied_the_accuser_included():
    state = time_out(on_trial())
    assert state.trial.chosen == "Ann"  # 4 villagers, and first going right from herself


def test_s4_a_devout_uncovered_in_a_trial_starts_another():
    state = on_trial()
    for pointer in ("Ann", "Bo", "Cy", "Ed"):
        state = point(state, pointer, "Di")
    state = point(state, "Di", "Ann")
    state = move(state, "Di", type="choose_villager", villager=villager_of(state, "Di", D))
    assert state.phase == "trial" and state.trial.points == {}


def test_s4_the_chosen_players_choice_is_made_at_random_when_its_time_runs_out():
    state = time_out(on_trial())
    assert state.phase == "choose_villager" and state.deadline == 1001 + 120 + 120
    before = house(state, "Ann")
    state = time_out(state)
    assert len(house(state, "Ann")) == len(before) - 1
    assert state.history[-1]["by"] == "Ann"


def test_s4_the_only_target_has_nobody_to_point_at():
    state = started(deal())
    keep = villager_of(state, "Cy", D)
    for name in ("Bo", "Cy", "Di", "Ed"):  # surgery: every house but Ann's leaves the table
        player = state.player(name)
        player.villagers = [v for v in player.villagers if v.name == keep]
    state.executioner = "Cy"
    state = burn_by_round(state, villager_of(state, "Cy", D))
    assert state.trial.targets == ["Ann"] and "Ann" not in state.trial.pointers
    assert refused(state, "Ann", type="point", target="Bo") == "btw_cannot_point"


def test_s4_the_trial_takes_two_minutes_whatever_the_rooms_timer():
    state = on_trial(timers=True, timer_seconds=30)
    assert state.deadline == 1001 + tables.TRIAL_SECONDS == 1001 + 120
