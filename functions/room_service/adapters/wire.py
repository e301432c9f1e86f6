"""The bytes of a frame: a message as every pusher posts it (compact JSON, ASCII), so the
service can size frames exactly as they go out (service/frames.py)."""

import json
from typing import Any

#: The field of spaces a frame is padded with (service/frames.py); phones ignore it.
PAD = "pad"


def frame_bytes(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()
