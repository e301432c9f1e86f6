"""The table screen. A connection with no seat sends ``watch``: it is sent the
room's public view at once and again only when that view changes; it cannot act, is not a
player, is capped per room, and stops watching when it disconnects or a push finds it gone.

The table screen needs the host. A ``watch`` must carry the room's table
key, which only the host's lobby view holds; without it, or with another, it is refused and
lets no screen go. The key stays across hand-overs and games; the host's ``new_table_key``
changes it and lets every screen go (domain/table_screens.py)."""

import base64
import json
import secrets

import pytest

from engine.games import game_of
from engine.rng import Rng
from functions.room_service.domain import table_screens
from functions.room_service.domain.room import MAX_WATCHERS
from functions.room_service.service.replies import public_view, same_but_progress
from tests.support.service_harness import Harness, result_of

NAMES = ["Ann", "Bob", "Cy", "Di"]
TV = "tv"


def _watched_room(game: str | None = None) -> Harness:
    h = Harness()
    h.table(NAMES, game=game)
    h.watch(TV)
    return h


def test_a_table_screen_gets_the_lobby_s_public_part_and_takes_no_seat():
    h = _watched_room()
    [message] = h.messages(TV)
    view = message["view"]
    assert view == {
        "phase": "lobby", "watching": True, "game": "catch_the_witch", "room": h.code,
        "host": "Ann", "last_result": None, "seat_news": [],
        "seats": [{"name": name, "seat": i, "connected": True} for i, name in enumerate(NAMES, 1)],
        # What the game is, not what the room chose: its seats and its settings' bounds.
        **game_of("catch_the_witch").lobby_rules(),
    }  # fmt: skip
    assert [seat.name for seat in h.room().seats] == NAMES
    assert h.room().watchers == [TV]
    assert h.view("Ann")["seats"] == view["seats"]  # the seats' lobby is unchanged


def test_a_table_screen_follows_a_game_with_the_table_view_only():
    h = _watched_room()
    h.send("Ann", action="start")
    view = h.view(TV)
    room = h.room()
    expected = dict(room.rules.table_view(room.state))
    assert view["me"] is None and view["you"] is None
    assert all("role" not in p for p in view["players"])
    assert view["step"] == room.room_step(expected["step"])
    assert {
        k: v
        for k, v in view.items()
        if k not in ("watching", "room", "step", "connected", "seat_news")
    } == {k: v for k, v in expected.items() if k != "step"}
    result = h.play_with_bots(NAMES)
    final = h.view(TV)
    assert final["phase"] == "lobby" and final["last_result"] == result


def test_a_table_screen_cannot_act_and_its_refusal_is_coded():
    h = _watched_room()
    for action in ("start", "leave", "ready"):
        frame = {"action": action, "room": h.code}
        if action == "ready":
            frame["step"] = 1
        h.service.message(TV, json.dumps(frame))
        error = h.error(TV)
        assert (error["code"], error["action"]) == ("watch_only", action)
    assert h.room().state is None and h.room().watchers == [TV]
    h.watch(TV)
    assert h.error(TV)["code"] == "already_in_room"


def test_a_table_screen_s_ping_is_answered_like_a_seat_s():
    h = _watched_room()
    rev = h.messages(TV)[-1]["rev"]
    h.service.message(TV, json.dumps({"action": "ping", "rev": rev, "room": h.code}))
    assert h.messages(TV)[-1] == {"type": "pong"}
    h.service.message(TV, json.dumps({"action": "ping"}))
    assert h.messages(TV)[-1]["rev"] == rev  # no rev: the view again


def _full_room() -> Harness:
    """A room whose table screens are all taken, every one opened with the key."""
    h = _watched_room()
    for i in range(1, MAX_WATCHERS):
        h.watch(f"tv{i}")
        assert h.error(f"tv{i}") is None
    assert h.room().watchers == [TV] + [f"tv{i}" for i in range(1, MAX_WATCHERS)]
    return h


def test_watchers_are_capped_per_room_and_a_new_keyed_screen_lets_the_oldest_go():
    """A screen whose $disconnect was lost, or the TV moved to a new device, never keeps the
    host's new screen out: a screen with the key takes the oldest one's place. The one let
    go is told at once (``table_let_go``), its binding dropped, so the page says so."""
    h = _full_room()
    h.watch("the_real_tv")
    assert h.error("the_real_tv") is None and h.messages("the_real_tv")[-1]["type"] == "view"
    assert h.room().watchers == [f"tv{i}" for i in range(1, MAX_WATCHERS)] + ["the_real_tv"]
    told = h.messages(TV)[-1]
    assert (told["type"], told["code"], told["action"]) == ("error", "table_let_go", None)
    assert h.connections.lookup(TV) is None
    assert all(h.error(f"tv{i}") is None for i in range(1, MAX_WATCHERS))
    h.service.message(TV, json.dumps({"action": "ping", "room": h.code}))
    assert h.messages(TV)[-1] == {"type": "pong"}  # a socket of no room now
    h.watch(TV)  # "Watch here again": it watches again, and the oldest now goes
    assert h.messages(TV)[-1]["type"] == "view" and h.error("tv1")["code"] == "table_let_go"
    assert TV in h.room().watchers and "tv1" not in h.room().watchers
    assert len(h.room().watchers) == MAX_WATCHERS


def _stored(h: Harness, change) -> None:
    """Change the room as the in-memory store keeps it (JSON), behind the service's back."""
    data = json.loads(h.store._rooms[h.code])
    change(data)
    h.store._rooms[h.code] = json.dumps(data)


def test_a_screen_let_go_whose_news_was_lost_hears_it_at_its_next_ping():
    h = _watched_room()
    _stored(h, lambda room: room.update(watchers=[]))  # its binding stayed
    h.service.message(TV, json.dumps({"action": "ping", "room": h.code}))
    assert h.error(TV)["code"] == "table_let_go"
    assert h.connections.lookup(TV) is None


def test_a_watch_with_the_room_code_only_is_refused_and_lets_no_screen_go():
    """The code is on every phone and every table screen; it no longer lets a
    stranger watch, nor push the real TV out with MAX_WATCHERS frames."""
    h = _full_room()
    before = h.room().watchers
    for i in range(MAX_WATCHERS + 1):
        h.watch(f"stranger{i}", key="")
        error = h.error(f"stranger{i}")
        assert (error["code"], error["action"]) == ("table_key_missing", "watch")
        assert [m["type"] for m in h.messages(f"stranger{i}")] == ["error"]
        assert h.connections.lookup(f"stranger{i}") is None
    assert h.room().watchers == before
    assert all(h.error(screen) is None for screen in before)  # nobody was told to go


@pytest.mark.parametrize(
    "wrong",
    [secrets.token_urlsafe(16), "x", "A" * 64, "-_" * 11],
    ids=["another-key", "short", "long", "url-safe-only"],
)
def test_a_watch_with_a_wrong_key_is_refused_and_lets_no_screen_go(wrong):
    h = _full_room()
    before = h.room().watchers
    for i in range(MAX_WATCHERS + 1):
        h.watch(f"stranger{i}", key=wrong)
        assert h.error(f"stranger{i}")["code"] == "table_key_wrong"
        assert h.connections.lookup(f"stranger{i}") is None
    key = h.room().table_key
    h.watch("near", key=key[:-1] + ("A" if key[-1] != "A" else "B"))  # one character off
    assert h.error("near")["code"] == "table_key_wrong"
    assert h.room().watchers == before
    assert all(h.error(screen) is None for screen in before)


def test_a_key_that_is_no_url_safe_text_is_refused_as_a_field():
    h = _watched_room()
    h.watch("stranger", key="é" + h.room().table_key[1:])
    error = h.error("stranger")
    assert (error["code"], error["params"]) == ("field_invalid", {"field": "key"})
    assert h.room().watchers == [TV]


def test_the_key_is_compared_in_constant_time(monkeypatch):
    compared = []
    real = table_screens.hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(table_screens.hmac, "compare_digest", spy)
    h = _watched_room()
    h.watch("stranger", key="wrong")
    key = h.room().table_key.encode()
    assert compared == [(key, key), (b"wrong", key)]


def test_no_room_a_closed_room_and_a_wrong_key_get_one_answer():
    """A probe of codes learns nothing: the answer is the same with no room at all."""
    h = Harness()
    h.watch(TV, key=secrets.token_urlsafe(16), code="ABCDEFGH")
    nothing = h.error(TV)
    h.table(NAMES)
    h.watch("wrong", key=secrets.token_urlsafe(16))
    key = h.room().table_key
    for name in reversed(NAMES):
        h.send(name, action="leave")
    assert h.room().closed
    h.watch("closed", key=key)
    assert nothing == h.error("wrong") == h.error("closed")
    assert nothing["code"] == "table_key_wrong"


def test_the_key_has_128_random_bits_and_each_room_its_own():
    keys = set()
    for _ in range(20):
        h = Harness()
        h.table(NAMES[:1])
        key = h.room().table_key
        assert len(base64.urlsafe_b64decode(key + "==")) >= 16
        keys.add(key)
    assert len(keys) == 20


def _texts_to(h: Harness, connection: str) -> str:
    return json.dumps(h.messages(connection))


def test_only_the_host_s_lobby_view_holds_the_key():
    """Every other seat's view and the table screen's never carry it, in the lobby or in a
    game (not even the host's game view), nor anything sent to them."""
    h = _watched_room()
    key = h.room().table_key
    assert h.view("Ann")["table_key"] == key
    assert all(h.view(name)["table_key"] is None for name in NAMES[1:])
    assert "table_key" not in h.view(TV) and "table_key" not in public_view(h.room())
    h.send("Ann", action="start")
    assert all("table_key" not in h.view(name) for name in NAMES)
    h.play_with_bots(NAMES)
    assert h.view("Ann")["phase"] == "lobby" and h.view("Ann")["table_key"] == key
    for connection in [*NAMES[1:], TV]:
        assert key not in _texts_to(h, connection), connection
    assert key in _texts_to(h, "Ann")


def test_a_hand_over_keeps_the_key_and_shows_it_to_the_new_host_only():
    """The TV keeps working whoever is host (§10 passes host by itself when the host's phone
    is gone 30 s); the former host stays at the table and sees no key from then on."""
    h = _watched_room()
    key = h.room().table_key
    h.send("Ann", action="hand_over", target="Bob")
    assert h.room().table_key == key and h.room().watchers == [TV]
    assert h.view("Bob")["table_key"] == key
    assert h.view("Ann")["table_key"] is None
    h.watch("tv-on-a-new-socket")  # the TV reconnects: its link still opens the table
    assert h.error("tv-on-a-new-socket") is None


def test_play_again_keeps_the_key_so_the_tv_keeps_watching():
    h = _watched_room()
    key = h.room().table_key
    for _ in range(2):  # a game, then "Play again"
        h.send("Ann", action="start")
        assert h.room().table_key == key
        h.watch(f"tv-reconnected-{len(h.room().watchers)}")  # a new socket mid-game
        h.play_with_bots(NAMES)
        assert h.view(TV)["phase"] == "lobby" and h.view(TV)["last_result"]
    assert h.room().table_key == key and h.view("Ann")["table_key"] == key
    assert TV in h.room().watchers


def test_a_kick_keeps_the_key():
    h = _watched_room()
    key = h.room().table_key
    h.send("Ann", action="kick", target="Di")
    assert h.room().table_key == key and h.room().watchers == [TV]


def test_the_host_s_new_table_link_lets_every_screen_go_and_the_old_key_opens_nothing():
    h = _full_room()
    old = h.room().table_key
    screens = h.room().watchers
    h.send("Ann", action="new_table_key")
    assert h.error("Ann") is None
    new = h.room().table_key
    assert new != old and h.view("Ann")["table_key"] == new
    assert all(h.view(name)["table_key"] is None for name in NAMES[1:])
    assert h.room().watchers == []
    for screen in screens:
        assert h.messages(screen)[-1]["code"] == "table_let_go"
        assert h.connections.lookup(screen) is None
    h.watch("old-link", key=old)
    assert h.error("old-link")["code"] == "table_key_wrong"
    h.watch("new-link", key=new)
    assert h.error("new-link") is None and h.room().watchers == ["new-link"]


def test_only_the_host_in_the_lobby_makes_a_new_table_link():
    h = _watched_room()
    key = h.room().table_key
    h.send("Bob", action="new_table_key")
    assert h.error("Bob")["code"] == "host_only"
    h.send("Ann", action="start")
    h.send("Ann", action="new_table_key")
    assert h.error("Ann")["code"] == "lobby_only"
    h.send(TV, action="new_table_key")
    assert h.error(TV)["code"] == "watch_only"
    assert h.room().table_key == key and h.room().watchers == [TV]


def test_a_room_stored_before_keys_opens_no_table_until_the_host_makes_a_key():
    h = Harness()
    h.table(NAMES)
    _stored(h, lambda room: room.pop("table_key"))
    assert h.room().table_key == ""
    h.watch(TV, key="")
    assert h.error(TV)["code"] == "table_key_missing"
    h.watch("guess", key="A" * 22)
    assert h.error("guess")["code"] == "table_key_wrong"
    h.send("Ann", action="ping")
    assert h.view("Ann")["table_key"] is None
    h.send("Ann", action="new_table_key")
    key = h.room().table_key
    assert key and h.view("Ann")["table_key"] == key
    h.watch("tv-again")
    assert h.error("tv-again") is None and h.room().watchers == ["tv-again"]


def test_a_table_screen_that_disconnects_or_is_found_gone_stops_watching():
    h = _watched_room()
    h.service.disconnect(TV)
    assert h.room().watchers == []
    assert h.connections.lookup(TV) is None
    h.watch("tv2")
    h.pusher.gone.add("tv2")
    h.send("Ann", action="start")  # the push to it finds it gone (410)
    assert h.room().watchers == []
    assert h.connections.lookup("tv2") is None
    assert h.room().seats[0].connection == "Ann"  # the seats are untouched


def test_the_table_screen_is_pushed_only_when_the_public_view_changes():
    """Every move of a whole game: the table screen gets one view if the public view
    changed (beyond who is still awaited) and nothing if not, so a witch's secret spell in
    the witches' 15 s sends the table screen nothing at all."""
    h = _watched_room()
    h.send("Ann", action="start")
    rng, rules = Rng(3), h.room().rules
    quiet_spells = 0
    for _ in range(5000):
        if result_of(h.view("Ann")):
            break
        for name in NAMES:
            action = rules.bot_move(h.view(name), rng)
            if action is None:
                continue
            before, sent = public_view(h.room()), len(h.messages(TV))
            kind = action.pop("type")
            h.send(name, action=kind, **action)
            changed = not same_but_progress(before, public_view(h.room()), rules.progress_fields)
            assert len(h.messages(TV)) - sent == int(changed), (kind, changed)
            quiet_spells += kind == "witch_spell" and not changed
            h.clock.now += 0.5
            break
        else:
            assert h.advance_to_next_timer()
    assert result_of(h.view("Ann"))
    assert quiet_spells > 0


def test_burn_the_witch_is_watched_through_its_table_view():
    h = Harness()
    names = [f"Cat{i}" for i in range(1, 6)]
    h.table(names, game="burn_the_witch", settings={"timers": False})
    h.watch(TV)
    h.send(names[0], action="start")
    view = h.view(TV)
    room = h.room()
    assert view["watching"] and view["room"] == h.code
    assert view["players"] == room.rules.table_view(room.state)["players"]
    h.play_with_bots(names)
    assert h.view(TV)["phase"] == "lobby" and h.view(TV)["last_result"]
