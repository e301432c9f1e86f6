"""The room service hosts any registered game: the coin game (tests/support/coin_game.py),
which the service has never heard of, played from the lobby to the result over the wire
protocol only (docs/protocol.md), with in-memory ports and a fake clock; and every game's
views, the coin game's and the shipped ones', share one envelope (engine/game.py)."""

import ast
import json
from pathlib import Path

import pytest

from engine.game import ENVELOPE_KEYS
from engine.games import GAMES, register
from tests.support import coin_game, service_harness
from tests.support.coin_game import CoinGame
from tests.support.service_harness import GAME_ACTIONS, Harness

DEFAULTS = {"rounds": 1, "call_seconds": 30}


@pytest.fixture
def coin():
    register(CoinGame())
    yield GAMES["coin"]
    GAMES.pop("coin", None)


def coin_room(names: list[str]) -> Harness:
    """The first name creates a coin room (connection = name), the others join it."""
    h = Harness()
    h.send(names[0], action="create_room", name=names[0], game="coin")
    joined = h.pusher.last(names[0], "joined")
    assert joined, h.error(names[0])
    h.code = joined["room"]
    h.tokens[names[0]] = joined["token"]
    for name in names[1:]:
        h.send(name, action="join", room=h.code.lower(), name=name)
        joined = h.pusher.last(name, "joined")
        assert joined, h.error(name)
        h.tokens[name] = joined["token"]
    return h


def send_ok(h: Harness, phone: str, action: str, **fields) -> None:
    """A message that must be taken (no error back); a move names its view's step."""
    before = len(h.messages(phone))
    if action in CoinGame.move_types:
        fields["step"] = h.view(phone)["step"]
    h.send(phone, action=action, **fields)
    errors = [m for m in h.messages(phone)[before:] if m["type"] == "error"]
    assert not errors, (phone, action, fields, errors)
    h.clock.now += 0.5


def views_since(h: Harness, name: str, index: int) -> list[dict]:
    return [m["view"] for m in h.messages(name)[index:] if m["type"] == "view"]


def test_the_lobby_shows_the_coin_games_settings_and_start_problem(coin):
    h = coin_room(["Ann"])
    lobby = h.view("Ann")
    assert lobby["phase"] == "lobby" and lobby["room"] == h.code and lobby["you"] == "Ann"
    assert lobby["settings"] == DEFAULTS
    assert lobby["game"] == "coin"
    assert lobby["start_problem"] == {
        "code": "player_count",
        "params": {"min": 2, "max": 4, "n": 1},
    }, "a code and params the phone words, never English"
    send_ok(h, "Bo", "join", room=h.code, name="Bo")
    assert h.view("Ann")["start_problem"] is None
    send_ok(h, "Ann", "settings", settings={"rounds": 3, "call_seconds": 10})
    assert h.view("Bo")["settings"] == {"rounds": 3, "call_seconds": 10}
    for wrong in ({"rounds": 0}, {"discussion_limit": 60}):  # the coin game's settings only
        h.send("Ann", action="settings", settings=wrong)
        assert h.error("Ann")["code"] in ("field_invalid", "field_extra"), wrong
        assert h.view("Bo")["settings"] == {"rounds": 3, "call_seconds": 10}


def test_a_coin_game_from_the_lobby_to_the_result_and_a_rematch(coin):
    names = ["Ann", "Bo", "Cy"]
    h = coin_room(names)
    send_ok(h, "Ann", "settings", settings={"rounds": 2, "call_seconds": 10})
    marks = {name: len(h.messages(name)) for name in names}
    send_ok(h, "Ann", "start")
    for name in names:
        view = h.view(name)
        assert (view["game"], view["phase"], view["you"]) == ("coin", "call", name)
        assert view["room"] == h.code and view["my_call"] is None and view["round"] == 1
    first_step = h.view("Ann")["step"]
    deadline = [t for t, _ in h.timers.scheduled if t.get("kind") == "deadline"]
    assert [t["step"] for t in deadline] == [first_step]

    # Round 1: Ann and Bo call; each phone sees its own call only. Cy never calls.
    send_ok(h, "Ann", "call", side="heads")
    send_ok(h, "Bo", "call", side="tails")
    assert h.view("Ann")["my_call"] == "heads" and h.view("Bo")["my_call"] == "tails"
    assert h.view("Cy")["waiting_for"] == ["Cy"]
    seen = {name: views_since(h, name, marks[name]) for name in names}
    assert "heads" not in json.dumps(seen["Bo"]) and "tails" not in json.dumps(seen["Ann"])
    assert "heads" not in json.dumps(seen["Cy"]) and "tails" not in json.dumps(seen["Cy"])
    assert all(view["calls"] is None for views in seen.values() for view in views)

    # Cy's time runs out: the timer calls for Cy and the coin is flipped.
    assert h.advance_to_next_timer()
    result = h.view("Cy")
    assert result["phase"] == "result" and result["step"] > first_step
    assert result["calls"]["Ann"] == "heads" and result["calls"]["Bo"] == "tails"
    assert result["calls"]["Cy"] in ("heads", "tails") and result["coin"] in ("heads", "tails")
    scores = {p["name"]: p["score"] for p in result["players"]}
    assert scores == {n: int(side == result["coin"]) for n, side in result["calls"].items()}
    assert all(h.view(name)["calls"] == result["calls"] for name in names)
    for name in names:
        send_ok(h, name, "ok")

    # Round 2: Cy leaves mid-game and is no longer waited for.
    assert h.view("Ann")["phase"] == "call" and h.view("Ann")["round"] == 2
    send_ok(h, "Cy", "leave")
    assert [p["left"] for p in h.view("Ann")["players"]] == [False, False, True]
    assert h.view("Ann")["waiting_for"] == ["Ann", "Bo"]
    send_ok(h, "Ann", "call", side="tails")
    send_ok(h, "Bo", "call", side="tails")
    assert h.view("Bo")["phase"] == "result" and h.view("Bo")["waiting_for"] == ["Ann", "Bo"]
    send_ok(h, "Ann", "ok")
    send_ok(h, "Bo", "ok")

    # The game is over: the room is back in the lobby, keeping the result for
    # the seats that played it; Cy, who left, has no seat any more.
    lobby = h.view("Ann")
    assert lobby["phase"] == "lobby" and [s["name"] for s in lobby["seats"]] == ["Ann", "Bo"]
    over = lobby["last_result"]
    assert over["phase"] == "game_over" and over["outcome"]["winners"]
    best = max(p["score"] for p in over["players"])
    assert over["outcome"]["winners"] == [p["name"] for p in over["players"] if p["score"] == best]
    assert h.view("Bo")["last_result"] == over
    assert h.metrics.counts["GamesFinished"] == 1
    for name in names:  # every view a phone got was its own
        assert all(v["you"] == name for v in views_since(h, name, 0)), name

    send_ok(h, "Ann", "rematch")
    again = h.view("Bo")
    assert again["phase"] == "call" and again["step"] > over["step"] and again["round"] == 1
    assert [p["score"] for p in again["players"]] == [0, 0]


def test_coin_moves_the_rules_forbid_or_cannot_read_are_refused_and_change_nothing(coin):
    h = coin_room(["Ann", "Bo"])
    send_ok(h, "Ann", "start")
    step = h.view("Bo")["step"]
    cases = [
        ({"action": "ok", "step": step}, "illegal_action"),  # the coin game names no code
        ({"action": "call", "step": step, "side": "edge"}, "field_invalid"),
        ({"action": "call", "step": step}, "field_missing"),
        ({"action": "call", "step": step - 1, "side": "heads"}, "stale_move"),
        ({"action": "vote", "step": step, "target": None}, "unknown_action"),  # not coin's
    ]
    for message, code in cases:
        before = h.room()
        h.send("Bo", **message)
        assert h.error("Bo")["code"] == code, (message, h.error("Bo"))
        assert h.room() == before


def test_the_coin_game_needs_nothing_of_the_service_or_of_catch_the_witch():
    tree = ast.parse(Path(coin_game.__file__).read_text())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {
        a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names
    }
    assert not {m for m in modules if m.startswith(("functions", "engine.catch_the_witch"))}
    assert "engine.game" in modules


#: Every game the service hosts: the shipped ones and the coin game (the fixture's).
EVERY_GAME = sorted({*GAMES, CoinGame.key})
NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"]


@pytest.mark.parametrize("key", EVERY_GAME)
def test_every_view_of_every_game_has_the_common_envelope(coin, key, monkeypatch):
    # The harness frames a shipped game's moves with their step as a phone does; coin's too.
    monkeypatch.setattr(service_harness, "GAME_ACTIONS", (*GAME_ACTIONS, *CoinGame.move_types))
    game = GAMES[key]
    names = NAMES[: game.min_players]
    h = Harness()
    h.table(names, game=key)
    h.watch("table screen")
    send_ok(h, names[0], "start")
    result = h.play_with_bots(names, seed=3)
    for connection in [*names, "table screen"]:
        seen = [view for view in views_since(h, connection, 0) if view["phase"] != "lobby"]
        assert seen, connection
        you = None if connection == "table screen" else connection
        for view in seen:
            assert set(ENVELOPE_KEYS) <= view.keys(), (key, ENVELOPE_KEYS - view.keys())
            assert (view["game"], view["you"]) == (key, you)
            assert view["over"] is (view["outcome"] is not None)
        assert not any(view["over"] for view in seen[:-1]), "over is the last step"
    # The end, as the lobby keeps it: the table's view, with the game's own record.
    assert result["over"] is True and result["outcome"] and result["you"] is None
    assert game.view_is_over(result)
