"""Fixtures shared by the tests that run `make dev` and the browser tests (Debian's Chromium through Playwright)."""

from pathlib import Path

import pytest

from tests.support.local_stack_process import BROWSER_TIME_SCALE, LocalStackProcess
from tests.support.ui_table import ARTIFACTS, CHROMIUM, FLAGS, PHONE


@pytest.fixture(scope="module")
def stack():
    """`make dev` on 127.0.0.1 with four quick bots joining every room created, its game
    clock four times the wall's."""
    process = LocalStackProcess("--bots", "4", "--think", "0.05-0.2", time_scale=BROWSER_TIME_SCALE)
    yield process
    process.interrupt()


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, one per test module (a launch costs a second of CPU; each test
    gets its own contexts). Module scope, not session: the sync API runs an event loop
    on this thread, which a later test's asyncio.run() in the same worker would trip on."""
    assert Path(CHROMIUM).exists(), "apt-get install -y chromium (see .ci/run)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright  # only the browser tests need it

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _pages_close_with_their_test(request):
    """The browser is the module's; the pages (contexts) a test opens close when it ends,
    so none keeps polling a stack during the next test."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="module")
def real_time_stack():
    """`make dev` with no bots and its clock at 1×: for the tells test, which compares
    phones' countdowns read one after another (docs/testing.md)."""
    process = LocalStackProcess()
    yield process
    process.interrupt()


@pytest.fixture
def double_speed_stack():
    """`make dev` with no bots and its clock at 2×: for each game's one game whose every
    timer runs out (Catch the Witch's five countdowns of a day and the witches' 15 s,
    Burn the Witch's witching hour and the trial's two minutes). At 1× they took 216 and up
    to 420 s and set the whole run's length; 2× still leaves a 15 s turn 7.5 s."""
    process = LocalStackProcess(time_scale=2)
    yield process
    process.interrupt()


@pytest.fixture
def phones(browser):
    """Opens phone-sized pages in the browser's language ``locale``, each in a context of
    its own; a script error on any of them fails the test."""
    errors: list[str] = []

    def open_phone(locale: str = "en-GB"):
        page = browser.new_context(viewport=PHONE, has_touch=True, locale=locale).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_phone
    assert errors == [], errors


@pytest.fixture(scope="module")
def webkit_display():
    """An Xvfb display for the module's WebKit sessions (MiniBrowser has no working headless
    mode under WebDriver); stopped with the module, and with this process if it dies."""
    from tests.support.webkit import VirtualDisplay  # only the WebKit tests need Selenium

    display = VirtualDisplay()
    yield display
    display.stop()


@pytest.fixture
def webkit(webkit_display):
    """Opens WebKit sessions (tests/support/webkit.py): ``webkit()`` a phone-sized one,
    ``webkit(TABLE_SCREEN)`` a laptop's; each has storage of its own (two phones, two
    seats). All close when the test ends; a script error on any of them fails it."""
    from tests.support.webkit import PHONE, WebKitPage

    pages: list = []

    def open_page(size: tuple[int, int] = PHONE):
        pages.append(WebKitPage(webkit_display, size))
        return pages[-1]

    yield open_page
    try:
        errors = {number: page.errors() for number, page in enumerate(pages)}
    finally:
        for page in pages:
            page.close()
    assert not any(errors.values()), errors


# -- The longest tests first, one to a worker ----------------------------------------------
#: The tests that take a minute or more on a loaded machine (`make test`'s slowest list,
#: seconds on CI's four workers), longest first. Most wait (a 1× timer, a browser game):
#: started last, one of them alone kept the run going for minutes after every other test
#: had ended (the 1× Burn the Witch timers began 15 minutes into a 19-minute run).
LONGEST_TESTS = {
    "tests/engine/test_properties.py::test_random_games_end_properly_and_never_leak": 268,
    "test_with_timers_on_every_kind_of_timer_runs_out_on_every_phone": 215,
    "test_with_a_discussion_limit_every_countdown_runs_out": 214,
    "test_twelve_simultaneous_votes_round_after_round_none_lost_none_doubled": 60,
    "test_a_witch_reading_only_her_screen_casts_a_spell_on_day_two": 185,
    "test_five_phones_play_a_whole_game_through_the_ui": 145,
    "test_five_phones_play_a_whole_game_of_burn_the_witch_through_taps": 118,
    "tests/engine/burn_the_witch/test_properties.py::test_random_games_end_properly": 85,
    "test_pongs_and_step_numbers_tell_nothing_a_seat_cannot_see": 60,
    "test_a_witch_the_knight_the_seer_and_a_villager_look_alike_in_every_secret_step": 79,
    "test_a_table_screen_follows_a_whole_game_with_public_views_and_even_narration": 76,
    "test_twelve_phones_at_300_ms_and_1_6_mbit_play_a_whole_game": 65,
    "test_a_webkit_phone_plays_catch_the_witch_to_the_end_put_away_twice_with_a_tv": 76,
}


def _estimate(item: pytest.Item) -> float:
    return next((s for name, s in LONGEST_TESTS.items() if name in item.nodeid), 0.0)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist's worksteal, worker k first gets the k-th of `workers` equal runs of the
    collected list and steals from the ends of the others' runs later. So each long test is
    dealt, longest first, to the head of the run of the worker with the least estimated
    work, and every worker starts on its long tests while the others have short ones to
    share. Every worker computes the same order (xdist checks the lists are equal)."""
    workers = getattr(config, "workerinput", {}).get("workercount", 0)
    if workers < 2:
        return
    long_tests = sorted((item for item in items if _estimate(item)), key=_estimate, reverse=True)
    rest = [item for item in items if not _estimate(item)]
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for item in long_tests:
        least = loads.index(min(loads))
        heads[least].append(item)
        loads[least] += _estimate(item)
    ordered: list[pytest.Item] = []
    left = len(items)
    for worker in range(workers):  # worksteal's first split: len(pending) // nodes remaining
        size = left // (workers - worker)
        ordered += heads[worker]
        take = max(0, size - len(heads[worker]))
        ordered += rest[:take]
        rest = rest[take:]
        left -= size
    items[:] = ordered + rest


# -- Where coverage is measured, and where the time goes --------------------------------------
#: The layers of tests/, in the order `make test` reports their time.
LAYERS = ("engine", "service", "integration", "e2e")


def _layer(nodeid: str) -> str:
    parts = nodeid.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "tests" and parts[1] in LAYERS else "other"


def _measures_coverage(item: pytest.Item) -> bool:
    """The engine's coverage floor (make test: 90 %) is checked on the engine layer's own
    tests: they reach 97 % of it alone. Tracing the other layers (the engine under the room
    service, thousands of random moves) only slows them, as does tracing the random-game
    properties and balance counts (marked slow), which add no line the rules' tests miss."""
    return _layer(item.nodeid) == "engine" and item.get_closest_marker("slow") is None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    tracers = [] if _measures_coverage(item) else _coverage_tracers()
    for tracer in reversed(tracers):
        tracer.stop()
    try:
        yield
    finally:
        for tracer in tracers:
            tracer.start()


def _coverage_tracers() -> list:
    """Every coverage tracer running in this process (none without --cov). Under xdist,
    pytest-cov 7 starts two in each worker (its Central and its DistWorker controller), so
    stopping only ``Coverage.current()`` would leave the other tracing: coverage keeps the
    started ones, in order, in ``Coverage._instances``."""
    import coverage

    return list(getattr(coverage.Coverage, "_instances", ()))


_seconds_by_layer: dict[str, float] = {}
_tests_by_layer: dict[str, int] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Each test's setup, call and teardown (reported to the controller under xdist)."""
    layer = _layer(report.nodeid)
    _seconds_by_layer[layer] = _seconds_by_layer.get(layer, 0.0) + report.duration
    if report.when == "call":
        _tests_by_layer[layer] = _tests_by_layer.get(layer, 0) + 1


@pytest.hookimpl(trylast=True)  # after coverage's report and the slowest tests
def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """`make test` ends by saying where its time went: each layer's test time (summed over
    the workers, so more than the wall clock when they run side by side)."""
    if not _seconds_by_layer or hasattr(config, "workerinput"):
        return
    terminalreporter.section("time per layer (test seconds, all workers)")
    for layer in (*LAYERS, "other"):
        if layer in _seconds_by_layer:
            terminalreporter.write_line(f"{layer:<12} {_tests_by_layer.get(layer, 0):>5} tests "
                                        f"{_seconds_by_layer[layer]:>8.0f} s")  # fmt: skip
    terminalreporter.write_line(f"{'all':<12} {sum(_tests_by_layer.values()):>5} tests "
                                f"{sum(_seconds_by_layer.values()):>8.0f} s")  # fmt: skip
