"""Frames that look alike on the Wi-Fi (issue 32, point 2).

API Gateway neither compresses nor pads WebSocket frames, and TLS hides a frame's content,
not its length: anyone who can see a venue's Wi-Fi sees each phone's frame sizes. A role's
view has its own length (a witch's lists the coven, a Seer's her looks), so every frame a
room sends is padded with spaces, in a ``pad`` field the phone ignores, up to a size class:
the class of the largest view any seat of the room has at that moment. Every frame of one
push, an acknowledgement to a mover alone and an error refusing a move thus have one length,
whoever receives them. Padding below 32 KB costs no API Gateway message (they are billed
per 32 KB); what it costs in bytes and time is measured by bench/backend.py.
"""

from collections.abc import Iterable
from typing import Any

from ..adapters.wire import frame_bytes

#: The lengths a frame is padded to: the smallest that holds it. The last stays under API
#: Gateway's 32 KB frame (a replay part is at most 30,000 characters of data); a longer
#: message is sent as it is.
FRAME_CLASSES = (1024, 2048, 4096, 8192, 16384, 30720)
PAD = "pad"
_EMPTY_PAD_BYTES = len(f',"{PAD}":""')


def frame_length(message: dict[str, Any]) -> int:
    return len(frame_bytes(message))


def size_class(length: int) -> int:
    """The smallest class that holds ``length`` bytes (``length`` past the last class)."""
    return next((size for size in FRAME_CLASSES if size >= length), length)


def room_size(messages: Iterable[dict[str, Any]]) -> int:
    """The class every frame of a room is padded to: the largest of ``messages`` (every
    seat's view, and the table screens'), padded."""
    return size_class(max((frame_length(m) + _EMPTY_PAD_BYTES for m in messages), default=0))


def padded(message: dict[str, Any], size: int = 0) -> dict[str, Any]:
    """``message`` with a ``pad`` of spaces that makes its frame ``size`` bytes, or the class
    of its own length if that is more."""
    bare = {key: value for key, value in message.items() if key != PAD}
    length = frame_length(bare) + _EMPTY_PAD_BYTES
    return {**bare, PAD: " " * (max(size_class(length), size) - length)}
