"""The bots (engine/burn_the_witch/bots.py): legal moves from their own view, and the
reasoning each side is meant to show."""

import pytest

from engine.burn_the_witch import bots
from engine.burn_the_witch.command_line import GAME, play_new
from engine.rng import Rng

from .support import N, W, a_trait_of, burn_by_round, house, move, rig, started, villager_of


def views_of_games(count: int, seeds: range):
    """Every player's view at every state of bot games."""
    for seed in seeds:
        states = []
        play_new(count, seed, observer=lambda _, state, kept=states: kept.append(state))
        for state in states:
            yield from GAME.views(state).values()


@pytest.mark.parametrize("count", [5, 10])
def test_every_bot_move_is_one_the_view_allows(count):
    rng = Rng(1)
    for view in views_of_games(count, range(3)):
        move = bots.choose_move(view, rng)
        if move is not None:
            assert move["type"] in view["me"]["can"]
            GAME.parse_move(move)  # well formed


def _executions(count: int, seeds: range):
    """(view, villager the bot burns) at every execution step of bot games."""
    rng = Rng(2)
    for view in views_of_games(count, seeds):
        if "execute" in view["me"]["can"]:
            yield view, bots.choose_move(view, rng)["villager"]


def _owner(view: dict, villager: str) -> str:
    return next(h["owner"] for h in view["houses"] if any(v["name"] == villager
                                                           for v in h["villagers"]))  # fmt: skip


def test_a_sympathizer_dealt_a_witch_burns_in_a_zealots_house_when_one_complies():
    checked = 0
    for view, villager in _executions(8, range(8)):
        me = view["me"]
        if me["sympathizers"] is None:
            continue
        allies = {s["name"] for s in me["sympathizers"]}
        if any(_owner(view, v) not in allies for v in view["complying"]):
            assert _owner(view, villager) not in allies
            checked += 1
    assert checked > 10


def test_a_zealot_executioner_spares_their_own_house_when_they_can():
    checked = 0
    for view, villager in _executions(8, range(8)):
        me = view["me"]
        if me["faction"] != "zealot":
            continue
        if any(_owner(view, v) != me["name"] for v in view["complying"]):
            assert _owner(view, villager) != me["name"]
            checked += 1
    assert checked > 10


def test_zealots_read_a_burned_witch_as_a_sympathizers_house():
    """Ann's witch burns: her other villagers are less likely witches (only a coven holds
    two) than Bo's (who holds the other); Ed reads every house but his own."""
    state = started()
    state = burn_by_round(state, villager_of(state, "Ann", W))
    view = GAME.views(state)["Ed"]
    assert view["me"]["faction"] == "zealot"
    chance = bots.Reading.of(view).witch_chance
    by_house = {h["owner"]: [chance.get(v["name"]) for v in h["villagers"]] for h in view["houses"]}
    assert by_house["Ed"] == [None] * 4
    assert max(by_house["Ann"]) < min(by_house["Bo"])
    assert abs(sum(chance.values()) - view["witches_left"]) < 1e-9


def test_the_coven_taps_a_player_who_will_execute_for_an_ally():
    """Ann holds the coven; a player executes for their left neighbour (§3.2), so tapping
    right (Ed) makes Ann's own executioner an ally."""
    houses = [[W, W, N, N], [N, N, N, N], [N, N, N, N], [N, N, N, N], [N, N, N, N]]
    state, _ = GAME.start(rig(houses), 0.0)
    view = GAME.views(state)["Ann"]
    assert "bewitch" in view["me"]["can"]
    for seed in range(8):  # not a lucky draw
        assert bots.choose_move(view, Rng(seed)) == {"type": "bewitch", "direction": "right"}


def test_a_bot_votes_once():
    state = started()
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, house(state, "Bo")[0]))
    vote = bots.choose_move(GAME.views(state)["Bo"], Rng(4))
    assert vote["type"] == "vote" and vote["burn"] + vote["save"] == 4
    state = move(state, "Bo", **vote)
    assert "vote" in GAME.views(state)["Bo"]["me"]["can"]  # a vote may still change (§3.2)
    assert bots.choose_move(GAME.views(state)["Bo"], Rng(4)) is None
