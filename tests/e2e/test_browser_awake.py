"""A seated phone's screen stays on, in Chromium over the local stack: where the
browser has no Screen Wake Lock (plain http, as `make dev` serves phones on the Wi-Fi, and
older Safari) a tiny muted inline video loops; where it has one, the lock holds the screen;
a phone that leaves its seat lets the screen sleep again, and the video breaks no rule of
the site's Content-Security-Policy. js/awake.js shows which on <body data-awake> ("lock",
"video" or "none"), the fact any engine's test reads."""

from playwright.sync_api import expect

from tests.support.ui_table import collect_csp_violations

#: What a page on plain http sees (Wake Lock is for secure contexts only); 127.0.0.1 is one.
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
#: The media element the page started last, to look at once it plays.
REMEMBER_PLAYED = """{
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () { window.playedLast = this; return play.call(this); };
}"""
VIDEO = """() => { const v = window.playedLast;
  return v && { tag: v.tagName, paused: v.paused, muted: v.muted, inline: v.playsInline,
                loop: v.loop, source: v.currentSrc.split("/").pop() }; }"""


def _seated(page, stack, name: str, code: str | None = None) -> str:
    """``name`` creates a room (the stack's four bots join it) or joins ``code``, by taps."""
    page.goto(stack.http_url + "/")
    expect(page.locator("body")).to_have_attribute("data-awake", "none")  # no seat yet
    page.fill("#name", name)
    if code:
        page.fill("#code", code)
    button = "Join" if code else "Create a room"
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.locator(".seats li")).to_have_count(6 if code else 5, timeout=20_000)
    return page.locator("p.code").inner_text().strip()


def test_a_seated_phone_is_kept_awake_by_a_video_without_wake_lock_else_by_the_lock(stack, phones):
    lan = phones()
    violations: list[str] = []  # the video is the site's own file: the policy allows it
    collect_csp_violations(lan.context, violations)
    lan.add_init_script(NO_WAKE_LOCK)
    lan.add_init_script(REMEMBER_PLAYED)
    code = _seated(lan, stack, "Zoe")
    assert lan.evaluate("'wakeLock' in navigator") is False
    body = lan.locator("body")
    expect(body).to_have_attribute("data-awake", "video")
    assert lan.evaluate(VIDEO) == {"tag": "VIDEO", "paused": False, "muted": True, "inline": True,
                                   "loop": True, "source": "nosleep.webm"}  # fmt: skip

    secure = phones()
    secure.add_init_script(REMEMBER_PLAYED)
    _seated(secure, stack, "Yan", code)
    expect(secure.locator("body")).to_have_attribute("data-awake", "lock")
    assert secure.evaluate("window.playedLast") is None  # no video where the lock holds

    # No seat, no reason to stay on: the video stops, the lock is let go.
    for page in (lan, secure):
        page.get_by_role("button", name="Leave", exact=True).click()
        expect(page.locator("body")).to_have_attribute("data-awake", "none")
    assert lan.evaluate(VIDEO)["paused"] is True
    assert violations == []
