"""Views: the batch form equals the single form; the public table view holds no secret."""

import json

from engine.catch_the_witch import GameState, all_views, view
from engine.catch_the_witch.autoplay import play_new
from engine.catch_the_witch.domain import Form
from tests.support.table import FOUR, SIX, Table


def test_all_views_equal_each_cats_own_view_at_every_step():
    checked = set()

    def compare(action: dict, state: GameState) -> None:
        if state.step in checked:
            return
        checked.add(state.step)
        assert all_views(state) == {name: view(state, name) for name in state.names()}

    play_new(9, seed=4, settings={"discussion_limit": 60}, observer=compare)
    assert len(checked) > 20


def test_the_public_table_view_shows_no_role_and_no_private_part_until_the_end():
    run = play_new(8, seed=2)
    seen_mid_game = []

    def collect(action: dict, state: GameState) -> None:
        if state.outcome is None:
            seen_mid_game.append(view(state, None))

    play_new(8, seed=2, observer=collect)
    assert seen_mid_game
    for table in seen_mid_game:
        assert table["me"] is None and not table["your_turn"]
        assert all("role" not in p for p in table["players"])
        assert "reveal" not in table
    final = view(run.state, None)
    assert all("role" in p for p in final["players"])
    assert final["reveal"]["roles"]


def test_records_are_sent_as_pydantic_would_send_them():
    """Record.public is built by hand for speed; it must say what model_dump(mode="json")
    says (optional fields left out while None), for every kind of record in real games."""
    from engine.catch_the_witch.autoplay import play_new
    from engine.catch_the_witch.state import Record

    seen: set[type] = set()
    for seed in range(3):
        state = play_new(12, seed).state
        records = [r for day in state.days for r in (*day.proposals, *day.spells, day.vote) if r]
        records += [r for cat in state.players for r in (*cat.notes, *cat.seer_results)]
        for record in records:
            assert isinstance(record, Record)
            dumped = record.model_dump(mode="json")
            optional = record.optional_fields
            expected = {k: v for k, v in dumped.items() if not (v is None and k in optional)}
            public = record.public()
            assert public == expected and list(public) == list(expected)
            assert json.loads(json.dumps(public)) == expected  # enums are written as values
            seen.add(type(record))
    assert {cls.__name__ for cls in seen} >= {"Proposal", "SpellCast", "ExileVote", "Note"}


# -- all you may know: what you gathered, every private result, all game -------------------
FISH = [["fish", "fish"]] + [["fish"] * 3] * 6


def _day_one(roles, **places) -> Table:
    t = Table(roles, required=FISH)
    t.ready_all()
    t.places(**places)
    return t


def _next_day(t: Table) -> None:
    """From the evening of a day to the place choice of the next (a cursed day, no exile)."""
    t.evening()
    t.curse_day()
    t.votes()
    t.ok_all()


def test_s4_gathered_tells_each_day_the_place_and_the_card_received():
    t = _day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    assert t.view("Di")["me"]["gathered"] == []  # nothing handed out yet
    t.witch("Ann", "forest")
    assert t.view("Di")["me"]["gathered"] == [
        {"day": 1, "place": "meadow", "ingredient": "moonflower"}
    ]
    assert t.view("Ann")["me"]["gathered"] == [
        {"day": 1, "place": "forest", "ingredient": "mushroom"}
    ]
    _next_day(t)
    t.places(Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "meadow", "frog", "Di")  # alone at the meadow: no witness
    assert t.state.cat("Di").form is Form.FROG
    # §4: a cat that became a frog in step ① gathers nothing; the day is still told
    assert t.view("Di")["me"]["gathered"][1] == {"day": 2, "place": "meadow", "ingredient": None}
    assert [g["day"] for g in t.view("Bo")["me"]["gathered"]] == [1, 2]
    _next_day(t)
    t.morning()
    t.do("Bo", "choose_place", place="river", restore="Di")
    t.places(Cy="river")
    t.witch("Ann", "forest")
    # §4: a cat restored today gathered nothing today
    assert t.view("Di")["me"]["gathered"][2] == {"day": 3, "place": None, "ingredient": None}


def _spoil_at_the_meadow(guarded: str) -> Table:
    """Day 1 of SIX: the Knight guards ``guarded``, Ann spoils the meadow (Cy and Fay
    gather there, Bo at the river), Eve casts nothing."""
    t = Table(SIX, required=FISH)
    t.state.rituals_held = 2  # §5: Spoil is unlocked after two rituals
    t.ready_all()
    t.morning()
    t.do("Di", "choose_guard")
    t.places(Bo="river", Cy="meadow", Fay="meadow")
    t.plans()  # the witches' taps end the place choice: the Knight's guard step
    t.do("Di", "guard_place", place=guarded)
    t.witch("Ann", "meadow", "spoil")
    t.witch("Eve", "forest")
    return t


def test_s4_gathered_shows_rotten_cards_of_a_spoiled_place_and_nothing_for_a_guarding_knight():
    t = _spoil_at_the_meadow(guarded="river")
    assert t.view("Cy")["me"]["gathered"] == [{"day": 1, "place": "meadow", "ingredient": "rotten"}]
    assert t.view("Bo")["me"]["gathered"] == [{"day": 1, "place": "river", "ingredient": "fish"}]
    assert t.view("Di")["me"]["gathered"] == [{"day": 1, "place": None, "ingredient": None}]


def test_s5_a_casting_witch_keeps_her_spell_results_with_their_day_all_game():
    t = _day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "forest")
    _next_day(t)
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "river", "frog", "Bo")  # Cy and Di saw it: witnesses, the Frog fails
    spell = {"day": 2, "kind": "spell", "spell": "frog", "worked": False}
    assert t.view("Ann")["me"]["notes"] == [spell]
    _next_day(t)
    t.places(Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "meadow", "frog", "Di")
    worked = {"day": 3, "kind": "spell", "spell": "frog", "worked": True}
    assert t.view("Ann")["me"]["notes"] == [spell, worked]
    assert all(t.view(name)["me"]["notes"] == [] for name in ("Bo", "Cy", "Di"))


def test_s6_3_the_knight_keeps_the_note_that_his_guard_repelled_a_spell():
    t = _spoil_at_the_meadow(guarded="meadow")
    assert t.view("Di")["me"]["notes"] == [{"day": 1, "kind": "guard_repelled"}]
    assert t.view("Ann")["me"]["notes"] == [
        {"day": 1, "kind": "spell", "spell": "spoil", "worked": False}
    ]
    assert t.view("Cy")["me"]["gathered"][0]["ingredient"] == "moonflower"  # the guard held
    _next_day(t)
    assert t.view("Di")["me"]["notes"] == [{"day": 1, "kind": "guard_repelled"}]


def test_s6_1_seer_looks_keep_their_day_and_appear_among_the_notes():
    t = _day_one(SIX, Bo="river", Cy="river", Di="river", Fay="river")
    t.witch("Ann", "forest")
    t.witch("Eve", "forest")
    t.do("Cy", "seer_look", target="Ann")
    _next_day(t)
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.witch("Ann", "forest")
    t.witch("Eve", "forest")
    t.do("Cy", "seer_look", target="Fay")
    me = t.view("Cy")["me"]
    assert me["seer_results"] == [
        {"day": 1, "target": "Ann", "witch": True},
        {"day": 2, "target": "Fay", "witch": False},
    ]
    assert me["notes"] == [{"kind": "seer_look", **look} for look in me["seer_results"]]


def test_s6_4_every_peek_is_kept_with_its_day_the_hand_seen_and_the_card_taken():
    t = _day_one(FOUR, Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "forest")
    t.do("Cy", "pickpocket_peek", target="Di")
    t.do("Cy", "pickpocket_take", card="moonflower")
    first = {"day": 1, "target": "Di", "hand": ["moonflower"], "took": "moonflower"}
    assert "peek" not in t.view("Cy")["me"]  # today's peek is over once taken…
    assert t.view("Cy")["me"]["peeks"] == [first]  # …but not forgotten
    _next_day(t)
    t.places(Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "forest")
    t.do("Cy", "pickpocket_peek", target="Bo")
    t.do("Cy", "pickpocket_take", card=None)
    second = {"day": 2, "target": "Bo", "hand": ["fish", "fish"], "took": None}
    me = t.view("Cy")["me"]
    assert me["peeks"] == [first, second]
    assert me["notes"] == [{"kind": "peek", **first}, {"kind": "peek", **second}]
    assert all(t.view(name)["me"]["peeks"] == [] for name in ("Ann", "Bo", "Di"))


def test_s2_2_every_view_tells_how_many_days_the_game_lasts():
    t = Table(SIX, required=FISH)
    assert t.view(None)["days_total"] == t.view("Bo")["days_total"] == 6  # §2.2: 6 cats
    assert t.view(None)["days_total"] == t.view(None)["knights_day"]
