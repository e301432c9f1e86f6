"""RULES-burn-the-witch.md §1 Sides and victory: zealots when every witch has burned,
sympathizers at the wrongly condemned number; checked after every execution, retributive
ones included; the result reveals everything but the ballots."""

from engine.burn_the_witch import all_views, apply

from .support import D, N, W, a_trait_of, burn_by_round, move, started, villager_of, vote_all


def burn_innocents_offstage(state, count, houses=("Cy", "Di", "Ann", "Bo", "Ed")):
    """Surgery: ``count`` plain innocents of ``houses`` burn off the record."""
    for name in houses:
        player = state.player(name)
        for villager in list(player.villagers):
            if count and villager.identity == N:
                player.villagers.remove(villager)
                player.burned.append(villager)
                count -= 1
    assert count == 0


def houses():
    return [[W, N, N, N], [W, N, N, N], [D, N, N, N], [D, N, N, N], [N, N, N, N]]


def executed(state, villager):
    """The round up to the execution, then the execution's (state, effects)."""
    state = move(state, state.accuser, type="accuse", trait=a_trait_of(state, villager))
    state = vote_all(state, burn=True)
    return apply(
        state, {"type": "execute", "player": state.executioner, "villager": villager}, 2000
    )


def test_s1_zealots_win_when_every_witch_has_burned():
    state = started(houses())
    state = burn_by_round(state, villager_of(state, "Ann", W))
    assert state.phase == "accuse" and state.outcome is None
    state, effects = executed(state, villager_of(state, "Bo", W))
    assert state.phase == "over" and state.deadline is None
    assert (state.outcome.winner, state.outcome.reason) == ("zealots", "all_witches_burned")
    assert effects[-1].type == "game_over" and effects[-1].outcome == state.outcome


def test_s1_sympathizers_win_when_the_innocents_burned_reach_the_threshold():
    state = started(houses())
    burn_innocents_offstage(state, 12)  # one short of 13
    state, _effects = executed(state, villager_of(state, "Ed", N))
    assert (state.outcome.winner, state.outcome.reason) == ("sympathizers", "threshold_reached")


def test_s1_a_won_game_ends_at_once_and_drops_the_effects_it_would_cause():
    state = started(houses())
    burn_innocents_offstage(state, 12)
    state, _ = executed(state, villager_of(state, "Cy", D))  # a devout: no trial follows
    assert state.phase == "over" and state.trial is None and state.queue == []


def test_s1_victory_is_checked_after_a_retributive_execution():
    state = started(houses())
    state = burn_by_round(state, villager_of(state, "Bo", W))  # Bo's house is hexed
    burn_innocents_offstage(state, 11, houses=("Cy", "Ann", "Ed", "Di"))
    state = burn_by_round(state, villager_of(state, "Bo", N))  # the 12th, uncovered by Di
    assert state.phase == "choose_villager" and state.pending.payer == "Di"
    state, effects = apply(state, {"type": "choose_villager", "player": "Bo",
                                   "villager": villager_of(state, "Di", N)}, 2000)  # fmt: skip
    assert state.phase == "over" and state.outcome.winner == "sympathizers"
    assert effects[-1].type == "game_over"


def test_s1_a_player_dealt_a_witch_stays_a_sympathizer_after_it_burns():
    state = started(houses())
    state = burn_by_round(state, villager_of(state, "Ann", W))
    assert state.player("Ann").faction == "sympathizer"
    assert all_views(state)["Ann"]["me"]["faction"] == "sympathizer"


def test_s1_the_result_reveals_identities_and_factions_but_no_ballot():
    state = started(houses())
    state = burn_by_round(state, villager_of(state, "Ann", W))
    state, _ = executed(state, villager_of(state, "Bo", W))
    result = all_views(state)["Cy"]["outcome"]
    assert result["winner"] == "zealots" and result["reason"] == "all_witches_burned"
    assert result["factions"] == {"Ann": "sympathizer", "Bo": "sympathizer", "Cy": "zealot",
                                  "Di": "zealot", "Ed": "zealot"}  # fmt: skip
    assert len(result["identities"]) == 20
    assert result["identities"][villager_of(state, "Cy", D)] == D
    assert "votes" not in str(all_views(state)["Cy"]) and state.votes == {}
