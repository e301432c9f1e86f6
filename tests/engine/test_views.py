"""Views: the batch form equals the single form; the public table view holds no secret."""

import json

from engine.catch_the_witch import GameState, all_views, view
from engine.catch_the_witch.autoplay import play_new


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
