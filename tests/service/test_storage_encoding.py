"""How rooms and pending moves are encoded in their items (fewer write units),
and that items written before (no dictionary, whole Submission JSON) still load."""

import zlib
from unittest import mock

import pytest

from bench.billing import item_size, write_units
from functions.room_service.adapters.dynamodb import (
    _count_name,
    _moves_name,
    _moves_of,
    _room_of,
    _step_key,
)
from functions.room_service.domain.room import (
    ROOM_DICTIONARIES,
    ROOM_DICTIONARY,
    Room,
    Submission,
    UnknownRoomDictionary,
    loaded_room_json,
    loaded_submission,
    room_json,
    stored_room,
    stored_submission,
)
from functions.room_service.service import game_handlers
from tests.support.service_harness import Harness

CATS = [f"Cat{i}" for i in range(1, 13)]


@pytest.fixture(scope="module")
def game_room() -> Room:
    """A 12-cat Catch the Witch room some days into its game."""
    h = Harness()
    h.table(CATS)
    same_deal = lambda: 7919  # noqa: E731 (a deal that lasts to day 3)
    with mock.patch.object(game_handlers, "new_game_key", same_deal):
        h.send(CATS[0], action="start")
    h.play_with_bots(CATS, seed=5, until=lambda view: view.get("day", 0) >= 3)
    room = h.room()
    assert room.state is not None and room.state.day >= 3, "the game is still on"
    return room


def _room_item(body: bytes) -> dict:
    return {"version": {"N": "7"}, "expires_at": {"N": "1800086400"}, "room": {"B": body}}


def _compressed(data: bytes, dictionary: bytes | None) -> bytes:
    compressor = zlib.compressobj(9, zdict=dictionary) if dictionary else zlib.compressobj(9)
    return compressor.compress(data) + compressor.flush()


def test_a_room_is_stored_with_the_current_dictionary_and_loads_back(game_room):
    body = stored_room(game_room)
    assert body[1] & 0x20, "the zlib header says a dictionary was used (FDICT)"
    assert int.from_bytes(body[2:6], "big") == zlib.adler32(ROOM_DICTIONARY)
    loaded = _room_of(_room_item(body))
    assert room_json(loaded) == room_json(game_room)
    assert (loaded.version, loaded.expires_at) == (7, 1800086400)
    assert len(body) < len(zlib.compress(room_json(game_room).encode())) * 0.85


def test_a_room_stored_without_a_dictionary_still_loads(game_room):
    """As every deploy before the dictionary stored it."""
    body = zlib.compress(room_json(game_room).encode())
    assert room_json(_room_of(_room_item(body))) == room_json(game_room)


def test_a_room_stored_with_any_known_dictionary_loads(game_room):
    data = room_json(game_room).encode()
    for dictionary in ROOM_DICTIONARIES.values():
        assert loaded_room_json(_compressed(data, dictionary)) == data.decode()


def test_a_room_stored_with_an_unknown_dictionary_fails_clearly(game_room):
    other = b'{"code":"","host":"someone else entirely"}'
    body = _compressed(room_json(game_room).encode(), other)
    with pytest.raises(UnknownRoomDictionary, match=f"{zlib.adler32(other):#010x}"):
        loaded_room_json(body)


def test_the_dictionaries_in_use_never_change():
    """Stored rooms name their dictionary by its adler32: a dictionary regenerated in place
    would leave them unreadable. A new dictionary is a new module, added here."""
    assert [f"{key:#010x}" for key in ROOM_DICTIONARIES] == ["0x4fc8ed35"]
    assert zlib.adler32(ROOM_DICTIONARY) == 0x4FC8ED35


def _submission(player: str, step: int, actions: list[dict], n: int = 1) -> Submission:
    return Submission(player=player, step=step, actions=actions, n=n)


def test_pending_moves_store_their_actions_only_and_load_back():
    sub = _submission("Cat3", 41, [
        {"t": 1_800_000_123.456789, "action": {"player": "Cat3", "type": "vote", "target": None}},
        {"t": 1_800_000_124.5, "action": {"player": "Cat3", "type": "ok"}},
        {"t": 1_800_000_125, "action": {"type": "end_talk"}},  # no player: kept as it is
        {"t": 1_800_000_126.25, "action": {"player": "Cat9", "type": "ok"}},  # another's
    ], n=4)  # fmt: skip
    body = stored_submission(sub)
    assert body == (
        '[[1800000123.457,"vote",{"target":null}],[1800000124.5,"ok"],'
        '[1800000125,{"type":"end_talk"}],[1800000126.25,{"player":"Cat9","type":"ok"}]]'
    )
    loaded = loaded_submission(body, "Cat3", 41, 4)
    assert loaded.model_dump() == {
        **sub.model_dump(),
        "actions": [{**sub.actions[0], "t": 1_800_000_123.457}, *sub.actions[1:]],
    }


def test_a_single_move_is_stored_as_its_entry_alone_with_its_time_to_the_millisecond():
    sub = _submission("Ann", 1, [{"t": 1_764_601_234.5678913,
                                  "action": {"player": "Ann", "type": "ok"}}])  # fmt: skip
    body = stored_submission(sub)
    assert body == '[1764601234.568,"ok"]'
    (entry,) = loaded_submission(body, "Ann", 1, 1).actions
    assert entry == {"t": 1_764_601_234.568, "action": {"player": "Ann", "type": "ok"}}


def test_pending_moves_stored_by_an_older_deploy_still_load():
    old = _submission("Cat2", 9, [{"t": 1_800_000_001.123456,
                                   "action": {"player": "Cat2", "type": "ok"}}], n=2)  # fmt: skip
    assert loaded_submission(old.model_dump_json(), "Cat2", 9, 2) == old


def test_a_step_s_item_gives_each_seat_its_moves_with_its_count_and_the_step():
    step = 17
    new = _submission("Cat1", step, [{"t": 1_800_000_000.5,
                                      "action": {"player": "Cat1", "type": "approve", "yes": True}}],
                      n=3)  # fmt: skip
    old = _submission("Cat2", step, [{"t": 1_800_000_000.25,
                                      "action": {"player": "Cat2", "type": "ok"}}])  # fmt: skip
    item = {
        **_step_key("ROOMCODE", step), "g": {"N": "5"}, "expires_at": {"N": "1800086400"},
        _moves_name("Cat1"): {"S": stored_submission(new)}, _count_name("Cat1"): {"N": "3"},
        _moves_name("Cat2"): {"S": old.model_dump_json()}, _count_name("Cat2"): {"N": "1"},
    }  # fmt: skip
    assert _moves_of(item) == [new, old]


@pytest.mark.parametrize("move", [
    {"type": "ok"},
    {"type": "vote", "target": "Cat12"},
    {"type": "approve", "yes": True},
    {"type": "choose_place", "place": "forest", "restore": None},
])  # fmt: skip
def test_a_twelve_seat_step_s_item_stays_under_one_kb(move):
    """Every seat's move of a typical step in one item: one write unit per seat's move."""
    step = 123
    item = {**_step_key("ABCDEFGH", step), "g": {"N": "57"}, "expires_at": {"N": "1800086400"}}
    for i, cat in enumerate(CATS):
        actions = [{"t": 1_800_000_000.123456 + i, "action": {"player": cat, **move}}]
        sub = _submission(cat, step, actions, n=1)
        item[_moves_name(cat)] = {"S": stored_submission(sub)}
        item[_count_name(cat)] = {"N": "1"}
    assert write_units(item_size(item)) == 1, item_size(item)
