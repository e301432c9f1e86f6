"""Play a game with bots deciding for the cats (simulator, demo, tests, benchmarks)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import GameError
from ..rng import Rng
from . import bots
from .domain import Phase, Role
from .rules import apply, new_game, waiting_for
from .state import GameState
from .views import view

#: Seconds a bot takes per action in simulated time (well inside every timer).
BOT_THINKING_SECONDS = 0.2
MAX_ACTIONS = 10_000

Observer = Callable[[dict, GameState], None]


@dataclass
class GameRun:
    state: GameState
    actions: int = 0
    illegal_actions: int = 0
    timeouts: int = 0
    errors: list[str] = field(default_factory=list)


def bot_names(count: int) -> list[str]:
    return [f"Cat{i}" for i in range(1, count + 1)]


def _actors(state: GameState) -> list[str]:
    """Who might act now: the step's waiting list, then the Seer and Pickpocket (optional)."""
    names = waiting_for(state)
    for cat in state.players:
        if cat.role in (Role.SEER, Role.PICKPOCKET) and cat.name not in names:
            names.append(cat.name)
    return names


def play(
    state: GameState,
    bot_seed: int = 0,
    now: float = 0.0,
    observer: Observer | None = None,
    bot_players: set[str] | None = None,
) -> GameRun:
    """Let bots act (every cat, or ``bot_players``) until the game ends.

    When nobody wants to act the current deadline is allowed to pass and a
    ``timeout`` is applied, as the backend's timer would.
    """
    rng = Rng(bot_seed)
    run = GameRun(state=state)
    while run.state.phase is not Phase.GAME_OVER and run.actions < MAX_ACTIONS:
        acted = False
        for name in _actors(run.state):
            if bot_players is not None and name not in bot_players:
                continue
            action = bots.decide(view(run.state, name), rng)
            if action is None:
                continue
            action["player"] = name
            try:
                run.state, _ = apply(run.state, action, now)
            except GameError as exc:
                run.illegal_actions += 1
                run.errors.append(f"{action}: {exc}")
                continue
            run.actions += 1
            now += BOT_THINKING_SECONDS
            if observer:
                observer(action, run.state)
            acted = True
            break
        if acted:
            continue
        if run.state.deadline is None:
            break  # waiting for a cat that is not a bot
        now = max(now, run.state.deadline)
        timeout = {"type": "timeout", "step": run.state.step}
        run.state, _ = apply(run.state, timeout, now)
        run.timeouts += 1
        run.actions += 1
        if observer:
            observer(timeout, run.state)
    return run


def play_new(count: int, seed: int, settings: dict | None = None, **kwargs) -> GameRun:
    state = new_game(bot_names(count), settings or {}, seed=seed)
    return play(state, bot_seed=seed, **kwargs)
