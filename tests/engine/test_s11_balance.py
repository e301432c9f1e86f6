"""RULES §11: a quick guard on balance. The real measurement is `make balance`
(2,000 games per count, docs/balance.md); this catches a change that breaks a side."""

import pytest

from engine.simulate import simulate


@pytest.mark.parametrize("count", [4, 8, 12])
def test_s11_each_side_still_wins_a_fair_share(count):
    result = simulate(count, games=80, seed=10_000)
    assert result["illegal_actions"] == 0 and result["unfinished"] == 0
    for side in ("villagers", "witches"):
        assert 0.20 <= result["win_rates"][side] <= 0.80, result["win_rates"]
