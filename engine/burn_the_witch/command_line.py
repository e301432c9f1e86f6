"""Burn the Witch's helpers for the command lines (engine/simulate.py, replay.py, demo.py),
found through ``BurnTheWitch.command_line`` (engine/command_lines.py says what they are).

Everything here drives the game through its ``Game`` interface alone (new_game, start,
apply, time_out, views, bot_move), as the room service does: the bots read only the
view their phone would show, and a bot's move goes through the same checks as a phone's.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from pydantic import Field

from ..command_lines import ReplayError, ScenarioFile
from ..errors import GameError
from ..replaying import played
from ..rng import Rng
from .game import BurnTheWitch

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
    "GameRun",
    "Narrator",
    "ReplayError",
    "Scenario",
    "bot_names",
    "load",
    "new_state",
    "outcome_of",
    "play",
    "play_new",
    "run",
    "settings_for",
    "tallies_of",
]

GAME = BurnTheWitch()

#: The simulator's columns: who won and why (RULES-burn-the-witch §1).
SIDES = ["zealots", "sympathizers"]
REASONS = ["all_witches_burned", "threshold_reached"]
#: The outcome's numbers the simulator averages.
AVERAGES = {"rounds": "rounds", "trials": "trials", "hexes": "hexes"}
PLAYERS_COLUMN = "players"


class Deduction(NamedTuple):
    """A kind of choice the players make, counted in each game (``whole``), with how many of
    them hit a witch (``part``) and the share that did (``rate``): how well the bots deduce.
    ``whole_means`` and ``part_means`` say what each count counts."""

    whole: str
    whole_means: str
    part: str
    part_means: str
    rate: str


DEDUCTIONS = [
    Deduction("burns", "villagers burned, in any way (§3 execution, §4 trial, §5 hex, §6 penalty)",
              "burns_of_witches", "…of them witches", "witch_burn_rate"),
    Deduction("executions", "villagers burned by a round's executioner after the vote (§3.3)",
              "executions_of_witches", "…of them witches", "witch_execution_rate"),
    Deduction("zealot_executions", "executions by a zealot, who knows no house but their own",
              "zealot_executions_of_witches", "…of them witches", "zealot_witch_execution_rate"),
    Deduction("trials", "Trials by Fire decided (§4)", "trials_of_witch_houses",
              "…of them choosing a player whose house still hid a witch", "witch_house_trial_rate"),
    Deduction("accusations", "traits accused (§3.1)", "accusations_of_witch_traits",
              "…of them a trait that a living witch showed", "witch_trait_accusation_rate"),
]  # fmt: skip
#: What the simulator counts in each game, and the shares it reports (engine/simulate.py).
TALLIES = {name: means for d in DEDUCTIONS for name, means in ((d.whole, d.whole_means),
                                                                (d.part, d.part_means))}  # fmt: skip
RATES = {d.rate: (d.part, d.whole) for d in DEDUCTIONS}

DEMO_TITLE = "🔥 Burn the Witch"
#: The demo's last line: where people can play it.
DEMO_ON_PHONES = "Play it on phones: make dev, then pick Burn the Witch (README.md)."

#: Seconds a bot takes per action in simulated time (well inside every limit).
BOT_THINKING_SECONDS = 0.2
#: A game removes a villager every round or effect (§8), so 30 villagers end it long
#: before this; the bound only stops a broken engine or bot from looping for ever.
MAX_ACTIONS = 5_000

Observer = Callable[[dict, Any], None]


#: A move of each type as a phone sends it (actions.py), its fields by its name,
#: and a host's change of settings: the sample events (events/generate.py).
SAMPLE_MOVES: dict[str, dict[str, Any]] = {
    "bewitch": {"direction": "left"},
    "accuse": {"trait": "hat"},
    "vote": {"burn": 2, "save": 1},
    "execute": {"villager": "Agnes"},
    "point": {"target": "Bo", "locked": True},
    "choose_villager": {"villager": "Bram"},
    "retribute": {"target": None},
    "mark_away": {"target": "Di"},
}
SAMPLE_SETTINGS: dict[str, Any] = {"timers": True, "timer_seconds": 60}


def settings_for(limit: int | None) -> dict[str, Any]:
    """A ``--limit`` of the command lines turns §6's timers on at that many seconds."""
    return {} if limit is None else {"timers": True, "timer_seconds": limit}


def bot_names(count: int) -> list[str]:
    return [f"Bot{i}" for i in range(1, count + 1)]


def _count(history: list[dict], **match: str) -> int:
    return sum(1 for event in history if all(event.get(k) == v for k, v in match.items()))


def outcome_of(state: Any) -> dict[str, Any] | None:
    """Who won, why, in which round, how many Trials by Fire were decided, and how many
    villagers a hex cost (§5's penalties, retributive ones included)."""
    table = GAME.table_view(state)
    result = table["outcome"]
    if result is None:
        return None
    history = table["history"]
    return {
        "winner": result["winner"],
        "reason": result["reason"],
        "rounds": table["round"],
        "trials": _count(history, kind="trial"),
        "hexes": _count(history, kind="burn", cause="hex"),
    }


def tallies_of(state: Any) -> dict[str, int]:
    """``TALLIES`` of a game, read from its public history walked once: which villagers
    still lived at each event follows from the burns before it."""
    villagers = [v for p in state.players for v in [*p.villagers, *p.burned]]
    witches = {v.name: v.traits for v in villagers if v.identity == "witch"}
    house_of = {v.name: p.name for p in state.players for v in [*p.villagers, *p.burned]}
    burned: set[str] = set()
    tallies = dict.fromkeys(TALLIES, 0)

    def count(name: str, witch: bool) -> None:
        tallies[name] += 1
        tallies[f"{name}_of_witches"] += witch

    for event in state.history:
        kind = event["kind"]
        living_witches = [name for name in witches if name not in burned]
        if kind == "accuse":
            tallies["accusations"] += 1
            tallies["accusations_of_witch_traits"] += any(
                event["trait"] in witches[name] for name in living_witches
            )
        elif kind == "trial":
            tallies["trials"] += 1
            tallies["trials_of_witch_houses"] += any(
                house_of[name] == event["chosen"] for name in living_witches
            )
        elif kind == "burn":
            witch = event["identity"] == "witch"
            count("burns", witch)
            if event["cause"] == "execution":
                count("executions", witch)
                if state.player(event["by"]).faction == "zealot":
                    count("zealot_executions", witch)
            burned.add(event["villager"])
    return tallies


@dataclass
class GameRun:
    state: Any
    actions: int = 0
    illegal_actions: int = 0
    timeouts: int = 0
    errors: list[str] = field(default_factory=list)


def play(
    state: Any,
    bot_seed: int = 0,
    now: float = 0.0,
    observer: Observer | None = None,
    bot_players: set[str] | None = None,
) -> GameRun:
    """Let bots (every player, or ``bot_players``) act until the game ends.

    After each move every player's view is built anew, as the backend pushes them; the
    first player in seat order whose bot wants to act does. When no bot wants to, the
    step's deadline passes and the game times out, as the backend's timer would.
    """
    rng = Rng(bot_seed)
    run = GameRun(state=state)
    while not GAME.is_over(run.state) and run.actions < MAX_ACTIONS:
        move = None
        for name, seen in GAME.views(run.state).items():
            if (bot_players is not None and name not in bot_players) or not seen["me"]["can"]:
                continue
            move = GAME.bot_move(seen, rng)
            if move is not None:
                move = {**move, "player": name}
                break
        if move is None:
            deadline = GAME.deadline(run.state)
            if deadline is None:
                break  # waiting for a player who is not a bot
            now = max(now, deadline)
            run.state, _ = GAME.time_out(run.state, now)
            run.timeouts += 1
            move = {"type": "timeout"}
        else:
            try:
                run.state, _ = GAME.apply(run.state, GAME.parse_move(move), now)
            except GameError as exc:
                run.illegal_actions += 1
                run.errors.append(f"{move}: {exc}")
                if len(run.errors) > 20:
                    break  # a bot repeating a refused move would loop for ever
                continue
            now += BOT_THINKING_SECONDS
        run.actions += 1
        if observer:
            observer(move, run.state)
    return run


def new_state(count: int, seed: int, settings: dict | None = None) -> Any:
    names = bot_names(count)
    return GAME.new_game(names, GAME.parse_settings(settings or {}), seed, names[0])


def play_new(
    count: int, seed: int, settings: dict | None = None, observer: Observer | None = None
) -> GameRun:
    state, _ = GAME.start(new_state(count, seed, settings), 0.0)
    return play(state, bot_seed=seed, observer=observer)


# -- the demo ---------------------------------------------------------------------------------
#: How the demo tells each kind of public event (views.py's history).
STORY = {
    "accuse": "\n🗣  Round {round}: {accuser} accuses the villagers with {trait}.",
    "vote": "   🗳  Burn {burn}, save {save}: {outcome}.",
    "burn": "   🔥 {by} burns {villager} ({owner}'s house, {cause}): {identity}.",
    "hexed": "   🕯  {owner}'s house is hexed.",
    "trial": "   👉 Trial by Fire: {pointing} — {chosen} must burn one of their own.",
    "retribution": "   ⚖️  {by} lays the hex on {target}.",
    "timed_out": "   ⌛ {player} ran out of time ({step}).",
}


def describe(event: dict[str, Any]) -> str:
    """One public event of the history as a line of the story."""
    fields = dict(event)
    if event["kind"] == "trial":
        pointing = ", ".join(f"{k}→{v}" for k, v in event["points"].items())
        fields["pointing"] = pointing or "nobody pointed"
    template = STORY.get(event["kind"])
    return template.format(**fields) if template else f"   {event}"


class Narrator:
    """Prints the public story as it unfolds: each new event of the table's history."""

    def __init__(self, out=None):
        self.out = out  # None: whatever sys.stdout is when printing
        self.told = 0

    def __call__(self, action: dict, state: Any) -> None:
        table = GAME.table_view(state)
        for event in table["history"][self.told :]:
            print(describe(event), file=self.out)
        self.told = len(table["history"])
        result = table["outcome"]
        if result is not None:
            print(f"\n🏁 {result['winner'].upper()} win: {result['reason']} in round "
                  f"{table['round']}.", file=self.out)  # fmt: skip
            for name, faction in result["factions"].items():
                print(f"   {name:8} {faction}", file=self.out)


# -- the replay -------------------------------------------------------------------------------
#: Moves everyone at the table sees; the others (the coven's direction, ballots, points
#: before they are revealed) are not echoed, not even their type: the history's public
#: events carry what the table learns of them.
PUBLIC_ACTIONS = frozenset({"accuse", "execute", "choose_villager", "retribute", "mark_away",
                            "timeout"})  # fmt: skip


class Scenario(ScenarioFile):
    """A replay file (docs/replay.md): the deal comes from ``seed``."""

    settings: dict[str, Any] = Field(default_factory=dict)


def load(path: str | Path) -> Scenario:
    return Scenario.load(path)


def scenario_state(scenario: Scenario) -> Any:
    """The scenario's new game, started at its ``started_at`` (0 s if it has none); a
    GameError if its setup breaks a rule."""
    settings = GAME.parse_settings(scenario.settings)
    problem = GAME.start_problem(settings, len(scenario.players))
    if problem is not None:
        raise problem
    host = scenario.host or scenario.players[0]
    state = GAME.new_game(scenario.players, settings, scenario.seed, host)
    return GAME.start(state, scenario.started_at or 0.0)[0]


def run(scenario: Scenario, out: TextIO | None = None) -> Any:
    """Play every action; write public news to ``out``; raise ReplayError on a bad one."""
    state = started = scenario_state(scenario)
    told = len(GAME.table_view(started)["history"])
    for index, action, state, _ in played(GAME, started, scenario.actions,
                                          scenario.started_at or 0.0):  # fmt: skip
        if out is not None:
            out.write(json.dumps(event(index, action, state, told)) + "\n")
        told = len(GAME.table_view(state)["history"])
    return state


def event(index: int, action: dict, state: Any, told: int) -> dict[str, Any]:
    """One output line: the action if public, the step it led to and the table's news."""
    table = GAME.table_view(state)
    line: dict[str, Any] = {"index": index}
    if action.get("type") in PUBLIC_ACTIONS:
        line["action"] = action
    line.update(round=table["round"], phase=table["phase"])
    news = table["history"][told:]
    if news:
        line["news"] = news
    return line
