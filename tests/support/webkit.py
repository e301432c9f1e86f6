"""WebKit, Safari's engine (every browser on an iPhone), for the browser tests: Debian's
WebKitGTK (`MiniBrowser --automation`, driven by `WebKitWebDriver` through Selenium) on a
virtual X display. Playwright's own WebKit needs `playwright install`, which is not used here.

A `WebKitPage` is one browser session: a phone or a table screen with its own storage (an
automation session's is ephemeral, so two phones never share a seat). It offers the little
of Playwright's Page that the table players read a screen with (`evaluate`), so
tests/support/ui_table.py's and btw_ui_table.py's players play it: `WebKitPhone` taps
through WebDriver's element click (mouse events; WebKitGTK emulates no touch screen).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
import warnings
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from tests.support.btw_ui_table import Table
from tests.support.ui_table import Phone

XVFB = "/usr/bin/Xvfb"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
#: An iPhone's screen in CSS pixels. MiniBrowser's toolbar keeps its window wider (about
#: 447 px): still a narrow phone-like page.
PHONE = (390, 844)
TABLE_SCREEN = (1280, 720)

#: Script errors, unhandled rejections and Content-Security-Policy violations of a document,
#: kept in the page to be read (WebKitWebDriver gives no console log). Installed once each
#: document has loaded: an error while the modules load shows as a screen that never draws.
_ERROR_COLLECTOR_JS = """() => {
  if (window.__errors) return;
  window.__errors = [];
  addEventListener("error", (e) => window.__errors.push(`${e.message} (${e.filename}:${e.lineno})`));
  addEventListener("unhandledrejection", (e) => window.__errors.push(`unhandled rejection: ${e.reason}`));
  document.addEventListener("securitypolicyviolation", (e) => window.__errors.push(
    `CSP: ${e.effectiveDirective} refused ${e.blockedURI || "inline"}`));
}"""
#: The button a player sees at ``index`` among the buttons of ``main`` (``seq``: only on
#: that view), if it still reads ``text``.
_BUTTON_JS = """(index, text, seq) => {
  const main = document.querySelector(seq ? `main[data-seq="${seq}"]` : "main");
  const button = main && main.querySelectorAll("button")[index];
  return button && button.textContent.trim() === text ? button : null;
}"""

#: A press-and-hold panel (its id): its title while it shows.
_HELD_TITLE_JS = """(id) => { const sheet = document.getElementById(id);
  return !sheet.hidden && sheet.querySelector("h2").innerText; }"""


def _die_with_parent() -> None:
    """Runs in the child before exec: the kernel sends it SIGTERM when the test process
    dies, however it dies (a worker killed mid-test leaves no X server behind)."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class VirtualDisplay:
    """An Xvfb X server on a free display number (Xvfb picks it and writes it to a pipe)."""

    def __init__(self) -> None:
        assert Path(XVFB).exists(), "apt-get install -y xvfb (see .ci/run)"
        read, write = os.pipe()
        self.process = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )  # fmt: skip
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.stop()
            raise RuntimeError("Xvfb did not start")
        self.name = f":{number}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


class WebKitPage:
    """One WebKit browser session (its own window and storage) showing one page."""

    def __init__(self, display: VirtualDisplay, size: tuple[int, int] = PHONE) -> None:
        assert Path(WEBKIT_DRIVER).exists() and Path(MINIBROWSER).exists(), (
            "apt-get install -y webkit2gtk-driver (see .ci/run)"
        )
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")  # MiniBrowser's headless flag hangs under Selenium
        service = Service(
            executable_path=WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display.name}
        )
        with warnings.catch_warnings():
            # Selenium's own WebKitGTK driver hands its address on the way Selenium deprecates.
            warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
            self.driver = webdriver.WebKitGTK(options=options, service=service)
        try:
            self.driver.set_window_size(*size)
        except WebDriverException:
            self.close()
            raise

    # -- what Playwright's Page offers the table players -------------------------------------
    def evaluate(self, function: str, *args):
        """Runs a JavaScript function expression (as Playwright's `evaluate` takes it) with
        ``args``; its value (a promise's, once settled)."""
        return self.driver.execute_script(f"return ({function})(...arguments);", *args)

    def goto(self, url: str) -> None:
        self.driver.get(url)
        self.evaluate(_ERROR_COLLECTOR_JS)

    def reload(self) -> None:
        self.driver.refresh()
        self.evaluate(_ERROR_COLLECTOR_JS)

    def back(self) -> None:
        """The browser's Back button."""
        self.driver.back()
        self.evaluate(_ERROR_COLLECTOR_JS)  # a page not restored from the cache is a new one

    @contextlib.contextmanager
    def new_tab(self):
        """Inside: the tab the page just opened (it waits for one); then back to this one."""
        first = self.driver.current_window_handle
        end = time.monotonic() + 15
        while len(self.driver.window_handles) < 2:
            assert time.monotonic() < end, "no new tab opened"
            time.sleep(0.05)
        self.driver.switch_to.window(next(h for h in self.driver.window_handles if h != first))
        try:
            yield self
        finally:
            self.driver.close()
            self.driver.switch_to.window(first)

    # -- a person's hands ---------------------------------------------------------------------
    def click(self, css: str) -> None:
        self.driver.find_element(By.CSS_SELECTOR, css).click()

    def click_button(self, text: str) -> None:
        """Clicks the button that reads ``text`` (as a person finds it)."""
        self.driver.find_element(By.XPATH, f"//button[normalize-space()='{text}']").click()

    def hold(self, css: str) -> None:
        """Presses on an element and keeps pressing (a mouse's button: WebKitGTK has no
        touch screen to emulate), until `release`."""
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        ActionChains(self.driver).move_to_element(element).click_and_hold().perform()

    def release(self) -> None:
        ActionChains(self.driver).release().perform()

    def fill(self, css: str, text: str) -> None:
        field = self.driver.find_element(By.CSS_SELECTOR, css)
        field.clear()
        field.send_keys(text)

    def tap_button(self, index: int, text: str, seq: str | None = None) -> None:
        """Clicks the button a screen read showed (see _BUTTON_JS), if it is still there."""
        with contextlib.suppress(WebDriverException):  # redrawn under the finger: look again
            button = self.evaluate(_BUTTON_JS, index, text, seq)
            if button is not None:
                button.click()

    # -- what a test reads --------------------------------------------------------------------
    def text(self, css: str) -> str:
        return self.driver.find_element(By.CSS_SELECTOR, css).text

    def attribute(self, css: str, name: str) -> str | None:
        return self.evaluate(
            "(css, name) => { const e = document.querySelector(css); return e && e.getAttribute(name); }",
            css, name,
        )  # fmt: skip

    def count(self, css: str) -> int:
        return self.evaluate("(css) => document.querySelectorAll(css).length", css)

    def phase(self) -> str:
        return self.attribute("main", "data-phase") or ""

    def wait_for(self, function: str, *args, timeout: float = 15, what: str = "") -> object:
        """Polls a JavaScript function until it returns something truthy; that value."""
        end = time.monotonic() + timeout
        while True:
            value = self.evaluate(function, *args)
            if value:
                return value
            assert time.monotonic() < end, (
                f"timed out after {timeout} s waiting for {what or function}"
            )
            time.sleep(0.05)

    def wait_for_phase(self, *phases: str, timeout: float = 15) -> str:
        return self.wait_for(
            "(phases) => phases.find((p) => document.querySelector(`main[data-phase='${p}']`))",
            list(phases), timeout=timeout, what=f"main[data-phase] in {phases}",
        )  # fmt: skip

    def errors(self) -> list[str]:
        """The script errors and CSP violations seen since the page was opened (goto,
        reload, back)."""
        return self.evaluate("() => window.__errors || []")

    def close(self) -> None:
        with contextlib.suppress(WebDriverException):
            self.driver.quit()


def create_a_room_with_bots(phone: WebKitPage, url: str, game: str, name: str = "Zoe") -> None:
    """``name`` creates a room of ``game`` on the home screen's form, and the local stack's
    four bots sit down."""
    phone.goto(url + "/")
    phone.wait_for_phase("home")
    phone.fill("#name", name)
    phone.click(f"fieldset.games input[value={game}]")
    phone.click_button("Create a room")
    phone.wait_for("() => document.querySelectorAll('.seats li').length === 5", timeout=20,
                   what="the four bots seated")  # fmt: skip


def held_panel_title(phone: WebKitPage, bar: str, panel: str) -> str:
    """Presses and holds the hold bar (its id) as a player does: the title of the panel it
    shows; then lets go, and the panel must hide."""
    phone.hold(f"#{bar}")
    title = phone.wait_for(_HELD_TITLE_JS, panel, what=f"#{panel} shown while held")
    phone.release()
    phone.wait_for("(id) => document.getElementById(id).hidden", panel,
                   what=f"#{panel} hidden once let go")  # fmt: skip
    return title


class WebKitPhone(Phone):
    """A table player (tests/support/ui_table.py) whose taps are WebDriver clicks."""

    def tap(self, button: dict, seq: str | None = None) -> None:
        self.page.tap_button(button["index"], button["text"], seq)


class WebKitTable(Table):
    """Burn the Witch's table player (tests/support/btw_ui_table.py) on WebKit pages."""

    phone_type = WebKitPhone

    def phase(self, name: str) -> str:
        return self.pages[name].phase()
