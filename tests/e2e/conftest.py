"""Browser-test harness: Playwright driving Debian's Chromium against pytest-django's live server.

The browser is never downloaded by Playwright: tests launch /usr/bin/chromium (installed by
`make test`).

What a new browser test asks for (arguments of the test function; nothing to import):

- `page` (a laptop, 1280×800), `phone_page` (390×844) and `second_page` (a second phone with
  its own cookies), and `player` (tests/e2e/tour.py: a player's phone, nobody signed in). Each
  is a fresh browser context with its own cookies, opened on the one Chromium of the test
  process (`browser`, started once per process: never launch another) and closed after the test.
- `live_server.url`: where the platform answers. pytest-django starts one live server per test
  process, shared by every browser test; a test that uses it commits, so mark the module
  `pytestmark = pytest.mark.django_db(transaction=True)`. Between such tests the test database
  is emptied (config/test_postgresql: DELETE, milliseconds), so set up only what the test needs.
- `sign_in(page, username, password)`: through the real sign-in form (`password` is the one
  `make_user` and `head_judge` give every account).
- `screenshot(page, name)`: the whole page to artifacts/screenshots/NAME.png when pictures are
  asked for (`SCREENSHOTS=1`, or `REFRESH_SCREENSHOTS=1` for the docs' own under
  docs/screenshots/); otherwise nothing is drawn. Use it where a person would want to look.
- The page-driving steps of the whole-tournament walks (tests/e2e/tour.py: `goto`, `submit`,
  `record`, creating a tournament, importing players, checking in, seating, the table judge's
  steps) fail with the page's own message: reuse them rather than clicking anew.

Waiting: wait for the state a check needs (`expect(...)`, `wait_for_function`, a navigation),
never a fixed time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between page actions are ordinary synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
#: The screenshots the README and docs/ show; `REFRESH_SCREENSHOTS=1` makes the browser tests
#: write theirs there too (tests/platform/test_docs_screenshots.py: each one has a test).
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, which installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, locale="en-US", timezone_id="UTC")
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A laptop-sized page; `live_server.url` is where the platform answers."""
    yield from _page(browser, LAPTOP)


@pytest.fixture
def phone_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A page at a phone's viewport (390×844)."""
    yield from _page(browser, PHONE)


@pytest.fixture
def second_page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A second, independent browser session (its own cookies)."""
    yield from _page(browser, PHONE)


def taking_screenshots() -> bool:
    """Screenshots are taken when asked for: `SCREENSHOTS=1` (for people to look at) or
    `REFRESH_SCREENSHOTS=1` (the docs' pictures). A full-page picture costs the browser more
    than most of the steps around it, and no test reads it."""
    return bool(os.environ.get("SCREENSHOTS") or os.environ.get("REFRESH_SCREENSHOTS"))


@pytest.fixture
def screenshot() -> Any:
    """`screenshot(page, name)`: the whole page to artifacts/screenshots/NAME.png when pictures
    are asked for (`taking_screenshots`), and to docs/screenshots/ too under REFRESH_SCREENSHOTS
    when the docs show it; answers the path either way."""

    def take(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        if not taking_screenshots():
            return path
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
        shown = DOCS_SCREENSHOTS / path.name
        if os.environ.get("REFRESH_SCREENSHOTS") and shown.exists():
            shown.write_bytes(path.read_bytes())
        return path

    return take


@pytest.fixture
def sign_in(live_server: Any) -> Any:
    """Sign a page in through the real sign-in form."""

    def do(page: Any, username: str, password: str) -> None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()

    return do
