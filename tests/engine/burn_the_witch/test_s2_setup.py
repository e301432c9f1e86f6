"""RULES-burn-the-witch.md §2 Setup: the table, the deck, the deal, the witching hour, the
first accuser."""

from collections import Counter
from itertools import combinations

import pytest

from engine.burn_the_witch import all_views, apply, new_game, start, tables
from engine.burn_the_witch.setup import identity_deck
from engine.burn_the_witch.state import Settings
from engine.burn_the_witch.villagers import TRAITS, VILLAGERS
from engine.errors import IllegalAction

from .support import GAME, NAMES, T0, D, N, W, move, rig, started, time_out


# -- the table -------------------------------------------------------------------------------
@pytest.mark.parametrize("count", range(5, 11))
def test_s2_each_row_deals_its_villagers_identities_and_threshold(count):
    row = tables.SETUP[count]
    state = new_game(NAMES[:count], seed=count)
    assert all(len(p.villagers) == row.per_house for p in state.players)
    identities = Counter(v.identity for p in state.players for v in p.villagers)
    assert identities == {"devout": row.devout, "innocent": row.innocents - row.devout,
                          "witch": row.witches}  # fmt: skip
    assert state.wrongly_condemned == row.wrongly_condemned
    # §8: wrongly condemned is below the innocents, so someone wins before the table empties
    assert row.wrongly_condemned < row.innocents
    assert len({v.name for p in state.players for v in p.villagers}) == row.per_house * count


def test_s2_the_book_rows_are_the_rulebooks():
    book = {5: (20, 4, 18, 6, 2, 13), 6: (18, 3, 16, 4, 2, 12), 7: (21, 3, 19, 5, 2, 14),
            8: (24, 3, 21, 5, 3, 16)}  # fmt: skip
    for count, (total, per, inn, dev, wit, wrong) in book.items():
        row = tables.SETUP[count]
        assert (count * row.per_house, row.per_house, row.innocents, row.devout) == (
            total, per, inn, dev)  # fmt: skip
        assert (row.witches, row.wrongly_condemned, row.innocents + row.witches) == (
            wit, wrong, total)  # fmt: skip


# -- the villager deck ---------------------------------------------------------------------
def test_s2_the_deck_has_30_named_villagers_with_3_of_the_12_traits():
    assert len(VILLAGERS) == 30 and len({name for name, _ in VILLAGERS}) == 30
    assert len(TRAITS) == 12
    for _, traits in VILLAGERS:
        assert len(set(traits)) == 3 and set(traits) <= set(TRAITS)


def test_s2_every_trait_is_on_7_to_8_villagers():
    counts = Counter(t for _, traits in VILLAGERS for t in traits)
    assert set(counts) == set(TRAITS) and all(7 <= n <= 8 for n in counts.values())


def test_s2_no_two_villagers_share_all_three_traits():
    assert len({frozenset(traits) for _, traits in VILLAGERS}) == 30


def test_s2_no_pair_of_traits_is_on_more_than_two_villagers():
    pairs = Counter(pair for _, traits in VILLAGERS for pair in combinations(sorted(traits), 2))
    assert max(pairs.values()) <= 2


# -- the deal --------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [8, 9, 10])
def test_s2_no_house_is_dealt_three_witches(count):
    for seed in range(300):
        state = new_game(NAMES[:count], seed=seed)
        assert all(p.dealt.witches < 3 for p in state.players)


def test_s2_a_deal_with_three_witches_in_a_house_is_dealt_again():
    from engine.burn_the_witch.setup import deal_identities
    from engine.rng import Rng

    row = tables.SETUP[8]
    # find a seed whose first shuffle puts three witches in a house
    for seed in range(5000):
        rng = Rng(seed)
        cards = rng.shuffled(identity_deck(row))
        first = [cards[i * 3 : i * 3 + 3] for i in range(8)]
        if any(h.count(W) == 3 for h in first):
            break
    else:  # pragma: no cover
        pytest.fail("no seed deals three witches")
    hands = deal_identities(Rng(seed), row, 8)
    assert hands != first and all(h.count(W) < 3 for h in hands)
    assert Counter(c for h in hands for c in h) == Counter(identity_deck(row))


def test_s2_the_deal_is_seeded_and_different_seeds_deal_differently():
    a, b = new_game(NAMES[:6], seed=3), new_game(NAMES[:6], seed=3)
    assert a == b and a != new_game(NAMES[:6], seed=4)


def test_s2_dealt_counts_match_the_house_and_the_factions_follow():
    state = new_game(NAMES[:8], seed=11)
    for p in state.players:
        ids = Counter(v.identity for v in p.villagers)
        assert p.dealt.witches == ids[W] and p.dealt.devout == ids[D]
        assert p.dealt.innocents == ids[N] + ids[D]
        assert p.faction == ("sympathizer" if ids[W] else "zealot")


def test_s2_a_player_sees_what_they_were_dealt_as_counts_only():
    state, _ = start(
        rig([[W, D, N, N], [W, N, N, N], [D, D, D, N], [D, D, N, N], [N, N, N, N]]), T0
    )
    me = all_views(state)["Ann"]["me"]
    assert me["dealt"] == {"innocents": 3, "devout": 1, "witches": 1}
    assert me["faction"] == "sympathizer"
    own = next(h for h in all_views(state)["Ann"]["houses"] if h["owner"] == "Ann")
    assert all(set(v) == {"name", "traits"} for v in own["villagers"])


# -- the witching hour -----------------------------------------------------------------------
def coven_deal():
    """Cy (seat 3) has a coven; Ann (seat 1) no witch; the rest innocents."""
    return [[N, N, N, N], [D, D, N, N], [W, W, D, N], [D, D, N, N], [D, N, N, N]]


def test_s2_the_witching_hour_always_lasts_its_full_length():
    state, _ = start(rig(coven_deal()), T0)
    assert state.phase == "witching_hour" and state.deadline == T0 + tables.WITCHING_HOUR_SECONDS
    state = move(state, "Cy", type="bewitch", direction="left")
    assert state.phase == "witching_hour" and state.deadline == T0 + tables.WITCHING_HOUR_SECONDS
    with pytest.raises(IllegalAction) as caught:
        apply(state, {"type": "timeout", "step": state.step}, T0 + 5)
    assert caught.value.code == "timer_not_due"
    state = time_out(state)
    assert state.phase == "accuse" and state.round == 1


@pytest.mark.parametrize(("direction", "target", "side"), [("left", "Di", "right"),
                                                           ("right", "Bo", "left")])  # fmt: skip
def test_s2_the_coven_bewitches_the_first_non_sympathizer_that_way(direction, target, side):
    state, _ = start(rig(coven_deal()), T0)
    state = move(state, "Cy", type="bewitch", direction=direction)
    assert state.bewitched == target
    assert state.player(target).faction == "sympathizer"
    assert state.player(target).bewitched_from == side


def test_s2_the_coven_skips_a_neighbour_already_sympathizer():
    deal = [[N, N, N, N], [W, D, N, N], [W, W, D, N], [D, D, N, N], [D, D, N, N]]
    deal[0] = [D, N, N, N]
    state, _ = start(rig(deal), T0)  # 3 witches in a 5-player test deal: Bo has one
    state = move(state, "Cy", type="bewitch", direction="right")
    assert state.bewitched == "Ann"


def test_s2_the_bewitched_learn_only_their_side_and_sympathizers_dealt_a_witch_see_all():
    state, _ = start(rig(coven_deal()), T0)
    before = all_views(state)["Di"]["me"]
    assert before["faction"] == "zealot" and before["sympathizers"] is None
    state = move(state, "Cy", type="bewitch", direction="left")
    views = all_views(state)
    di = views["Di"]["me"]
    assert di["faction"] == "sympathizer" and di["bewitched_from"] == "right"
    assert di["sympathizers"] is None  # eyes closed: they learn nothing of the coven
    assert views["Cy"]["me"]["sympathizers"] == [
        {"name": "Cy", "kind": "coven"}, {"name": "Di", "kind": "bewitched"}]  # fmt: skip
    for name in ("Ann", "Bo", "Ed"):
        assert views[name]["me"]["sympathizers"] is None
        assert views[name]["me"]["bewitched_from"] is None


def test_s2_only_the_coven_bewitches_and_only_once():
    state, _ = start(rig(coven_deal()), T0)
    with pytest.raises(IllegalAction) as caught:
        move(state, "Ann", type="bewitch", direction="left")
    assert caught.value.code == "btw_no_coven"
    state = move(state, "Cy", type="bewitch", direction="left")
    with pytest.raises(IllegalAction) as caught:
        move(state, "Cy", type="bewitch", direction="right")
    assert caught.value.code == "already_done"


def test_s2_a_coven_that_does_not_choose_bewitches_at_random_at_the_end():
    state, _ = start(rig(coven_deal()), T0)
    state = time_out(state)
    assert state.bewitched in {"Bo", "Di"}


def test_s2_without_a_coven_nobody_is_bewitched():
    state = started()
    assert state.bewitched is None and all(p.bewitched_from is None for p in state.players)


def test_s2_every_phone_shows_the_same_witching_hour_step_and_deadline():
    state, _ = start(rig(coven_deal()), T0)
    views = all_views(state)
    assert {(v["phase"], v["step"], v["deadline"]) for v in views.values()} == {
        ("witching_hour", state.step, T0 + tables.WITCHING_HOUR_SECONDS)}  # fmt: skip
    after = all_views(move(state, "Cy", type="bewitch", direction="left"))
    assert all(after[n]["step"] == views[n]["step"] for n in views)


# -- the first accuser -------------------------------------------------------------------------
def test_s2_the_first_accuser_is_the_lobby_setting():
    assert started(first="Cy").accuser == "Cy"


def test_s2_the_first_accuser_is_drawn_at_random_by_default():
    firsts = set()
    for seed in range(40):
        state, _ = start(new_game(NAMES[:5], seed=seed), T0)
        firsts.add(time_out(state).accuser)
    assert firsts == set(NAMES[:5])


def test_s2_a_first_accuser_not_seated_refuses_the_start():
    with pytest.raises(IllegalAction) as caught:
        GAME.new_game(NAMES[:5], Settings(first_accuser="Zed"), seed=1, host="Ann")
    assert caught.value.code == "btw_first_accuser_not_seated"
    assert caught.value.params == {"name": "Zed"}


def test_s2_the_player_count_is_5_to_10():
    assert GAME.start_problem(Settings(), 4).code == "btw_player_count"
    assert GAME.start_problem(Settings(), 11).code == "btw_player_count"
    assert GAME.start_problem(Settings(), 5) is None and GAME.start_problem(Settings(), 10) is None
    assert GAME.lobby_facts(Settings(), 9)["setup"]["wrongly_condemned"] == 18
