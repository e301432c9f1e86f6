"""The room service's clock: the wall clock on AWS; on the local stack, optionally N times
faster (``python -m local_stack --time-scale N``).

A faster clock makes every deadline N times shorter in real time without changing a rule:
the engine still gives the witches 15 s of *game* time, views still carry game-time
deadlines, screens still say "15 s"; only game time runs N times faster than the wall's.
Tests use it so a day that takes 27 s at a real table takes a few seconds.

Game time is ``origin + (wall - origin) × scale``. Every process that reads the clock
(each Lambda worker, and the phones through ``/config.json``) gets the same origin and
scale, so they agree on what "now" is, as the wall clock makes them agree on AWS.

Only the local stack sets the two variables; a Lambda function on AWS refuses them (its
runtime sets ``AWS_LAMBDA_FUNCTION_NAME`` and friends, reserved variables no function's
environment can override), so a template edit cannot make a real game's timers run fast.
"""

import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass

#: The environment variables the local stack sets for its Lambda workers.
TIME_SCALE_VARIABLE = "LOCAL_TIME_SCALE"
TIME_ORIGIN_VARIABLE = "LOCAL_TIME_ORIGIN"
#: SQS delays are whole seconds, so a step its timer ends lasts up to one wall second
#: (N game seconds) past its deadline: at 10× a 4 s step may take 10 game seconds.
#: Beyond 10×, SQS's grid, not the rules, would decide how long steps last.
MAX_TIME_SCALE = 10.0
#: Set in every Lambda function on AWS (managed runtimes, OS-only runtimes, container
#: images alike); the local stack's workers set none of them.
LAMBDA_VARIABLES = ("AWS_EXECUTION_ENV", "AWS_LAMBDA_FUNCTION_NAME", "AWS_LAMBDA_RUNTIME_API")


class TimeScaleRefused(RuntimeError):
    """A time scale where it has no business: on AWS, or not a number in range."""


@dataclass(frozen=True)
class GameClock:
    scale: float = 1.0
    origin: float = 0.0  # a wall-clock instant at which game time equals wall time

    def now(self) -> float:
        """Game time, in seconds since the epoch."""
        wall = time.time()
        return wall if self.scale == 1 else self.origin + (wall - self.origin) * self.scale

    def real_seconds(self, game_seconds: float) -> float:
        """How long ``game_seconds`` of game time take on the wall clock."""
        return game_seconds / self.scale


WALL_CLOCK = GameClock()


def clock_from_environment(environ: Mapping[str, str] = os.environ) -> GameClock:
    """The wall clock, unless the local stack asked for a faster one."""
    scale_text = environ.get(TIME_SCALE_VARIABLE, "").strip()
    if not scale_text:
        return WALL_CLOCK
    if any(environ.get(name) for name in LAMBDA_VARIABLES):
        raise TimeScaleRefused(
            f"{TIME_SCALE_VARIABLE} is for the local stack only; on AWS every game runs on "
            "the wall clock: remove it from the function's environment"
        )
    scale = parse_time_scale(scale_text)
    try:
        origin = float(environ[TIME_ORIGIN_VARIABLE])
    except (KeyError, ValueError):
        raise TimeScaleRefused(f"{TIME_SCALE_VARIABLE} needs {TIME_ORIGIN_VARIABLE} (a wall-clock "
                               "time in seconds) so every process agrees on game time") from None  # fmt: skip
    return GameClock(scale, origin)


def parse_time_scale(text: str) -> float:
    """A scale from a command line or the environment: a number from 1 to MAX_TIME_SCALE."""
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not 1 <= scale <= MAX_TIME_SCALE:
        raise TimeScaleRefused(
            f"a time scale is a number from 1 to {MAX_TIME_SCALE:g}, not {text!r}"
        )
    return scale
