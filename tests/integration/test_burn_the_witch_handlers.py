"""Burn the Witch through the Lambda handlers on moto (DynamoDB, SQS timers, the
management API), as deployed: whole games whose bots choose every move from their own
views, with the timers off and on, each phone getting only its own views."""

import json

import pytest

from tests.support.moto_cloud import moto_cloud


@pytest.fixture
def cloud():
    with moto_cloud() as cloud:
        yield cloud


@pytest.mark.parametrize(("count", "settings"), [
    (5, {"timers": False}),
    (8, {"timers": True, "timer_seconds": 30}),
])  # fmt: skip
def test_complete_burn_the_witch_games_through_the_handlers(cloud, count, settings):
    names, tokens, _ = cloud.table(count, settings, game="burn_the_witch")
    assert cloud.last(names[-1])["view"]["phase"] == "witching_hour"
    final = cloud.play(names, seed=count)
    assert final["game"] == "burn_the_witch" and final["phase"] == "over"
    assert final["outcome"]["winner"] in ("zealots", "sympathizers")
    for name in names:
        lobby = cloud.last(name)["view"]
        assert lobby["phase"] == "lobby" and lobby["game"] == "burn_the_witch"
        text = json.dumps(cloud.received(name))
        assert not [other for other in names if other != name and tokens[other] in text]
        for msg in cloud.received(name):  # every game view is this phone's own
            if msg["type"] == "view" and msg["view"].get("me"):
                assert msg["view"]["me"]["name"] == name
