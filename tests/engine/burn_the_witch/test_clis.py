"""The command lines with ``--game burn_the_witch``, and the scenario files (one per ending)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import demo, replay, simulate
from engine.burn_the_witch.command_line import RATES, TALLIES

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
GAME = ["--game", "burn_the_witch"]


def _expect(path: Path) -> dict:
    return json.loads(path.read_text())["expect"]


def test_scenario_files_cover_every_way_a_game_ends():
    """§1: both victories; and one decided by a chain of execution, hex and trial."""
    assert {_expect(p)["reason"] for p in SCENARIOS} == {"all_witches_burned",
                                                         "threshold_reached"}  # fmt: skip
    chain = _expect(Path(__file__).parent / "scenarios" / "trial_and_hex_chain.json")
    assert chain["trials"] >= 1 and chain["hexes"] >= 1


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_replay_reaches_the_expected_outcome(path, capsys):
    assert replay.main([*GAME, str(path)]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    assert events[-1] == {"outcome": _expect(path)}
    assert all("index" in e and "round" in e and "phase" in e for e in events[:-1])


def test_the_chain_scenario_ends_on_a_trial_after_a_hex(capsys):
    replay.main([*GAME, str(Path(__file__).parent / "scenarios" / "trial_and_hex_chain.json")])
    events = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    burns = [n["cause"] for e in events[:-1] for n in e.get("news", []) if n["kind"] == "burn"]
    assert burns[-3:] == ["execution", "hex", "trial"]


def test_replay_prints_public_news_and_nothing_secret(capsys):
    for path in SCENARIOS:
        replay.main([*GAME, str(path)])
    out = capsys.readouterr().out
    assert '"kind": "burn"' in out and '"kind": "vote"' in out
    for secret in ('"bewitch"', '"type": "vote"', '"type": "point"', '"dealt"', '"ballot',
                   '"direction"', '"my_vote"'):  # fmt: skip
        assert secret not in out


def test_replay_stops_at_an_illegal_action_naming_index_and_rule(tmp_path, capsys):
    bad = {"players": ["a", "b", "c", "d", "e"], "seed": 1,
           "actions": [{"type": "accuse", "player": "a", "trait": "hat"}]}  # fmt: skip
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert replay.main([*GAME, str(path)]) == 2
    assert "action 0 (accuse): " in capsys.readouterr().err


def test_replay_reports_an_unfinished_game_and_a_bad_setup(tmp_path, capsys):
    path = tmp_path / "short.json"
    path.write_text(json.dumps({"players": ["a", "b", "c", "d", "e"], "actions": []}))
    assert replay.main([*GAME, str(path)]) == 0
    assert capsys.readouterr().out.strip() == '{"outcome": null}'
    path.write_text(json.dumps({"players": ["a", "b", "c", "d"], "actions": []}))
    assert replay.main([*GAME, str(path)]) == 2
    assert "illegal setup" in capsys.readouterr().err


def test_simulate_json_reports_factions_reasons_rounds_trials_hexes_and_illegal_moves(capsys):
    args = [*GAME, "--players", "6", "--games", "6", "--seed", "3", "--json"]
    assert simulate.main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 6 and result["illegal_actions"] == 0 and result["unfinished"] == 0
    assert set(result["wins"]) == {"zealots", "sympathizers"}
    assert sum(result["wins"].values()) == 6
    assert set(result["reasons"]) == {"all_witches_burned", "threshold_reached"}
    assert result["avg_rounds"] > 0
    assert result["avg_trials"] >= 0 and result["avg_hexes"] >= 0


def test_simulate_json_reports_how_well_the_bots_deduce(capsys):
    """The tallies summed over the games, and their shares."""
    args = [*GAME, "--players", "6", "--games", "6", "--seed", "3", "--json"]
    assert simulate.main(args) == 0
    result = json.loads(capsys.readouterr().out)
    tallies = {name: result[name] for name in TALLIES}
    for part, whole in RATES.values():
        assert 0 < tallies[part] <= tallies[whole]
    for rate, (part, whole) in RATES.items():
        assert result[rate] == round(tallies[part] / tallies[whole], 4)
        assert 0 <= result[rate] <= 1
    # Every game ends with its witches burned or 12 innocents burned (§2's 6-player row).
    assert tallies["burns"] >= 6 * 2 and tallies["executions"] <= tallies["burns"]
    assert tallies["zealot_executions"] <= tallies["executions"]
    # Timers off: every round has its accusation and its execution, and nothing else.
    assert tallies["accusations"] == tallies["executions"] == round(result["avg_rounds"] * 6)
    assert tallies["trials"] == round(result["avg_trials"] * 6)


def test_simulate_table_for_a_range_with_timers(capsys):
    assert simulate.main([*GAME, "--players", "5-6", "--games", "2", "--limit", "30"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("players | games | zealots | sympathizers | avg rounds")
    assert "| witch burn rate | witch execution rate |" in table[0]
    assert len(table) == 3


def test_demo_tells_a_game(capsys):
    assert demo.main([*GAME, "--players", "7", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("🔥 Burn the Witch — 7 bot players, seed 2")
    assert "win:" in out and " 0 illegal actions." in out
    assert "make dev, then pick Burn the Witch" in out  # it has phone screens


def test_simulate_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "engine.simulate", *GAME, "--players", "5",
                           "--games", "2", "--json"], capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(done.stdout)["games"] == 2
