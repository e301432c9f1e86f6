"""RULES-burn-the-witch.md §5 Hex: a burned witch hexes her house; whoever uncovers an
innocent there loses a villager chosen by the house's owner; the retributive hex of a hexed
owner chosen in a trial; §3's one effect queue, first in, first out."""

from engine.burn_the_witch import all_views
from engine.burn_the_witch.state import QueuedEffect
from engine.burn_the_witch.turn import Turn
from engine.rng import new_rng_state

from .support import D, N, W, burn_by_round, house, move, refused, started, time_out, villager_of


def deal():
    return [[W, N, N, N], [W, D, N, N], [D, D, N, N], [D, D, N, N], [N, N, N, N]]


def hexed_bo(**kwargs):
    """Round 1: Ann accuses, Ed burns Bo's witch; round 2: Ed accuses, Di executes."""
    state = started(deal(), **kwargs)
    return burn_by_round(state, villager_of(state, "Bo", W))


def test_s5_a_burned_witch_hexes_her_house_for_all_to_see():
    state = hexed_bo()
    assert state.player("Bo").hexed and not state.player("Ann").hexed
    assert {h["owner"]: h["hexed"] for h in all_views(state)["Cy"]["houses"]}["Bo"] is True
    assert {"kind": "hexed", "round": 1, "owner": "Bo"} in state.history


def test_s5_uncovering_an_innocent_in_a_hexed_house_costs_a_villager_the_owner_chooses():
    state = hexed_bo()
    assert (state.accuser, state.executioner) == ("Ed", "Di")
    state = burn_by_round(state, villager_of(state, "Bo", N))
    assert state.phase == "choose_villager"
    assert (state.pending.kind, state.pending.chooser, state.pending.payer) == ("hex", "Bo", "Di")
    assert all_views(state)["Ann"]["pending"] == {
        "kind": "hex", "chooser": "Bo", "payer": "Di", "choices": house(state, "Di")}  # fmt: skip
    assert refused(state, "Di", type="choose_villager", villager=house(state, "Di")[0]) == (
        "btw_not_your_turn"
    )
    assert refused(state, "Bo", type="choose_villager", villager=house(state, "Bo")[0]) == (
        "btw_not_in_house"
    )
    lost = villager_of(state, "Di", N)
    state = move(state, "Bo", type="choose_villager", villager=lost)
    assert state.history[-1]["villager"] == lost
    assert (state.history[-1]["by"], state.history[-1]["cause"]) == ("Bo", "hex")
    assert state.phase == "accuse" and state.accuser == "Di"


def test_s5_uncovering_an_innocent_in_your_own_hexed_house_triggers_nothing():
    state = started(deal(), first="Cy")  # Cy accuses, Bo executes
    state.player("Bo").hexed = True
    state = burn_by_round(state, villager_of(state, "Bo", N))
    assert state.phase == "accuse" and state.round == 2


def test_s5_the_hexed_owner_chooses_even_with_no_villagers_left():
    state = hexed_bo()
    bo = state.player("Bo")
    last = villager_of(state, "Bo", N)
    bo.burned += [v for v in bo.villagers if v.name != last]
    bo.villagers = [v for v in bo.villagers if v.name == last]
    state = burn_by_round(state, last)
    assert house(state, "Bo") == [] and state.pending.chooser == "Bo"
    assert "choose_villager" in all_views(state)["Bo"]["me"]["can"]
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Di", N))
    assert state.phase == "accuse"


def test_s5_a_player_with_no_villagers_owes_nothing():
    state = hexed_bo()
    di = state.player("Di")
    di.burned += di.villagers
    di.villagers = []
    # as after a round whose executioner Di owes a hex penalty, then lost every villager
    state.queue = [QueuedEffect(kind="hex", payer="Di", chooser="Bo")]
    state.next_accuser_from = "Di"
    turn = Turn(state.clone(), 2000)
    turn.run_queue()
    after, _ = turn.finish()
    assert after.phase == "accuse" and after.pending is None and after.accuser == "Cy"


def test_s5_effects_resolve_first_in_first_out_the_hex_before_the_trial():
    state = hexed_bo()
    state = burn_by_round(state, villager_of(state, "Bo", D))
    assert state.phase == "choose_villager" and state.pending.kind == "hex"
    assert [e.kind for e in state.queue] == ["trial"]
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Di", N))
    assert state.phase == "trial"


def trial_choosing_bo():
    """Bo's house hexed; a devout of Cy's burns; everyone but Bo points at Bo."""
    state = hexed_bo()
    state = burn_by_round(state, villager_of(state, "Cy", D))
    assert state.phase == "trial"
    for pointer in ("Ann", "Cy", "Di"):
        state = move(state, pointer, type="point", target="Bo", locked=True)
    state = move(state, "Ed", type="point", target="Ann", locked=True)
    state = move(state, "Bo", type="point", target="Ann", locked=True)
    assert state.pending.chooser == "Bo" and state.pending.kind == "trial"
    return state


def test_s5_a_hexed_owner_chosen_in_a_trial_may_lay_the_penalty_on_a_pointer():
    state = trial_choosing_bo()
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", N))
    assert state.phase == "retribution"
    assert all_views(state)["Ed"]["pending"] == {
        "kind": "retribution", "chooser": "Bo", "choices": ["Ann", "Cy", "Di"]}  # fmt: skip
    assert refused(state, "Bo", type="retribute", target="Ed") == "btw_not_a_pointer"
    state = move(state, "Bo", type="retribute", target="Cy")
    assert (state.pending.kind, state.pending.chooser, state.pending.payer) == ("hex", "Bo", "Cy")
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Cy", N))
    assert state.history[-1]["cause"] == "hex" and state.phase == "accuse"
    assert {"kind": "retribution", "round": 2, "by": "Bo", "target": "Cy"} in state.history


def test_s5_the_hexed_owner_may_decline_the_retribution():
    state = trial_choosing_bo()
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", N))
    state = move(state, "Bo", type="retribute", target=None)
    assert state.phase == "accuse"


def test_s5_a_devout_is_innocent_too_the_retribution_comes_before_its_trial():
    state = trial_choosing_bo()
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", D))
    assert state.phase == "retribution" and [e.kind for e in state.queue] == ["trial"]
    state = move(state, "Bo", type="retribute", target=None)
    assert state.phase == "trial"


def test_s5_a_retribution_not_chosen_in_time_is_made_at_random_declining_included():
    outcomes = set()
    for seed in range(12):
        state = trial_choosing_bo() if seed == 0 else trial_choosing_bo_seeded(seed)
        state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", N))
        state = time_out(state)
        outcomes.add(state.phase)
    assert outcomes == {"accuse", "choose_villager"}


def trial_choosing_bo_seeded(seed):
    state = trial_choosing_bo()
    state.rng = new_rng_state(seed * 7919)
    return state


def test_s5_the_retribution_is_laid_only_on_pointers_who_still_have_villagers():
    state = trial_choosing_bo()  # Ann, Cy and Di pointed at Bo
    state.player("Cy").villagers = []  # lost meanwhile (kept out of the burned counts)
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", N))
    assert state.phase == "retribution" and state.pending.targets == ["Ann", "Di"]
    assert refused(state, "Bo", type="retribute", target="Cy") == "btw_not_a_pointer"


def test_s5_a_retribution_with_no_pointer_holding_villagers_lapses():
    state = trial_choosing_bo()
    for name in ("Ann", "Cy", "Di"):
        state.player(name).villagers = []  # lost meanwhile (kept out of the burned counts)
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", N))
    assert state.phase == "accuse" and state.pending is None
