"""What a phone's screen looks like from across a table, for tests/e2e/test_browser_tells.py:
the boxes of the screen's main blocks, its buttons, the countdown and the hold bar, read
in one round trip, and the differences between two phones that a neighbour could see."""

from __future__ import annotations

import json

#: Pixels two boxes may differ by and still look alike from across a table.
TOLERANCE = 12

LOOK_JS = """() => {
  // Every phone at the top of its screen, its layout settled first (a scroll the player made
  // is not a tell, and a layout still pending would move boxes in the middle of the reading).
  window.scrollTo(0, 0);
  void document.body.offsetHeight;
  // Screen blocks from the top of <main> (how far a phone was scrolled is the player's doing);
  // fixed things (the strip, the hold bar) from the top of the screen.
  const box = (el, fixed = false) => { const r = el.getBoundingClientRect();
    const top = fixed ? 0 : document.querySelector("main").getBoundingClientRect().top;
    return [Math.round(r.x), Math.round(r.y - top), Math.round(r.width), Math.round(r.height)]; };
  // The host's tools are left out (public: everyone knows who the host is). The witches'
  // pop-up is not: every phone in human form has one of the same shape.
  const shown = (el) => (el.offsetParent !== null || getComputedStyle(el).position === "fixed")
    && !el.closest("details");
  const main = document.querySelector("main");
  const section = main.querySelector(":scope > section") || main;
  const blocks = [...section.querySelectorAll(":scope > *, :scope > div > *")].filter(shown).map(box);
  // A blank card slot looks like a card button from across the table: it counts as one.
  const buttons = [...main.querySelectorAll("button, .card.blank")].filter(shown).map(box);
  const countdown = document.querySelector("header .countdown");
  const bar = document.querySelector("#ctw-hold, #btw-hold"); // the game's hold bar
  const popup = main.querySelector(".witch-popup"), scene = popup && popup.closest(".scene");
  const inside = (a, b) => a[0] >= b[0] && a[1] >= b[1] && a[0] + a[2] <= b[0] + b[2] && a[1] + a[3] <= b[1] + b[3];
  return { phase: main.dataset.phase, member: Boolean(main.querySelector(".ritual-cards")), blocks, buttons, strip: box(document.querySelector("header"), true),
           countdown: countdown ? parseInt(countdown.textContent.replace(/\\D+/g, ""), 10) : null,
           at: Date.now() / 1000,
           bar: bar && shown(bar) ? box(bar, true) : null,
           popupOutside: Boolean(popup && !(scene && inside(box(popup), box(scene)))),
           popup: Boolean(popup),
           // Nightshade's tile, readable at arm's length: on every member's row or on none.
           nightshade: [...main.querySelectorAll(".ritual-cards button")].some((b) => b.textContent.includes("☠")) };
}"""


def _ends(look: dict) -> float:
    """When a phone's countdown says its step ends (wall seconds; the countdown's whole
    seconds, rounded up, put it up to 1 s late)."""
    return look["at"] + look["countdown"]


def _boxes_differ(a: list[int], b: list[int]) -> bool:
    return any(abs(x - y) > TOLERANCE for x, y in zip(a, b, strict=True))


def differences(first: dict, other: dict) -> list[str]:
    """What would tell `other`'s phone from `first`'s across a table (empty: nothing)."""
    found = []
    for kind in ("blocks", "buttons"):
        if len(first[kind]) != len(other[kind]):
            found.append(f"{len(first[kind])} {kind} against {len(other[kind])}")
            continue
        found += [f"{kind[:-1]} {i} at {a} against {b}"
                  for i, (a, b) in enumerate(zip(first[kind], other[kind], strict=True))
                  if _boxes_differ(a, b)]  # fmt: skip
    if (first["countdown"] is None) != (other["countdown"] is None):
        found.append(f"countdown {first['countdown']} against {other['countdown']}")
    elif first["countdown"] is not None and abs(_ends(first) - _ends(other)) > 2:
        # (the phones are read one after the other: each countdown is taken back to when
        # it ends, so two phones a busy second apart still agree, and a different deadline
        # does not)
        found.append(f"countdown {first['countdown']} s against {other['countdown']} s")
    if (first["bar"] is None) != (other["bar"] is None) or (
        first["bar"] and _boxes_differ(first["bar"], other["bar"])
    ):
        found.append(f"hold bar {first['bar']} against {other['bar']}")
    if _boxes_differ(first["strip"], other["strip"]):
        found.append(f"the strip at {first['strip']} against {other['strip']}")
    if first["popup"] != other["popup"]:
        found.append(f"a pop-up {first['popup']} against {other['popup']}")
    if first["nightshade"] != other["nightshade"]:
        found.append(f"a Nightshade tile {first['nightshade']} against {other['nightshade']}")
    if other["popupOutside"]:
        found.append("a pop-up outside the Gathering scene")
    return found


#: Each phone's buzzes from here on (`navigator.vibrate` as the shell calls it), read back
#: with BUZZES_JS.
RECORD_BUZZES_JS = """() => { window.__buzzes = [];
  navigator.vibrate = (pattern) => { window.__buzzes.push([Date.now() / 1000, pattern]); return true; }; }"""
BUZZES_JS = "() => window.__buzzes"


def buzz_differences(first: list, other: list) -> list[str]:
    """Two phones' buzzes: as many, each within 2 s of the other's (a neighbour feels it)."""
    if len(first) != len(other):
        return [f"{len(first)} buzzes against {len(other)}"]
    return [f"buzz {i} at {a[0]:.1f} s against {b[0]:.1f} s"
            for i, (a, b) in enumerate(zip(first, other, strict=True))
            if abs(a[0] - b[0]) > 2 or a[1] != b[1]]  # fmt: skip


#: The hold panel: held open, its box and its buttons (the lock's and one per other cat);
#: released, whether it is hidden and how many children it keeps (``before``).
PANEL_JS = """() => {
  const bar = document.querySelector("#ctw-hold, #btw-hold");
  const sheet = document.querySelector("#ctw-sheet, #btw-sheet");
  const box = (el) => { const r = el.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; };
  const before = { hidden: sheet.hidden, children: sheet.children.length };  // released
  bar.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
  const look = { open: !sheet.hidden, sheet: box(sheet), buttons: sheet.querySelectorAll("button").length, before };
  bar.dispatchEvent(new PointerEvent("pointerup", { bubbles: true }));
  look.closed = sheet.hidden;
  return look;
}"""


#: Tap the first name in the held panel (the Seer looks, everyone else marks a suspect).
PANEL_TAP_JS = """() => {
  const bar = document.getElementById("ctw-hold");
  bar.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
  const name = document.querySelector("#ctw-sheet .grid button");
  const text = name ? name.textContent : null;
  if (name) name.click();
  bar.dispatchEvent(new PointerEvent("pointerup", { bubbles: true }));
  return text;
}"""


def panel_differences(first: dict, other: dict) -> list[str]:
    """What would tell `other`'s held panel from `first`'s across a table."""
    found = (
        []
        if other["open"] and other["closed"]
        else [f"held {other['open']}, released {other['closed']}"]
    )
    if _boxes_differ(first["sheet"], other["sheet"]):
        found.append(f"panel at {first['sheet']} against {other['sheet']}")
    if first["buttons"] != other["buttons"]:
        found.append(f"{first['buttons']} buttons in the panel against {other['buttons']}")
    return found


class FrameLog:
    """Every frame one phone's socket sends and receives, filed under
    the step the phone showed when it went: a received view under its own step, a sent frame
    that names a step (a move, a cover) under that one. The Knight's guard is filed under the
    place choice it happens in (the others' phones stay on it).
    A frame's length is what a Wi-Fi observer reads: every frame either way is padded (the
    server's to the room's size class, a phone's to a multiple of 512 bytes)."""

    def __init__(self, page) -> None:
        self.step: tuple[int, str] | None = None
        self.sent: dict[tuple[int, str], list[int]] = {}
        self.received: dict[tuple[int, str], list[int]] = {}
        self.order: list[tuple[int, str]] = []
        self.named: dict[int, tuple[int, str]] = {}  # a view's step number: its step
        self.actions: dict[tuple[int, str], list[str]] = {}  # what was sent, for a report
        self.last_move: tuple[int, str] | None = None  # the step of the last move sent
        self.late: list[tuple[int, str] | None] = []  # the steps of moves refused as late
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            message = {}
        step = self.named.get(message.get("step")) or self.step
        if "step" in message and message.get("action") != "cover":  # nothing answers a cover
            self.last_move = step
        if step is not None:
            self.actions.setdefault(step, []).append(str(message.get("action")))
        self._file(self.sent, payload, step)

    def _received(self, payload) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            message = {}
        view = message.get("view") if message.get("type") == "view" else None
        if view and view.get("phase") not in (None, "lobby"):
            phase = "place_choice" if view["phase"] == "guard" else view["phase"]
            step = (view.get("day") or 0, phase)
            self.named.setdefault(view.get("step"), step)
            if step != self.step:
                self.step = step
                self.order.append(step)
        if message.get("type") == "error" and message.get("code") == "stale_move":
            # A move that reached the room after its step ended (its timer), refused: its
            # answer, as an acknowledgement would be, filed with the move. Lateness is the
            # player's, whatever the role (a witch's spell too); listed for the report.
            self.late.append(self.last_move)
            self._file(self.received, payload, self.last_move)
            return
        self._file(self.received, payload)

    def _file(self, frames: dict, payload, step: tuple[int, str] | None = None) -> None:
        step = step or self.step
        if step is not None:
            size = len(payload.encode() if isinstance(payload, str) else payload)
            frames.setdefault(step, []).append(size)

    def ended(self) -> list[tuple[int, str]]:
        """The steps this phone has left (a step still shown may get more frames)."""
        return self.order[:-1]


def frame_differences(first: FrameLog, other: FrameLog, step: tuple[int, str]) -> list[str]:
    """Two phones' frames in one step: as many sent, of the same lengths; as many received,
    of the same lengths, but for the one frame fewer a phone gets whose move ended its part
    of the step (answered by the push every phone gets, not by an acknowledgement of its
    own): who moved last is public (the "Waiting for" line), the order of the table's taps."""
    found = []
    sent_a, sent_b = sorted(first.sent.get(step, [])), sorted(other.sent.get(step, []))
    if sent_a != sent_b:
        found.append(f"sent {sent_a} against {sent_b}")
    got_a, got_b = first.received.get(step, []), other.received.get(step, [])
    if len(set(got_a + got_b)) > 1 or abs(len(got_a) - len(got_b)) > 1:
        found.append(f"received {sorted(got_a)} against {sorted(got_b)}")
    return found


def fewer_received(logs: dict[str, FrameLog], step: tuple[int, str]) -> list[str]:
    """The phones that received fewer frames than the most of ``logs`` in ``step``: at most
    one may (the last mover, see frame_differences)."""
    most = max(len(log.received.get(step, [])) for log in logs.values())
    return [name for name, log in logs.items() if len(log.received.get(step, [])) < most]
