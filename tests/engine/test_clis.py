"""The replay and simulator command lines, and the example scenario files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import demo, replay, simulate
from engine.games import GAMES
from tests.support.coin_game import CoinGame

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
REASONS = {"seals_complete", "witches_exiled", "witches_all_frogs", "knights_vote_success",
           "witches_take_over", "knights_vote_fail", "jester_exiled"}  # fmt: skip


def test_scenario_files_cover_every_victory_reason():
    assert {json.loads(p.read_text())["expect"]["reason"] for p in SCENARIOS} == REASONS


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_replay_reaches_the_expected_outcome(path, capsys):
    assert replay.main([str(path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    events = [json.loads(line) for line in lines]
    expected = json.loads(path.read_text())["expect"]
    assert events[-1] == {"outcome": expected}
    assert all("index" in e for e in events[:-1])


def test_replay_prints_public_news_and_nothing_secret(capsys):
    path = next(p for p in SCENARIOS if p.stem == "witches_take_over")
    replay.main([str(path)])
    out = capsys.readouterr().out
    assert '"evening": {"new_frogs": ["Bo"]' in out
    assert '"role"' not in out
    for secret in (
        "witch_place",
        "witch_spell",
        "choose_place",
        "play_card",
        '"approve"',
        '"vote", "player"',
    ):
        assert secret not in out


def test_replay_stops_at_an_illegal_action_naming_index_and_rule(tmp_path, capsys):
    bad = {"players": ["a", "b", "c", "d"], "seed": 1,
           "actions": [{"player": "a", "type": "ready"}, {"player": "b", "type": "propose",
                                                         "members": ["a", "b"]}]}  # fmt: skip
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert replay.main([str(path)]) == 2
    assert (
        "action 1 (propose): Proposing is not possible now. (RULES §3.5)" in capsys.readouterr().err
    )


def test_replay_reports_an_unfinished_game_and_a_broken_file(tmp_path, capsys):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"players": ["a", "b", "c", "d"], "actions": []}))
    assert replay.main([str(path)]) == 0
    assert capsys.readouterr().out.strip() == '{"outcome": null}'
    path.write_text("{")
    assert replay.main([str(path)]) == 1
    assert replay.main([]) == 1


def test_replay_runs_as_a_module():
    path = SCENARIOS[0]
    done = subprocess.run([sys.executable, "-m", "engine.replay", str(path)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(done.stdout.strip().splitlines()[-1])["outcome"] is not None


def test_simulate_json_has_the_promised_fields(capsys):
    assert simulate.main(["--players", "5", "--games", "6", "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 6 and result["illegal_actions"] == 0
    assert set(result["wins"]) == {"villagers", "witches", "jester"}
    assert sum(result["wins"].values()) == 6
    assert set(result["reasons"]) == REASONS
    assert result["avg_days"] > 0
    # How well the bots deduce, counted over the games.
    assert 0 <= result["single_vote_exiles"] <= result["exiles"]
    assert 0 <= result["exiles_of_witches"] <= result["exiles"]
    assert result["rituals_succeeded"] <= result["rituals_held"]
    assert result["ritual_success_rate"] == round(
        result["rituals_succeeded"] / result["rituals_held"], 4
    )


def test_simulate_table_for_a_range(capsys):
    assert simulate.main(["--players", "4-5", "--games", "2"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("cats | games | villagers") and len(table) == 3


# -- --game: the command lines look the game up in engine/games.py --------------------------
def test_the_default_game_is_catch_the_witch(capsys):
    args = ["--players", "4", "--games", "2", "--seed", "5", "--json"]
    assert simulate.main(args) == 0
    default = capsys.readouterr().out
    assert simulate.main(["--game", "catch_the_witch", *args]) == 0
    assert capsys.readouterr().out == default
    assert replay.main(["--game", "catch_the_witch", str(SCENARIOS[0])]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["outcome"] is not None
    assert demo.main(["--game", "catch_the_witch", "--players", "5", "--seed", "1"]) == 0
    assert "Catch the Witch" in capsys.readouterr().out


@pytest.mark.parametrize(
    "command",
    [
        lambda game: simulate.main(["--game", game, "--players", "4", "--games", "1"]),
        lambda game: replay.main(["--game", game, str(SCENARIOS[0])]),
        lambda game: demo.main(["--game", game]),
    ],
    ids=["simulate", "replay", "demo"],
)
def test_an_unknown_game_or_one_without_simulator_support_is_a_clear_error(
    command, capsys, monkeypatch
):
    assert command("nope") == 2
    captured = capsys.readouterr()
    assert "There is no game 'nope'; the games are: " in captured.err
    assert "catch_the_witch" in captured.err
    assert captured.out == ""
    monkeypatch.setitem(GAMES, "coin", CoinGame())  # a whole game, with no command lines
    assert command("coin") == 2
    assert "The game 'coin' has no simulator support" in capsys.readouterr().err


def test_an_unknown_game_exits_non_zero_as_a_module():
    done = subprocess.run([sys.executable, "-m", "engine.simulate", "--game", "nope"],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode != 0 and "There is no game 'nope'" in done.stderr
