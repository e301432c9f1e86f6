"""A full bot game printed turn by turn (what `make dev` runs until the local stack exists).

python -m engine.demo --players 7 --seed 3
"""

import argparse
import sys

from .command_lines import UnknownGame, helpers_of
from .games import DEFAULT_GAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.demo", description=__doc__)
    parser.add_argument("--game", default=DEFAULT_GAME, help="a game of engine/games.py")
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, help="a step's time limit (s; the game's default)")
    args = parser.parse_args(argv)
    try:
        game = helpers_of(args.game)
    except UnknownGame as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"{game.DEMO_TITLE} — {args.players} bot {game.PLAYERS_COLUMN}, seed {args.seed}")
    narrator = game.Narrator()
    run = game.play_new(args.players, args.seed, game.settings_for(args.limit), observer=narrator)
    print(f"\n{run.actions} actions, {run.timeouts} timers fired, "
          f"{run.illegal_actions} illegal actions.")  # fmt: skip
    print(game.DEMO_ON_PHONES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
