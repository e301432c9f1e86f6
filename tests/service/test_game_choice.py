"""The host chooses the room's game in the lobby with
the ``settings`` action's optional ``game`` field (docs/protocol.md, Client → server).

Everything goes through the wire protocol with in-memory ports and a fake clock
(tests/support/service_harness.py)."""

import copy

import pytest

from engine.burn_the_witch import tables
from tests.support.service_harness import Harness

FOUR = ["Ann", "Bo", "Cy", "Di"]
FIVE = [*FOUR, "Eve"]
BTW_DEFAULTS = {"timers": False, "timer_seconds": tables.TIMER_SECONDS_DEFAULT,
                "first_accuser": None}  # fmt: skip


def _setup_of(player_count: int) -> dict:
    """The lobby's setup facts: the row the game's one table deals for this many (§2)."""
    row = tables.setup_row(player_count)
    return {"per_house": row.per_house, "innocents": row.innocents, "devout": row.devout,
            "witches": row.witches, "wrongly_condemned": row.wrongly_condemned}  # fmt: skip


def _lobby(names=FOUR) -> Harness:
    h = Harness()
    h.table(names)
    assert h.view(names[0])["game"] == "catch_the_witch"
    return h


def _ok(h: Harness, connection: str, **message) -> None:
    before = len(h.messages(connection))
    h.send(connection, **message)
    errors = [m for m in h.messages(connection)[before:] if m["type"] == "error"]
    assert not errors, (message, errors)
    h.clock.now += 1


def _refused(h: Harness, connection: str, **message) -> dict:
    """The error frame ``message`` gets; the stored room is left exactly as it was."""
    before_room = copy.deepcopy(h.store._rooms)
    before = len(h.messages(connection))
    h.clock.now += 1
    h.send(connection, **message)
    replies = h.messages(connection)[before:]
    assert [reply["type"] for reply in replies] == ["error"], (message, replies)
    assert h.store._rooms == before_room, "a refused choice changes nothing"
    return replies[0]


def test_the_host_switches_the_room_to_burn_the_witch_with_its_defaults():
    h = _lobby()
    _ok(h, "Ann", action="settings", game="burn_the_witch")
    for name in FOUR:
        lobby = h.view(name)
        assert lobby["phase"] == "lobby" and lobby["game"] == "burn_the_witch"
        assert lobby["settings"] == BTW_DEFAULTS, "absent settings: the new game's defaults"
        assert lobby["start_problem"] == {
            "code": "btw_player_count", "params": {"min": 5, "max": 10, "n": 4},
        }, "Burn the Witch's own start problem: 5 to 10 players"  # fmt: skip
        assert lobby["setup"] is None and "default_roles" not in lobby, "its lobby facts"
    assert _refused(h, "Ann", action="start")["code"] == "btw_player_count"
    _ok(h, "Eve", action="join", room=h.code, name="Eve")
    lobby = h.view("Eve")
    assert lobby["start_problem"] is None and lobby["setup"] == _setup_of(5)


def test_empty_settings_with_a_game_are_its_defaults():
    h = _lobby()
    _ok(h, "Ann", action="settings", game="burn_the_witch", settings={})
    assert h.view("Bo")["settings"] == BTW_DEFAULTS


def test_the_settings_sent_with_the_game_are_read_by_that_game():
    h = _lobby(FIVE)
    chosen = {"timers": True, "timer_seconds": 90, "first_accuser": "Cy"}
    _ok(h, "Ann", action="settings", game="burn_the_witch", settings=chosen)
    assert h.view("Di")["settings"] == chosen
    _ok(h, "Ann", action="start")
    state = h.room().state
    assert state.settings.timers and state.settings.timer_seconds == 90
    assert h.view("Ann")["game"] == "burn_the_witch"


def test_the_old_games_settings_are_refused_by_the_new_game_and_nothing_changes():
    h = _lobby()
    refusal = _refused(h, "Ann", action="settings", game="burn_the_witch",
                       settings={"discussion_limit": 60})  # fmt: skip
    assert (refusal["code"], refusal["params"]) == ("field_extra", {"field": "discussion_limit"})
    refusal = _refused(h, "Ann", action="settings", game="burn_the_witch",
                       settings={"timer_seconds": 5})  # fmt: skip
    assert (refusal["code"], refusal["params"]) == ("field_invalid", {"field": "timer_seconds"})
    assert h.view("Bo")["game"] == "catch_the_witch"
    assert h.view("Bo")["settings"]["discussion_limit"] == 60


def test_later_settings_without_a_game_are_read_by_the_chosen_game():
    h = _lobby()
    _ok(h, "Ann", action="settings", game="burn_the_witch")
    _ok(h, "Ann", action="settings", settings={"timers": True})
    assert h.view("Bo")["settings"] == {**BTW_DEFAULTS, "timers": True}
    refusal = _refused(h, "Ann", action="settings", settings={"discussion_limit": 90})
    assert refusal["code"] == "field_extra"


def test_back_to_catch_the_witch():
    h = _lobby()
    _ok(h, "Ann", action="settings", game="burn_the_witch", settings={"timers": True})
    _ok(h, "Ann", action="settings", game="catch_the_witch",
        settings={"discussion_limit": 120})  # fmt: skip
    lobby = h.view("Cy")
    assert lobby["game"] == "catch_the_witch" and lobby["settings"]["discussion_limit"] == 120
    assert lobby["start_problem"] is None and lobby["default_roles"]


def test_settings_without_a_game_still_need_their_settings():
    h = _lobby()
    refusal = _refused(h, "Ann", action="settings")
    assert (refusal["code"], refusal["params"]) == ("field_missing", {"field": "settings"})


def test_an_unknown_game_is_refused_as_create_room_refuses_it():
    h = _lobby()
    refusal = _refused(h, "Ann", action="settings", game="chess", settings={})
    created = Harness()
    created.send("Zed", action="create_room", name="Zed", game="chess")
    at_create = created.error("Zed")
    assert (refusal["code"], refusal["params"]) == ("field_invalid", {"field": "game"})
    assert (at_create["code"], at_create["params"]) == (refusal["code"], refusal["params"])
    assert _refused(h, "Ann", action="settings", game=7)["code"] == "field_invalid"
    assert h.view("Bo")["game"] == "catch_the_witch"


@pytest.mark.parametrize("who", ["Bo", "Cy"])
def test_only_the_host_chooses_the_game(who):
    h = _lobby()
    assert _refused(h, who, action="settings", game="burn_the_witch")["code"] == "host_only"
    assert h.view(who)["game"] == "catch_the_witch"


def test_no_game_is_chosen_while_one_is_under_way():
    h = _lobby()
    _ok(h, "Ann", action="start")
    refusal = _refused(h, "Ann", action="settings", game="burn_the_witch")
    assert refusal["code"] == "lobby_only"
    assert h.room().game == "catch_the_witch" and h.view("Bo")["phase"] == "role_check"


def test_choosing_another_game_forgets_the_last_result():
    h = _lobby()
    _ok(h, "Ann", action="start")
    h.play_with_bots(FOUR, seed=4)
    assert h.view("Bo")["last_result"]["phase"] == "game_over"
    _ok(h, "Ann", action="settings", game="catch_the_witch", settings={"discussion_limit": 90})
    assert h.view("Bo")["last_result"] is not None, "the same game: its last result stays"
    _ok(h, "Ann", action="settings", game="burn_the_witch")
    for name in FOUR:
        assert h.view(name)["last_result"] is None, "that result was another game's"
    assert h.room().last_result is None


def test_play_again_and_back_to_the_lobby_keep_the_chosen_game():
    h = _lobby(FIVE)
    chosen = {"timers": False, "timer_seconds": 60, "first_accuser": None}
    _ok(h, "Ann", action="settings", game="burn_the_witch", settings=chosen)
    _ok(h, "Ann", action="start")
    first = h.play_with_bots(FIVE, seed=2)
    assert first["game"] == "burn_the_witch" and first["outcome"]
    lobby = h.view("Cy")
    assert lobby["phase"] == "lobby" and lobby["game"] == "burn_the_witch"
    assert lobby["settings"] == chosen and lobby["last_result"] == first
    _ok(h, "Ann", action="rematch")  # "Play again"
    view = h.view("Cy")
    assert view["game"] == "burn_the_witch" and view["phase"] == "witching_hour"
    assert h.room().state.settings.timer_seconds == 60
    assert view["step"] > first["step"], "the new game's steps follow the last one's"
