"""A page of the client's own modules, with no server (tests/e2e/test_frontend_redraw.py,
test_frontend_cover.py): frontend/ served by the browser context's router, a blank page
with the shell's `#screen`, and a setup script that imports what the test drives."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.ui_table import PHONE

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
PAGE = '<!doctype html><meta name="viewport" content="width=device-width"><main id="screen"></main>'


@contextmanager
def module_page(browser, name: str, setup_js: str) -> Iterator:
    """A phone-sized touch page at http://<name>.test/<name>.html, `setup_js` run on it;
    no script error may happen on it meanwhile."""
    site = f"http://{name}.test"
    context = browser.new_context(viewport=PHONE, has_touch=True)

    def serve(route):
        path = route.request.url.split("?")[0][len(site) :].lstrip("/")
        if path == f"{name}.html":
            route.fulfill(body=PAGE, content_type="text/html")
        elif (FRONTEND / path).is_file():
            route.fulfill(path=FRONTEND / path)
        else:
            route.fulfill(status=404)

    context.route(f"{site}/**", serve)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site}/{name}.html")
    page.evaluate(setup_js)
    try:
        yield page
        assert errors == []
    finally:
        context.close()
