"""Frames that look alike on the Wi-Fi.

API Gateway neither compresses nor pads WebSocket frames, and TLS hides a frame's content,
not its length: anyone who can see a venue's Wi-Fi sees each phone's frame sizes. A role's
view has its own length (a witch's lists the coven, a Seer's her looks), so every frame a
room sends is padded with spaces, in a ``pad`` field the phone ignores, up to one size: a
size class above what any seat's view can be, computed from the room's *public* view
alone (``room_size``). A secret move changes no public view, so it cannot change the size
either, even in the middle of a step; every frame of one push, an acknowledgement to a
mover alone and an error refusing a move have one length, whoever receives them. Padding
below 32 KB costs no API Gateway message (they are billed per 32 KB); what it costs in
bytes and time is measured by bench/backend.py (docs/performance.md).
"""

from collections.abc import Iterable
from typing import Any

from ..adapters.wire import PAD, frame_bytes

#: The lengths a frame is padded to: the smallest that holds it. Up to 30 KiB one frame
#: and one billed message (API Gateway: 32 KB frames, messages billed per 32 KB); past it,
#: multiples of 30 KiB up to API Gateway's 128 KB message.
FRAME_CLASSES = (1024, 2048, 4096, 8192, 16384, 30720, 61440, 92160, 122880)
_EMPTY_PAD_BYTES = len(f',"{PAD}":""')
#: How much longer than the public view a seat's view can be: its private part (a role,
#: a hand, looks, notes, the coven's names) is at most a quarter of the public view plus
#: 2 KiB. Measured over whole games of both games at every size, with 19-character Thai
#: names (3 bytes a character escaped as 6): at most 2,424 B more than the public view
#: (Catch the Witch, 12 cats, against 6.7 KiB + 2 KiB allowed) and at most 1.57 times it
#: (early views of a few hundred bytes). tests/service/test_wire_frames.py fails if a
#: seat's view outgrows it.
PRIVATE_SHARE, PRIVATE_BYTES = 4, 2048


def frame_length(message: dict[str, Any]) -> int:
    return len(frame_bytes(message))


def size_class(length: int) -> int:
    """The smallest class that holds ``length`` bytes (``length`` past the last class)."""
    return next((size for size in FRAME_CLASSES if size >= length), length)


def room_size(public: dict[str, Any], seats: Iterable[dict[str, Any]] = ()) -> int:
    """The size every frame of a room is padded to: the class that holds its public view
    message (``public``) with room for any seat's private part, or, should a seat's view
    message (``seats``) be longer still, the class of the longest (never expected: the
    tests fail on it)."""
    base = frame_length(public) + _EMPTY_PAD_BYTES
    bound = base + base // PRIVATE_SHARE + PRIVATE_BYTES
    longest = max((frame_length(m) + _EMPTY_PAD_BYTES for m in seats), default=0)
    return size_class(max(bound, longest))


def padded(message: dict[str, Any], size: int = 0) -> dict[str, Any]:
    """``message`` with a ``pad`` of spaces that makes its frame ``size`` bytes, or the class
    of its own length if that is more."""
    bare = {key: value for key, value in message.items() if key != PAD}
    length = frame_length(bare) + _EMPTY_PAD_BYTES
    return {**bare, PAD: " " * (max(size_class(length), size) - length)}
