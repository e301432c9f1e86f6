"""What a phone's screen looks like from across a table, for tests/e2e/test_browser_tells.py:
the boxes of the screen's main blocks, its buttons, the countdown and the hold bar, read
in one round trip, and the differences between two phones that a neighbour could see."""

from __future__ import annotations

#: Pixels two boxes may differ by and still look alike from across a table.
TOLERANCE = 12

LOOK_JS = """() => {
  const box = (el, fixed = false) => { const r = el.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y + (fixed ? 0 : scrollY)), Math.round(r.width), Math.round(r.height)]; };
  // The host's tools (public: everyone knows who the host is) and what only a witch sees in
  // her pop-up (the book's one exception, checked to stay inside the Gathering scene) are left out.
  const shown = (el) => (el.offsetParent !== null || getComputedStyle(el).position === "fixed")
    && !el.closest("details, .witch-popup");
  const main = document.querySelector("main");
  const section = main.querySelector(":scope > section") || main;
  const blocks = [...section.querySelectorAll(":scope > *, :scope > div > *")].filter(shown).map(box);
  const buttons = [...main.querySelectorAll("button")].filter(shown).map(box);
  const countdown = document.querySelector("header .countdown");
  const bar = document.getElementById("ctw-hold");
  const popup = main.querySelector(".witch-popup"), scene = popup && popup.closest(".scene");
  const inside = (a, b) => a[0] >= b[0] && a[1] >= b[1] && a[0] + a[2] <= b[0] + b[2] && a[1] + a[3] <= b[1] + b[3];
  return { phase: main.dataset.phase, blocks, buttons,
           countdown: countdown ? parseInt(countdown.textContent.replace(/\\D+/g, ""), 10) : null,
           bar: bar && shown(bar) ? box(bar, true) : null,
           popupOutside: Boolean(popup && !(scene && inside(box(popup), box(scene)))) };
}"""


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
    elif first["countdown"] is not None and abs(first["countdown"] - other["countdown"]) > 2:
        found.append(f"countdown {first['countdown']} s against {other['countdown']} s")
    if (first["bar"] is None) != (other["bar"] is None) or (
        first["bar"] and _boxes_differ(first["bar"], other["bar"])
    ):
        found.append(f"hold bar {first['bar']} against {other['bar']}")
    if other["popupOutside"]:
        found.append("a pop-up outside the Gathering scene")
    return found
