"""axe-core checks for the browser tests (axe-core is injected from the axe-playwright-python package)."""

from __future__ import annotations

from typing import Any

SERIOUS = {"serious", "critical"}


def serious_violations(page: Any) -> list[str]:
    """The serious or critical axe-core violations on the page, one readable line each.

    axe-core is injected once per document: a second check of the same page (at another
    viewport, after an action in place) runs the copy already there instead of compiling its
    half a megabyte of script again."""
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe

    axe = Axe()
    if not page.evaluate("() => typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.evaluate(axe.axe_script)
    results = page.evaluate(f"axe.run({axe._format_script_args(options=DEFAULT_OPTIONS)})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in results["violations"]
        if v.get("impact") in SERIOUS
    ]
