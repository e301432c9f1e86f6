"""Burn the Witch played through the room service,
as phones play it (docs/protocol.md), with in-memory ports and a fake clock
(tests/support/service_harness.py): whole games whose every move a bot chooses from its own
view (engine/burn_the_witch/bots.py), a game where nobody moves and every timer runs out,
and phones that reconnect mid-game."""

import pytest

from functions.room_service.domain.room import AUTO_AWAY_SECONDS
from functions.room_service.service.replies import view_for
from tests.support.service_harness import Harness, result_of

GAME = "burn_the_witch"
TEN = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo"]
#: Every phase a game passes through when its bots play it (a trial and a hex need a devout
#: burned and a witch burned outside the coven: not every deal has them).
EVERY_GAME_PHASES = {"witching_hour", "accuse", "vote", "execute"}


def _started(names: list[str], **settings) -> Harness:
    h = Harness()
    h.table(names, game=GAME, settings=settings)
    h.send(names[0], action="start")
    assert h.error(names[0]) is None
    for name in names:
        view = h.view(name)
        assert view["game"] == GAME and view["phase"] == "witching_hour"
        assert view["me"]["name"] == name and view["room"] == h.code
    return h


def _phases(h: Harness, name: str) -> set[str]:
    return {m["view"]["phase"] for m in h.messages(name) if m["type"] == "view"}


def _every_identity_revealed(result: dict) -> None:
    villagers = {v["name"] for house in result["houses"]
                 for v in (*house["villagers"], *house["burned"])}  # fmt: skip
    assert set(result["outcome"]["identities"]) == villagers
    assert set(result["outcome"]["factions"]) == {p["name"] for p in result["players"]}


@pytest.mark.parametrize("count", [5, 10])
@pytest.mark.parametrize("seed", [1, 2])
def test_bots_play_whole_games_through_the_service_to_the_result_and_the_lobby(count, seed):
    names = TEN[:count]
    h = _started(names)
    moves: list[dict] = []
    result = h.play_with_bots(names, seed=seed, moves=moves)
    assert result["phase"] == "over" and result["game"] == GAME
    assert result["outcome"]["winner"] in ("zealots", "sympathizers")
    _every_identity_revealed(result)
    assert {"accuse", "vote", "execute"} <= {move["action"] for move in moves}
    assert _phases(h, names[-1]) >= EVERY_GAME_PHASES
    assert h.delivered_timers >= 1, "the witching hour ends by its timer"
    for name in names:  # back to the lobby at once, with the result for those who played
        lobby = h.view(name)
        assert lobby["phase"] == "lobby" and lobby["game"] == GAME
        assert lobby["last_result"] == result and lobby["start_problem"] is None
    assert h.room().state is None


def test_the_host_plays_again_after_a_game():
    names = TEN[:6]
    h = _started(names)
    first = h.play_with_bots(names, seed=3)
    h.send("Ann", action="start")  # "Play again": a new deal for the same seats
    assert h.error("Ann") is None
    again = h.view("Bo")
    assert again["phase"] == "witching_hour" and again["step"] > first["step"]
    assert h.view("Bo")["me"]["dealt"], "dealt again"
    second = h.play_with_bots(names, seed=4)
    assert second["step"] > again["step"] and second["outcome"]


def test_with_timers_on_a_game_nobody_plays_still_ends_by_its_timers():
    """§6 (timers on): a late accuser, late voters and a late executioner each lose a
    villager of their own, and choices whose time ran out are made for them, so houses
    empty and the game ends with no move from any phone."""
    names = TEN[:5]
    h = _started(names, timers=True, timer_seconds=30)
    fired = 0
    while h.view("Ann")["phase"] != "lobby":
        before = h.view("Ann")
        assert before["deadline"] is not None, f"{before['phase']} waits with no timer"
        assert h.advance_to_next_timer(), "a timer is scheduled for every step"
        fired += 1
        assert fired < 500, "the game did not end"
    result = h.view("Ann")["last_result"]
    assert result["phase"] == "over" and result["outcome"]["winner"]
    assert len(h.messages("Ann")) > 0 and all(not h.error(name) for name in names)
    timed_out = [event for event in result["history"] if event["kind"] == "timed_out"]
    assert timed_out and {event["step"] for event in timed_out} >= {"accuse"}
    assert {"witching_hour", "accuse"} <= _phases(h, "Bo")


def test_a_phone_that_reconnects_in_every_phase_gets_the_same_seat_and_view():
    names = TEN[:7]
    h = _started(names)
    reconnected_in: set[str] = set()
    for attempt in range(60):
        view = h.view("Cy")
        if view["phase"] == "lobby" or result_of(view):
            break
        if view["phase"] not in reconnected_in:
            reconnected_in.add(view["phase"])
            h.service.disconnect("Cy")  # the phone sleeps; the seat and its hand stay
            assert h.view("Ann")["connected"]["Cy"] is False
            phone = f"cy-{attempt}"
            h.resume(phone, h.code.lower(), h.tokens["Cy"])
            h.send(phone, action="ping")
            fresh = h.view(phone)
            assert fresh["me"]["name"] == "Cy" and fresh["me"]["dealt"] == view["me"]["dealt"]
            assert fresh == view_for(h.room(), "Cy")
            assert {**fresh, "connected": view["connected"]} == view, "the same screen"
            h.resume("Cy", h.code, h.tokens["Cy"])  # the harness plays "Cy"
            h.send("Cy", action="ping")
            assert h.view("Cy") == view_for(h.room(), "Cy")
        phase = view["phase"]
        h.play_with_bots(names, seed=attempt, until=lambda v, p=phase: v["phase"] != p)
    assert reconnected_in >= EVERY_GAME_PHASES


def test_a_phone_gone_a_minute_is_marked_away_and_the_game_plays_on_without_it():
    """§6 Away (the room's ``auto_away``): the game makes an Away player's choices at once."""
    names = TEN[:6]
    h = _started(names)
    h.service.disconnect("Cy")
    h.deliver_due_timers()  # none due yet: each timer's due time is set from now
    h.clock.now += AUTO_AWAY_SECONDS + 1  # the witching hour's timer and Cy's away check
    assert h.deliver_due_timers() == 2
    assert {p["name"]: p["away"] for p in h.view("Ann")["players"]}["Cy"] is True
    the_rest = [name for name in names if name != "Cy"]
    result = h.play_with_bots(the_rest, seed=5)
    assert result["outcome"]["winner"] and h.view("Ann")["phase"] == "lobby"


def test_the_host_leaves_mid_game_host_powers_pass_and_the_game_ends():
    names = TEN[:5]
    h = _started(names)
    h.play_with_bots(names, seed=6, until=lambda view: view["phase"] == "vote")
    h.send("Ann", action="leave")
    assert h.error("Ann") is None
    view = h.view("Bo")
    assert view["host"] == "Bo" and {p["name"]: p["away"] for p in view["players"]}["Ann"]
    result = h.play_with_bots(names[1:], seed=6)
    assert result["outcome"]["winner"]
    lobby = h.view("Bo")
    assert lobby["host"] == "Bo" and [s["name"] for s in lobby["seats"]] == names[1:]


def test_a_lost_timer_is_made_up_by_the_next_message_after_the_deadline():
    """The backstop (§9, ARCHITECTURE): a deadline whose timer never came is resolved by
    the next message, here a phone's ping."""
    names = TEN[:5]
    h = _started(names)
    witching = h.view("Ann")
    h.timers.scheduled.clear()  # the queue lost the witching hour's timer
    h.clock.now = witching["deadline"] + 1
    h.send("Bo", action="ping", rev=None)
    assert h.view("Ann")["phase"] == "accuse" and h.view("Ann")["step"] > witching["step"]
    assert h.metrics.counts.get("DeadlinesByBackstop") == 1
