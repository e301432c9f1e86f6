"""No unbounded growth: a seat's pending moves in one step are bounded, with a
clear error before DynamoDB's item limit, and a changed choice replaces the earlier one."""

from functions.room_service.service import unit_of_work
from tests.support.service_harness import Harness

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def _at_place_choice() -> Harness:
    h = Harness()
    h.table(NAMES)
    h.send("Ann", action="start")
    for name in NAMES:
        h.send(name, action="ready")
    h.advance_to_next_timer()  # the morning (§3.2)
    assert h.view("Ann")["phase"] == "place_choice"
    return h


def _pending_actions(h: Harness, seat: str) -> list[dict]:
    room = h.room()
    subs = h.service.ports.store.submissions(room.code, room.state.step)
    return next((s.actions for s in subs if s.player == seat), [])


def test_a_changed_place_replaces_the_earlier_one_however_often_it_changes():
    h = _at_place_choice()
    mover = next(n for n in NAMES if h.view(n)["your_turn"])
    places = h.view(mover)["open_places"]
    for i in range(100):
        h.clock.now += 0.2  # a person's pace: under the rate limit
        h.send(mover, action="choose_place", place=places[i % len(places)])
        assert h.error(mover) is None
    assert len(_pending_actions(h, mover)) == 1


def test_a_move_past_the_bound_is_refused_clearly_and_changes_nothing(monkeypatch):
    h = Harness()
    h.table(NAMES)
    h.send("Ann", action="start")
    monkeypatch.setattr(unit_of_work, "MAX_MOVES_PER_STEP", 0)  # the next move is one too many
    before = h.room()
    h.send("Bo", action="ready")
    error = h.error("Bo")
    assert error["code"] == "too_many_moves"
    assert "Too many moves in this step" in error["message"]
    assert h.room() == before and _pending_actions(h, "Bo") == []


def test_the_bound_keeps_a_full_submission_far_below_the_item_limit():
    from functions.room_service.domain.room import Submission

    move = {"t": 1_800_000_000.123, "action": {"type": "witch_spell", "player": "A" * 20,
                                               "spell": "frog", "target": "B" * 20}}  # fmt: skip
    full = Submission(
        player="A" * 20, step=999_999, actions=[move] * unit_of_work.MAX_MOVES_PER_STEP
    )
    assert len(full.model_dump_json().encode()) < 16_000  # DynamoDB's limit: 400 KB


def test_every_store_checks_each_item_s_size_before_writing(monkeypatch):
    """Deliverable 4: the room and a seat's pending moves are each checked against a bound
    well below DynamoDB's 400 KB, in the in-memory store as in DynamoDB's (the moto test
    test_a_room_too_large_is_refused_with_a_clear_error_long_before_400_kb), with a clear
    error and nothing written."""
    from functions.room_service.domain import room as model

    h = Harness()
    h.table(NAMES)
    h.send("Ann", action="start")
    monkeypatch.setattr(model, "MAX_SUBMISSION_BYTES", 20)  # as if the moves had grown
    before = (dict(h.store._rooms), dict(h.store._subs))
    h.send("Bo", action="ready")
    error = h.error("Bo")
    assert error["code"] == "too_many_moves" and "(limit 20)" in error["message"]
    assert (h.store._rooms, h.store._subs) == before
    monkeypatch.setattr(model, "MAX_SUBMISSION_BYTES", 64_000)
    monkeypatch.setattr(model, "MAX_ROOM_BYTES", 300)  # as if the room had grown
    for name in NAMES[1:]:
        h.send(name, action="ready")  # pending moves: small items, taken
    h.send("Ann", action="ready")  # completes the step: the room write is refused
    error = h.error("Ann")
    assert error["code"] == "room_too_large" and "(limit 300)" in error["message"]
    assert h.room().state.phase.value == "role_check"


def test_the_largest_room_stays_far_below_its_bound():
    """A 12-cat room at the end of a long game, stored, against model.MAX_ROOM_BYTES."""
    from functions.room_service.domain.room import MAX_ROOM_BYTES, stored_room

    names = [f"{'Ж' * 19}{i:x}" for i in range(12)]  # longest names, 2 bytes a letter
    h = Harness()
    h.table(names)
    h.send(names[0], action="start")
    h.play_with_bots(names, seed=3)
    assert len(stored_room(h.room())) < MAX_ROOM_BYTES / 20
