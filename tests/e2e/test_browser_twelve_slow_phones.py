"""Twelve phones on a slow network (300 ms round trip, 1.6 Mbit/s each way, every phone its
own link) play a whole game of Catch the Witch to the end screen, in Debian's Chromium on
the local stack at the browser tests' time scale.

The network: Chromium's DevTools network emulation (`Network.emulateNetworkConditions`)
on every page. Its `latency` (DevTools: "from request sent to response headers received")
is added once to each request, a round trip (a fetch of config.json took 311 ms at 300,
10 ms at 0; Lighthouse's slow 4G sets it as the round trip too, as bench/first_view.py
does), and Chromium's Resource Timing shows it in the response's end. The
throughputs are bytes a second (1.6 Mbit/s: 200,000). Chromium applies them to page loads,
to the WebSocket's handshake (one round trip) and to its frames' bytes, but adds no latency
to frames (measured: pings answered in 30–50 ms at a latency of 300), so each page delays
its frames itself, half the round trip each way (SLOW_FRAMES_JS).

Cheaper than twelve phones tapped by Playwright (measured: 176 s, 60 of them seating the
phones one after another, and a game of three days): the host is played through the UI
(its taps, as tests/support/ui_table.py plays), and the eleven others load, are seated and
show every view through the UI as well, but their moves are chosen by the engine's bot
(the local stack's bots' choice, `bot_move`) and sent on the page's own throttled socket;
the pages load side by side; and the table exiles the Jester on day 1, which ends the
game (RULES §1): every step of a day, then the end screen, whatever the deal. Left to
their own votes, the bots' games at 12 cats last about five days (4.8 on average in 60 of
the engine's games, up to seven), each about 25 s here."""

import json
from string import Template

import pytest
from playwright.sync_api import expect

from engine.games import game_of
from engine.rng import Rng
from tests.support.local_stack_process import BROWSER_TIME_SCALE, LocalStackProcess
from tests.support.ui_table import LOCALES, PHONE, UiTable

NAMES = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"]
ROUND_TRIP_MS = 300
BYTES_A_SECOND = 1_600_000 // 8
SLOW_NETWORK = {"offline": False, "latency": ROUND_TRIP_MS,
                "downloadThroughput": BYTES_A_SECOND, "uploadThroughput": BYTES_A_SECOND}  # fmt: skip

#: The page's WebSocket frames wait half the round trip each way (a close too, so that it
#: comes after the frames sent before it), and ``window.__onFrame(socket, data)``, if set,
#: sees each frame as the page does. ``window.__sockets`` counts the sockets opened.
SLOW_FRAMES_JS = Template("""(() => {
  const Real = window.WebSocket;
  const HALF_ROUND_TRIP_MS = $half_round_trip_ms;
  window.__sockets = 0;
  function Slow(url, protocols) {
    const socket = new Real(url, protocols);
    window.__sockets += 1;
    for (const kind of ["message", "close"]) {
      let handler = null;
      Object.defineProperty(socket, "on" + kind, { get: () => handler, set: (h) => { handler = h; } });
      socket.addEventListener(kind, (event) => setTimeout(() => {
        if (handler) handler.call(socket, event);
        if (kind === "message" && window.__onFrame) window.__onFrame(socket, event.data);
      }, HALF_ROUND_TRIP_MS));
    }
    const send = socket.send.bind(socket);
    socket.send = (data) => setTimeout(() => { if (socket.readyState === 1) send(data); }, HALF_ROUND_TRIP_MS);
    return socket;
  }
  Slow.prototype = Real.prototype;
  Object.assign(Slow, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Slow;
})()""").substitute(half_round_trip_ms=ROUND_TRIP_MS // 2)

#: A phone whose moves the test's binding ``__botMove(view)`` chooses: each game view it is
#: shown is asked about, and the move, unless a newer view came meanwhile, goes out on the
#: socket that brought the view, padded and naming its room as the phone's own frames.
BOT_JS = """(() => {
  let newest = null;
  window.__onFrame = async (socket, data) => {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    if (message.type !== "view" || message.view.phase === "lobby") return;
    if (newest && message.seq < newest.seq) return;
    newest = message;
    const move = await window.__botMove(JSON.stringify(message.view));
    if (!move || newest !== message || socket.readyState !== 1) return;
    const { paddedFrame } = await import("/js/connection.js");
    socket.send(paddedFrame({ ...move, room: message.view.room }));
  };
})()"""

#: How many sockets each page opened, and when its page's response had come (at least the
#: emulation's round trip after the navigation began: Chromium holds the body back).
SHOWN_JS = """() => ({ sockets: window.__sockets,
  pageLoaded: performance.getEntriesByType("navigation")[0].responseEnd })"""


class PageBot:
    """One phone's choices, as the local stack's bots choose (local_stack/bot_client.py):
    the engine's bot move for the view, once per kind of move in a step; but its exile vote
    goes to the Jester, whom the test knows (``roles``: every bot page's view says its own
    role; none is the Jester, then the host is), so that the Jester wins on day 1."""

    def __init__(self, seed: int, roles: dict[str, str]) -> None:
        self.rng = Rng(seed)
        self.roles = roles
        self.last_move: tuple[int, str] | None = None

    def move(self, view_json: str) -> dict | None:
        view = json.loads(view_json)
        game = game_of(view["game"])
        me = view["me"]
        self.roles[me["name"]] = me["role"]
        if game.view_is_over(view):
            return None
        action = game.bot_move(view, self.rng)
        if action is None:
            return None
        kind = game.same_choice_moves.get(action["type"], action["type"])
        if self.last_move == (view["step"], kind):
            return None  # a view from before its last move landed: that move is on its way
        self.last_move = (view["step"], kind)
        if action["type"] == "vote" and me["role"] != "jester":
            action["target"] = next(
                (name for name, role in self.roles.items() if role == "jester"), NAMES[0]
            )
        return {"action": action.pop("type"), **action, "step": view["step"]}


@pytest.fixture(scope="module")
def stack():
    process = LocalStackProcess(time_scale=BROWSER_TIME_SCALE)
    yield process
    process.interrupt()


def _slow(page):
    """The page's network made slow; the DevTools session that keeps it so."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("Network.emulateNetworkConditions", SLOW_NETWORK)
    page.context.add_init_script(SLOW_FRAMES_JS)
    return devtools


def test_twelve_phones_at_300_ms_and_1_6_mbit_play_a_whole_game(stack, browser):
    table = UiTable(browser, stack.http_url, NAMES[:1], seed=12)
    host = table.host
    emulations = [_slow(host.page)]  # kept: the emulation lasts as long as its session
    pages, script_errors, roles = [], [], {}
    for seed in range(len(NAMES) - 1):
        context = browser.new_context(viewport=PHONE, has_touch=True, locale=LOCALES["en"])
        page = context.new_page()
        page.on("pageerror", lambda error: script_errors.append(str(error)))
        emulations.append(_slow(page))
        context.add_init_script(BOT_JS)
        context.expose_function("__botMove", PageBot(seed, roles).move)
        pages.append(page)

    for page in pages:  # every page loads at once, the host's too
        page.goto(stack.http_url + "/", wait_until="commit")
    code = table.open_room(discussion_limit="")  # Off: every step waits for its moves
    for page, name in zip(pages, NAMES[1:], strict=True):
        page.fill("#name", name)
        page.fill("#code", code)
        page.get_by_role("button", name="Join", exact=True).click()
    expect(host.page.locator(".seats li")).to_have_count(len(NAMES), timeout=60_000)
    table.start()

    table.play(until=lambda: host.phase == "game_over", timeout=240)
    everyone = [host.page, *pages]
    for page in everyone:
        expect(page.locator("main")).to_have_attribute("data-phase", "game_over", timeout=10_000)
        # The Jester, exiled on day 1 (else the bots were not told who it is, and the
        # game, still whole, took days more)
        expect(page.get_by_role("heading", level=1)).to_have_text("The Jester wins!")
        expect(page.locator("main .reveal-card")).to_have_count(len(NAMES))
    shown = [page.evaluate(SHOWN_JS) for page in everyone]
    # The network was slow: each page's navigation waited the round trip for its response.
    assert min(s["pageLoaded"] for s in shown) >= ROUND_TRIP_MS, shown
    # ...and no phone lost its connection for it, nor the host a tap.
    assert [s["sockets"] for s in shown] == [1] * len(NAMES), shown
    assert host.errors == [] and script_errors == [], (host.errors, script_errors)
