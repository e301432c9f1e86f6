"""Play a scenario file and print what happens, one JSON object per line.

    python -m engine.replay tests/engine/scenarios/seals_complete.json

The file format is in docs/replay.md. The last line is
``{"outcome": {"winner": ..., "reason": ..., "day": n}}`` or ``{"outcome": null}``.
An illegal or malformed action stops the replay with exit code 2 and a message
naming the action's index and the rule; an unreadable file exits with 1.
"""

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .catch_the_witch import GameError, GameState, Phase, apply, new_game, start
from .catch_the_witch.effects import StepChanged
from .catch_the_witch.state import Settings

#: Simulated seconds between two actions of a replay (well inside every timer).
SECONDS_PER_ACTION = 1.0
#: Actions everyone at the table sees; the others (places, spells, abilities, cards,
#: votes before the reveal — and even their type, which can betray a role) are not
#: echoed: the output is public news only, and a changed vote leaves no trace (§3.6).
PUBLIC_ACTIONS = frozenset({"ready", "ok", "end_talk", "propose", "mark_away", "timeout"})


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[str]
    seed: int = 0
    settings: Settings = Field(default_factory=Settings)
    roles: dict[str, str] | None = None
    required: list[list[str]] | None = None
    actions: list[dict[str, Any]]
    #: Free text for people reading the file.
    description: str | None = None
    #: The outcome the file is meant to reach (tests check it; the replay ignores it).
    expect: dict[str, Any] | None = None


class ReplayError(Exception):
    def __init__(self, index: int, action: dict, error: GameError):
        kind = action.get("type", "?") if isinstance(action, dict) else "?"
        super().__init__(f"action {index} ({kind}): {error}")
        self.index = index


def load(path: str | Path) -> Scenario:
    return Scenario.model_validate_json(Path(path).read_text(encoding="utf-8"))


def run(scenario: Scenario, out: TextIO | None = None) -> GameState:
    """Play every action; write events to ``out``; raise ReplayError on a bad action."""
    state = new_game(
        scenario.players, scenario.settings, seed=scenario.seed,
        roles=scenario.roles, required=scenario.required,
    )  # fmt: skip
    now = 0.0
    state, _ = start(state, now)
    for index, action in enumerate(scenario.actions):
        if action.get("type") == "timeout" and state.deadline is not None:
            now = max(now, state.deadline)
        else:
            now += SECONDS_PER_ACTION
        try:
            state, effects = apply(state, action, now)
        except GameError as exc:
            raise ReplayError(index, action, exc) from exc
        if out is not None:
            entered = [e.phase for e in effects if isinstance(e, StepChanged)]
            out.write(json.dumps(event(index, action, state, entered)) + "\n")
    return state


def event(index: int, action: dict, state: GameState, entered: list[Phase]) -> dict[str, Any]:
    """One output line: the action and the public news of the steps it led to."""
    line: dict[str, Any] = {"index": index}
    if action.get("type") in PUBLIC_ACTIONS:
        line["action"] = action
    line.update(day=state.day, phase=state.phase.value)
    if entered:
        line["entered"] = [p.value for p in entered]
    today = state.days[-1] if state.days else None
    if today is None:
        return line
    for phase in entered:
        if phase is Phase.PLACE_CHOICE:
            line["required"] = [i.value for i in today.required]
        elif phase is Phase.EVENING or (phase is Phase.GAME_OVER and _ended_at_day_end(today)):
            line["evening"] = {"new_frogs": today.new_frogs, "restored": today.restored,
                               "dropped": [i.value for i in today.dropped]}  # fmt: skip
        elif phase is Phase.APPROVAL_RESULT:
            line["approval"] = today.proposals[-1].public()
        elif phase in (Phase.RITUAL_RESULT, Phase.VOTE) and today.ritual_result:
            line["ritual"] = today.ritual_result.value
        elif phase in (Phase.VOTE_RESULT, Phase.GAME_OVER) and today.vote:
            line["vote"] = today.vote.public()
    if state.phase is Phase.GAME_OVER and today.ritual_result and "ritual" not in line:
        line["ritual"] = today.ritual_result.value
    return line


def _ended_at_day_end(today) -> bool:
    """§3.4: a game decided at the end-of-day check skips the evening; report its news."""
    return today.ritual_result is None and not today.proposals


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 1
    try:
        scenario = load(args[0])
    except (OSError, ValidationError, ValueError) as exc:
        print(f"cannot read {args[0]}: {exc}", file=sys.stderr)
        return 1
    try:
        state = run(scenario, sys.stdout)
    except ReplayError as exc:
        print(f"illegal: {exc}", file=sys.stderr)
        return 2
    except GameError as exc:  # the setup itself (players, roles) breaks a rule
        print(f"illegal setup: {exc}", file=sys.stderr)
        return 2
    outcome = state.outcome.model_dump(mode="json") if state.outcome else None
    print(json.dumps({"outcome": outcome}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
