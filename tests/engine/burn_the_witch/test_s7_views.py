"""RULES-burn-the-witch.md §7 What each phone shows: the public part (also the table
screen's) and ``me``, with the field names of the contract (BTW-CONTRACT.md, "Views")."""

import json

from engine.burn_the_witch import all_views, view

from . import support
from .support import GAME, D, N, W, a_trait_of, burn_by_round, house, move, started, villager_of

PUBLIC = {"game", "phase", "step", "you", "deadline", "over", "outcome", "round", "host", "settings", "players", "houses",
          "innocents_burned", "wrongly_condemned", "witches_left", "accuser", "executioner",
          "accused_trait", "voted", "last_vote", "outcome_of_vote", "complying", "trial",
          "pending", "history"}  # fmt: skip
ME = {"name", "dealt", "faction", "sympathizers", "bewitched_from", "my_vote", "my_point", "can"}


def deal():
    return [[W, N, N, N], [W, D, N, N], [D, D, N, N], [D, D, N, N], [N, N, N, N]]


def test_s7_every_view_has_the_public_fields_and_its_own_me():
    state = started(deal())
    views = all_views(state)
    for name, seen in views.items():
        assert set(seen) == PUBLIC | {"me"} and set(seen["me"]) == ME
        assert seen["me"]["name"] == seen["you"] == name and seen["game"] == "burn_the_witch"
    table = GAME.table_view(state)
    assert set(table) == PUBLIC and "me" not in table and table["you"] is None
    assert {k: v for k, v in views["Bo"].items() if k not in ("me", "you")} == {
        k: v for k, v in table.items() if k != "you"
    }
    json.dumps([views, table])


def test_s7_houses_show_living_villagers_traits_and_burned_identities():
    state = started(deal())
    state = burn_by_round(state, villager_of(state, "Bo", W))
    bo = view(state, None)["houses"][1]
    assert bo["owner"] == "Bo" and bo["hexed"] is True
    assert [v["name"] for v in bo["villagers"]] == house(state, "Bo")
    assert bo["burned"][0]["identity"] == "witch" and set(bo["burned"][0]) == {
        "name", "traits", "identity"}  # fmt: skip


def test_s7_whose_turn_and_what_each_may_do():
    state = started(deal())
    views = all_views(state)
    assert views["Ann"]["accuser"] == "Ann" and views["Ann"]["executioner"] == "Ed"
    assert views["Ann"]["me"]["can"] == ["accuse", "mark_away"]  # Ann is the host too
    assert views["Bo"]["me"]["can"] == []
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Bo")[0]))
    assert all(v["me"]["can"][:1] == ["vote"] for v in all_views(state).values())
    assert view(state, None)["complying"] == []


def test_s7_each_rounds_counts_are_in_the_history_with_no_voter():
    state = started(deal())
    state = burn_by_round(state, villager_of(state, "Ed", N))
    kinds = [event["kind"] for event in view(state, None)["history"]]
    assert kinds == ["accuse", "vote", "burn"]
    vote = view(state, None)["history"][1]
    assert set(vote) == {"kind", "round", "burn", "save", "outcome"}


def test_s7_only_sympathizers_dealt_a_witch_see_the_sympathizers():
    views = all_views(started(deal()))
    assert views["Ann"]["me"]["sympathizers"] == [
        {"name": "Ann", "kind": "witch"}, {"name": "Bo", "kind": "witch"}]  # fmt: skip
    for name in ("Cy", "Di", "Ed"):
        assert views[name]["me"]["sympathizers"] is None
        assert views[name]["me"]["faction"] == "zealot"


def test_s7_the_trial_view_shows_who_pointed_and_the_points_only_once_revealed():
    state = started(deal())
    state = burn_by_round(state, villager_of(state, "Cy", D))
    state = move(state, "Bo", type="point", target="Cy", locked=False)
    trial = view(state, None)["trial"]
    assert trial == {"targets": ["Ann", "Bo", "Cy", "Di", "Ed"],
                     "pointers": ["Ann", "Bo", "Cy", "Di", "Ed"], "pointed": ["Bo"],
                     "locked": [], "points": None, "chosen": None}  # fmt: skip


def test_s7_each_trials_points_stay_in_the_history_once_revealed():
    state = started(deal())
    state = burn_by_round(state, villager_of(state, "Cy", D))
    points = {"Ann": "Ed", "Bo": "Ed", "Cy": "Ed", "Di": "Ann", "Ed": "Ann"}
    for pointer, target in points.items():
        state = move(state, pointer, type="point", target=target, locked=True)
    state = move(state, "Ed", type="choose_villager", villager=house(state, "Ed")[0])
    assert state.phase == "accuse" and view(state, None)["trial"] is None
    trials = [e for e in view(state, "Bo")["history"] if e["kind"] == "trial"]
    assert trials == [{"kind": "trial", "round": 1, "targets": ["Ann", "Bo", "Cy", "Di", "Ed"],
                       "points": points, "chosen": "Ed"}]  # fmt: skip


def test_s7_every_event_is_filed_under_its_round_a_timed_out_accusation_too():
    """The round log (every phone, the table screen, the end story) groups events by round:
    a round whose accusation ran out has no accusation, and its penalty is still its own."""
    state = started(deal(), timers=True)
    state = burn_by_round(state, villager_of(state, "Ed", N))  # round 1
    state = support.time_out(state)  # round 2's accuser lets the time run out
    rounds = [(event["kind"], event["round"]) for event in view(state, None)["history"]]
    assert rounds[:3] == [("accuse", 1), ("vote", 1), ("burn", 1)]
    assert rounds[3] == ("timed_out", 2)
    assert all(round_ == 2 for _, round_ in rounds[3:])
