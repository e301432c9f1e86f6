"""Engine cost: per action including every cat's view, and full bot games per second.

    python bench/engine.py            (or: make bench)

Prints figures, asserts nothing (machines are shared and noisy; compare ratios within
one run). Target (issue 6): <= 1 ms per action with all 12 views built.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.catch_the_witch import all_views, apply, new_game
from engine.catch_the_witch.autoplay import bot_names, play, play_new

GAMES = 30


def record_game(count: int, seed: int):
    """A bot game's actions, to replay them without the bots' thinking time."""
    actions: list[dict] = []
    state = new_game(bot_names(count), {"discussion_limit": 120}, seed=seed)
    play(state, bot_seed=seed, observer=lambda action, _: actions.append(dict(action)))
    return state, actions


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
    return {
        "actions": len(apply_ns),
        "apply_ms_mean": statistics.fmean(apply_ns) / 1e6,
        "with_views_ms_mean": statistics.fmean(total_ns) / 1e6,
        "with_views_ms_p95": statistics.quantiles(total_ns, n=20)[18] / 1e6,
    }


def games_per_second(count: int) -> float:
    start = time.perf_counter()
    for seed in range(GAMES):
        play_new(count, seed)
    return GAMES / (time.perf_counter() - start)


def main() -> None:
    print(f"engine benchmark — {GAMES} bot games per row, Python {sys.version.split()[0]}")
    print("cats | actions | apply ms | apply+all views ms (mean) | p95 | bot games/s")
    for count in (4, 8, 12):
        c = cost_per_action(count)
        gps = games_per_second(count)
        print(
            f"{count:4} | {c['actions']:7} | {c['apply_ms_mean']:8.3f} | "
            f"{c['with_views_ms_mean']:25.3f} | {c['with_views_ms_p95']:.3f} | {gps:.1f}"
        )


if __name__ == "__main__":
    main()
