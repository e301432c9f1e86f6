"""Every game's randomness: deterministic draws from a 256-bit key, in named streams.

A game is keyed when it is dealt: the room draws 256 bits from the operating system's
CSPRNG (``secrets.randbits(KEY_BITS)``), and every draw of the game comes from that key.
A draw is a 64-bit word of a block, and block ``i`` of stream ``s`` is
BLAKE2b-512 keyed with the game's key, personalised with ``s``, over ``i``: a
pseudo-random function, so without the key its output cannot be told from random and no
number of outputs narrows the key. Searching the key means trying 2^256 of them (a
32-bit seed or a 64-bit generator state was searched in minutes: docs/security.md).

The streams keep apart what the table sees and what it must not: ``PUBLIC`` for the
draws of the game's own public dealing (the duck's ingredients, the villagers laid out,
the first accuser), ``SECRET`` for every other one (the deal of roles and identities,
random targets, and every automatic choice, whether its result is hidden, such as the
Knight's random guard, or shown, such as a ritual picked for an absent Chief). They are
separate functions of the key, and each word of a stream is a separate output of a
pseudo-random function, so no outcome, public or shown, says anything of another draw,
however many draws either stream has made.

The state keeps the key and how many words each stream has used (``RngState``), so a
stored game replays exactly, and survives a JSON round trip. The key is a secret of the
server: no view, log line, error or downloaded file holds it.

Bots draw from a stream of their own (``Rng(seed)``, stream ``BOTS``): a bot phone in the
local stack is keyed from the CSPRNG too; simulations and tests key it with a small
number, which makes their games reproducible.
"""

import hashlib
import re
import struct
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

T = TypeVar("T")

KEY_BITS = 256
KEY_BYTES = KEY_BITS // 8
#: The streams of a game (at most 16 bytes: BLAKE2b's personalisation).
PUBLIC, SECRET = "public", "secret"
#: The stream a bot's own choices come from.
BOTS = "bots"
_WORDS_PER_BLOCK = 8  # 64 bytes of BLAKE2b-512 output: eight 64-bit words
_BLOCK = struct.Struct("<8Q")
_HEX_KEY = re.compile(f"[0-9a-f]{{{2 * KEY_BYTES}}}")


def key_bytes(key: int | bytes) -> bytes:
    """A key as BLAKE2b takes it: 32 bytes (an int is read as a 256-bit number)."""
    if isinstance(key, bytes):
        if len(key) != KEY_BYTES:
            raise ValueError(f"a key is {KEY_BYTES} bytes, not {len(key)}")
        return key
    if not 0 <= key < 1 << KEY_BITS:
        raise ValueError(f"a key is a number from 0 to 2^{KEY_BITS} - 1")
    return key.to_bytes(KEY_BYTES, "big")


class Rng:
    """Uniform draws from one stream of a key, from word ``position`` on."""

    __slots__ = ("_block", "_block_index", "_keyed", "position")

    def __init__(self, key: int | bytes, stream: str = BOTS, position: int = 0):
        self._keyed = hashlib.blake2b(key=key_bytes(key), person=stream.encode(), digest_size=64)
        self.position = position
        self._block_index = -1
        self._block: tuple[int, ...] = ()

    def next_u64(self) -> int:
        index, offset = divmod(self.position, _WORDS_PER_BLOCK)
        if index != self._block_index:
            block = self._keyed.copy()
            block.update(index.to_bytes(8, "little"))
            self._block, self._block_index = _BLOCK.unpack(block.digest()), index
        self.position += 1
        return self._block[offset]

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffled(items)[:k]

    def chance(self, probability: float) -> bool:
        return self.next_u64() < probability * (1 << 64)


class RngState(BaseModel):
    """A game's key (64 hex digits) and the words each of its streams has used."""

    model_config = ConfigDict(extra="forbid")

    key: str
    public: int = 0
    secret: int = 0

    @field_validator("key")
    @classmethod
    def _key_is_256_bits(cls, key: str) -> str:
        if not _HEX_KEY.fullmatch(key):
            raise ValueError(f"a key is {2 * KEY_BYTES} lower-case hex digits")
        return key

    @model_validator(mode="before")
    @classmethod
    def _from_before_keys(cls, data: Any) -> Any:
        """A game stored before games were keyed held one 64-bit integer: it plays on from
        a key made of it (the same key every time it is loaded), so a game under way when
        this code is deployed does not break. A new game never gets one."""
        if isinstance(data, int) and not isinstance(data, bool):
            digest = hashlib.blake2b(data.to_bytes(8, "big"), person=b"stored-before").digest()
            return {"key": digest[:KEY_BYTES].hex()}
        return data


def new_rng_state(key: int | bytes) -> RngState:
    """A new game's randomness: ``key`` (the room's is 256 bits from the CSPRNG), no draws."""
    return RngState(key=key_bytes(key).hex())


class Streams:
    """A turn's two streams, read from a state's ``RngState``; ``state()`` writes back how
    far each has drawn."""

    __slots__ = ("_key", "public", "secret")

    def __init__(self, rng: RngState):
        self._key = bytes.fromhex(rng.key)
        self.public = Rng(self._key, PUBLIC, rng.public)
        self.secret = Rng(self._key, SECRET, rng.secret)

    def state(self) -> RngState:
        return RngState(key=self._key.hex(), public=self.public.position,
                        secret=self.secret.position)  # fmt: skip
