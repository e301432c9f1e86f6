"""Play a scenario file and print what happens, one JSON object per line.

    python -m engine.replay tests/engine/scenarios/seals_complete.json
    python -m engine.replay --game catch_the_witch FILE.json

A file that names its ``game`` (a replay downloaded from a room does) is played as that
game unless ``--game`` says otherwise.

The file format is in docs/replay.md. The last line is
``{"outcome": {"winner": ..., "reason": ..., "day": n}}`` or ``{"outcome": null}``.
An illegal or malformed action stops the replay with exit code 2 and a message
naming the action's index and the rule, as does an unknown ``--game``; an unreadable
file exits with 1.
"""

import json
import sys
from pathlib import Path

from pydantic import ValidationError

from .command_lines import UnknownGame, helpers_of
from .errors import GameError
from .games import DEFAULT_GAME


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    argv_given = list(args)
    key = DEFAULT_GAME
    if "--game" in args:
        at = args.index("--game")
        key = args[at + 1] if at + 1 < len(args) else ""
        del args[at : at + 2]
    if len(args) != 1 or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 1
    if "--game" not in argv_given:
        key = _named_game(args[0]) or key
    try:
        game = helpers_of(key)
    except UnknownGame as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        scenario = game.load(args[0])
    except (OSError, ValidationError, ValueError) as exc:
        print(f"cannot read {args[0]}: {exc}", file=sys.stderr)
        return 1
    try:
        state = game.run(scenario, sys.stdout)
    except game.ReplayError as exc:
        print(f"illegal: {exc}", file=sys.stderr)
        return 2
    except GameError as exc:  # the setup itself (players, roles) breaks a rule
        print(f"illegal setup: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"outcome": game.outcome_of(state)}))
    return 0


def _named_game(path: str) -> str | None:
    """The game a file names (a replay downloaded from a room does), if it can be read."""
    try:
        named = json.loads(Path(path).read_text(encoding="utf-8")).get("game")
    except (OSError, ValueError, AttributeError):
        return None  # the load below reports an unreadable file
    return named if isinstance(named, str) else None


if __name__ == "__main__":
    sys.exit(main())
