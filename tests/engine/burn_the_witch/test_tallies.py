"""What the simulator counts of a Burn the Witch game to see whether the bots deduce:
``tallies_of`` in engine/burn_the_witch/command_line.py."""

import pytest

from engine.burn_the_witch.command_line import RATES, TALLIES, play_new, tallies_of

from .support import D, W, a_trait_of, move, started, villager_of, vote_all


def point(state, player, target):
    return move(state, player, type="point", target=target, locked=True)


def a_trait_no_witch_shows(state, villager: str) -> str:
    witch_traits = {t for p in state.players for v in p.villagers if v.identity == W
                    for t in v.traits}  # fmt: skip
    traits = next(v.traits for p in state.players for v in p.villagers if v.name == villager)
    return next(t for t in traits if t not in witch_traits)


def test_a_hand_played_game_is_counted_event_by_event():
    """Bo (a witch) accuses a trait of Cy's devout that no witch shows; Ann (a witch: a
    sympathizer) burns the devout; the Trial by Fire chooses Bo, who burns his witch; Ann
    accuses a trait of her own witch and Ed (a zealot) burns it: the zealots win."""
    state = started(first="Bo")
    devout = villager_of(state, "Cy", D)
    state = move(state, "Bo", type="accuse", trait=a_trait_no_witch_shows(state, devout))
    state = vote_all(state, burn=True)
    assert state.executioner == "Ann"
    state = move(state, "Ann", type="execute", villager=devout)
    for pointer in ["Ann", "Cy", "Di", "Ed"]:
        state = point(state, pointer, "Bo")
    state = point(state, "Bo", "Ann")
    state = move(state, "Bo", type="choose_villager", villager=villager_of(state, "Bo", W))
    witch = villager_of(state, "Ann", W)
    assert state.accuser == "Ann"
    state = move(state, "Ann", type="accuse", trait=a_trait_of(state, witch))
    state = vote_all(state, burn=True)
    assert state.executioner == "Ed"
    state = move(state, "Ed", type="execute", villager=witch)
    assert state.outcome is not None and state.outcome.winner == "zealots"

    assert tallies_of(state) == {
        "burns": 3,
        "burns_of_witches": 2,
        "executions": 2,
        "executions_of_witches": 1,
        "zealot_executions": 1,
        "zealot_executions_of_witches": 1,
        "trials": 1,
        "trials_of_witch_houses": 1,
        "accusations": 2,
        "accusations_of_witch_traits": 1,
    }


class Watcher:
    """Counts the tallies another way: from the moves and the states as the game is
    played, not from the finished game's history."""

    def __init__(self):
        self.counts = dict.fromkeys(TALLIES, 0)
        self.executed: list[tuple[str, str]] = []  # (villager, executioner)
        self.trial_steps: set[int] = set()

    def __call__(self, action: dict, state) -> None:
        if action["type"] == "accuse":
            self.counts["accusations"] += 1
            self.counts["accusations_of_witch_traits"] += any(
                v.identity == W and action["trait"] in v.traits
                for p in state.players
                for v in p.villagers
            )
        elif action["type"] == "execute":
            self.executed.append((action["villager"], action["player"]))
        pending = state.pending
        if pending and pending.kind == "trial" and state.step not in self.trial_steps:
            self.trial_steps.add(state.step)
            self.counts["trials"] += 1
            chosen = state.player(pending.payer)
            self.counts["trials_of_witch_houses"] += any(v.identity == W for v in chosen.villagers)

    def finish(self, state) -> dict[str, int]:
        identity = {v.name: v.identity for p in state.players for v in p.burned}
        counts = dict(self.counts)
        counts["burns"] = len(identity)
        counts["burns_of_witches"] = list(identity.values()).count(W)
        for villager, executioner in self.executed:
            witch = identity[villager] == W
            counts["executions"] += 1
            counts["executions_of_witches"] += witch
            if state.player(executioner).faction == "zealot":
                counts["zealot_executions"] += 1
                counts["zealot_executions_of_witches"] += witch
        return counts


@pytest.mark.parametrize("count", [5, 8])
def test_bot_games_are_counted_as_a_watcher_of_every_move_counts_them(count):
    totals = dict.fromkeys(TALLIES, 0)
    for seed in range(4):
        watcher = Watcher()
        run = play_new(count, seed, observer=watcher)
        assert run.state.outcome is not None
        tallies = tallies_of(run.state)
        assert tallies == watcher.finish(run.state)
        totals = {name: totals[name] + tallies[name] for name in TALLIES}
    # The games exercise every tally, so a miscount of any one would show.
    assert all(totals[part] < totals[whole] and totals[part] > 0 for part, whole in
               RATES.values()), totals  # fmt: skip


def test_every_rate_is_a_share_of_two_tallies():
    assert all(part in TALLIES and whole in TALLIES for part, whole in RATES.values())
