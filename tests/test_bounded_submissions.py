"""Issue 18 (unbounded growth): a seat's pending moves in one step are bounded, with a
clear error before DynamoDB's item limit, and a changed choice replaces the earlier one."""

from functions.room_service import service
from tests.service_harness import Harness

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def _at_place_choice() -> Harness:
    h = Harness()
    h.table(NAMES)
    h.send("Ann", action="start")
    for name in NAMES:
        h.send(name, action="ready")
    assert h.view("Ann")["phase"] == "place_choice"
    return h


def _pending_actions(h: Harness, seat: str) -> list[dict]:
    room = h.room()
    subs = h.service.ports.store.submissions(room.code, room.game.step)
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
    monkeypatch.setattr(service, "MAX_MOVES_PER_STEP", 0)  # the next move is one too many
    before = h.room()
    h.send("Bo", action="ready")
    error = h.error("Bo")
    assert error["code"] == "too_many_moves"
    assert "Too many moves in this step" in error["message"]
    assert h.room() == before and _pending_actions(h, "Bo") == []


def test_the_bound_keeps_a_full_submission_far_below_the_item_limit():
    from functions.room_service.model import Submission

    move = {"t": 1_800_000_000.123, "action": {"type": "witch_spell", "player": "A" * 20,
                                               "spell": "frog", "target": "B" * 20}}  # fmt: skip
    full = Submission(player="A" * 20, step=999_999, actions=[move] * service.MAX_MOVES_PER_STEP)
    assert len(full.model_dump_json().encode()) < 16_000  # DynamoDB's limit: 400 KB
