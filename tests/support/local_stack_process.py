"""Starts `python -m local_stack` as a child process on 127.0.0.1 (a free port) for tests,
and stops it with Ctrl-C (SIGINT) as a person would."""

import asyncio
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from functions.room_service.adapters.clock import WALL_CLOCK, GameClock

ROOT = Path(__file__).resolve().parents[2]

#: The game clock's speed for the tests that play on the local stack (docs/testing.md):
#: phones driven by Playwright still tap through the witches' 15 s (3.75 s here) and see
#: each countdown, while a Catch the Witch day's fixed 27 s take under 7. One test of each
#: game's timers runs at 1× (REAL_TIME).
BROWSER_TIME_SCALE = 4.0
#: Bot clients alone (no browser) answer in milliseconds: their games run faster still.
BOT_TIME_SCALE = 10.0
REAL_TIME = 1.0


class StackDidNotStop(AssertionError):
    """Ctrl-C did not stop the stack in time: it was killed (a test fails with its output;
    a bench says so and goes on)."""


class LocalStackProcess:
    def __init__(
        self, *args: str, time_scale: float = REAL_TIME, env: dict[str, str] | None = None
    ):
        """``env``: variables to add to the stack's environment (e.g. engine/games.py's
        EXTRA_GAMES, for a stack that hosts a game that is not shipped)."""
        if time_scale != REAL_TIME:
            args = (*args, "--time-scale", f"{time_scale:g}")
        self.time_scale = time_scale
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_ENDPOINT_URL")} | (
            env or {}
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "local_stack", "--host", "127.0.0.1", "--port", "0",
             "--no-qr", *args],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self._queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.http_url = self._wait_for(r"On this computer:\s+(\S+)").rstrip("/")
        self.websocket_url = self._wait_for(r"WebSocket:\s+(\S+)")
        #: The handlers' clock, to fake a view's deadline as the server would set it.
        self.clock = WALL_CLOCK
        if time_scale != REAL_TIME:
            origin = float(self._wait_for(r"time origin ([\d.]+)\)"))
            self.clock = GameClock(time_scale, origin)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)
            self._queue.put(line)

    def _wait_for(self, pattern: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self._queue.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None:
                    break
                continue
            found = re.search(pattern, line)
            if found:
                return found.group(1)
        raise RuntimeError("the local stack did not start:\n" + "".join(self.lines))

    def stats(self) -> dict:
        with urllib.request.urlopen(f"{self.http_url}/local/stats", timeout=5) as response:
            return json.load(response)

    def post(self, path: str) -> dict:
        request = urllib.request.Request(f"{self.http_url}{path}", method="POST", data=b"")
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response)

    def get(self, path: str) -> tuple[int, str]:
        with urllib.request.urlopen(f"{self.http_url}{path}", timeout=5) as response:
            return response.status, response.read().decode()

    def output(self) -> str:
        return "".join(self.lines)

    def kill(self) -> None:
        """A crash: SIGKILL, no clean-up (sockets drop without $disconnect)."""
        self.process.kill()
        self.process.wait(10)

    def interrupt(self, timeout: float = 30) -> int:
        """Ctrl-C; the exit code."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
            # What it was doing: its "[stop]" lines say which step of stopping was slow.
            raise StackDidNotStop(f"the local stack did not stop within {timeout:g} s of "
                                  "Ctrl-C (killed); its last output:\n" + "".join(self.lines[-30:])) from None  # fmt: skip


async def until(predicate, timeout: float = 5, what: str = "a condition", cats=()) -> None:
    """Wait (polling) until ``predicate()``; on a timeout, fail with the bots' state."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}\n{describe(cats)}")
        await asyncio.sleep(0.02)


def describe(cats) -> str:
    """One line per bot phone: where it is, for a failure message."""
    lines = []
    for cat in cats:
        game = cat.game() or {}
        lines.append(f"{cat.name}: connected={cat.connected} phase={game.get('phase')} "
                     f"day={game.get('day')} your_turn={game.get('your_turn')} "
                     f"seq={cat.seq} away={[p['name'] for p in game.get('players', []) if p['away']]} "
                     f"last sent={cat.sent[-1:]} errors={cat.errors}")  # fmt: skip
    return "\n".join(lines)


#: How long a browser test waits (ms) for the stack's four bots to sit in a new room: they
#: join one after another, and a loaded CI machine once took over 20 s for the four.
BOTS_SEATED_MS = 45_000
