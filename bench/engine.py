"""Engine cost: per action including every player's view, and full bot games per second.

    python bench/engine.py            (or: make bench)

Every game with command-line helpers (engine/games.py; engine/command_lines.py says what
they are), at its smallest, middle and largest table. Prints figures, asserts nothing
(machines are shared and noisy; compare ratios within one run). Target: <= 1 ms per
action with every view built, at each game's largest table.
"""

import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.command_lines import helpers_of
from engine.game import Game
from engine.games import GAMES

GAMES_PER_ROW = 30
#: Game seconds between two replayed moves, as the simulator's bots take.
MOVE_SECONDS = 0.2


def table_sizes(game: Game) -> list[int]:
    """The game's smallest, middle and largest table."""
    return sorted({game.min_players, (game.min_players + game.max_players) // 2,
                   game.max_players})  # fmt: skip


def recorded_moves(helpers: ModuleType, count: int, seed: int) -> list[dict]:
    """A bot game's moves and timeouts, to replay them without the bots' thinking time."""
    moves: list[dict] = []
    helpers.play_new(count, seed, observer=lambda move, _: moves.append(dict(move)))
    return moves


def figures(apply_ns: list[float], total_ns: list[float]) -> dict[str, float]:
    """Mean ms per action without and with the views, and the 95th percentile with."""
    return {
        "actions": len(apply_ns),
        "apply_ms_mean": statistics.fmean(apply_ns) / 1e6,
        "with_views_ms_mean": statistics.fmean(total_ns) / 1e6,
        "with_views_ms_p95": statistics.quantiles(total_ns, n=20)[18] / 1e6,
    }


def cost_per_action(game: Game, helpers: ModuleType, count: int) -> dict[str, float]:
    """Replay recorded bot games through the ``Game`` interface; time each move (or
    timeout) alone and with every player's view, as the backend builds them."""
    apply_ns: list[float] = []
    total_ns: list[float] = []
    for seed in range(GAMES_PER_ROW):
        moves = recorded_moves(helpers, count, seed)
        state, _ = game.start(helpers.new_state(count, seed), 0.0)
        now = 0.0
        for move in moves:
            t0 = time.perf_counter_ns()
            if move["type"] == "timeout":
                now = max(now, game.deadline(state) or now)
                state, _ = game.time_out(state, now)
            else:
                now += MOVE_SECONDS
                state, _ = game.apply(state, game.parse_move(move), now)
            t1 = time.perf_counter_ns()
            game.views(state)
            t2 = time.perf_counter_ns()
            apply_ns.append(t1 - t0)
            total_ns.append(t2 - t0)
    return figures(apply_ns, total_ns)


def games_per_second(helpers: ModuleType, count: int) -> float:
    start = time.perf_counter()
    for seed in range(GAMES_PER_ROW):
        helpers.play_new(count, seed)
    return GAMES_PER_ROW / (time.perf_counter() - start)


def print_rows(game: Game, helpers: ModuleType) -> None:
    column = helpers.PLAYERS_COLUMN
    print(helpers.DEMO_TITLE)
    print(f"{column} | actions | apply ms | apply+all views ms (mean) | p95 | bot games/s")
    for count in table_sizes(game):
        c = cost_per_action(game, helpers, count)
        gps = games_per_second(helpers, count)
        print(
            f"{count:{len(column)}} | {c['actions']:7} | {c['apply_ms_mean']:8.3f} | "
            f"{c['with_views_ms_mean']:25.3f} | {c['with_views_ms_p95']:.3f} | {gps:.1f}"
        )


def main() -> None:
    print(f"engine benchmark — {GAMES_PER_ROW} bot games per row, Python "
          f"{sys.version.split()[0]}")  # fmt: skip
    for key, game in GAMES.items():
        if game.command_line is not None:
            print_rows(game, helpers_of(key))


if __name__ == "__main__":
    main()
