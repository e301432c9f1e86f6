"""Moves belong to a step, and nothing a phone gets back
tells it of moves or steps it cannot see.

Found by a chaos soak of the local stack: moves carried no step, so a late or replayed
frame still legal now was taken as a new move (an approval-result "ok" counted for the
next ritual result, a day-1 card played in the day-2 ritual, a day-2 vote recorded as the
day-6 vote). And the pong's ``seq`` counted every seat's pending moves and ticked when
the Knight's guard step began, with nothing changed in the other cats' views.
"""

import copy
import random
from unittest import mock

from engine.catch_the_witch import Role, bots, seat_step
from engine.catch_the_witch.game import CatchTheWitch
from engine.rng import Rng
from functions.room_service.service import game_handlers
from functions.room_service.service.replies import same_but_progress
from tests.support.service_harness import Harness, result_of

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]
#: The fields of a Catch the Witch view a move may change without a push (fewer frames).
WAITING = CatchTheWitch.progress_fields


def _snapshot(h: Harness) -> tuple:
    return copy.deepcopy((h.store._rooms, h.store._subs, h.timers.scheduled))


def _game(seed: int) -> tuple[Harness, random.Random]:
    """A started game whose deal and bots follow ``seed`` (the room deals with a random
    seed of its own: pinned here, so each run plays the same games)."""
    h = Harness()
    h.table(NAMES)
    with mock.patch.object(game_handlers, "new_game_key", lambda: seed):
        h.send("Ann", action="start")
    return h, random.Random(seed)


#: The pause before a replayed frame: a person's pace, under the rate limits.
REPLAY_PAUSE = 0.2
#: The pause after a seat's two pings: every seat pings twice around every move, which at
#: the moves' own 0.3 s would be faster than any phone and over a connection's pace
#: (4 a second, adapters/ratelimit.py).
PING_PAUSE = 0.1


def _replay(h: Harness, name: str, frame: dict) -> None:
    """Send ``frame`` again at a person's pace (under the rate limits: each frame is judged
    on its step, not refused as a flood)."""
    h.clock.now += REPLAY_PAUSE
    h.send(name, **frame)


def _move(h: Harness, rng: random.Random, guard: bool, sent: list) -> bool:
    """One bot move by some seat (the Knight guards whenever he may, if ``guard``), sent
    with the step of the seat's view; False if nobody could act, or the game is over (its
    room back in the lobby)."""
    if h.room().state is None:
        return False
    for name in rng.sample(NAMES, len(NAMES)):
        view = h.view(name)
        action = bots.decide(view, Rng(rng.getrandbits(32)))
        me = view.get("me") or {}
        knight_to_choose = me.get("role") == "knight" and not me.get("guarding")
        if guard and view["phase"] == "place_choice" and view["your_turn"] and knight_to_choose:
            action = {"type": "choose_guard"}
        if action is None:
            continue
        frame = {"action": action.pop("type"), **action, "step": view["step"]}
        h.send(name, **frame)
        sent.append((name, frame, view["phase"], view["day"]))
        h.clock.now += 0.3
        return h.room().state is not None
    return h.advance_to_next_timer() and h.room().state is not None


def _past_deadline(h: Harness, ahead: float = 0.0) -> bool:
    """A stale timer moved the clock past the step's deadline, into the margin before the
    step's own timer (the witches' 15 s end only by theirs): any message now also resolves
    the step, for everyone alike, so a frame's answer is more than its own. Let the timer
    do it, as in a live room."""
    state = h.room().state  # None: the game is over, the room is a lobby again
    return state is not None and state.deadline is not None and h.clock.now + ahead > state.deadline


def test_every_move_replayed_on_a_later_step_is_refused_and_changes_nothing():
    """§3 (every step): each move made so far, sent again by its seat on every later step,
    is refused with stale_move and changes nothing; the game then goes on unharmed."""
    replays = refused = 0
    for seed in range(3):
        h, rng = _game(seed)
        sent: list = []
        while _move(h, rng, guard=seed == 1, sent=sent):
            if len(sent) % 7 or _past_deadline(h):
                continue
            game = h.room().state
            for name, frame, _, _ in rng.sample(sent, min(6, len(sent))):
                if _past_deadline(h, ahead=REPLAY_PAUSE):
                    break  # each replay moves the clock: this one would cross the deadline
                if frame["step"] == seat_step(game, name):
                    continue  # its own step: not a replay
                before, count = _snapshot(h), len(h.messages(name))
                _replay(h, name, frame)
                replies = h.messages(name)[count:]
                assert [r.get("code") for r in replies] == ["stale_move"], (frame, replies)
                assert replies[0]["message"] == "That step is over: your move was not used."
                assert _snapshot(h) == before, frame
                replays, refused = replays + 1, refused + 1
        assert result_of(h.view("Ann")), "the game reached its result"
    assert replays == refused and replays > 100


def test_the_soak_s_stale_moves_are_refused():
    """The three the soak found: an approval-result "ok" sent again at the ritual result,
    a ritual card sent again in the next day's ritual, and a vote sent again at a later
    vote. Each is refused; the later step waits for the seat's own move as before."""
    found = set()
    for seed in range(12):
        h, rng = _game(seed)
        sent: list = []
        while _move(h, rng, guard=False, sent=sent):
            view_phase = h.room().state.phase.value
            game = h.room().state
            for name, frame, phase, _ in sent:
                pairs = {
                    ("approval_result", "ritual_result", "ok"),
                    ("ritual", "ritual", "play_card"),
                    ("vote", "vote", "vote"),
                }
                kind = (phase, view_phase, frame["action"])
                if kind not in pairs or frame["step"] == seat_step(game, name):
                    continue
                before = _snapshot(h)
                _replay(h, name, frame)
                assert h.error(name)["code"] == "stale_move", (kind, frame)
                assert _snapshot(h) == before
                found.add(kind)
        if len(found) == 3:
            break
    assert len(found) == 3, found


def test_a_move_sent_twice_on_its_step_is_taken_once():
    """The client sends a move again when its first send seemed to fail: if it had landed,
    the repeat is taken as the same move (no error, nothing changes)."""
    h, _ = _game(0)
    h.send("Bo", action="ready")
    before, count = _snapshot(h), len(h.messages("Bo"))
    h.send("Bo", action="ready")  # the same frame again, same step
    # Its view again (the answer to the first send may be what was lost), and no error.
    assert [m["type"] for m in h.messages("Bo")[count:]] == ["view"]
    assert _snapshot(h) == before
    assert h.metrics.counts["RepeatedMoves"] == 1
    # A changed choice is a new move, not a repeat.
    for name in NAMES:
        h.send(name, action="ready")
    h.advance_to_next_timer()  # the morning (§3.2)
    cat = next(c.name for c in h.room().state.players if not c.role.is_witch)
    view = h.view(cat)
    assert view["phase"] == "place_choice"
    place = view["open_places"][0]
    h.send(cat, action="choose_place", place=place)
    before = _snapshot(h)
    h.send(cat, action="choose_place", place=place)
    assert h.error(cat) is None and _snapshot(h) == before
    h.send(cat, action="choose_place", place=view["open_places"][1])
    assert h.error(cat) is None and _snapshot(h) != before


def test_a_move_without_a_step_or_for_a_step_not_yet_come_is_refused():
    h, _ = _game(0)
    step = h.view("Bo")["step"]
    before = _snapshot(h)
    h.service.message("Bo", '{"action": "ready"}')
    assert h.error("Bo")["code"] == "field_missing" and h.error("Bo")["params"] == {"field": "step"}
    for wrong in (step + 1, step - 1, -1, 10**9):
        h.send("Bo", action="ready", step=wrong)
        assert h.error("Bo")["code"] == "stale_move"
    h.service.message("Bo", '{"action": "ready", "step": true}')
    assert h.error("Bo")["code"] == "field_missing"
    assert _snapshot(h) == before


def test_a_rematch_numbers_its_steps_after_the_last_game_s():
    """§10: a move of the last game never names a step of the rematch."""
    h, rng = _game(2)
    sent: list = []
    while _move(h, rng, guard=False, sent=sent):
        pass
    last = max(frame["step"] for _, frame, _, _ in sent)
    h.send("Ann", action="rematch")
    assert h.view("Ann")["step"] > last
    before = _snapshot(h)
    for name, frame, phase, _ in sent:
        if phase == "role_check":
            _replay(h, name, frame)
            assert h.error(name)["code"] == "stale_move"
    assert _snapshot(h) == before


def test_pongs_and_step_numbers_tell_nothing_a_seat_cannot_see():
    """§6.3 / §2.3: at every step, every seat pinging with the view it shows gets exactly a
    bare pong (whoever it is: witch, Knight, villager), and when the Knight's guard step
    begins every seat is sent one frame, as long as the Knight's (who gets a frame
    must not point at the Knight), and nobody else's view or step changes."""
    guard_steps = 0
    # Two whole games of seven cats: every step, and six Knight's guard steps (seeds 0 and 1
    # deal three each). Four games took 120 s of a loaded CI worker for no step more.
    for seed in range(2):
        h, rng = _game(seed)
        sent: list = []
        while h.room().state is not None:  # None: over, the room a lobby again
            if _past_deadline(h):
                h.advance_to_next_timer()
                continue
            roles = {c.name: c.role for c in h.room().state.players}
            for name in NAMES:
                count, shown = len(h.messages(name)), h.pusher.last(name)
                h.send(name, action="ping", rev=shown["rev"])
                answer = [m for m in h.messages(name)[count:] if m["type"] == "view"]
                # Only the names waited for may have changed unsent (fewer frames), and a view
                # that brings them is this seat's own.
                assert all(same_but_progress(m["view"], shown["view"], WAITING) for m in answer), (
                    name
                )
                h.send(name, action="ping", rev=h.pusher.last(name)["rev"])
                assert h.messages(name)[-1:] == [{"type": "pong"}], (name, roles[name])
                h.clock.now += PING_PAUSE
            knight = next((n for n, r in roles.items() if r is Role.KNIGHT), None)
            others = [n for n in NAMES if n != knight]
            counts = {n: len(h.messages(n)) for n in others}
            steps = {n: h.view(n)["step"] for n in others}
            views = {n: h.view(n) for n in others}
            pushes = len(h.pusher.pushes)
            phase_before = h.room().state.phase.value
            if not _move(h, rng, guard=True, sent=sent):
                break
            if phase_before != "guard" and h.room().state.phase.value == "guard":
                guard_steps += 1
                bystanders = [n for n in others if n != sent[-1][0]]
                assert all(len(h.messages(n)) == counts[n] + 1 for n in bystanders)
                assert all(h.view(n) == views[n] for n in bystanders)
                assert {n: h.view(n)["step"] for n in others} == steps
                frames = [f for push in h.pusher.pushes[pushes:] for f in push]
                assert {c for c, _ in frames} == set(NAMES)
                assert len({length for _, length in frames}) == 1
    assert guard_steps >= 3


def test_a_refusal_reads_the_same_on_every_path():
    """Deliverable 11: a refusal used to carry "(RULES §…)" only when the same request also
    resolved a passed deadline. Now: the same text, with or without one."""
    h, _ = _game(0)
    for name in NAMES:
        h.send(name, action="ready")
    h.advance_to_next_timer()  # the morning (§3.2)
    assert h.view("Bo")["phase"] == "place_choice" and h.room().state.deadline
    h.send("Bo", action="vote", target=None)  # a rules refusal, on its own
    alone = h.error("Bo")
    assert alone["code"] == "not_now" and "RULES" not in alone["message"]
    step = h.view("Bo")["step"]
    h.send("Bo", action="vote", target=None, step=step - 1)
    stale_alone = h.error("Bo")
    h.clock.now = h.room().state.deadline + 1  # the next message also resolves the deadline
    h.send("Bo", action="vote", target=None, step=step)
    with_deadline = h.error("Bo")
    assert with_deadline == stale_alone  # its step ended with the deadline: stale, same text
    assert h.room().state.phase.value != "place_choice"
    h.send("Bo", action="vote", target=None)  # on the new step: the rules' own refusal
    assert "RULES" not in h.error("Bo")["message"]
