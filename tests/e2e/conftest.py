"""Browser-test harness: Playwright driving Debian's Chromium against pytest-django's live server.

The browser is never downloaded by Playwright: tests launch /usr/bin/chromium (installed by
`make test`). Screenshots go to artifacts/screenshots/ for people to look at.
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


@pytest.fixture
def screenshot() -> Any:
    def take(page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
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
