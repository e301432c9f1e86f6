"""Every finished game can be downloaded from its room as a viewer's
file, which shows it step by step as the table saw it and reveals what its end screen
reveals, nothing more; the room's journal keeps every move, and plays to the same end
(docs/replay.md, "A game played in a room").

The room's game writes down every turn it takes (functions/room_service/domain/journal.py)
beside each room write; a seat that played the game asks for the file with
``{"action": "replay"}`` and gets it in parts (zlib, base64). These tests play whole games
through the service with bots, download the file as a phone would and look into it (no
ballot, no ritual card, no key, no move; its last step is the end screen), and replay the
server's journal with the engine to the room's result, on the in-memory store and on
DynamoDB (moto)."""

import base64
import json
import subprocess
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from engine.command_lines import helpers_of
from engine.games import game_of
from functions.room_service.adapters.dynamodb import DynamoConnections, DynamoRoomStore
from functions.room_service.domain import journal
from functions.room_service.service.replies import REPLAY_PART_CHARS, public_view
from tests.support.moto_cloud import moto_cloud
from tests.support.service_harness import Harness, before_the_move_of

CATS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
#: Every field of a viewer's file (journal.viewer_file).
VIEWER_FIELDS = {"kind", "format", "game", "players", "started_at", "steps"}


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


def server_journal(harness: Harness) -> list[dict]:
    """The last game's turns as the server keeps them (read back from its store)."""
    entries = journal.last_game(harness.store.game_journal(harness.code,
                                                           harness.room().steps_before))  # fmt: skip
    assert entries is not None
    return entries


def journal_file(harness: Harness) -> dict:
    """The scenario file of the server's journal of the last game (every move, the key)."""
    return journal.replay_file(server_journal(harness))


def replayed_result(file: dict) -> dict:
    """The replayed game's last table view, as the lobby keeps it (``last_result``), but
    for its ``step``, which the room counts on from the games before (``without_step``)."""
    helpers = helpers_of(file["game"])
    state = helpers.run(helpers.Scenario.model_validate(file))
    return without_step(game_of(file["game"]).table_view(state))


def without_step(result: dict) -> dict:
    return {key: value for key, value in result.items() if key != "step"}


def dicts(value: Any) -> Iterator[dict]:
    """Every JSON object in ``value``, at any depth."""
    if isinstance(value, dict):
        yield value
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            yield from dicts(item)


def scalars(value: Any) -> Iterator[Any]:
    """Every key and every number, string, true/false and null in ``value``."""
    if isinstance(value, dict):
        yield from value.keys()
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            yield from scalars(item)
    else:
        yield value


def _finished(game: str | None, seed: int, cats: list[str] = CATS) -> Harness:
    harness = Harness()
    harness.table(cats, game=game)
    harness.send(cats[0], action="start")
    harness.play_with_bots(cats, seed=seed)
    return harness


# -- what a phone downloads: the viewer's file ------------------------------------------------
@pytest.mark.parametrize(("game", "seed"), [(None, 3), ("burn_the_witch", 5)])
def test_the_file_is_the_table_as_each_step_opened_and_ends_on_the_end_screen(game, seed):
    """The browser's viewer steps through ``steps``: the public table view as each step
    opened (never a seat's view: no ``me``, no role before the end but where the table's
    own view shows it), and nothing else; the last is the end screen's public view, as the
    lobby keeps it for the table screens."""
    harness = _finished(game, seed)
    file = downloaded(harness, "Ann")
    assert set(file) == VIEWER_FIELDS
    assert (file["kind"], file["format"]) == ("viewer", 1)
    assert file["players"] == CATS and file["game"] == (game or "catch_the_witch")
    steps = file["steps"]
    assert all(set(step) == {"view"} for step in steps)
    assert len({s["view"]["step"] for s in steps}) == len(steps)
    assert all(not s["view"].get("me") and not s["view"].get("reveal") for s in steps[:-1])
    assert all(not s["view"].get("outcome") for s in steps[:-1])
    assert not any("role" in p for s in steps[:-1] for p in s["view"]["players"])
    end_screen = public_view(harness.room())["last_result"]
    assert without_step(steps[-1]["view"]) == without_step(end_screen)
    assert without_step(steps[-1]["view"]) == without_step(harness.room().last_result)


def test_a_burn_the_witch_file_holds_no_ballot():
    """RULES-burn-the-witch §7: at the end everything is revealed but individual ballots.
    The file holds each vote's counts (public), and no object in it ties a player to a
    burn or save count, nor is any move of the journal (a ballot) in it."""
    harness = _finished("burn_the_witch", 5)
    file = downloaded(harness, "Bo")
    ballots = [e for e in server_journal(harness) if e.get("type") == "vote"]
    assert ballots and all({"player", "burn", "save"} <= ballot.keys() for ballot in ballots)
    names = set(file["players"])
    counts = [d for d in dicts(file) if {"burn", "save"} & d.keys()]
    assert counts, "the votes' public counts are in the file"
    for count in counts:
        assert not names & set(count), count  # no {"Ann": {"burn": …}} …
        assert not names & {v for v in count.values() if isinstance(v, str)}, count
        assert "player" not in count and count.get("type") != "vote", count
    # No ballot under a player's name either ({"Ann": {...}} one level up).
    for holder in dicts(file):
        for name in names & set(holder):
            assert not (isinstance(holder[name], dict) and {"burn", "save"} & holder[name].keys())
    moves = [{k: v for k, v in e.items() if k != "t"} for e in server_journal(harness)[2:]]
    assert not [d for d in dicts(file) if {k: v for k, v in d.items() if k != "t"} in moves]
    assert not [d for d in dicts(file) if "player" in d or d.get("type") == "vote"]


def test_a_catch_the_witch_file_holds_no_ritual_card_nor_the_key():
    """RULES §7: only a ritual's Success or Failure is shown, never the cards; the game's
    key (engine/rng.py) is the server's secret. Neither is in the file, nor any move."""
    harness = _finished(None, 3)
    file = downloaded(harness, "Cy")
    entries = server_journal(harness)
    played = [e for e in entries if e.get("type") == "play_card"]
    assert played, "the game held a ritual"
    for found in dicts(file):
        assert not {"card", "cards", "hand", "hands", "handed_out", "gathered"} & found.keys()
        assert not {"seed", "key", "rng", "actions", "player"} & found.keys()
        assert found.get("type") != "play_card"
    key = entries[0]["seed"]
    assert key.bit_length() > 64  # a 256-bit key, not a small seed a test might match
    values = set(scalars(file))
    text = json.dumps(file)
    for form in (key, str(key), f"{key:x}", f"{key:064x}", hex(key)):
        assert form not in values
    for form in (str(key), f"{key:064x}", f"{key:x}"):
        assert form not in text
    assert "play_card" not in values


def test_a_changed_vote_leaves_no_trace_in_the_file_nor_the_journal_s_replay():
    """RULES §3.6: only the final yes/no vote is kept anywhere, replays too. Ann votes Yes,
    a room write takes her vote in (she hands the host's powers over), then she changes
    it to No before everyone has voted: the journal's file has her No alone, and the
    viewer's file never shows her Yes."""
    harness = Harness()
    harness.table(CATS)
    harness.send("Ann", action="start")

    def ann_votes(view):
        return view["phase"] == "approval" and view["your_turn"]

    at_vote = harness.play_with_bots(CATS, seed=2, until=ann_votes)
    day, proposal = at_vote["day"], len(at_vote["today"]["proposals"]) - 1
    step, changed_at = harness.view("Ann")["step"], harness.clock.now
    harness.send("Ann", action="approve", yes=True)
    harness.send("Ann", action="hand_over", target="Bo")
    harness.send("Ann", action="approve", yes=False)
    assert harness.error("Ann") is None and harness.view("Ann")["step"] == step
    result = harness.play_with_bots(CATS, seed=2)
    full = journal_file(harness)
    stored = harness.store.game_journal(harness.code, harness.room().steps_before)
    ann = [e for e in stored if e.get("player") == "Ann" and e["type"] == "approve"]
    yes, no = (next(e for e in ann if e["yes"] is answer and e["t"] >= changed_at)
               for answer in (True, False))  # fmt: skip
    assert yes not in full["actions"] and no in full["actions"]
    assert len([a for a in full["actions"] if a in ann]) == len(ann) - 1
    assert replayed_result(full) == without_step(result)
    viewer = downloaded(harness, "Ann")
    shown = [s["view"]["today"]["proposals"][proposal] for s in viewer["steps"]
             if (s["view"].get("today") or {}).get("day") == day
             and len(s["view"]["today"]["proposals"]) > proposal]  # fmt: skip
    assert shown and not [p for p in shown if "Ann" in (p.get("yes") or [])]
    assert [p for p in shown if "Ann" in (p.get("no") or [])]


def test_a_viewers_file_is_refused_in_words_by_the_command_line(tmp_path):
    path = tmp_path / "downloaded.json"
    path.write_text(json.dumps(downloaded(_finished(None, 3, CATS[:4]), "Ann")), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine.replay", str(path)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2])  # fmt: skip
    assert done.returncode == 1 and "viewer's file" in done.stderr, done.stderr


# -- the server's journal plays to the same end -----------------------------------------------
@pytest.mark.parametrize("store", ["memory", "dynamodb"])
def test_a_finished_catch_the_witch_game_s_journal_replays_to_the_same_end(store):
    with harness_on(store) as harness:
        harness.table(CATS)
        harness.send("Ann", action="start")
        result = harness.play_with_bots(CATS, seed=3)
        file = journal_file(harness)
        assert file["game"] == "catch_the_witch" and file["players"] == CATS
        assert replayed_result(file) == without_step(result)
        viewer = downloaded(harness, "Cy")
        assert without_step(viewer["steps"][-1]["view"]) == without_step(result)


def test_a_finished_burn_the_witch_game_s_journal_replays_to_the_same_end():
    harness = Harness()
    harness.table(CATS, game="burn_the_witch")
    harness.send("Ann", action="start")
    result = harness.play_with_bots(CATS, seed=5)
    file = journal_file(harness)
    assert file["game"] == "burn_the_witch"
    assert replayed_result(file) == without_step(result)


def test_a_game_the_host_left_replays_with_the_departure_and_the_new_host():
    """The host leaves mid-game: the room plays the seat as Away (§9) and passes the host's
    powers on (§10). Both are turns of the game the journal must hold."""
    harness = Harness()
    harness.table(CATS)
    harness.send("Ann", action="start")
    harness.play_with_bots(CATS, seed=4, until=lambda view: view.get("day", 0) >= 2)
    harness.send("Ann", action="leave")
    left = CATS[1:]
    result = harness.play_with_bots(left, seed=4)
    file = journal_file(harness)
    kinds = [action["type"] for action in file["actions"]]
    assert "leave" in kinds and "set_host" in kinds
    assert replayed_result(file) == without_step(result)
    viewer = downloaded(harness, "Bo")
    assert without_step(viewer["steps"][-1]["view"]) == without_step(result)


def test_a_step_ended_by_moves_written_meanwhile_is_written_down_once():
    """Di reads the role check with Ann's and Bo's moves pending; Cy's move is written
    before Di's, so Di's own write returns all four and Di's unit of work ends the step
    from them (no read after the write). Its journal is the four moves once, not the moves Di read,
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
    file = journal_file(harness)
    readies = [a["player"] for a in file["actions"][:4] if a["type"] == "ready"]
    assert sorted(readies) == sorted(names)
    assert replayed_result(file) == without_step(result)


@pytest.mark.parametrize("store", ["memory", "dynamodb"])
def test_the_second_game_of_a_room_replays_alone(store):
    """Play again: the journal's file and the download hold the last game only, from its
    own deal on."""
    with harness_on(store) as harness:
        _two_games(harness)


def _two_games(harness: Harness) -> None:
    harness.table(CATS[:5])
    harness.send("Ann", action="start")
    harness.play_with_bots(CATS[:5], seed=1)
    first, first_viewer = journal_file(harness), downloaded(harness, "Ann")
    harness.clock.now += 30  # the table looks at the result a while
    harness.send("Ann", action="start")
    result = harness.play_with_bots(CATS[:5], seed=2)
    second, second_viewer = journal_file(harness), downloaded(harness, "Ann")
    assert second["seed"] != first["seed"]
    assert second["started_at"] > first["actions"][-1]["t"]
    assert replayed_result(second) == without_step(result)
    assert second_viewer["started_at"] == second["started_at"] > first_viewer["started_at"]
    assert without_step(second_viewer["steps"][-1]["view"]) == without_step(result)


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


def test_a_twelve_cat_game_fits_one_part_and_its_journal_plays_from_the_command_line(tmp_path):
    """The figure: a 12-cat game's viewer's file, whole and as sent. ``python -m
    engine.replay`` plays the server's journal of it (its ``game`` named inside) to the
    room's outcome."""
    cats = [f"Cat{i}" for i in range(1, 13)]
    harness = _finished(None, 7, cats)
    result = harness.room().last_result
    before = len(harness.messages("Cat2"))
    file = downloaded(harness, "Cat2")
    sent = [m for m in harness.messages("Cat2")[before:] if m["type"] == "replay"]
    full = journal_file(harness)
    print(
        f"\n12-cat replay: {len(full['actions'])} moves in the journal, {len(file['steps'])} "
        f"steps, {len(json.dumps(file, separators=(',', ':')))} B of JSON, "
        f"{sum(len(m['data']) for m in sent)} B sent in {len(sent)} part(s)"
    )
    assert len(sent) == 1 and len(sent[0]["data"]) <= REPLAY_PART_CHARS
    path = tmp_path / "journal.json"
    path.write_text(json.dumps(full), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "engine.replay", str(path)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2])  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["outcome"] == result["outcome"]
