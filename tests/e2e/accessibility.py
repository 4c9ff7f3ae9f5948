"""axe-core checks for the browser tests (axe-core is injected from the axe-playwright-python package)."""

from __future__ import annotations

from typing import Any

SERIOUS = {"serious", "critical"}


def serious_violations(page: Any) -> list[str]:
    """The serious or critical axe-core violations on the page, one readable line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in results.response["violations"]
        if v.get("impact") in SERIOUS
    ]
