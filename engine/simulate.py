"""Balance simulator: bots play many games; win rates by side and reason (RULES §11).

python -m engine.simulate --players 6 --games 2000 --seed 1 --json
python -m engine.simulate --players 4-12 --games 2000      # a table per count
python -m engine.simulate --game catch_the_witch            # a game of engine/games.py
python -m engine.simulate --players 4-12 --bot-level gentle  # the gentle table
"""

import argparse
import json
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from types import ModuleType
from typing import Any

from pydantic import ValidationError

from .command_lines import UnknownGame, helpers_of
from .games import DEFAULT_GAME, game_of


def _play_range(args: tuple[str, int, int, int, dict]) -> dict[str, Any]:
    key, count, first_seed, games, settings = args
    helpers = helpers_of(key)
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    totals: Counter[str] = Counter(dict.fromkeys(helpers.AVERAGES, 0))
    tallies: Counter[str] = Counter(dict.fromkeys(_tally_fields(helpers), 0))
    illegal = actions = unfinished = 0
    for seed in range(first_seed, first_seed + games):
        run = helpers.play_new(count, seed, settings)
        illegal += run.illegal_actions
        actions += run.actions
        if _tally_fields(helpers):
            tallies.update(helpers.tallies_of(run.state))
        outcome = helpers.outcome_of(run.state)
        if outcome is None:
            unfinished += 1
            continue
        wins[outcome["winner"]] += 1
        reasons[outcome["reason"]] += 1
        totals.update({field: outcome[field] for field in helpers.AVERAGES})
    return {"wins": wins, "reasons": reasons, "totals": totals, "tallies": tallies,
            "illegal": illegal, "actions": actions, "unfinished": unfinished}  # fmt: skip


def _tally_fields(helpers: ModuleType) -> dict[str, str]:
    """The game's counts of what happened in a game (``TALLIES``), if it offers any."""
    return getattr(helpers, "TALLIES", {})


def simulate(
    players: int,
    games: int,
    seed: int = 0,
    settings: dict | None = None,
    workers: int = 1,
    game: str = DEFAULT_GAME,
) -> dict[str, Any]:
    """Play ``games`` games of ``players`` bots; seeds seed, seed+1, …"""
    helpers = helpers_of(game)
    settings = helpers.settings_for(None) if settings is None else settings
    chunks = max(1, min(workers * 4, games))
    size, extra = divmod(games, chunks)
    jobs, start = [], seed
    for i in range(chunks):
        n = size + (1 if i < extra else 0)
        if n:
            jobs.append((game, players, start, n, settings))
            start += n
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_play_range, jobs))
    else:
        parts = [_play_range(job) for job in jobs]
    wins = Counter(dict.fromkeys(helpers.SIDES, 0))
    reasons = Counter(dict.fromkeys(helpers.REASONS, 0))
    totals: Counter[str] = Counter(dict.fromkeys(helpers.AVERAGES, 0))
    tallies: Counter[str] = Counter(dict.fromkeys(_tally_fields(helpers), 0))
    illegal = actions = unfinished = 0
    for part in parts:
        wins.update(part["wins"])
        reasons.update(part["reasons"])
        totals.update(part["totals"])
        tallies.update(part["tallies"])
        illegal += part["illegal"]
        actions += part["actions"]
        unfinished += part["unfinished"]
    finished = games - unfinished
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "wins": dict(wins),
        "win_rates": {k: round(v / games, 4) for k, v in wins.items()},
        "reasons": dict(reasons),
        **{
            f"avg_{label}": round(totals[field] / finished, 3) if finished else None
            for field, label in helpers.AVERAGES.items()
        },
        **{field: tallies[field] for field in _tally_fields(helpers)},
        **{
            rate: round(tallies[part] / tallies[whole], 4) if tallies[whole] else None
            for rate, (part, whole) in _rates(helpers).items()
        },
        "avg_actions": round(actions / games, 1),
        "illegal_actions": illegal,
        "unfinished": unfinished,
    }


def _counts(text: str) -> list[int]:
    if "-" in text:
        low, high = (int(x) for x in text.split("-"))
        return list(range(low, high + 1))
    return [int(x) for x in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.simulate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--game", default=DEFAULT_GAME, help="a game of engine/games.py")
    parser.add_argument("--players", default="4-12", help="a count, a list 4,6,8 or a range 4-12")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--limit", type=int, help="a step's time limit in seconds (the game's default: none)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (the machine has 2)")
    parser.add_argument(
        "--roles",
        help="a custom role set, e.g. witch,witch,crow,seer,… (RULES §2.1; one count only)",
    )
    parser.add_argument(
        "--bot-level",
        help="the room's bot level for every bot, e.g. gentle (Catch the Witch; default: "
        "the game's, sharp)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object (a list for ranges)")
    args = parser.parse_args(argv)
    try:
        helpers = helpers_of(args.game)
    except UnknownGame as exc:
        print(exc, file=sys.stderr)
        return 2
    counts = _counts(args.players)
    settings: dict[str, Any] = helpers.settings_for(args.limit)
    if args.roles:
        settings["roles"] = args.roles.split(",")
        counts = [len(settings["roles"])]
    if args.bot_level:
        if "bot_level" not in game_of(args.game).settings_model.model_fields:
            print(f"{args.game} has no bot level.", file=sys.stderr)
            return 2
        settings["bot_level"] = args.bot_level
        try:
            game_of(args.game).settings_model.model_validate(settings)
        except ValidationError as exc:
            print(f"--bot-level: {exc.errors(include_url=False)[0]['msg']}", file=sys.stderr)
            return 2
    results = []
    if not args.json:
        print(_header(helpers), flush=True)
    for count in counts:
        results.append(simulate(count, args.games, args.seed, settings, args.workers, args.game))
        if not args.json:
            print(_row(results[-1], helpers), flush=True)  # one row as each count finishes
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results))
    return 1 if any(r["illegal_actions"] or r["unfinished"] for r in results) else 0


def _rates(helpers: ModuleType) -> dict[str, tuple[str, str]]:
    """The game's shares of its tallies (``RATES``: ``{name: (part, whole)}``)."""
    return getattr(helpers, "RATES", {})


def _header(helpers: ModuleType) -> str:
    averages = [f"avg {label}" for label in helpers.AVERAGES.values()]
    rates = [rate.replace("_", " ") for rate in _rates(helpers)]
    columns = [helpers.PLAYERS_COLUMN, "games", *helpers.SIDES, *averages, *rates, "illegal"]
    return " | ".join([*columns, *helpers.REASONS])


def _row(r: dict[str, Any], helpers: ModuleType) -> str:
    rates = r["win_rates"]
    cells = [str(r["players"]), str(r["games"])]
    cells += [f"{rates[side]:.1%}" for side in helpers.SIDES]
    cells += [str(r[f"avg_{label}"]) for label in helpers.AVERAGES.values()]
    cells += ["–" if r[rate] is None else f"{r[rate]:.0%}" for rate in _rates(helpers)]
    cells += [str(r["illegal_actions"])]
    cells += [str(r["reasons"][k]) for k in helpers.REASONS]
    return " | ".join(cells)


if __name__ == "__main__":
    sys.exit(main())
