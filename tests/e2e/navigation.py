"""Reloading a page the way its reader does."""

from __future__ import annotations

from typing import Any


def reload(page: Any, *, timeout: float | None = None) -> None:
    """Reload `page` from the page itself (what the reload button does) and wait for the new
    document's load event, at most `timeout` ms (the page's default otherwise).

    Playwright's `page.reload()` asks through the automation protocol instead, and a reload
    asked that way while a service worker writes to its cache can wedge the browser: the call
    never returns, whatever its timeout. The table page's worker keeps the page's offline copy
    in its cache, so the table pages' tests reload this way."""
    with page.expect_navigation(wait_until="load", timeout=timeout):
        page.evaluate("() => { setTimeout(() => location.reload(), 0); }")
