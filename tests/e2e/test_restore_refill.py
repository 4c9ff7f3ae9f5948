"""The restore drill with real processes: laptop A serves the venue (`bin/venue`: gunicorn,
worker, beat, SQLite); a table judge's phone (Chromium) records; a backup is written; the phone
records more, each answered "recorded"; A is killed with -9; laptop B imports the backup
(`import_tournament`) and serves at the same address. The phone, which kept a journal of its
acknowledged actions, finds B behind what it was told, signs in again in place (B knows no
session of A), and sends the lost records again: each is back on B exactly once, in order,
within a minute, the phone says so, and the head judge's dashboard says what came back."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.e2e.test_table_venue import wait_queued
from tests.venue.laptops import descendants
from tests.venue.test_venue_mode import ROOT, Venue, answers, free_port, wait_for_text

JUDGE_PASSWORD = "a long judge password 42"
HEAD_PASSWORD = "a long head password 42"

SETUP = f"""
from django.contrib.auth import get_user_model
from tests.e2e.test_table_venue import seeded_table
U = get_user_model()
judge = U.objects.create_user("judge1", password={JUDGE_PASSWORD!r})
head = U.objects.create_user("head", password={HEAD_PASSWORD!r}, is_staff=True, is_superuser=True)
table = seeded_table(judge, until="turn_advanced")
table.round.tournament.head_judges.add(head)
print("TABLE", table.pk, table.round.tournament_id)
"""

PASSWORDS = f"""
from django.contrib.auth import get_user_model
for name, password in (("judge1", {JUDGE_PASSWORD!r}), ("head", {HEAD_PASSWORD!r})):
    user = get_user_model().objects.get(username=name)
    user.set_password(password)
    user.save()
"""


def events_on(venue: Venue, table: int) -> list[tuple[int, str]]:
    script = (
        "from gameplay.models import GameEvent\n"
        f"for e in GameEvent.objects.filter(game__table_id={table}).order_by('seq'):\n"
        "    print('EVENT', e.seq, e.type)\n"
    )
    out = run(venue, "shell", "-c", script)
    return [(int(s), t) for s, t in re.findall(r"EVENT (\d+) (\w+)", out)]


def run(venue: Venue, *args: str) -> str:
    done = subprocess.run([str(ROOT / "bin" / "venue"), *args], cwd=ROOT, env=venue.env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def serve(venue: Venue, log: Path) -> str:
    venue.start(log)
    found = wait_for_text(log, rf"open: http://([^\s/]+):{venue.port}/", timeout=240)
    assert found, log.read_text()[-3000:]
    host = f"{found.group(1)}:{venue.port}"
    assert answers(venue.port, host, timeout=120) == 200, log.read_text()[-3000:]
    return host


def record(page: Any, seq: int, control: Any) -> None:
    control()
    wait_queued(page, 0)
    page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq}'")


def test_phones_refill_a_server_restored_from_an_older_backup(browser: Any, tmp_path: Path, screenshot: Any) -> None:
    port = free_port()
    a = Venue(tmp_path / "a", port)
    b = Venue(tmp_path / "b", port)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US", timezone_id="UTC")
    context.set_default_timeout(20_000)
    try:
        host = serve(a, tmp_path / "a.log")
        table, tournament = (int(x) for x in re.search(r"TABLE (\d+) (\d+)", run(a, "shell", "-c", SETUP)).groups())
        base = f"http://{host}"
        page = context.new_page()
        posts: list[str] = []
        page.on("request", lambda r: posts.append(f"{r.method} {r.url} {r.headers.get('idempotency-key')} "
                                                   f"{r.post_data}") if r.method == "POST" else None)
        page.on("response", lambda r: posts.append(f"  -> {r.status} {r.headers.get('x-record')}")
                if r.request.method == "POST" else None)
        page.goto(f"{base}/accounts/login/")
        page.get_by_label("Username").fill("judge1")
        page.get_by_label("Password").fill(JUDGE_PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        url = f"{base}/tables/{table}/"
        page.goto(url)
        seq = int(page.locator("#table-live").get_attribute("data-seq"))

        def storm() -> None:
            page.get_by_label("Move storm by (sectors)").fill("3")
            page.locator("form[data-event-type=storm_moved]").get_by_role("button").click()

        def phase(name: str) -> Any:
            def tap() -> None:
                page.locator("#phase-select").select_option(name)
                page.locator("form[data-action=advance_phase]").get_by_role("button").click()
            return tap

        record(page, seq + 1, storm)
        backup = tmp_path / "backup.json"
        run(a, "export_tournament", str(tournament), "--output", str(backup))
        # Acknowledged after the backup: A answered "recorded" for each.
        record(page, seq + 2, phase("spice_blow"))
        record(page, seq + 3, phase("battle"))
        on_a = events_on(a, table)
        assert on_a[-3:] == [(seq + 1, "storm_moved"), (seq + 2, "phase_advanced"), (seq + 3, "phase_advanced")]
        # The judge goes on while the phone has no network: the action waits on the phone.
        context.set_offline(True)
        phase("mentat_pause")()
        wait_queued(page, 1)
        tree = [a.process.pid, *descendants(a.process.pid)] if a.process is not None else []
        a.stop()  # kill -9: web, worker and beat
        for pid in tree:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

        run(b, "import_tournament", str(backup))
        run(b, "shell", "-c", PASSWORDS)
        assert events_on(b, table)[-1] == (seq + 1, "storm_moved")  # the backup's last record
        serve(b, tmp_path / "b.log")
        reconnected = time.monotonic()
        context.set_offline(False)

        # The phone finds B and holds its waiting action for a sign-in (B knows no session).
        sheet = page.locator("#sign-in-sheet")
        sheet.wait_for(timeout=60_000)
        # While it waits for the judge, the phone does not keep asking.
        sent = sum(1 for line in posts if line.startswith("POST"))
        page.wait_for_timeout(6000)
        assert sum(1 for line in posts if line.startswith("POST")) - sent <= 2, "\n".join(posts)
        sheet.get_by_label("Username").fill("judge1")
        sheet.get_by_label("Password").fill(JUDGE_PASSWORD)
        sheet.get_by_role("button", name="Sign in and send").click()
        page.wait_for_function(
            "() => (document.getElementById('refill-note').textContent || '').includes('sent again after')",
            timeout=60_000,
        )
        back_in = time.monotonic() - reconnected
        wait_queued(page, 0)
        screenshot(page, "table-refilled-after-restore")
        assert "2 records sent again after the server was restored" in page.locator("#refill-note").inner_text(), \
            "\n".join(posts)
        assert back_in < 60, back_in
        # B lost records, it did not move on: no conflict for the judge to decide, the waiting
        # action went after the records sent again.
        assert page.locator("#conflict").is_hidden()

        on_b = events_on(b, table)
        assert on_b == [*on_a, (seq + 4, "phase_advanced")]  # every record back, exactly once, in order

        # The head judge's dashboard: what came back, nothing behind.
        desk = context.browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
        try:
            hp = desk.new_page()
            hp.goto(f"{base}/accounts/login/")
            hp.get_by_label("Username").fill("head")
            hp.get_by_label("Password").fill(HEAD_PASSWORD)
            hp.get_by_role("button", name="Sign in").click()
            hp.wait_for_load_state()
            hp.goto(f"{base}/tournaments/{tournament}/")
            report = hp.locator("#phone-records")
            report.wait_for()
            text = report.inner_text()
            assert "Nothing to fear" in text, text
            assert f"this server has record #{seq + 4}" in text, text
            assert "2 records sent back since the restore" in text, text
            assert f"#{seq + 1} when a phone found it behind" in text, text
        finally:
            desk.close()
    finally:
        context.close()
        a.stop()
        b.stop()
