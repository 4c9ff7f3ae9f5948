"""The restore drill with real processes, run once: laptop A serves the venue
(`bin/venue`: gunicorn, worker, beat, SQLite) at its LAN address; two table judges' phones
(Chromium at 390×844, one per table) record a burst of actions, each answered "recorded"; a
backup is written while the burst goes on; A is killed with -9 and the judges go on tapping;
laptop B imports the backup (`import_tournament`) and serves at the same address. Each phone,
which kept a journal of its acknowledged actions, finds B behind what it was told, signs in again
in place (B knows no session of A) and sends the lost records again. The checks then read what
happened, each in turn: every acknowledged record back exactly once and in order, no conflict to decide, the
phones' requests while they waited for the server and for their judge, and the head judge's
dashboard."""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, PHONE, taking_screenshots
from tests.e2e.test_table_venue import wait_queued
from tests.venue.laptops import ROOT, Laptop

JUDGE_PASSWORD = "a long judge password 42"
HEAD_PASSWORD = "a long head password 42"
JUDGES = ("judge1", "judge2")
#: Each phone's random draw for spreading its retries apart (Math.random), pinned so that the
#: spread shows: the first phone draws the shortest wait, the second nearly the longest.
DRAWS = (0.0, 0.999)
#: Acknowledged actions before the backup starts, and after it is written.
BEFORE_BACKUP, AFTER_BACKUP = 3, 3
#: What each phone's scripts send, noted in the page (sessionStorage keeps it across a reload).
SENT = "window.__sentRequests"
NOTE_SENT = SENT + """ = (function () {
  var read = function () { return JSON.parse(sessionStorage.getItem("sent-requests") || "[]"); };
  var note = function (method, url) {
    var all = read(); all.push([Date.now(), String(method || "GET").toUpperCase(), String(url)]);
    sessionStorage.setItem("sent-requests", JSON.stringify(all));
  };
  var fetch = window.fetch;
  window.fetch = function (input, init) {
    note((init && init.method) || (input && input.method), (input && input.url) || input);
    return fetch.apply(this, arguments);
  };
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) { this.noted = [method, url]; return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () { note(this.noted[0], this.noted[1]); return send.apply(this, arguments); };
  return { read: read };
})();"""

SETUP = f"""
from django.contrib.auth import get_user_model
from tests.e2e.test_table_venue import seeded_table
U = get_user_model()
judges = [U.objects.create_user(name, password={JUDGE_PASSWORD!r}) for name in {JUDGES!r}]
head = U.objects.create_user("head", password={HEAD_PASSWORD!r}, is_staff=True, is_superuser=True)
first = seeded_table(judges[0], until="turn_advanced")
second = seeded_table(judges[1], until="turn_advanced", round_=first.round, number=2)
first.round.tournament.head_judges.add(head)
print("TABLES", first.pk, second.pk, "TOURNAMENT", first.round.tournament_id)
"""

#: On B, in one process: the restore (`import_tournament`), then the judges' passwords (B is not
#: paired with A, so the backup's accounts come without them).
RESTORE = f"""
from django.contrib.auth import get_user_model
from django.core.management import call_command
call_command("import_tournament", {{backup!r}})
for name, password in {[(name, JUDGE_PASSWORD) for name in JUDGES] + [("head", HEAD_PASSWORD)]!r}:
    user = get_user_model().objects.get(username=name)
    user.set_password(password)
    user.save()
"""


@dataclass
class Phone:
    """One judge's phone: its page, its table, and every request it made with the moment it made it."""

    judge: str
    table: int
    page: Any = None
    recorded: list[tuple[float, int]] = field(default_factory=list)  # (when, the record number answered)
    shown_seq: int = 0
    worms: int = 0

    def watch(self, host: str) -> None:
        def finished(request: Any) -> None:
            response = request.response()
            record = response.headers.get("x-record") if response is not None else None
            if host in request.url and request.method == "POST" and response is not None and response.ok and record:
                self.recorded.append((float(request.timing["startTime"]) / 1000, int(record)))

        self.page.on("requestfinished", finished)

    def sent(self) -> list[tuple[float, str, str]]:
        """Every request the page's scripts started, when the phone started it (its own clock: the
        test may be busy in a command meanwhile, and would hear of them only later)."""
        return [(at / 1000, method, url) for at, method, url in self.page.evaluate(f"() => {SENT}.read()")]

    def between(self, start: float, end: float) -> list[float]:
        return sorted(t for t, _, _ in self.sent() if start < t <= end)

    def seq(self) -> int:
        return int(self.page.locator("#table-live").get_attribute("data-seq"))

    def tap_worm(self) -> None:
        """A worm in another territory each time (the same form sent twice at once is a double tap)."""
        self.worms += 1
        form = self.page.locator("#flow form[data-action=worm]")
        form.get_by_label("Worm in (optional)").select_option(index=self.worms % 8 + 1)
        form.get_by_role("button", name="Record worm").click()

    def tap_phase(self, name: str) -> None:
        self.page.locator("#phase-select").select_option(name)
        self.page.locator("form[data-action=advance_phase]").get_by_role("button").click()

    def wait_recorded(self, seq: int) -> None:
        try:
            wait_queued(self.page, 0)
            self.page.wait_for_function(f"() => document.getElementById('table-live').dataset.seq === '{seq}'")
        except Exception as error:
            shown = self.page.evaluate("() => [document.getElementById('table-live').dataset.seq,"
                                       " (document.getElementById('outbox') || {}).innerText,"
                                       " (document.getElementById('refusal') || {}).innerText]")
            self.page.screenshot(path=str(ARTIFACTS / f"restore-drill-{self.judge}.png"), full_page=True)
            raise AssertionError(f"record #{seq} not shown on {self.judge}'s phone: {shown}") from error


@dataclass
class Drill:
    phones: tuple[Phone, Phone]
    on_a: dict[int, list[tuple[int, str, Any]]]
    backup: dict[int, list[tuple[int, str, Any]]]
    on_b: dict[int, list[tuple[int, str, Any]]]
    burst: dict[int, tuple[int, int]]  # per table: the first and last record of the burst
    killed_at: float  # when A was killed
    lost_at: dict[str, float]  # per judge: when the phone's action first found no server
    served_at: float  # when B answered
    sheet_at: dict[str, float]  # per judge: when the phone asked its judge to sign in
    signed_in: dict[str, float]  # per judge: when its judge signed in again
    refill_notes: dict[str, str]
    conflicts_shown: dict[str, bool]
    dashboard: str


def serve(laptop: Laptop) -> str:
    laptop.start()
    found = laptop.wait_for_log(rf"open: http://([^\s/]+):{laptop.port}/", timeout=240)
    laptop.wait_serving()
    return f"{found.group(1)}:{laptop.port}"


def at_lan_address(folder: Path, port: int | None = None) -> Laptop:
    laptop = Laptop(folder)
    laptop.port = port or laptop.port
    # The phones open the laptop's LAN address (plain HTTP, as at a venue), one web process.
    laptop.env.update({"PORT": str(laptop.port), "VENUE_BIND": "0.0.0.0", "WEB_WORKERS": "1", "VERBOSITY": "1"})  # noqa: S104
    return laptop


def sign_in(page: Any, base: str, judge: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(judge)
    page.get_by_label("Password").fill(JUDGE_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_load_state()


def refilled(page: Any) -> str:
    page.wait_for_function(
        "() => (document.getElementById('refill-note').textContent || '').includes('sent again after')",
        timeout=60_000, polling=100,
    )
    wait_queued(page, 0)
    return page.locator("#refill-note").inner_text()


#: The drill runs once, in one test that makes every check in turn: a module-scoped fixture would
#: run it again in the second test process whenever the tests were shared out across both.
CHECKS: list[Any] = []


def check(function: Any) -> Any:
    CHECKS.append(function)
    return function


@pytest.fixture
def drill(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Drill]:
    tmp = tmp_path_factory.mktemp("restore-drill")
    a = at_lan_address(tmp / "a")
    b = at_lan_address(tmp / "b", a.port)
    contexts: list[Any] = []
    try:
        host = serve(a)
        base = f"http://{host}"
        out = a.run("shell", "-c", SETUP)
        tables = [int(x) for x in out.split("TABLES", 1)[1].split("TOURNAMENT")[0].split()]
        tournament = int(out.split("TOURNAMENT", 1)[1].split()[0])
        phones = (Phone(JUDGES[0], tables[0]), Phone(JUDGES[1], tables[1]))
        for phone, draw in zip(phones, DRAWS, strict=True):
            context = browser.new_context(viewport=PHONE, locale="en-US", timezone_id="UTC")
            context.set_default_timeout(20_000)
            context.add_init_script(f"Math.random = function () {{ return {draw}; }};\n{NOTE_SENT}")
            contexts.append(context)
            phone.page = context.new_page()
            phone.watch(host)
            sign_in(phone.page, base, phone.judge)
            phone.page.goto(f"{base}/tables/{phone.table}/")
            phone.shown_seq = phone.seq()
            phone.tap_phase("spice_blow")
        for phone in phones:
            phone.shown_seq += 1
            phone.wait_recorded(phone.shown_seq)
        first = {phone.table: phone.shown_seq + 1 for phone in phones}

        # The burst: both judges tap as fast as their pages take it, each tap answered
        # "recorded"; a backup is written while they go on.
        def burst_round() -> None:
            for phone in phones:
                phone.tap_worm()
            for phone in phones:
                phone.shown_seq += 1
                phone.wait_recorded(phone.shown_seq)

        backup = tmp / "backup.json"
        for _ in range(BEFORE_BACKUP):
            burst_round()
        export = subprocess.Popen(
            [str(ROOT / "bin" / "venue"), "export_tournament", str(tournament), "--output", str(backup)],
            cwd=ROOT, env=a.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        rounds = 0
        while export.poll() is None:
            burst_round()
            rounds += 1
            with contextlib.suppress(subprocess.TimeoutExpired):  # a quick judge: about a tap a second
                export.wait(timeout=1)
            assert rounds < 200, "the backup never finished"
        assert export.returncode == 0, export.stderr.read() if export.stderr else ""
        for _ in range(AFTER_BACKUP):
            burst_round()
        burst = {phone.table: (first[phone.table], phone.shown_seq) for phone in phones}

        a.kill()  # kill -9: web, worker and beat
        killed_at = time.time()
        on_a = a.records()
        # The judges go on: each phone's action finds no server and waits on the phone.
        lost_at: dict[str, float] = {}
        for phone in phones:
            tapped = time.time()
            phone.tap_worm()
            wait_queued(phone.page, 1)
            phone.page.wait_for_function("() => !document.getElementById('offline-banner').hidden")
            lost_at[phone.judge] = min(phone.between(tapped, time.time()))

        b.run("shell", "-c", RESTORE.format(backup=str(backup)))
        restored = b.records()
        # However quick the restore, B serves only once each phone is past its first quick tries.
        for phone in phones:
            since = lost_at[phone.judge] * 1000
            phone.page.wait_for_function(
                f"() => {SENT}.read().filter(r => r[1] === 'POST' && r[0] > {since}).length >= 5",
                timeout=120_000, polling=250)  # a long wait: asked four times a second, not every frame
        serve(b)
        served_at = time.time()

        # Each phone finds B and holds its waiting action for a sign-in (B knows no session);
        # the first judge signs in while the second phone waits for its judge.
        sheet_at: dict[str, float] = {}
        signed_in: dict[str, float] = {}
        notes: dict[str, str] = {}
        for phone in phones:
            phone.page.locator("#sign-in-sheet").wait_for(timeout=90_000)
            sheet_at[phone.judge] = time.time()
        for phone in phones:
            sheet = phone.page.locator("#sign-in-sheet")
            sheet.get_by_label("Username").fill(phone.judge)
            sheet.get_by_label("Password").fill(JUDGE_PASSWORD)
            signed_in[phone.judge] = time.time()
            sheet.get_by_role("button", name="Sign in and send").click()
            notes[phone.judge] = refilled(phone.page)
        conflicts = {phone.judge: phone.page.locator("#conflict").is_visible() for phone in phones}
        if taking_screenshots():
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            phones[0].page.screenshot(path=str(ARTIFACTS / "table-refilled-after-restore.png"), full_page=True)
        on_b = b.records()

        # The head judge's dashboard on B: what came back, nothing behind.
        desk = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-US")
        contexts.append(desk)
        hp = desk.new_page()
        hp.goto(f"{base}/accounts/login/")
        hp.get_by_label("Username").fill("head")
        hp.get_by_label("Password").fill(HEAD_PASSWORD)
        hp.get_by_role("button", name="Sign in").click()
        hp.wait_for_load_state()
        hp.goto(f"{base}/tournaments/{tournament}/")
        report = hp.locator("#phone-records")
        report.wait_for()
        dashboard = report.inner_text()

        yield Drill(phones=phones, on_a=on_a, backup=restored, on_b=on_b, burst=burst, killed_at=killed_at, lost_at=lost_at,
                    served_at=served_at, sheet_at=sheet_at, signed_in=signed_in, refill_notes=notes,
                    conflicts_shown=conflicts, dashboard=dashboard)
    finally:
        for context in contexts:
            context.close()
        a.kill()
        b.kill()


@check
def the_backup_was_written_in_the_middle_of_the_burst(drill: Drill) -> None:
    for table, (first, last) in drill.burst.items():
        in_backup = drill.backup[table][-1][0]
        assert first <= in_backup < last, (first, in_backup, last)


@check
def every_acknowledged_record_is_back_exactly_once_and_in_order(drill: Drill) -> None:
    for phone in drill.phones:
        on_a, on_b = drill.on_a[phone.table], drill.on_b[phone.table]
        acknowledged = {seq for when, seq in phone.recorded if when < drill.killed_at}
        assert acknowledged and acknowledged <= {seq for seq, _, _ in on_a}
        # A's whole log, each record once and in its place, then the action that waited.
        assert on_b[:len(on_a)] == on_a
        assert [(seq, kind) for seq, kind, _ in on_b[len(on_a):]] == [(on_a[-1][0] + 1, "worm")]
        assert [seq for seq, _, _ in on_b] == list(range(1, len(on_b) + 1))


@check
def the_phones_send_the_lost_records_again_with_no_conflict_to_decide(drill: Drill) -> None:
    for phone in drill.phones:
        lost = drill.on_a[phone.table][-1][0] - drill.backup[phone.table][-1][0]
        assert lost >= AFTER_BACKUP
        assert f"{lost} records sent again after the server was restored" in drill.refill_notes[phone.judge]
        assert not drill.conflicts_shown[phone.judge]


@check
def phones_retry_soon_after_losing_the_server_then_seldom_and_spread_apart(drill: Drill) -> None:
    gaps: dict[str, list[float]] = {}
    for phone in drill.phones:
        start = drill.lost_at[phone.judge]
        sent = phone.sent()
        tries = [start, *sorted(t for t, method, _ in sent if method == "POST" and start < t <= drill.served_at)]
        steps = gaps[phone.judge] = [later - earlier for earlier, later in zip(tries, tries[1:], strict=False)]
        assert len(steps) >= 5, steps
        # Soon after the loss, then less and less often. Each wait doubles; a loaded machine adds
        # its delay to every try alike, so two waits together are compared with the next two.
        assert steps[0] + steps[1] < steps[2] + steps[3] < 2 * max(steps[4:]), steps
        # Once the first quick tries are over, a few requests a minute at most (every request the
        # page makes: its tries and its clocks).
        settled = start + sum(steps[:4])
        late = phone.between(settled, drill.served_at)
        minutes = (drill.served_at - settled) / 60
        assert len(late) <= 2 + 8 * minutes, [(round(t - start, 1), m, u) for t, m, u in sent if settled < t]
    # Spread apart: the phone that drew the longer wait asks later each time (from its loss, its
    # second, third and fourth try), and the distance between the two grows.
    one, two = ([sum(steps[:n]) for n in (2, 3, 4)] for steps in (gaps[judge] for judge in JUDGES))
    apart = [later - earlier for earlier, later in zip(one, two, strict=True)]
    assert min(apart) > 0 and apart[0] < apart[2], (gaps, apart)


@check
def a_phone_waiting_for_its_judge_to_sign_in_asks_seldom(drill: Drill) -> None:
    waiting = drill.phones[1]
    start, end = drill.sheet_at[waiting.judge], drill.signed_in[waiting.judge]
    asked = waiting.between(start, end)
    assert end > start  # the other judge signed in first
    assert len(asked) <= 1 + 4 * (end - start) / 60, (asked, end - start)


@check
def the_dashboard_says_what_came_back(drill: Drill) -> None:
    text = drill.dashboard
    assert "Nothing to fear" in text, text
    for number, phone in enumerate(drill.phones, start=1):
        table = drill.on_b[phone.table]
        lost = drill.on_a[phone.table][-1][0] - drill.backup[phone.table][-1][0]
        line = next(line for line in text.splitlines() if f"table {number}:" in line)
        assert f"this server has record #{table[-1][0]}" in line, text
        assert f"{lost} records sent back since the restore" in line, text
        assert f"#{drill.backup[phone.table][-1][0]} when a phone found it behind" in line, text


def test_the_restore_drill(drill: Drill) -> None:
    for each in CHECKS:
        each(drill)
