"""Every screenshot the README and docs/ show is one a browser test takes (`screenshot(page,
name)`), so `REFRESH_SCREENSHOTS=1` and the browser tests bring each one up to date."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _shown() -> set[str]:
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    # From the README (docs/screenshots/…), docs/ (screenshots/…) and the guides (../screenshots/…).
    return {m[1] for path in texts for m in re.finditer(r"(?:docs/|[(\"]|[(\"]\.\./)screenshots/([\w-]+)\.png",
                                                         path.read_text())}


def _taken() -> tuple[set[str], set[str]]:
    """Names the browser tests give their screenshots, and the prefixes of names made in f-strings."""
    text = "\n".join(path.read_text() for path in (ROOT / "tests" / "e2e").rglob("*.py"))
    names = set(re.findall(r"screenshot\(\s*\w+,\s*\"([\w-]+)\"", text))
    prefixes = set(re.findall(r"screenshot\(\s*\w+,\s*f\"([\w-]+)\{", text))
    return names, prefixes


def test_every_screenshot_shown_is_taken_by_a_browser_test() -> None:
    names, prefixes = _taken()
    shown = _shown()
    assert "demo-table-phone" in shown
    assert {"private-link-seat", "demo-round-clocks-laptop", "table-venue-offline"} <= shown  # the guides' too
    stale = sorted(n for n in shown if n not in names and not any(n.startswith(p) for p in prefixes))
    assert not stale, f"no browser test takes {stale}: they cannot be refreshed"
    for name in shown:
        assert (ROOT / "docs" / "screenshots" / f"{name}.png").exists(), name
