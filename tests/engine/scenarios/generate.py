"""Writes the example scenario files in this folder, one per victory reason (§1).

    python -m tests.engine.scenarios.generate

Each file is a replay scenario (docs/replay.md) with an ``expect`` outcome that
tests/test_scenarios.py checks by running ``python -m engine.replay``.
"""

import json
from collections.abc import Callable
from pathlib import Path

from tests.support.table import FOUR, SIX, Table

HERE = Path(__file__).parent
FISH2 = [["fish", "fish"]] * 7


def quiet_day(t: Table, witch_place: str = "forest") -> None:
    """A day where nothing happens: all gather at the river, the ritual fails, all skip."""
    t.places(**{n: "river" for n in t.humans() if t.roles[n] != "witch"})
    for name in t.humans():
        if t.roles[name] == "witch":
            t.witch(name, witch_place)
    t.evening()
    t.curse_day()
    t.votes()
    if t.state.outcome is None:
        t.ok_all()


def seals_complete() -> Table:
    t = Table(FOUR, required=FISH2)
    t.ready_all()
    for _ in range(3):
        t.places(Bo="river", Cy="river", Di="river")
        t.witch("Ann", "forest")
        t.evening()
        t.passed_ritual(["Bo", "Cy"], {"Bo": "fish", "Cy": "fish"})
        if t.state.outcome:
            break
        t.votes()
        t.ok_all()
    return t


def witches_exiled() -> Table:
    t = Table(FOUR, required=FISH2)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "forest")
    t.evening()
    t.passed_ritual(["Ann", "Bo"], {"Ann": "nightshade", "Bo": "fish"})
    t.votes(Bo="Ann", Cy="Ann", Di="Ann")
    return t


def witches_all_frogs() -> Table:
    t = Table(SIX, required=[["fish", "fish"], ["fish", "fish", "fish"]])
    t.ready_all()
    quiet_day(t)
    t.places(Bo="river", Cy="river", Di="river", Fay="river")
    t.plans()
    t.do("Ann", "witch_place", place="forest")
    t.do("Eve", "witch_place", place="forest")
    t.do("Ann", "witch_spell", spell="frog", target="Eve")
    t.do("Eve", "witch_spell", spell="frog", target="Ann")
    t.end_witches_turn()
    return t


def to_knights_day_vote(t: Table) -> Table:
    """4 cats (Ann the witch): quiet days until the exile vote of the Knights' day (5)."""
    t.ready_all()
    for _ in range(4):
        quiet_day(t)
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.evening()
    t.curse_day()
    return t


def knights_vote_success() -> Table:
    t = to_knights_day_vote(Table(FOUR, required=FISH2))
    t.votes(Bo="Ann", Cy="Ann", Di="Ann")
    return t


def knights_vote_fail() -> Table:
    t = Table(FOUR, required=FISH2)
    t.ready_all()
    for _ in range(5):
        quiet_day(t)
    return t


def witches_take_over() -> Table:
    t = Table(FOUR, required=FISH2)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.evening()
    t.curse_day()
    t.votes(Ann="Di", Bo="Di", Cy="Di")  # the village exiles a villager
    t.ok_all()
    t.places(Bo="meadow", Cy="river")  # Bo gathers alone: no witness
    t.witch("Ann", "meadow", "frog", "Bo")
    return t


def jester_exiled() -> Table:
    roles = {"Ann": "witch", "Bo": "jester", "Cy": "villager", "Di": "villager"}
    t = Table(roles, settings={"discussion_limit": 60, "roles": list(roles.values())},
              required=FISH2)  # fmt: skip
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="river")
    t.witch("Ann", "forest")
    t.ok_all()
    t.timeout()  # discussion time runs out
    t.passed_ritual(["Bo", "Cy"], {"Bo": "fish", "Cy": "fish"})
    t.votes(Ann="Bo", Cy="Bo", Di="Bo")
    return t


SCENARIOS: dict[str, tuple[Callable[[], Table], str]] = {
    "seals_complete": (seals_complete, "4 cats: three successful fish rituals, day 3."),
    "witches_exiled": (witches_exiled, "4 cats: the witch sabotages and is exiled on day 1."),
    "witches_all_frogs": (witches_all_frogs, "6 cats: the two witches frog each other, day 2."),
    "knights_vote_success": (knights_vote_success, "4 cats: cursed days; the witch is exiled on the Knights' day."),
    "knights_vote_fail": (knights_vote_fail, "4 cats: cursed days; everyone skips on the Knights' day."),
    "witches_take_over": (witches_take_over, "4 cats: a villager exiled, a lone cat frogged, day 2."),
    "jester_exiled": (jester_exiled, "4 cats, custom set with a Jester, exiled on day 1 (60 s limit)."),
}  # fmt: skip


def main() -> None:
    for name, (build, description) in SCENARIOS.items():
        table = build()
        assert table.state.outcome and table.state.outcome.reason.value == name, name
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(table.scenario(description), indent=1) + "\n")
        print(f"wrote {path} ({len(table.actions)} actions)")


if __name__ == "__main__":
    main()
