"""The coin game (tests/support/coin_game.py) through the ``Game`` interface only, and the
promises every registered game keeps (engine/game.py): what the room service relies on."""

import json

import pytest

from engine.errors import IllegalAction, InvalidAction
from engine.game import ENVELOPE_KEYS
from engine.games import GAMES
from engine.rng import Rng
from tests.support.coin_game import RESULT_SECONDS, CoinGame

COIN = CoinGame()
T0 = 1_000.0


def begin(names=("Ann", "Bo", "Cy"), seed=1, **settings):
    state = COIN.new_game(list(names), COIN.parse_settings(settings), seed=seed, host=names[0])
    return COIN.start(state, T0)


def move(state, player, type="call", now=T0 + 1, **fields):
    """A phone's move as the room plays it: parsed, then applied with its player set."""
    action = COIN.parse_move({"type": type, **fields}).model_copy(update={"player": player})
    return COIN.apply(state, action, now)


def kinds(effects):
    return [effect.type for effect in effects]


def test_a_whole_game_of_two_rounds():
    state, effects = begin(rounds=2, call_seconds=10)
    assert kinds(effects) == ["start_timer"] and effects[0].deadline == T0 + 10
    assert COIN.deadline(state) == T0 + 10 and COIN.step(state) == 1
    scores = dict.fromkeys(["Ann", "Bo", "Cy"], 0)
    for round_ in (1, 2):
        state, effects = move(state, "Ann", side="heads")
        state, effects = move(state, "Bo", side="tails")
        assert effects == [] and COIN.views(state)["Ann"]["waiting_for"] == ["Cy"]
        state, effects = move(state, "Cy", side="heads")
        assert kinds(effects) == ["step_changed", "start_timer"]
        view = COIN.views(state)["Bo"]
        assert view["phase"] == "result" and view["round"] == round_
        assert view["calls"] == {"Ann": "heads", "Bo": "tails", "Cy": "heads"}
        for name, side in view["calls"].items():
            scores[name] += side == view["coin"]
        assert {p["name"]: p["score"] for p in view["players"]} == scores
        for name in ("Ann", "Bo"):
            state, effects = move(state, name, type="ok")
        assert effects == []
        state, effects = move(state, "Cy", type="ok")
    assert kinds(effects) == ["step_changed", "game_over"] and COIN.is_over(state)
    best = max(scores.values())
    assert effects[1].outcome == {"winners": [n for n, s in scores.items() if s == best]}
    assert COIN.table_view(state)["outcome"] == effects[1].outcome
    assert COIN.step(state) == 5 and COIN.deadline(state) is None


def test_a_timeout_calls_for_whoever_has_not_called_from_the_seeded_rng():
    state, _ = begin(names=("Ann", "Bo"), seed=9)
    state, _ = move(state, "Ann", side="heads")
    with pytest.raises(IllegalAction, match="not run out yet"):
        COIN.time_out(state, T0 + 29)
    after, effects = COIN.time_out(state, T0 + 30)
    again, _ = COIN.time_out(state, T0 + 30)
    assert after == again  # deterministic: the RNG is in the state
    assert after.calls["Ann"] == "heads" and after.calls["Bo"] in ("heads", "tails")
    assert kinds(effects) == ["step_changed", "start_timer"]
    assert effects[1].deadline == T0 + 30 + RESULT_SECONDS
    over, effects = COIN.time_out(after, T0 + 30 + RESULT_SECONDS)  # nobody said ok
    assert COIN.is_over(over) and kinds(effects) == ["step_changed", "game_over"]


def test_a_player_who_leaves_is_called_for_and_not_waited_for():
    state, _ = begin()
    state, _ = move(state, "Ann", side="tails")
    state, effects = COIN.leave(state, "Cy", T0 + 2)
    assert effects == [] and COIN.views(state)["Ann"]["waiting_for"] == ["Bo"]
    with pytest.raises(IllegalAction, match="left"):
        move(state, "Cy", side="heads")
    state, effects = move(state, "Bo", side="heads")
    assert COIN.views(state)["Bo"]["phase"] == "result" and "Cy" in state.calls
    assert COIN.views(state)["Bo"]["waiting_for"] == ["Ann", "Bo"]
    state, _ = move(state, "Ann", type="ok")
    state, effects = COIN.leave(state, "Bo", T0 + 3)  # the last one waited for leaves
    assert COIN.is_over(state) and "game_over" in kinds(effects)
    assert COIN.leave(state, "Ann", T0 + 4) == (state, [])  # a no-op once over


def test_a_call_is_secret_until_the_result_and_the_latest_call_counts():
    state, _ = begin(names=("Ann", "Bo"))
    state, _ = move(state, "Ann", side="heads")
    state, _ = move(state, "Ann", side="tails")  # changed: replaces the first
    assert "call" in COIN.replacing_moves
    views = COIN.views(state)
    assert views["Ann"]["my_call"] == "tails"
    for seen in (views["Bo"], COIN.table_view(state)):
        assert "tails" not in json.dumps(seen) and "heads" not in json.dumps(seen)
    state, _ = move(state, "Bo", side="heads")
    for seen in (*COIN.views(state).values(), COIN.table_view(state)):
        assert seen["calls"] == {"Ann": "tails", "Bo": "heads"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "flip"}, "Unknown move 'flip'"),
        ({"type": "timeout"}, "Unknown move 'timeout'"),
        ({"type": "call"}, "'call' needs the field 'side'"),
        ({"type": "call", "side": "edge"}, "'heads' or 'tails'"),
        ({"type": "ok", "side": "heads"}, "'ok' does not take the field 'side'"),
        ({"side": "heads"}, "A move needs a 'type'"),
        (["call"], "A move needs a 'type'"),
    ],
)
def test_unreadable_moves_are_invalid_with_a_readable_sentence(data, message):
    with pytest.raises(InvalidAction, match=message):
        COIN.parse_move(data)


def assert_refused(state, cases):
    """Each stored move (a dict) raises IllegalAction, as do a rematch and an early timeout;
    the state is as it was."""
    before = state.model_dump_json()
    for action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            COIN.apply(state, action, T0 + 1)
    with pytest.raises(IllegalAction, match="rematch"):
        COIN.rematch(state, seed=2)
    with pytest.raises(IllegalAction, match="not run out yet"):
        COIN.time_out(state, COIN.deadline(state) - 1)
    assert state.model_dump_json() == before


def test_illegal_moves_raise_and_change_nothing():
    state, _ = begin(names=("Ann", "Bo"))
    state, _ = move(state, "Bo", side="tails")
    assert_refused(state, [
        ({"type": "ok", "player": "Ann"}, "no result waiting"),
        ({"type": "call", "side": "heads", "player": "Zed"}, "no player named 'Zed'"),
        ({"type": "call", "side": "heads"}, "must name its player"),
    ])  # fmt: skip
    state, _ = move(state, "Ann", side="heads")
    state, _ = move(state, "Bo", type="ok")
    assert_refused(state, [
        ({"type": "call", "side": "heads", "player": "Ann"}, "only while the coin is in the air"),
        ({"type": "ok", "player": "Bo"}, "no result waiting"),  # Bo's ok was taken already
    ])  # fmt: skip
    state, _ = COIN.leave(state, "Ann", T0 + 2)
    assert COIN.is_over(state)
    with pytest.raises(IllegalAction, match="game is over"):  # before "you have left"
        COIN.apply(state, {"type": "ok", "player": "Ann"}, T0 + 3)


def test_a_rematch_deals_again_and_step_numbers_go_on():
    state, _ = begin(names=("Ann", "Bo"))
    for name in ("Ann", "Bo"):
        state, _ = move(state, name, side="heads")
    state, _ = COIN.leave(state, "Bo", T0 + 2)
    state, _ = move(state, "Ann", type="ok")
    assert COIN.is_over(state)
    again = COIN.rematch(state, seed=5)
    assert COIN.step(again) > COIN.step(state) and not COIN.is_over(again)
    assert [(p.name, p.score, p.left) for p in again.players] == [
        ("Ann", 0, False),
        ("Bo", 0, True),
    ]
    again, effects = COIN.start(again, T0 + 100)
    assert kinds(effects) == ["start_timer"] and effects[0].step == COIN.step(again)
    assert COIN.set_host(again, "Bo").host == "Bo" and again.host == "Ann"


# == every game ==============================================================================
#: The shipped games and the coin game (which a test may have registered already).
EVERY_GAME = list({**GAMES, COIN.key: COIN}.values())
MAX_ACTIONS = 5_000


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda game: game.key)
def test_every_registered_game_keeps_the_interface_promises(game):
    names = [f"P{i}" for i in range(1, game.min_players + 1)]
    settings = game.default_settings()
    assert game.start_problem(settings, game.min_players) is None
    assert game.start_problem(settings, game.min_players - 1)
    assert game.start_problem(settings, game.max_players + 1)
    assert "timeout" not in game.move_types and game.replacing_moves <= game.move_types
    state, _ = game.start(game.new_game(names, settings, seed=4, host=names[0]), T0)
    now, rng, steps = T0, Rng(4), [game.step(state)]
    for _ in range(MAX_ACTIONS):
        views = game.views(state)
        assert set(views) == set(names)
        table = game.table_view(state)
        for name, view in [*views.items(), (None, table)]:
            assert view.keys() >= set(ENVELOPE_KEYS) and view["you"] == name
            assert view["game"] == game.key and view["phase"]
            assert view["over"] is game.is_over(state) is game.view_is_over(view)
            assert (view["outcome"] is None) is not game.is_over(state)
            if name is not None:
                assert view["step"] == game.seat_step(state, name)
        json.dumps([views, table])  # JSON-ready
        assert game.state_model.model_validate_json(state.model_dump_json()) == state
        if game.is_over(state):
            break
        for name in names:
            wanted = game.bot_move(views[name], rng)
            if wanted is not None:
                action = game.parse_move(wanted).model_copy(update={"player": name})
                state, _ = game.apply(state, action, now)
                now += 0.5
                break
        else:
            assert game.deadline(state) is not None, "nobody can act and no timer runs"
            now = max(now, game.deadline(state))
            state, _ = game.time_out(state, now)
        steps.append(game.step(state))
    else:
        pytest.fail(f"{game.key}: no game over within {MAX_ACTIONS} actions")
    assert steps == sorted(steps)
    again = game.rematch(state, seed=5)
    assert game.step(again) > game.step(state) and not game.is_over(again)
