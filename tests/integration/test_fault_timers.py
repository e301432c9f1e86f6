"""Fault test: SQS delivers at least once and never early, but may deliver
twice or late. Every timed step here ends by its deadline (the bots act only where a step
has no timer), and every timer is delivered twice, the second copy up to 40 s late, or
only late. The game must play out exactly as with each timer delivered once, on time."""

import random

import pytest

from engine.catch_the_witch import bots
from engine.rng import Rng
from functions.room_service.service import game_handlers
from tests.support.service_harness import Harness, result_of

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay"]


def _play(seed: int, faulty: bool) -> dict:
    h = Harness()
    h.table(NAMES)  # discussion limit 60 s: every step of RULES §9 has a countdown
    h.send("Ann", action="start")
    brains, faults = Rng(seed), random.Random(seed)
    queue: list[tuple[float, int, dict]] = []  # (due, order, message)
    delivered = 0
    for order in range(20_000):
        if result_of(h.view("Ann")):
            break
        acted = False
        for name in NAMES:
            view = h.view(name)
            action = bots.decide(view, brains) if view["deadline"] is None else None
            if action is not None:
                kind = action.pop("type")
                h.send(name, action=kind, **action)
                assert h.messages(name)[-1]["type"] != "error", (name, kind)
                h.clock.now += 0.5
                acted = True
                break
        for message, delay in h.timers.scheduled:
            due = h.clock.now + delay
            if not faulty:
                queue.append((due, order, message))
            elif faults.random() < 0.3:  # only late
                queue.append((due + faults.uniform(1, 40), order, message))
            else:  # on time, and again later
                queue.append((due, order, message))
                queue.append((due + faults.uniform(0, 40), order, dict(message)))
        h.timers.scheduled.clear()
        if not acted:
            assert queue, "nobody can act and no timer is pending"
            queue.sort(key=lambda entry: (entry[0], entry[1]))
            due, _, message = queue.pop(0)
            h.clock.now = max(h.clock.now, due)
            h.service.timer(message)
            delivered += 1
    final = result_of(h.view("Ann"))
    assert final["phase"] == "game_over"
    assert not any(m["type"] == "error" for n in NAMES for m in h.messages(n))
    return {"outcome": final["outcome"], "reveal": final["reveal"]}, delivered


@pytest.mark.parametrize("seed", range(4))
def test_timers_delivered_twice_or_late_change_nothing_but_the_time(seed, monkeypatch):
    # The same deal in both runs (the service seeds each game from the OS otherwise).
    monkeypatch.setattr(game_handlers, "new_game_key", lambda: 1000 + seed)
    (faulty_game, faulty_timers), (game, timers) = _play(seed, True), _play(seed, False)
    assert faulty_game == game
    assert faulty_timers > timers * 1.4  # most timers really came twice
