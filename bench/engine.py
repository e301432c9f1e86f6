"""Engine cost: per action including every player's view, and full bot games per second.

    python bench/engine.py            (or: make bench)

Prints figures, asserts nothing (machines are shared and noisy; compare ratios within
one run). Targets: <= 1 ms per action with every view built, Catch the Witch at 12 cats
and Burn the Witch at 10 players, the largest table of each game.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.burn_the_witch import command_line as btw
from engine.catch_the_witch import all_views, apply, new_game
from engine.catch_the_witch.autoplay import bot_names, play, play_new

GAMES = 30


def record_game(count: int, seed: int):
    """A bot game's actions, to replay them without the bots' thinking time."""
    actions: list[dict] = []
    state = new_game(bot_names(count), {"discussion_limit": 120}, seed=seed)
    play(state, bot_seed=seed, observer=lambda action, _: actions.append(dict(action)))
    return state, actions


def figures(apply_ns: list[float], total_ns: list[float]) -> dict[str, float]:
    """Mean ms per action without and with the views, and the 95th percentile with."""
    return {
        "actions": len(apply_ns),
        "apply_ms_mean": statistics.fmean(apply_ns) / 1e6,
        "with_views_ms_mean": statistics.fmean(total_ns) / 1e6,
        "with_views_ms_p95": statistics.quantiles(total_ns, n=20)[18] / 1e6,
    }


def cost_per_action(count: int) -> dict[str, float]:
    """Replay recorded games; time apply() alone and apply() + every cat's view."""
    apply_ns: list[float] = []
    total_ns: list[float] = []
    for seed in range(GAMES):
        state, actions = record_game(count, seed)
        now = 0.0
        for action in actions:
            if action["type"] == "timeout":
                now = max(now, state.deadline or now)
            else:
                now += 0.2
            t0 = time.perf_counter_ns()
            state, _ = apply(state, action, now)
            t1 = time.perf_counter_ns()
            all_views(state)  # every cat's view, as the backend pushes after each action
            t2 = time.perf_counter_ns()
            apply_ns.append(t1 - t0)
            total_ns.append(t2 - t0)
    return figures(apply_ns, total_ns)


def games_per_second(count: int, play_game=play_new) -> float:
    start = time.perf_counter()
    for seed in range(GAMES):
        play_game(count, seed)
    return GAMES / (time.perf_counter() - start)


def btw_cost_per_action(count: int) -> dict[str, float]:
    """Burn the Witch: replay recorded bot games through the Game interface; time each
    move (or timeout) alone and with every player's view, as the backend builds them."""
    game = btw.GAME
    apply_ns: list[float] = []
    total_ns: list[float] = []
    for seed in range(GAMES):
        moves: list[dict] = []
        btw.play_new(count, seed, observer=lambda move, _, kept=moves: kept.append(move))
        state, _ = game.start(btw.new_state(count, seed), 0.0)
        now = 0.0
        for move in moves:
            t0 = time.perf_counter_ns()
            if move["type"] == "timeout":
                now = max(now, game.deadline(state) or now)
                state, _ = game.time_out(state, now)
            else:
                now += btw.BOT_THINKING_SECONDS
                state, _ = game.apply(state, game.parse_move(move), now)
            t1 = time.perf_counter_ns()
            game.views(state)
            t2 = time.perf_counter_ns()
            apply_ns.append(t1 - t0)
            total_ns.append(t2 - t0)
    return figures(apply_ns, total_ns)


def print_rows(column: str, counts: tuple[int, ...], cost, play_game) -> None:
    print(f"{column} | actions | apply ms | apply+all views ms (mean) | p95 | bot games/s")
    for count in counts:
        c = cost(count)
        gps = games_per_second(count, play_game)
        print(
            f"{count:{len(column)}} | {c['actions']:7} | {c['apply_ms_mean']:8.3f} | "
            f"{c['with_views_ms_mean']:25.3f} | {c['with_views_ms_p95']:.3f} | {gps:.1f}"
        )


def main() -> None:
    print(f"engine benchmark — {GAMES} bot games per row, Python {sys.version.split()[0]}")
    print_rows("cats", (4, 8, 12), cost_per_action, play_new)
    print("Burn the Witch")
    print_rows("players", (5, 10), btw_cost_per_action, btw.play_new)


if __name__ == "__main__":
    main()
