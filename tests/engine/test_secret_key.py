"""The deal can't be computed from the table. A game's every draw comes
from a 256-bit key (engine/rng.py), each bit of which changes the deal; what the table sees
is drawn from a stream of its own, so it narrows nothing secret; and a search of the keys
from the table screen works only on a key space made small on purpose."""

import random

import pytest

from engine import burn_the_witch, catch_the_witch
from engine.rng import KEY_BITS, PUBLIC, SECRET, Rng, RngState, Streams, new_rng_state
from tests.support.deal_search import search_keys

#: A fixed 256-bit key for the tests (random.Random, not the CSPRNG: the tests replay).
KEY = random.Random(32).getrandbits(KEY_BITS)
#: The bits the issue names: low, middle and high, in each of the key's words.
FLIPPED_BITS = (0, 40, 64, 100, 127, 200, 255)

CATS = [f"Cat{i}" for i in range(1, 13)]  # Catch the Witch's largest table
PLAYERS = [f"P{i}" for i in range(1, 11)]  # Burn the Witch's largest table


def catch_the_witch_deal(key: int) -> list[str]:
    state = catch_the_witch.new_game(CATS, seed=key)
    return [cat.role.value for cat in state.players]


def burn_the_witch_deal(key: int) -> list[tuple[str, str]]:
    state = burn_the_witch.new_game(PLAYERS, seed=key)
    return [(v.name, v.identity) for p in state.players for v in p.villagers]


@pytest.mark.parametrize("bit", FLIPPED_BITS)
@pytest.mark.parametrize("deal", [catch_the_witch_deal, burn_the_witch_deal])
def test_every_bit_of_the_key_changes_the_deal_at_the_largest_table(deal, bit):
    assert deal(KEY) == deal(KEY)
    assert deal(KEY ^ (1 << bit)) != deal(KEY)


def test_a_key_is_256_bits_and_no_more():
    new_rng_state((1 << KEY_BITS) - 1)
    with pytest.raises(ValueError):
        new_rng_state(1 << KEY_BITS)
    with pytest.raises(ValueError):
        new_rng_state(-1)


def test_the_public_and_the_secret_stream_are_apart():
    """Draws of one stream leave the other where it was: how many public draws a game made
    (the duck's ingredients, the villagers) moves no secret draw, and the other way."""
    state = new_rng_state(KEY)
    streams = Streams(state)
    secret_first = [streams.secret.next_u64() for _ in range(20)]
    streams = Streams(state)
    for _ in range(37):
        streams.public.next_u64()
    assert [streams.secret.next_u64() for _ in range(20)] == secret_first
    # Neither stream is the other shifted: no word of one appears in the first blocks of
    # the other (the streams are separate keyed functions, engine/rng.py).
    assert set(_words(KEY, PUBLIC, 64)).isdisjoint(_words(KEY, SECRET, 64))


def _words(key: int, stream: str, count: int) -> list[int]:
    rng = Rng(key, stream)
    return [rng.next_u64() for _ in range(count)]


def test_a_stored_state_replays_its_draws_from_where_it_stopped():
    streams = Streams(new_rng_state(KEY))
    first = [streams.secret.below(1000) for _ in range(11)]
    stored = RngState.model_validate_json(Streams(new_rng_state(KEY)).state().model_dump_json())
    again = Streams(stored)
    assert [again.secret.below(1000) for _ in range(5)] == first[:5]
    resumed = Streams(again.state())
    assert [resumed.secret.below(1000) for _ in range(6)] == first[5:]


#: The deliberately weakened key space of the search test: 2^20 keys (about 5 s here).
WEAK_BITS = 20


def test_a_20_bit_key_is_found_from_the_table_screen_and_gives_every_identity_away():
    """The attack the issue measured, against a key space made small on purpose: from the
    table screen's first view alone (no seat, no token) the search finds the key, and the
    key deals every identity under every villager. docs/security.md says why a 256-bit
    key cannot be searched the same way."""
    players = ["Ann", "Bo", "Cy", "Di", "Ed"]
    weak_key = random.Random(20).getrandbits(WEAK_BITS)
    state = burn_the_witch.new_game(players, seed=weak_key)
    state, _ = burn_the_witch.start(state, 0.0)
    first_view = burn_the_witch.table_view(state)
    assert "identity" not in str(first_view["houses"])

    found = search_keys(first_view, players, state.settings, range(1 << WEAK_BITS))

    assert found == [weak_key]
    dealt = burn_the_witch.new_game(players, seed=found[0])
    assert [[v.identity for v in p.villagers] for p in dealt.players] == [
        [v.identity for v in p.villagers] for p in state.players
    ]
