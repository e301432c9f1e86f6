"""RULES-burn-the-witch.md §3 A round: accuse → secret vote → execute → victory → next
accuser; players without villagers; who uncovers."""

import pytest

from engine.burn_the_witch import all_views, queries

from .support import (
    N,
    W,
    a_trait_of,
    burn_by_round,
    house,
    move,
    refused,
    started,
    villager_of,
    vote_all,
)


def empty_house(state, name):
    """Surgery: every villager of ``name``'s house leaves play (burned, for the counts)."""
    player = state.player(name)
    player.burned += player.villagers
    player.villagers = []


# -- §3.1 accuse ---------------------------------------------------------------------------
def test_s3_1_the_accuser_names_a_trait_a_living_villager_shows():
    state = started()
    trait = a_trait_of(state, house(state, "Bo")[0])
    after = move(state, "Ann", type="accuse", trait=trait)
    assert after.phase == "vote" and after.accused_trait == trait
    assert after.history[-1] == {"kind": "accuse", "round": 1, "accuser": "Ann", "trait": trait}


def test_s3_1_a_trait_no_living_villager_shows_is_refused():
    state = started()
    trait = a_trait_of(state, house(state, "Bo")[0])
    for player in state.players:  # surgery: every villager with the trait burns
        keep = [v for v in player.villagers if trait not in v.traits]
        player.burned += [v for v in player.villagers if trait in v.traits]
        player.villagers = keep
    assert refused(state, "Ann", type="accuse", trait=trait) == "btw_trait_not_shown"
    assert refused(state, "Ann", type="accuse", trait="wings") == "btw_trait_not_shown"


def test_s3_1_only_the_accuser_accuses():
    state = started()
    assert refused(state, "Bo", type="accuse", trait="hat") == "btw_not_your_turn"


# -- §3.2 vote -------------------------------------------------------------------------------
def accused(state=None):
    state = state or started()
    return move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Cy")[0]))


def test_s3_2_every_player_votes_one_ballot_per_living_villager_split_allowed():
    state = accused()
    assert refused(state, "Bo", type="vote", burn=2, save=1) == "btw_vote_count"
    assert refused(state, "Bo", type="vote", burn=3, save=2) == "btw_vote_count"
    state = move(state, "Bo", type="vote", burn=2, save=2)
    assert state.votes["Bo"].burn == 2 and state.phase == "vote"


def test_s3_2_a_vote_can_change_until_the_last_is_in_and_only_counts_are_revealed():
    state = accused()
    state = move(state, "Ann", type="vote", burn=4, save=0)
    state = move(state, "Ann", type="vote", burn=1, save=3)  # changed
    views = all_views(state)
    assert views["Bo"]["voted"] == ["Ann"] and views["Bo"]["me"]["my_vote"] is None
    assert views["Ann"]["me"]["my_vote"] == {"burn": 1, "save": 3}
    for name in ("Bo", "Cy", "Di"):
        state = move(state, name, type="vote", burn=4, save=0)
    assert state.phase == "vote"
    state = move(state, "Ed", type="vote", burn=0, save=4)
    assert state.phase == "execute"
    assert state.last_vote.burn == 13 and state.last_vote.save == 7
    assert state.history[-1] == {"kind": "vote", "round": 1, "burn": 13, "save": 7,
                                 "outcome": "burn"}  # fmt: skip
    view = all_views(state)["Cy"]
    assert view["last_vote"] == {"burn": 13, "save": 7} and view["outcome_of_vote"] == "burn"
    assert view["me"]["my_vote"] is None and "Ann" not in str(view["history"][-1])


def test_s3_2_the_executioner_is_the_nearest_to_the_accusers_right_with_villagers():
    state = started()
    assert state.accuser == "Ann" and state.executioner == "Ed"  # Ann's right: the last seat
    empty_house(state, "Ed")
    assert queries.executioner_for(state, "Ann") == "Di"
    for name in ("Bo", "Cy", "Di"):
        empty_house(state, name)
    assert queries.executioner_for(state, "Ann") == "Ann"  # nobody else has any


@pytest.mark.parametrize(("burn", "outcome"), [(True, "burn"), (False, "save")])
def test_s3_2_more_burn_burns_more_save_saves(burn, outcome):
    state = vote_all(accused(), burn=burn)
    trait = state.accused_trait
    assert state.outcome_of_vote == outcome
    with_trait = {v.name for _, v in queries.living(state) if trait in v.traits}
    expected = with_trait if burn else {v.name for _, v in queries.living(state)} - with_trait
    assert set(queries.complying(state)) == expected
    assert set(all_views(state)["Ed"]["complying"]) == expected


def test_s3_2_a_tie_lets_the_executioner_choose_from_either_group():
    state = accused()
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        state = move(state, name, type="vote", burn=2, save=2)
    assert state.outcome_of_vote == "tie"
    assert len(queries.complying(state)) == 20


# -- §3.3 execute ----------------------------------------------------------------------------
def test_s3_3_the_executioner_burns_a_complying_villager_from_any_house():
    state = vote_all(accused(), burn=True)
    trait = state.accused_trait
    wrong = next(v.name for _, v in queries.living(state) if trait not in v.traits)
    assert refused(state, "Ed", type="execute", villager=wrong) == "btw_not_complying"
    right = next(v.name for _, v in queries.living(state) if trait in v.traits)
    assert refused(state, "Ann", type="execute", villager=right) == "btw_not_your_turn"
    owner = queries.owner_of(state, right).name
    after = move(state, "Ed", type="execute", villager=right)
    assert right not in house(after, owner)
    burned = after.player(owner).burned[-1]
    assert burned.name == right
    public = next(h for h in all_views(after)["Ann"]["houses"] if h["owner"] == owner)
    assert public["burned"][-1] == {"name": right, "traits": burned.traits,
                                    "identity": burned.identity}  # fmt: skip


def test_s3_3_no_complying_villager_after_a_save_lets_any_villager_burn():
    state = accused()
    for _, villager in queries.living(state):  # surgery: everyone shows the trait
        if state.accused_trait not in villager.traits:
            villager.traits = [*villager.traits, state.accused_trait]
    state = vote_all(state, burn=False)
    assert state.outcome_of_vote == "save"
    assert len(queries.complying(state)) == 20


# -- §3.5 next accuser -----------------------------------------------------------------------
def test_s3_5_the_executioner_accuses_next():
    state = burn_by_round(started(), villager_of(started(), "Ed", N))
    assert state.phase == "accuse" and state.round == 2 and state.accuser == "Ed"
    assert state.executioner == "Di"


def test_s3_5_an_executioner_without_villagers_passes_the_accusation_to_their_right():
    state = started()
    last = house(state, "Ed")[-1]
    for _villager in house(state, "Ed")[:-1]:
        state.player("Ed").burned.append(state.player("Ed").villagers.pop(0))
    assert house(state, "Ed") == [last]
    state = burn_by_round(state, last)  # Ed burns his own last villager
    assert state.accuser == "Di" and state.round == 2


# -- players without villagers ---------------------------------------------------------------
def test_s3_players_without_villagers_may_not_vote_accuse_or_execute():
    state = started()
    empty_house(state, "Bo")
    state = accused(state)
    assert refused(state, "Bo", type="vote", burn=0, save=0) == "btw_no_villagers"
    assert all_views(state)["Bo"]["me"]["can"] == []
    state = vote_all(state, burn=True)  # the vote ends without Bo
    assert state.phase == "execute"


def test_s3_witches_still_unburned_and_innocents_burned_are_public_numbers():
    state = started()
    state = burn_by_round(state, villager_of(state, "Ed", N))
    view = all_views(state)["Cy"]
    assert view["innocents_burned"] == 1 and view["wrongly_condemned"] == 13
    assert view["witches_left"] == 2
    state = burn_by_round(state, villager_of(state, "Bo", W))
    assert all_views(state)["Cy"]["witches_left"] == 1
