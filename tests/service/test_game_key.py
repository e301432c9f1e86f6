"""The deal's key, in the room: every game a room starts, the first and each "Play
again", is keyed by at least 32 bytes read from the operating system's CSPRNG, and the key
reaches no phone, no log line and no metric."""

import logging
import os

from functions.room_service.service import game_handlers
from tests.support.service_harness import Harness

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def test_each_game_a_room_starts_draws_its_key_from_the_os_csprng(monkeypatch, caplog):
    caplog.set_level(logging.DEBUG)
    reads: list[bytes] = []
    os_urandom = os.urandom

    def urandom(size: int) -> bytes:
        drawn = os_urandom(size)
        reads.append(drawn)
        return drawn

    monkeypatch.setattr(game_handlers.os, "urandom", urandom)
    h = Harness()
    h.table(NAMES, game="burn_the_witch")
    keys = []
    for game in range(2):  # the first game, then "Play again" from the lobby
        reads.clear()
        h.send("Ann", action="start")
        assert h.error("Ann") is None
        assert len(reads) == 1 and len(reads[0]) >= 32, "one read of 32 bytes or more"
        key = h.room().state.rng.key
        assert bytes.fromhex(key) == reads[0][-32:]
        for name in NAMES:
            assert key not in str(h.messages(name)), (game, name)
        assert key not in caplog.text and key not in str(h.metrics.counts)
        keys.append(key)
        h.play_with_bots(NAMES, seed=game)
        assert h.room().state is None  # back in the lobby
    assert keys[0] != keys[1]
