"""Catch the Witch's helpers for the command lines (engine/simulate.py, replay.py,
demo.py), which find this module through ``CatchTheWitch.command_line`` (game.py).

The simulator plays ``play_new`` games and counts ``SIDES`` and ``REASONS``; the demo
tells a game with the ``Narrator``; the replay plays a ``Scenario`` file (docs/replay.md).
"""

import json
from pathlib import Path
from typing import Any, TextIO

from pydantic import Field

from ..command_lines import ReplayError, ScenarioFile
from ..replaying import played
from .autoplay import bot_names, play_new
from .domain import Phase, Reason, Role, Side
from .effects import StepChanged
from .game import CatchTheWitch
from .rules import new_game, start
from .state import GameState, Settings
from .views import view

__all__ = [
    "AVERAGES",
    "DEMO_ON_PHONES",
    "DEMO_TITLE",
    "PLAYERS_COLUMN",
    "RATES",
    "REASONS",
    "SAMPLE_MOVES",
    "SAMPLE_SETTINGS",
    "SIDES",
    "TALLIES",
    "Narrator",
    "ReplayError",
    "Scenario",
    "load",
    "new_state",
    "outcome_of",
    "play_new",
    "run",
    "settings_for",
    "tallies_of",
]

#: The simulator's columns: who won and why (RULES §1).
SIDES = [side.value for side in Side]
REASONS = [reason.value for reason in Reason]
#: The outcome's numbers the simulator averages: the day the game was decided.
AVERAGES = {"day": "days"}
PLAYERS_COLUMN = "cats"
#: What the simulator counts in each game, to see whether the bots deduce.
TALLIES = {
    "exiles": "cats exiled by a vote (§8)",
    "exiles_of_witches": "…of them witches (the Crow is not one)",
    "single_vote_exiles": "…of them exiled by one vote (every other cat skipped: §8)",
    "rituals_held": "rituals performed (§7; a curse's automatic failure is not one)",
    "rituals_succeeded": "…of them successes",
    "games_counted": "games played (one each: the whole of the per-game shares)",
    "day_1_witch_exiles": "games whose day-1 vote exiled a witch (the gentle table's measure)",
}
RATES = {
    "ritual_success_rate": ("rituals_succeeded", "rituals_held"),
    "witch_exile_rate": ("exiles_of_witches", "exiles"),
    "single_vote_exile_rate": ("single_vote_exiles", "exiles"),
    "day_1_witch_exile_rate": ("day_1_witch_exiles", "games_counted"),
}

#: The discussion limit of the command lines when none is given (the lobby's default).
DEFAULT_LIMIT = 120


def settings_for(limit: int | None) -> dict[str, Any]:
    """A ``--limit`` of the command lines is the discussion limit (RULES §3.5)."""
    return {"discussion_limit": DEFAULT_LIMIT if limit is None else limit}


def new_state(count: int, seed: int, settings: dict | None = None) -> GameState:
    """The new game ``play_new`` plays: bots' names, the first the host."""
    return new_game(bot_names(count), settings or {}, seed=seed)


#: A move of each type as a phone sends it (RULES §12), its fields by its name, and a
#: host's change of settings: the sample events (events/generate.py).
SAMPLE_MOVES: dict[str, dict[str, Any]] = {
    "ready": {},
    "choose_place": {"place": "river", "restore": "Cy"},
    "choose_guard": {},
    "guard_place": {"place": "meadow"},
    "witch_place": {"place": "forest"},
    "witch_spell": {"spell": "frog", "target": "Bo"},
    "guess_place": {"place": "river"},
    "guess_spell": {"spell": "snatch", "target": "Cy"},
    "ok": {},
    "end_talk": {},
    "seer_look": {"target": "Cy"},
    "pickpocket_peek": {"target": "Bo"},
    "pickpocket_take": {"card": "fish"},
    "propose": {"members": ["Ann", "Bo"]},
    "approve": {"yes": True},
    "play_card": {"card": "fish"},
    "vote": {"target": None},
    "mark_away": {"target": "Di"},
}
SAMPLE_SETTINGS: dict[str, Any] = {"discussion_limit": 90, "reveal_role_on_exile": True}


def outcome_of(state: GameState) -> dict[str, Any] | None:
    return state.outcome.model_dump(mode="json") if state.outcome else None


def tallies_of(state: GameState) -> dict[str, int]:
    exiled = [day.vote for day in state.days if day.vote and day.vote.exiled]
    return {
        "exiles": len(exiled),
        "exiles_of_witches": sum(state.cat(v.exiled).role is Role.WITCH for v in exiled),
        "single_vote_exiles": sum(list(v.votes.values()).count(v.exiled) == 1 for v in exiled),
        "rituals_held": state.rituals_held,
        "rituals_succeeded": state.seals,
        "games_counted": 1,
        "day_1_witch_exiles": int(_day_1_exiled_a_witch(state)),
    }


def _day_1_exiled_a_witch(state: GameState) -> bool:
    vote = state.days[0].vote if state.days else None
    return (
        vote is not None and vote.exiled is not None and state.cat(vote.exiled).role is Role.WITCH
    )


DEMO_TITLE = "🐈 Catch the Witch"
#: The demo's last line: where people can play it.
DEMO_ON_PHONES = "Play it on phones: make dev (README.md)."


class Narrator:
    """Prints the public story of a game as it unfolds, like the table screen would."""

    def __init__(self, out=None):
        self.out = out  # None: whatever sys.stdout is when printing
        self.last_step = -1

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def __call__(self, action: dict, state: GameState) -> None:
        if state.step == self.last_step:
            return
        self.last_step = state.step
        v = view(state, None)
        today = v["today"]
        phase = state.phase
        if phase is Phase.PLACE_CHOICE:
            self.say(f"\n☀️  Day {v['day']} of {v['knights_day']} — seals {v['seals']}/"
                     f"{v['seals_to_win']}. The duck needs: {', '.join(today['required'])}")  # fmt: skip
        elif phase is Phase.WITCHES:
            self.say("   🌙 Everyone is gathering… the witches have 15 seconds.")
        elif phase is Phase.EVENING:
            frogs = today["new_frogs"]
            news = f"new frogs: {', '.join(frogs)}" if frogs else "everyone came back safely"
            if today["restored"]:
                news += f"; restored: {', '.join(today['restored'])}"
            self.say(f"   🦆 Evening: {news}.")
        elif phase is Phase.APPROVAL_RESULT:
            p = today["proposals"][-1]
            verdict = "passed" if p["passed"] else f"rejected (curse {v['curse']}/3)"
            self.say(f"   👑 {p['chief']} proposes {', '.join(p['members'])}: {verdict} "
                     f"— yes {p['yes']}, no {p['no']}")  # fmt: skip
        elif phase is Phase.RITUAL_RESULT or (phase is Phase.GAME_OVER and today["ritual_result"]
                                              and not today["vote"]):  # fmt: skip
            self.say(f"   🔮 The ritual: {today['ritual_result'].upper()}")
        elif phase is Phase.VOTE and today["ritual_result"] == "cursed":
            self.say("   ☠️  The curse gauge is full: no ritual tonight.")
        if phase in (Phase.VOTE_RESULT, Phase.GAME_OVER) and today and today["vote"]:
            vote = today["vote"]
            cast = ", ".join(f"{k}→{t or 'skip'}" for k, t in vote["votes"].items())
            self.say(f"   🗳  Vote: {cast}. Exiled: {vote['exiled'] or 'nobody'}")
        if phase is Phase.GAME_OVER:
            reveal = v["reveal"]
            self.say(f"\n🏁 {v['outcome']['winner'].upper()} win: {v['outcome']['reason']} "
                     f"on day {v['outcome']['day']}. Witch score: {reveal['witch_score']}")  # fmt: skip
            for name, role in reveal["roles"].items():
                form = next(p["form"] for p in v["players"] if p["name"] == name)
                self.say(f"   {name:8} {role:11} {form}")


#: The game's interface, for the turns a downloaded replay has besides moves.
GAME = CatchTheWitch()
#: Actions everyone at the table sees; the others (places, spells, abilities, cards,
#: votes before the reveal — and even their type, which can betray a role) are not
#: echoed: the output is public news only, and a changed vote leaves no trace (§3.6).
PUBLIC_ACTIONS = frozenset({"ready", "ok", "end_talk", "propose", "mark_away", "timeout"})


class Scenario(ScenarioFile):
    settings: Settings = Field(default_factory=Settings)
    roles: dict[str, str] | None = None
    required: list[list[str]] | None = None


def load(path: str | Path) -> Scenario:
    return Scenario.load(path)


def run(scenario: Scenario, out: TextIO | None = None) -> GameState:
    """Play every action; write events to ``out``; raise ReplayError on a bad action."""
    state = new_game(
        scenario.players, scenario.settings, seed=scenario.seed,
        roles=scenario.roles, required=scenario.required, host=scenario.host,
    )  # fmt: skip
    now = scenario.started_at or 0.0
    state = started = start(state, now)[0]
    for index, action, state, effects in played(GAME, started, scenario.actions, now):
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
