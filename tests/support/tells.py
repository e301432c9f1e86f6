"""What a phone's screen looks like from across a table, for tests/e2e/test_browser_tells.py:
the boxes of the screen's main blocks, its buttons, the countdown and the hold bar, read
in one round trip, and the differences between two phones that a neighbour could see."""

from __future__ import annotations

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
  // The host's tools (public: everyone knows who the host is) and what only a witch sees in
  // her pop-up (the book's one exception, checked to stay inside the Gathering scene) are left out.
  const shown = (el) => (el.offsetParent !== null || getComputedStyle(el).position === "fixed")
    && !el.closest("details, .witch-popup");
  const main = document.querySelector("main");
  const section = main.querySelector(":scope > section") || main;
  const blocks = [...section.querySelectorAll(":scope > *, :scope > div > *")].filter(shown).map(box);
  // A blank card slot looks like a card button from across the table: it counts as one.
  const buttons = [...main.querySelectorAll("button, .card.blank")].filter(shown).map(box);
  const countdown = document.querySelector("header .countdown");
  const bar = document.getElementById("ctw-hold");
  const popup = main.querySelector(".witch-popup"), scene = popup && popup.closest(".scene");
  const inside = (a, b) => a[0] >= b[0] && a[1] >= b[1] && a[0] + a[2] <= b[0] + b[2] && a[1] + a[3] <= b[1] + b[3];
  return { phase: main.dataset.phase, member: Boolean(main.querySelector(".ritual-cards")), blocks, buttons, strip: box(document.querySelector("header"), true),
           countdown: countdown ? parseInt(countdown.textContent.replace(/\\D+/g, ""), 10) : null,
           at: Date.now() / 1000,
           bar: bar && shown(bar) ? box(bar, true) : null,
           popupOutside: Boolean(popup && !(scene && inside(box(popup), box(scene)))) };
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
    if other["popupOutside"]:
        found.append("a pop-up outside the Gathering scene")
    return found


#: The hold panel, held open: its box and its buttons (the lock's and one per other cat).
PANEL_JS = """() => {
  const bar = document.getElementById("ctw-hold");
  bar.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
  const sheet = document.getElementById("ctw-sheet");
  const box = (el) => { const r = el.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; };
  const look = { open: !sheet.hidden, sheet: box(sheet), buttons: sheet.querySelectorAll("button").length };
  bar.dispatchEvent(new PointerEvent("pointerup", { bubbles: true }));
  look.closed = sheet.hidden;
  return look;
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
