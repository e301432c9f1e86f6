"""The table screen. A laptop-sized page opens /table?room=CODE#key=KEY (the host's
table link) on the local stack while a host (a bot client) and the stack's four
bots play a whole game of Catch the Witch. Pages with the code alone, or a wrong key, say
they are refused and let the real screen be; once the game is over, four keyed sockets take
the places, the page says it was let go, and "Watch here again" brings it back.
It checks that the page received only public views (no token, no `me`, no role before the
end), that it showed the steps and then the result, and that its narration (the lines
given to speechSynthesis, recorded by an init script) for the first night, when no spell
can be cast (RULES §5: spells unlock from day 2), is the same as for a night the reveal
shows a witch cast a spell, with as many frames received in each witches' turn.
Screenshots: docs/screens/table-*.png (landscape 1280×720 and portrait 720×1280)."""

import asyncio
import json
import threading
import time
from pathlib import Path

from playwright.sync_api import expect

from local_stack.bot_client import BotClient
from tests.e2e.test_browser_end_screen import REVEAL_RUNNING_JS
from tests.support.local_stack_process import BOTS_SEATED_MS

SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
LANDSCAPE = {"width": 1280, "height": 720}
PORTRAIT = {"width": 720, "height": 1280}
#: Phases shown in the screenshots (the first time the table screen reaches each).
SHOWN = ("morning", "witches", "approval_result", "vote_result", "game_over")

#: Records every frame the page's sockets receive and every line given to speech, with the
#: step the page shows when it happens (main[data-step]).
RECORDER = """
window.__log = [];
const step = () => (document.querySelector("main") || { dataset: {} }).dataset.step || "";
const Real = window.WebSocket;
window.WebSocket = class extends Real {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => window.__log.push({ kind: "frame", data: e.data, step: step() }));
  }
};
class Utterance { constructor(text) { this.text = text; this.lang = ""; this.voice = null; } }
window.SpeechSynthesisUtterance = Utterance;
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak: (u) => window.__log.push({ kind: "speak", text: u.text, lang: u.lang, step: step() }),
  cancel: () => {}, getVoices: () => [],
} });
"""


class HostThread(threading.Thread):
    """The host's phone, a bot client: creates the room, waits for the stack's bots and for
    ``go``, starts, and plays to the end."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        self.url = url
        self.code: str | None = None
        self.key: str | None = None  # the table key of the host's lobby view
        self.ready = threading.Event()
        self.go = threading.Event()
        self.done = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            asyncio.run(self._play())
        except BaseException as exc:  # reported by the test
            self.failure = exc
        finally:
            self.ready.set()
            self.done.set()

    async def _play(self) -> None:
        host = BotClient(self.url, "Ann", seed=15)
        try:
            await host.connect()
            self.code = await host.create_room(
                {"discussion_limit": 30, "reveal_role_on_exile": False}
            )
            await host.wait_for(lambda bot: len((bot.view or {}).get("seats", [])) == 5, 30)
            self.key = host.view["table_key"]
            self.ready.set()
            while not self.go.is_set():
                await asyncio.sleep(0.1)
            await host.send({"action": "start"})
            await asyncio.wait_for(host.play(), 420)
        finally:
            await host.close()


def test_a_table_screen_follows_a_whole_game_with_public_views_and_even_narration(stack, browser):
    host = HostThread(stack.websocket_url)
    host.start()
    assert host.ready.wait(40) and host.failure is None, host.failure
    errors: list[str] = []
    page = browser.new_context(viewport=LANDSCAPE, locale="en-GB").new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(RECORDER)
    assert host.key and len(host.key) >= 22
    page.goto(f"{stack.http_url}/table?room={host.code}#key={host.key}")
    main = page.locator("main")
    expect(main).to_have_attribute("data-phase", "lobby", timeout=15_000)
    expect(main).to_contain_text("Ann")
    expect(page.locator("ul.seats li")).to_have_count(5)
    # The key leaves the address bar (a TV shows it), and a reload keeps it.
    assert "key=" not in page.url, page.url
    page.reload()
    expect(main).to_have_attribute("data-phase", "lobby", timeout=15_000)
    # The code alone, or another key, opens no table and lets nobody go.
    stranger = page.context.new_page()
    stranger.on("pageerror", lambda error: errors.append(str(error)))
    for link, said in ((f"table?room={host.code}#key={'A' * 22}", "opens no table"),
                       (f"table?room={host.code}", "has no key")):  # fmt: skip
        stranger.goto(f"{stack.http_url}/{link}")
        refused = stranger.locator("main")
        expect(refused).to_have_attribute("data-phase", "stopped", timeout=15_000)
        expect(refused.locator(".error")).to_contain_text(said)
    stranger.close()
    expect(main).to_have_attribute("data-phase", "lobby")
    sound = page.locator("#sound")
    sound.click()  # muted, and remembered; then on again for the game
    expect(sound).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('party.table_muted')") == "1"
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENS / "table-lobby.png")
    host.go.set()

    shown: set[str] = set()
    deadline = time.monotonic() + 480
    while time.monotonic() < deadline:
        phase = main.get_attribute("data-phase")
        if phase in SHOWN and phase not in shown:
            shown.add(phase)
            if phase == "game_over":  # the reveal's cards face up
                page.wait_for_function(f"() => ({REVEAL_RUNNING_JS})() === 0", timeout=5_000)
            page.screenshot(path=SCREENS / f"table-{phase.replace('_', '-')}.png")
            if phase in ("morning", "game_over"):
                page.set_viewport_size(PORTRAIT)
                page.screenshot(path=SCREENS / f"table-{phase.replace('_', '-')}-portrait.png")
                page.set_viewport_size(LANDSCAPE)
        if phase == "game_over":
            break
        time.sleep(0.2)
    assert main.get_attribute("data-phase") == "game_over", "the game did not end in time"
    assert host.done.wait(30) and host.failure is None, host.failure
    expect(main.locator("h1")).to_contain_text(" win")  # "The witches win!", as a phone words it
    log = page.evaluate("window.__log")
    _let_go_and_watch_again(page, stack, host)
    assert errors == [], errors

    assert host.key not in json.dumps(log), "the table key sent to the table screen"
    frames = [entry for entry in log if entry["kind"] == "frame"]
    messages = [json.loads(entry["data"]) for entry in frames]
    assert {m["type"] for m in messages} <= {"view", "pong"}, "only views (and pongs) to a table"
    views = [m["view"] for m in messages if m["type"] == "view"]
    assert all(v["watching"] and v["room"] == host.code for v in views)
    for view in views:
        assert view.get("me") is None and view.get("you") is None, view
        assert "token" not in json.dumps(view)
        if view["phase"] != "lobby":
            assert all("role" not in p for p in view["players"]), "a role before the end"
    # The newest view (pushes from two invocations may arrive out of order: the page drops
    # the older, the log keeps both): the lobby's, with the game's result.
    newest = max((m for m in messages if m["type"] == "view"), key=lambda m: m["seq"])["view"]
    arrived = [(m["seq"], m["view"]["phase"]) for m in messages if m["type"] == "view"]
    assert newest["phase"] == "lobby", arrived[-5:]
    result = newest["last_result"]
    assert result and result["reveal"]["roles"], "the result reveals the roles at the end"

    # The narration: one line per step change, the same for a night with spells as without.
    spoken = [entry for entry in log if entry["kind"] == "speak"]
    assert spoken and all(entry["lang"] == "en" for entry in spoken)
    nights = {day["day"]: day for day in result["reveal"]["timeline"]}
    with_spells = [n for n, day in nights.items()
                   if any(s["spell"] != "none" for s in day.get("spells", []))]  # fmt: skip
    assert 1 in nights and 1 not in with_spells, "no spell is cast on the first night"
    # Bots that deduce end about half of their 5-cat games on day 1, before any spell (the
    # room's deal is random): then night 1 alone is checked here, and the table screen's
    # silence through every spell is checked move by move by tests/service/test_table_screen.py.

    def night(n: int, kind: str) -> list[str]:
        """What the page was given (lines, or frames) in night ``n``'s witches' turn."""
        entries = [e for e in log if e["kind"] == kind and e["step"] == f"witches/{n}/0"]
        return [e["text"] if kind == "speak" else json.loads(e["data"])["type"] for e in entries]

    assert len(night(1, "speak")) == 1, "the witches' turn is announced once"
    assert night(1, "frame") == ["view"], "frames in the witches' turn: the one that ends it"
    for n in with_spells:
        assert night(n, "speak") == night(1, "speak"), "the witches' turn, announced"
        # Frames while it lasts: the one that ends it (nothing is pushed within it).
        assert night(n, "frame") == night(1, "frame") == ["view"], "frames in the witches' turn"
    lines = {e["step"]: e["text"] for e in spoken}
    witches_lines = {text for step, text in lines.items() if step.startswith("witches/")}
    assert len(witches_lines) == 1, witches_lines  # every night announced the same way
    page.context.close()


def _let_go_and_watch_again(page, stack, host: HostThread) -> None:
    """Four sockets with the key (the host's screens on other devices) take every place: the
    page, the oldest, is let go and says so; "Watch here again" takes a place back."""
    helper = page.context.new_page()
    helper.goto(f"{stack.http_url}/table")  # same origin; with no room it opens no socket
    helper.evaluate(
        """async ([url, room, key, n]) => {
          window.__screens = [];
          for (let i = 0; i < n; i++) {
            const socket = new WebSocket(url);
            await new Promise((done) => { socket.onopen = done; });
            const answered = new Promise((done) => { socket.onmessage = done; });
            socket.send(JSON.stringify({ action: "watch", room, key }));
            await answered;
            window.__screens.push(socket);
          }
        }""",
        [stack.websocket_url, host.code, host.key, 4],
    )
    main = page.locator("main")
    expect(main).to_have_attribute("data-phase", "stopped", timeout=15_000)
    expect(main.locator(".error")).to_contain_text("has stopped")
    page.locator("#watch-again").click()
    expect(main).to_have_attribute("data-phase", "game_over", timeout=15_000)
    helper.close()


def test_the_host_s_lobby_gives_the_keyed_table_link_and_a_new_one_lets_the_tv_go(stack, phones):
    """The table key through the host's own lobby: the folded table panel's link carries the key
    in its fragment and opens the table; "New table link" lets that screen go (it says so)
    and gives a link that opens it again."""
    page = phones()
    page.goto(stack.http_url + "/")
    page.fill("#name", "Zoe")
    page.get_by_role("button", name="Create a room", exact=True).click()
    expect(page.locator(".seats li")).to_have_count(5, timeout=BOTS_SEATED_MS)
    link = page.locator("#table-screen .link a")
    page.locator("#table-screen summary").click()
    first = link.get_attribute("href")
    assert "/table?room=" in first and len(first.split("#key=")[1]) >= 22, first
    tv = page.context.new_page()
    tv.goto(first)
    screen = tv.locator("main")
    expect(screen).to_have_attribute("data-phase", "lobby", timeout=15_000)
    expect(screen.locator("ul.seats li")).to_have_count(5)
    page.locator("#new-table-key").click()
    expect(screen).to_have_attribute("data-phase", "stopped", timeout=15_000)
    expect(screen.locator(".error")).to_contain_text("has stopped")
    expect(link).not_to_have_attribute("href", first)
    tv.goto(link.get_attribute("href"))
    expect(screen).to_have_attribute("data-phase", "lobby", timeout=15_000)
    tv.goto(first)  # the old link opens nothing now
    expect(screen).to_have_attribute("data-phase", "stopped", timeout=15_000)
    expect(screen.locator(".error")).to_contain_text("opens no table")
