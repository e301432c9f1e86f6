"""Issue 15, deliverable 4: every finished game can be downloaded from its room as a replay
file that ``python -m engine.replay`` plays to the same end (docs/replay.md, "A game
played in a room").

The room's game writes down every turn it takes (functions/room_service/domain/journal.py)
beside each room write; a seat that played the game asks for the file with
``{"action": "replay"}`` and gets it in parts (zlib, base64). These tests play whole games
through the service with bots, download the file as a phone would, replay it with the
engine and compare the end with the room's result, on the in-memory store and on DynamoDB
(moto)."""

import base64
import json
import subprocess
import sys
import zlib
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.command_lines import helpers_of
from engine.games import game_of
from functions.room_service.adapters.dynamodb import DynamoConnections, DynamoRoomStore
from functions.room_service.service.replies import REPLAY_PART_CHARS
from tests.support.moto_cloud import moto_cloud
from tests.support.service_harness import Harness, before_the_move_of

CATS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


@contextmanager
def harness_on(store: str):
    if store == "memory":
        yield Harness()
        return
    with moto_cloud() as cloud:
        harness = Harness(store=DynamoRoomStore(),
                          connections=DynamoConnections(clock=lambda: cloud.clock.now))  # fmt: skip
        yield harness


def downloaded(harness: Harness, name: str) -> dict:
    """The replay file as the phone of ``name`` puts it together from the parts it gets."""
    before = len(harness.messages(name))
    harness.send(name, action="replay")
    parts = [m for m in harness.messages(name)[before:] if m["type"] == "replay"]
    assert parts, harness.messages(name)[before:]
    assert [p["part"] for p in parts] == list(range(parts[0]["parts"]))
    assert all(len(json.dumps(p)) < 32 * 1024 for p in parts)  # one API Gateway frame each
    data = "".join(p["data"] for p in parts)
    return json.loads(zlib.decompress(base64.b64decode(data)))


def replayed_result(file: dict) -> dict:
    """The replayed game's last table view, as the lobby keeps it (``last_result``), but
    for its ``step``, which the room counts on from the games before (``without_step``)."""
    helpers = helpers_of(file["game"])
    state = helpers.run(helpers.Scenario.model_validate(file))
    return without_step(game_of(file["game"]).table_view(state))


def test_the_file_has_the_table_as_each_step_opened_for_the_viewer():
    """The browser's viewer steps through ``steps``: the public table view as each step
    opened (never a seat's view: no ``me``, no role before the end) and the index of the
    step's first action; the last is the result the room keeps."""
    harness = Harness()
    harness.table(CATS)
    harness.send("Ann", action="start")
    result = harness.play_with_bots(CATS, seed=3)
    file = downloaded(harness, "Ann")
    steps = file["steps"]
    assert [s["at"] for s in steps] == sorted({s["at"] for s in steps})
    assert steps[0]["at"] == 0 and steps[-1]["at"] <= len(file["actions"])
    assert all(s["view"]["me"] is None and not s["view"].get("reveal") for s in steps[:-1])
    assert not any("role" in p for s in steps[:-1] for p in s["view"]["players"])
    assert without_step(steps[-1]["view"]) == without_step(result)
    assert len({s["view"]["step"] for s in steps}) == len(steps)


def without_step(result: dict) -> dict:
    return {key: value for key, value in result.items() if key != "step"}


@pytest.mark.parametrize("store", ["memory", "dynamodb"])
def test_a_finished_catch_the_witch_game_replays_to_the_same_end(store):
    with harness_on(store) as harness:
        harness.table(CATS)
        harness.send("Ann", action="start")
        result = harness.play_with_bots(CATS, seed=3)
        file = downloaded(harness, "Cy")
        assert file["game"] == "catch_the_witch" and file["players"] == CATS
        assert replayed_result(file) == without_step(result)


def test_a_finished_burn_the_witch_game_replays_to_the_same_end():
    harness = Harness()
    harness.table(CATS, game="burn_the_witch")
    harness.send("Ann", action="start")
    result = harness.play_with_bots(CATS, seed=5)
    file = downloaded(harness, "Bo")
    assert file["game"] == "burn_the_witch"
    assert replayed_result(file) == without_step(result)


def test_a_game_the_host_left_replays_with_the_departure_and_the_new_host():
    """The host leaves mid-game: the room plays the seat as Away (§9) and passes the host's
    powers on (§10). Both are turns of the game the file must hold."""
    harness = Harness()
    harness.table(CATS)
    harness.send("Ann", action="start")
    harness.play_with_bots(CATS, seed=4, until=lambda view: view.get("day", 0) >= 2)
    harness.send("Ann", action="leave")
    left = CATS[1:]
    result = harness.play_with_bots(left, seed=4)
    file = downloaded(harness, "Bo")
    kinds = [action["type"] for action in file["actions"]]
    assert "leave" in kinds and "set_host" in kinds
    assert replayed_result(file) == without_step(result)


def test_a_step_ended_by_moves_written_meanwhile_is_written_down_once():
    """Di reads the role check with Ann's and Bo's moves pending; Cy's move is written
    before Di's, so Di's own write returns all four and Di's unit of work ends the step
    from them (issue 16). Its journal is the four moves once, not the moves Di read,
    then its own, then all four again: the replay would refuse a second "ready"."""
    names = CATS[:4]
    harness = Harness()
    harness.table(names)
    harness.send("Ann", action="start")
    for name in ("Ann", "Bo"):
        harness.send(name, action="ready")
    meanwhile = before_the_move_of(harness, "Di", lambda _: harness.send("Cy", action="ready"))
    harness.send("Di", action="ready")
    assert meanwhile and harness.view("Ann")["phase"] != "role_check"
    result = harness.play_with_bots(names, seed=6)
    file = downloaded(harness, "Ann")
    readies = [a["player"] for a in file["actions"][:4] if a["type"] == "ready"]
    assert sorted(readies) == sorted(names)
    assert replayed_result(file) == without_step(result)


def test_a_changed_vote_leaves_no_trace_in_the_file():
    """RULES §3.6: only the final yes/no vote is kept anywhere, replays too. Ann votes Yes,
    a room write takes her vote in (she hands the host's powers over), then she changes
    it to No before everyone has voted: the file has her No alone."""
    harness = Harness()
    harness.table(CATS)
    harness.send("Ann", action="start")

    def ann_votes(view):
        return view["phase"] == "approval" and view["your_turn"]

    harness.play_with_bots(CATS, seed=2, until=ann_votes)
    step, changed_at = harness.view("Ann")["step"], harness.clock.now
    harness.send("Ann", action="approve", yes=True)
    harness.send("Ann", action="hand_over", target="Bo")
    harness.send("Ann", action="approve", yes=False)
    assert harness.error("Ann") is None and harness.view("Ann")["step"] == step
    result = harness.play_with_bots(CATS, seed=2)
    file = downloaded(harness, "Ann")
    journal = harness.store.game_journal(harness.code, harness.room().steps_before)
    ann = [e for e in journal if e.get("player") == "Ann" and e["type"] == "approve"]
    yes, no = (next(e for e in ann if e["yes"] is answer and e["t"] >= changed_at)
               for answer in (True, False))  # fmt: skip
    assert yes not in file["actions"] and no in file["actions"]
    assert len([a for a in file["actions"] if a in ann]) == len(ann) - 1
    assert replayed_result(file) == without_step(result)


@pytest.mark.parametrize("store", ["memory", "dynamodb"])
def test_the_second_game_of_a_room_replays_alone(store):
    """Play again: the file holds the last game only, from its own deal on."""
    with harness_on(store) as harness:
        _two_games(harness)


def _two_games(harness: Harness) -> None:
    harness.table(CATS[:5])
    harness.send("Ann", action="start")
    harness.play_with_bots(CATS[:5], seed=1)
    first = downloaded(harness, "Ann")
    harness.clock.now += 30  # the table looks at the result a while
    harness.send("Ann", action="start")
    result = harness.play_with_bots(CATS[:5], seed=2)
    second = downloaded(harness, "Ann")
    assert second["seed"] != first["seed"] or second["actions"] != first["actions"]
    assert second["started_at"] > first["actions"][-1]["t"]
    assert replayed_result(second) == without_step(result)


def test_a_game_whose_items_are_partly_gone_is_refused_in_words():
    """DynamoDB's TTL removes step items late and in no order: a journal with a step
    missing does not play, and the phone is told the game was not kept (nothing raised
    out of the handler)."""
    harness = Harness()
    harness.table(CATS[:4])
    harness.send("Ann", action="start")
    harness.play_with_bots(CATS[:4], seed=1)
    journals = harness.store._journals
    middle = sorted(journals)[len(journals) // 2]
    del journals[middle]
    harness.send("Bo", action="replay")
    assert harness.error("Bo")["code"] == "replay_not_kept"
    assert not [m for m in harness.messages("Bo") if m["type"] == "replay"]


def test_no_replay_before_a_game_ends_nor_for_a_seat_that_did_not_play_it():
    harness = Harness()
    harness.table(CATS[:4])
    harness.send("Ann", action="replay")
    assert harness.error("Ann")["code"] == "no_replay"  # no game yet
    harness.send("Ann", action="start")
    # Day 1's proposal: under way in every game (a 4-cat game may end on day 1's vote).
    under_way = harness.play_with_bots(
        CATS[:4], seed=1, until=lambda v: v.get("phase") == "proposal"
    )
    assert under_way.get("phase") == "proposal"
    harness.send("Bo", action="replay")
    assert harness.error("Bo")["code"] == "no_replay"  # a game under way keeps its secrets
    harness.play_with_bots(CATS[:4], seed=1)
    harness.send("Gus", action="join", room=harness.code, name="Gus")
    harness.send("Gus", action="replay")
    assert harness.error("Gus")["code"] == "no_replay"  # came after the game
    assert not [m for m in harness.messages("Gus") if m["type"] == "replay"]


def test_a_twelve_cat_game_fits_one_part_and_plays_from_the_command_line(tmp_path):
    """The figure: a 12-cat game's file, whole and as sent. ``python -m engine.replay``
    plays the downloaded file (its ``game`` named inside) to the room's outcome."""
    cats = [f"Cat{i}" for i in range(1, 13)]
    harness = Harness()
    harness.table(cats)
    harness.send("Cat1", action="start")
    result = harness.play_with_bots(cats, seed=7)
    before = len(harness.messages("Cat2"))
    file = downloaded(harness, "Cat2")
    sent = [m for m in harness.messages("Cat2")[before:] if m["type"] == "replay"]
    text = json.dumps(file)
    print(
        f"\n12-cat replay: {len(file['actions'])} actions, {len(text)} B of JSON, "
        f"{sum(len(m['data']) for m in sent)} B sent in {len(sent)} part(s)"
    )
    assert len(sent) == 1 and len(sent[0]["data"]) <= REPLAY_PART_CHARS
    path = tmp_path / "downloaded.json"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine.replay", str(path)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2])  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["outcome"] == result["outcome"]
