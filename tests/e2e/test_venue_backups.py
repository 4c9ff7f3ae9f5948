"""The head judge sees when the last backup was written and downloads it from the dashboard,
on a phone and on a laptop, without sideways scrolling."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from tests.factories import make_players, make_round, make_tournament, seat_table

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_dashboard_shows_the_last_backup_and_downloads_it(
    new_page: Any, live_server: Any, sign_in: Any, head_judge: Any, password: str, settings: Any,
    tmp_path: Path, viewport: dict[str, int],
) -> None:
    from venue import backups

    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    seat_table(make_round(tournament, number=1), make_players(tournament, 6), number=1)
    written = backups.write_backup(tournament, now=dt.datetime(2026, 7, 28, 14, 5, 9, tzinfo=dt.UTC))

    page = new_page(viewport=viewport, locale="en-US", timezone_id="UTC", accept_downloads=True)
    sign_in(page, head_judge.username, password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    line = page.locator("[data-last-backup]")
    line.scroll_into_view_if_needed()
    assert line.is_visible()
    assert "Last backup: Tue 28 Jul, 14:05:09" in line.inner_text()
    box = line.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert page.evaluate(FITS)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the last backup").click()
    saved = tmp_path / "downloaded.json"
    download.value.save_as(saved)
    assert saved.read_bytes() == written.path.read_bytes()


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_failing_backup_is_shown_in_red_with_its_reason_and_the_last_good_one(
    new_page: Any, live_server: Any, sign_in: Any, head_judge: Any, password: str, settings: Any,
    tmp_path: Path, viewport: dict[str, int],
) -> None:
    from tests.venue.mounts import read_only
    from venue import backups

    settings.VENUE_BACKUP_DIR = tmp_path / "backups"
    tournament = make_tournament(format="wbc", head_judge=head_judge)
    seat_table(make_round(tournament, number=1, state="published"), make_players(tournament, 6), number=1)
    backups.write_backup(tournament, now=dt.datetime(2026, 7, 28, 14, 5, 9, tzinfo=dt.UTC))
    with read_only(backups.folder(tournament.pk)):
        assert not backups.back_up(tournament).ok

    page = new_page(viewport=viewport, locale="en-US", timezone_id="UTC")
    sign_in(page, head_judge.username, password)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    box = page.locator("[data-backup-failed]")
    box.scroll_into_view_if_needed()
    assert box.is_visible() and box.get_attribute("role") == "alert"
    text = box.inner_text()
    assert "Backups are failing" in text and "read-only" in text
    assert "Last good backup: Tue 28 Jul, 14:05:09" in text
    red, green, blue = (int(n) for n in re.findall(r"\d+", box.evaluate("e => getComputedStyle(e).color"))[:3])
    assert red > 150 and green < 80 and blue < 80, "the failure is written in red"
    rect = box.bounding_box()
    assert rect is not None and rect["x"] >= 0 and rect["x"] + rect["width"] <= viewport["width"]
    assert page.evaluate(FITS)
