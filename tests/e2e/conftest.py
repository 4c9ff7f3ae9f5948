"""Browser-test harness: Playwright driving Debian's Chromium against pytest-django's live server.

The browser is never downloaded by Playwright: tests launch /usr/bin/chromium (installed by
`make test`).

What a new browser test asks for (arguments of the test function; nothing to import):

- `page` (a laptop, 1280×800), `phone_page` (390×844) and `second_page` (a second phone with
  its own cookies), and `player` (tests/e2e/tour.py: a player's phone, nobody signed in). Each
  is a new page in a browser context of its own, opened on the one Chromium of the test process
  (`browser`, started once per process: never launch another).
- `new_page(viewport, **options)`: another such page, with the context options of
  `browser.new_context` (locale, timezone_id, device_scale_factor, ...). Use it rather than
  `browser.new_context`: a context costs Chromium about a second of CPU to make, so after a
  test its pages are closed, its cookies, storage (local, IndexedDB, service workers, caches),
  HTTP cache, permissions, routes and offline mode are emptied, and the next test asking for
  the same options gets it back, as clean as a new one (`ContextPool`).
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


#: What a test can do to a context that cannot be undone: such a context is closed after the
#: test instead of being used again (names of methods of Playwright's BrowserContext and Clock).
_FOR_GOOD = {
    "BrowserContext": ("add_init_script", "expose_binding", "expose_function", "route_from_har",
                       "set_geolocation", "route_web_socket"),
    "Clock": ("install", "fast_forward", "pause_at", "resume", "run_for", "set_fixed_time",
              "set_system_time"),
}


def _mark_spent_on_use() -> None:
    """Wrap the methods of `_FOR_GOOD` so that a context they touched is never lent again."""
    from playwright._impl import browser_context, clock

    def wrap(cls: Any, name: str, context_of: Any) -> None:
        method = getattr(cls, name)
        if getattr(method, "_marks_spent", False):
            return

        def marked(self: Any, *args: Any, **kwargs: Any) -> Any:
            context_of(self)._dune_spent = True
            return method(self, *args, **kwargs)

        marked._marks_spent = True  # type: ignore[attr-defined]
        setattr(cls, name, marked)

    for name in _FOR_GOOD["BrowserContext"]:
        wrap(browser_context.BrowserContext, name, lambda context: context)
    for name in _FOR_GOOD["Clock"]:
        wrap(clock.Clock, name, lambda c: c._browser_context)


class ContextPool:
    """Browser contexts lent to one test at a time and emptied between tests (see `new_page`).

    Each context keeps one page of its own open on the live server (its icon): a new page of the
    context then shares that page's renderer process instead of starting one, which is most of
    what a new context costs."""

    def __init__(self, browser: Any, home: str) -> None:
        self.browser = browser
        self.home = home
        self.idle: dict[str, list[Any]] = {}
        self.keepers: dict[Any, Any] = {}
        _mark_spent_on_use()

    def page(self, viewport: dict[str, int], *, timeout: float | None = None, **options: Any) -> Any:
        """A new page in a clean context with these options (`browser.new_context`'s), whose
        actions wait `timeout` milliseconds at most (Playwright's default unless given)."""
        options = {**options, "viewport": viewport}
        key = repr(sorted(options.items()))
        idle = self.idle.setdefault(key, [])
        if idle:
            context = idle.pop()
        else:
            context = self.browser.new_context(**options)
            context._dune_key = key
            settings = context._impl_obj._timeout_settings
            context._dune_timeouts = (settings.default_timeout(), settings.default_navigation_timeout())
            keeper = context.new_page()
            keeper.goto(f"{self.home}/favicon.ico")
            self.keepers[context] = keeper
        first_timeout, navigation_timeout = context._dune_timeouts
        context.set_default_timeout(first_timeout if timeout is None else timeout)
        context.set_default_navigation_timeout(navigation_timeout)
        return context.new_page()

    def give_back(self, context: Any) -> None:
        """Empty the context and keep it for the next test; close it if something was done to it
        that cannot be undone (`_FOR_GOOD`) or emptying it fails."""
        keeper = self.keepers.pop(context, None)
        if keeper is None or keeper.is_closed() or context._impl_obj.__dict__.get("_dune_spent"):
            context.close()
            return
        try:
            origins = {_origin(self.home)} | {_origin(p.url) for p in context.pages}
            origins |= {_origin(worker.url) for worker in context.service_workers}
            for page in context.pages:
                if page is not keeper:
                    page.close()
            cdp = context.new_cdp_session(keeper)
            for origin in origins - {""}:
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            cdp.send("Network.clearBrowserCache")
            cdp.detach()
            context.clear_cookies()
            context.clear_permissions()
            context.set_offline(False)
            context.set_extra_http_headers({})
            context.unroute_all(behavior="ignoreErrors")
        except Exception:
            context.close()
            raise
        self.keepers[context] = keeper
        self.idle[context._dune_key].append(context)

    def close(self) -> None:
        """Close every context kept (their connections to the live server with them)."""
        for idle in self.idle.values():
            for context in idle:
                context.close()
        self.idle.clear()
        self.keepers.clear()


def _origin(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


@pytest.fixture(scope="session")
def contexts(browser: Any, live_server: Any, django_db_setup: Any) -> Iterator[ContextPool]:
    """The contexts of this test process; closed before the test database is dropped, which
    their pages' open connections to the live server would otherwise hold."""
    pool = ContextPool(browser, live_server.url)
    yield pool
    pool.close()


class Lender:
    """The pages one test borrows from the pool: `lender(viewport, **options)` opens one;
    `lender.give_back(page)` empties its context for the next borrower before the test ends
    (every page still out is given back after the test)."""

    def __init__(self, pool: ContextPool) -> None:
        self.pool = pool
        self.lent: list[Any] = []

    def __call__(self, viewport: dict[str, int], **options: Any) -> Any:
        page = self.pool.page(viewport, **options)
        self.lent.append(page.context)
        return page

    def give_back(self, page: Any) -> None:
        self.lent.remove(page.context)
        self.pool.give_back(page.context)


@pytest.fixture
def new_page(contexts: ContextPool) -> Iterator[Lender]:
    """`new_page(viewport, **options)`: a page in a clean context of its own (see the top)."""
    lender = Lender(contexts)
    yield lender
    for context in lender.lent:
        contexts.give_back(context)


@pytest.fixture
def page(new_page: Any) -> Any:
    """A laptop-sized page; `live_server.url` is where the platform answers."""
    return new_page(LAPTOP, locale="en-US", timezone_id="UTC", timeout=10_000)


@pytest.fixture
def phone_page(new_page: Any) -> Any:
    """A page at a phone's viewport (390×844)."""
    return new_page(PHONE, locale="en-US", timezone_id="UTC", timeout=10_000)


@pytest.fixture
def second_page(new_page: Any) -> Any:
    """A second, independent browser session (its own cookies)."""
    return new_page(PHONE, locale="en-US", timezone_id="UTC", timeout=10_000)


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
