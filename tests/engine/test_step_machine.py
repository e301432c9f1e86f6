"""The step machine every game's turn runs on (engine/turns.py): each game's handler table
takes exactly the moves its phones may send, and its step table names no other."""

import pytest

from engine.burn_the_witch.game import BurnTheWitch
from engine.burn_the_witch.turn import Turn as BurnTurn
from engine.catch_the_witch.game import CatchTheWitch
from engine.catch_the_witch.turn import Turn as CatchTurn
from engine.errors import IllegalAction
from engine.steps import no_timer
from tests.support.coin_game import CoinGame, CoinTurn

TURNS = [(CatchTheWitch(), CatchTurn), (BurnTheWitch(), BurnTurn), (CoinGame(), CoinTurn)]


@pytest.mark.parametrize(("game", "turn"), TURNS, ids=lambda each: getattr(each, "key", ""))
def test_every_move_a_phone_may_send_has_a_handler_and_the_steps_name_no_other(game, turn):
    handled = {move.model_fields["type"].default for move in turn.handlers}
    assert handled == game.move_types, "a move with no handler, or a handler for no move"
    in_steps = set().union(*(step.moves for step in turn.steps.values()))
    assert in_steps <= game.move_types | {"timeout"}
    assert turn.over_phase in turn.steps and not turn.steps[turn.over_phase].moves


@pytest.mark.parametrize(("game", "turn"), TURNS, ids=lambda each: getattr(each, "key", ""))
def test_every_timed_step_says_what_its_timeout_does(game, turn):
    for phase, step in turn.steps.items():
        has_timer = step.timer is not no_timer
        assert not has_timer or step.on_timeout is not None, phase


NAMES = ["Ann", "Bo", "Cy", "Di", "Eve"]
#: The machine's refusals in each game's own words: (move, code, rule, message).
REFUSALS = {
    "catch_the_witch": [
        ({"type": "ready"}, "no_player", "§12", "A player action must name the acting cat."),
        ({"type": "ready", "player": "Zed"}, "no_such_cat", "§12", "There is no cat named 'Zed'."),
        ({"type": "mark_away", "player": "Bo", "target": "Cy"},
         "host_marks_away", "§9", "Only the host can mark a cat Away."),
        ({"type": "mark_away", "player": "Ann", "target": "Zed"},
         "no_such_cat", "§9", "There is no cat named 'Zed'."),
        ({"type": "mark_away", "player": "Ann", "target": "Eve"},
         "already_away", "§9", "Eve is already Away."),
        ({"type": "timeout"}, "timer_none", "§9", "This step has no timer."),
    ],
    "burn_the_witch": [
        ({"type": "bewitch", "direction": "left"}, "no_player", "§3", "A move must name its player."),
        ({"type": "bewitch", "direction": "left", "player": "Zed"},
         "btw_no_such_player", "§2", "There is no player named 'Zed'."),
        ({"type": "mark_away", "player": "Bo", "target": "Cy"},
         "btw_host_marks_away", "§6", "Only the host can mark a player Away."),
        ({"type": "mark_away", "player": "Ann", "target": "Zed"},
         "btw_no_such_player", "§2", "There is no player named 'Zed'."),
        ({"type": "mark_away", "player": "Ann", "target": "Eve"},
         "already_away", "§6", "Eve is already Away."),
        ({"type": "timeout"}, "timer_not_due", "§6", "The time has not run out yet."),
    ],
}  # fmt: skip


@pytest.mark.parametrize("game", [CatchTheWitch(), BurnTheWitch()], ids=lambda game: game.key)
def test_the_machines_refusals_are_each_games_own(game):
    state = game.new_game(NAMES, game.default_settings(), seed=2, host="Ann")
    state, _ = game.start(state, 0.0)
    state, _ = game.leave(state, "Eve", 1.0)  # Away from now on
    for move, code, rule, message in REFUSALS[game.key]:
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, move, 2.0)
        assert (refused.value.code, refused.value.rule, refused.value.message) == (
            code, rule, message,
        ), move  # fmt: skip
