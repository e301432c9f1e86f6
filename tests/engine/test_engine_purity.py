"""ARCHITECTURE layer 1: the engine does no I/O, reads no clock and no global random."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"boto3", "botocore", "aws_lambda_powertools", "time", "datetime", "random",
             "socket", "requests", "urllib", "os"}  # fmt: skip
#: The CLIs may use the process and files; the rules may not.
ALLOWED_IN = {"simulate.py": {"os"}, "replay.py": set()}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_engine_imports_nothing_impure():
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 5
    for path in files:
        bad = (imports(path) & FORBIDDEN) - ALLOWED_IN.get(path.name, set())
        assert not bad, f"{path.relative_to(ENGINE.parent)} imports {sorted(bad)}"


def test_the_game_state_carries_its_own_random_state():
    from engine.catch_the_witch import new_game
    from engine.rng import RngState

    a = new_game(["a", "b", "c", "d", "e", "f"], seed=5)
    b = new_game(["a", "b", "c", "d", "e", "f"], seed=5)
    assert a == b and isinstance(a.rng, RngState)
    assert a.rng.model_dump_json() == b.rng.model_dump_json()


def test_no_rule_changes_a_day_once_the_next_has_begun():
    """GameState.clone shares the days before today between a state and its copy (a
    measured speed-up): that is safe only while no rule writes to a past day."""
    from engine.catch_the_witch.autoplay import play_new

    checked = 0
    for seed in range(12):
        sealed: dict[int, dict] = {}

        def check(action, state, sealed=sealed):
            for day in state.days[:-1]:
                assert sealed.setdefault(day.number, day.model_dump()) == day.model_dump(), (
                    f"day {day.number} changed after it ended, by {action}"
                )

        play_new(4 + seed % 9, seed, {"discussion_limit": 60}, observer=check)
        checked += len(sealed)
    assert checked > 12, "too few games lasted two days"
