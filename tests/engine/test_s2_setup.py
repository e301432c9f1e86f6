"""RULES §2: roles by count, custom role sets, game length, who knows what."""

from collections import Counter

import pytest

from engine.catch_the_witch import Form, IllegalAction, Role, new_game, tables, view
from engine.catch_the_witch.autoplay import bot_names
from tests.support.table import FOUR, Table


@pytest.mark.parametrize("count", range(4, 13))
def test_s2_1_default_roles_follow_the_table(count):
    state = new_game(bot_names(count), seed=count)
    dealt = Counter(cat.role for cat in state.players)
    expected = dict(zip(tables.ROLE_ORDER, tables.ROLE_COUNTS[count], strict=True))
    assert dealt == Counter({role: n for role, n in expected.items() if n})
    assert sum(dealt.values()) == count


def test_s2_1_roles_are_dealt_by_the_seed():
    a = new_game(bot_names(8), seed=1)
    b = new_game(bot_names(8), seed=1)
    c = new_game(bot_names(8), seed=2)
    assert [x.role for x in a.players] == [x.role for x in b.players]
    assert any(new_game(bot_names(8), seed=s).players != c.players for s in range(3, 8))


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        (["witch", "villager", "villager"], "3 roles but there are 4 cats"),
        (["villager"] * 4, "at least one Witch"),
        (["witch", "witch", "villager", "seer"], "fewer witches than other cats"),
        (["witch", "seer", "seer", "villager"], "at most one seer"),
        (["witch", "jester", "jester", "villager"], "at most one jester"),
    ],
)
def test_s2_1_custom_role_sets_are_validated_with_clear_messages(roles, message):
    with pytest.raises(IllegalAction, match=message):
        new_game(bot_names(4), {"roles": roles})


def test_s2_1_a_valid_custom_role_set_is_dealt():
    roles = ["witch", "jester", "villager", "villager", "villager"]
    state = new_game(bot_names(5), {"roles": roles}, seed=3)
    assert sorted(c.role.value for c in state.players) == sorted(roles)


@pytest.mark.parametrize(
    ("count", "roles"),
    [(5, None), (6, None), (4, ["witch", "knight", "seer", "villager"])],
)
def test_s2_1_every_view_names_the_roles_dealt_and_no_other(count, roles):
    """The public role set (the table's or the host's custom one): every phone reads it,
    e.g. the witch's place choice speaks of a guarded place only where a Knight is dealt
    (none at 5 cats by the table; one at 6; one in a custom set of 4)."""
    state = new_game(bot_names(count), {"roles": roles} if roles else {}, seed=1)
    dealt = dict(Counter(cat.role.value for cat in state.players))
    for name in [cat.name for cat in state.players] + [None]:
        assert view(state, name)["role_set"] == dealt
    assert ("knight" in dealt) == (count != 5)


@pytest.mark.parametrize("count", range(4, 13))
def test_s2_2_ritual_sizes_stay_below_the_clean_villager_side(count):
    clean = sum(n for role, n in zip(tables.ROLE_ORDER, tables.ROLE_COUNTS[count], strict=True)
                if role.side.value == "villagers")  # fmt: skip
    assert len(tables.RITUAL_SIZES[count]) == tables.KNIGHTS_DAY[count]
    assert max(tables.RITUAL_SIZES[count]) < clean + 1
    assert tables.ritual_size(count, 99) == tables.RITUAL_SIZES[count][-1]  # last repeats


def test_s2_2_required_ingredients_are_capped_at_cats_in_human_form_in_the_morning():
    t = Table(FOUR, required=[["fish", "fish"]])
    for name in ("Bo", "Cy"):
        t.state.cat(name).form = Form.FROG  # two frogs before day 1 starts
    t.ready_all()
    assert t.state.today.required == ["fish", "fish"]
    assert len(t.state.humans()) == 2


def test_s2_2_cap_at_the_evening_drops_the_last_drawn_ingredients(monkeypatch):
    monkeypatch.setitem(tables.RITUAL_SIZES, 4, (4, 4, 4, 4, 4))
    t = Table(FOUR, required=[["fish", "moonflower", "mushroom", "fish"]])
    t.ready_all()
    assert len(t.state.today.required) == 4
    t.places(Bo="river", Cy="river", Di="river")
    t.plans()
    t.do("Ann", "witch_place", place="forest")
    t.state.cat("Di").form = Form.FROG  # as if frogged at step ①
    t.do("Ann", "witch_spell", spell="none")
    t.end_witches_turn()
    today = t.view("Bo")["today"]
    assert today["required"] == ["fish", "moonflower", "mushroom"]
    assert today["dropped"] == ["fish"]


def test_s2_3_witches_see_witches_and_the_crow_sees_them_but_not_vice_versa():
    roles = {"Ann": "witch", "Bo": "crow", "Cy": "witch", "Di": "seer", "Eve": "villager",
             "Fay": "villager", "Gus": "knight"}  # fmt: skip
    state = new_game(list(roles), roles=roles)
    ann = view(state, "Ann")
    assert ann["me"]["witches"] == ["Cy"]
    assert {p["name"]: p.get("role") for p in ann["players"]}["Bo"] is None
    crow = view(state, "Bo")
    assert crow["me"]["witches"] == ["Ann", "Cy"]
    seer = view(state, "Di")
    assert [p.get("role") for p in seer["players"]] == [None, None, None, "seer", None, None, None]


def test_s2_3_seat_one_is_the_first_chief_and_hands_start_empty():
    t = Table(FOUR, required=[["fish", "fish"]])
    t.ready_all()
    assert all(cat.hand == [] for cat in t.state.players)
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.evening()
    assert t.state.chief == "Ann"


def test_s2_the_host_defaults_to_seat_one_and_must_be_a_cat():
    assert new_game(bot_names(4)).host == "Cat1"
    with pytest.raises(IllegalAction, match="host"):
        new_game(bot_names(4), host="Nobody")


def test_s2_explicit_roles_must_name_every_cat():
    with pytest.raises(IllegalAction, match="every cat"):
        new_game(list(FOUR), roles={"Ann": "witch"})
    assert new_game(list(FOUR), roles=FOUR).cat("Ann").role is Role.WITCH
