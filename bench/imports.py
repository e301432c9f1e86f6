"""Cold import time of each Lambda handler, split by top-level package.

    python bench/imports.py [--runs 5]        (part of: make bench)

Each run is a fresh interpreter with `python -X importtime -c "import functions.<name>"`
(what a Lambda cold start imports before the first event); the median run is reported.
Target: <= 250 ms per handler. Prints figures; asserts nothing.
"""

import argparse
import re
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HANDLERS = ["connect", "message", "disconnect", "timer"]
LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def one_run(module: str) -> tuple[float, Counter]:
    """(total ms, self ms by top-level package) of one cold import."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "eu-west-1", "TABLE_NAME": "t",
             "POWERTOOLS_SERVICE_NAME": "bench", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    by_package: Counter = Counter()
    total = 0.0
    for match in LINE.finditer(done.stderr):
        self_us, cumulative_us, _indent, name = match.groups()
        by_package[name.split(".")[0]] += int(self_us) / 1000
        if name == module:
            total = int(cumulative_us) / 1000
    return total, by_package


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"handler cold import (python -X importtime, median of {args.runs} fresh runs)")
    for name in HANDLERS:
        runs = sorted((one_run(f"functions.{name}") for _ in range(args.runs)), key=lambda r: r[0])
        total, packages = runs[len(runs) // 2]
        top = ", ".join(f"{pkg} {ms:.0f}" for pkg, ms in packages.most_common(6))
        spread = statistics.pstdev(r[0] for r in runs)
        print(f"  functions.{name:10s} {total:6.0f} ms (±{spread:.0f})  by package (ms): {top}")
    # functions/room_service/adapters/aws_client.py imports boto3 on the first AWS call, not at import:
    # that time lands on a cold start's first request instead.
    runs = sorted((one_run("boto3") for _ in range(args.runs)), key=lambda r: r[0])
    print(f"  boto3 (on the first AWS call) {runs[len(runs) // 2][0]:.0f} ms")
    print("  target <= 250 ms per handler")


if __name__ == "__main__":
    main()
