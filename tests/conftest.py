"""Fixtures shared by the tests that run `make dev` and the browser tests (Debian's Chromium through Playwright)."""

from pathlib import Path

import pytest

from tests.support.local_stack_process import LocalStackProcess
from tests.support.ui_table import ARTIFACTS, CHROMIUM, FLAGS, PHONE


@pytest.fixture(scope="module")
def stack():
    """`make dev` on 127.0.0.1 with four quick bots joining every room created."""
    process = LocalStackProcess("--bots", "4", "--think", "0.05-0.2")
    yield process
    process.interrupt()


@pytest.fixture
def phones():
    """Opens phone-sized pages in the browser's language ``locale``; a script error on any
    of them fails the test."""
    assert Path(CHROMIUM).exists(), "apt-get install -y chromium (see .ci/run)"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright  # only the browser tests need it

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        errors: list[str] = []

        def open_phone(locale: str = "en-GB"):
            page = browser.new_context(viewport=PHONE, has_touch=True, locale=locale).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            return page

        yield open_phone
        browser.close()
        assert errors == [], errors
