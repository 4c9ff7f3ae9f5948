"""The table judge's phone on slow 3G: bytes per tap, bytes per idle minute, seconds per turn.

A throwaway test database (PostgreSQL of DATABASE_URL, by default the local server's
`dune_bench_phone`) gets a WBC heat table recorded up to turn 7 (the recorded game of the
tests). Django's live server answers on 127.0.0.1 (`--port`, default 8347); Debian's Chromium
opens the table page at a phone's size (390×844), signed in as the table's judge, and then
runs on the slow profile: 400 ms round trip and 50 KB/s each way (Chrome DevTools Protocol
network emulation). It taps through two whole quick-tracked turns on the next step's control
alone (tests/e2e/phone_walk.py, the browser tests' own walk), then leaves the page idle.

It does so twice (`--address both`, the default): at the loopback address, and as a phone at the
venue reaches the laptop, at a plain-HTTP LAN address: Chromium in a network namespace of its
own (tests/e2e/lan_host.py: `ip netns`, a veth pair on 10.233.x.0/30, root needed), where the
browser runs no service worker. `--address loopback` or `--address lan` runs one of them. The
full-tracked walk (`--tracking full`) runs at both addresses the same way.

Bytes are what crosses the wire as Chromium counts it: every response with its headers (a 304
included), every request with its headers, cookies and body. Seconds per turn are the time
the judge waits from each tap until the next step's control has the focus, summed over the
turn. Where the next step offers two steps in one tap (the storm moved and no worm, the Mentat
Pause and the next turn), the walk taps the pair, as a judge does. Prints the figures with the
input and exits 1 when a target is missed: at most 10 KB a tap all-in, at most 10 KB an idle
minute, a whole turn in at most 2.4 s of waiting (under 3 s with a margin), at most 6 taps a
turn and no scroll.

    .venv/bin/python benchmarks/table_phone.py [--turns N] [--idle-seconds S] [--port P]
        [--address both|loopback|lan] [--language en|es|fr|de]
    .venv/bin/python benchmarks/table_phone.py --tracking full [--port P] [--address both|loopback|lan]
    .venv/bin/python benchmarks/table_phone.py --game benchmarks/games/wbc-final.toml [--address lan|loopback]

`--game FILE` replays a game script (benchmarks/games/README.md) through the phone at the LAN
address, turn by turn, and prints per turn and on average taps, scrolls, requests, seconds
waiting and KB, checks the table's position at the end against the script's, and ends with one
line `game: N turns, average T taps, S scrolls, W s waiting, K KB a turn; most taps in a turn M`;
it exits 1 when a target is missed (on average a turn at most 50 taps, 3 scrolls, 12 s waiting,
150 KB; no turn over 80 taps).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# Playwright's sync API runs an event loop in this thread; the ORM calls in between are synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from benchmarks.throwaway_db import throwaway_database  # noqa: E402

TAP_BYTES = 10_000
IDLE_MINUTE_BYTES = 10_000
TURN_SECONDS = 2.4  # under 3 s a turn with a margin
TURN_TAPS = 6
CHROMIUM = "/usr/bin/chromium"
#: The language the phone reads the page in (`--language`): its browser's and its switcher's choice.
LANGUAGE = "en"


@contextmanager
def phone(url: str, session: str, *, chromium: str = CHROMIUM, timeout_ms: int = 60_000) -> Iterator[Any]:
    """Debian's Chromium as the table judge's phone: a 390x844 context in LANGUAGE (US English
    unless `--language` says otherwise, the footer switcher's cookie set too), signed in with the
    judge's session cookie for the host of `url`; closed on leaving."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-quic"])
        try:
            locale = "en-US" if LANGUAGE == "en" else LANGUAGE
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
            context.set_default_timeout(timeout_ms)
            host = url.split("/")[2].split(":")[0]
            context.add_cookies([{"name": "sessionid", "value": session, "domain": host, "path": "/"},
                                 {"name": "django_language", "value": LANGUAGE, "domain": host, "path": "/"}])
            yield context
        finally:
            browser.close()


def build(name: str) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.e2e.test_table_venue import seeded_table

    judge = get_user_model().objects.create_user(name, password="bench-judge-password")
    table = seeded_table(judge, until="turn_advanced", occurrence=6)  # turn 7 opens
    client = Client()
    client.force_login(judge)
    return table, client.cookies["sessionid"].value


def run(url: str, session: str, *, turns: int, idle_seconds: float, chromium: str = CHROMIUM) -> dict[str, Any]:
    from tests.e2e.phone_walk import Wire, walk_turns

    with phone(url, session, chromium=chromium, timeout_ms=30_000) as context:
        page = context.new_page()
        page.goto(url)
        secure = page.evaluate("() => window.isSecureContext && 'serviceWorker' in navigator")
        if secure:  # a plain-HTTP LAN address gets no service worker
            page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            page.reload()  # under the service worker, as a judge's phone is after the first visit
        page.wait_for_load_state("networkidle")
        wire = Wire(page)
        wire.slow()
        walk = walk_turns(page, wire, turns=turns)
        page.wait_for_timeout(1000)  # the last answer's late bytes belong to the walk
        start_bytes, start = wire.bytes, time.perf_counter()
        page.wait_for_timeout(int(idle_seconds * 1000))
        idle = (wire.bytes - start_bytes) * 60 / (time.perf_counter() - start)
    return {"walk": walk, "idle": idle, "secure": secure}


def report(name: str, result: dict[str, Any], idle_seconds: float) -> bool:
    walk = result["walk"]
    taps = walk.taps
    most = max(t.bytes for t in taps)
    context = "secure context, service worker" if result["secure"] else "not a secure context, no service worker"
    print(f"{name} ({context}): a WBC heat table of 6 at turn 7, {len(walk.turns)} quick-tracked turns tapped"
          f" through ({len(taps)} taps), slow 3G: 400 ms round trip, 50 KB/s each way, 390x844")
    for t in taps:
        print(f"  tap {t.control!r:32} {t.bytes:6d} bytes in {t.requests} request(s), {t.seconds:.2f} s"
              f"{', a scroll first' if t.scrolled else ''}")
    tap_ok = most <= TAP_BYTES and all(t.requests == 1 for t in taps)
    print(f"  bytes per tap: median {statistics.median(t.bytes for t in taps):.0f}, most {most}"
          f" (target <= {TAP_BYTES}, one request a tap) {'OK' if tap_ok else 'MISSED'}")
    idle_ok = result["idle"] <= IDLE_MINUTE_BYTES
    print(f"  bytes per idle minute: {result['idle']:.0f} (over {idle_seconds:.0f} s;"
          f" target <= {IDLE_MINUTE_BYTES}) {'OK' if idle_ok else 'MISSED'}")
    slowest = max(walk.turns) if walk.turns else float("inf")
    turn_ok = slowest <= TURN_SECONDS
    print(f"  seconds per turn on slow 3G: {', '.join(f'{s:.2f}' for s in walk.turns)}"
          f" (target <= {TURN_SECONDS:.1f} s) {'OK' if turn_ok else 'MISSED'}")
    per_turn = len(taps) / max(1, len(walk.turns))
    # After an answer the page brings the next control into view; the page as loaded may not.
    scrolls = sum(t.scrolled for t in taps[1:])
    taps_ok = per_turn <= TURN_TAPS and scrolls == 0
    print(f"  taps per turn: {per_turn:.1f}, scrolls after an answer: {scrolls}"
          f"{' (one before the first tap, the page as loaded)' if taps and taps[0].scrolled else ''}"
          f" (target <= {TURN_TAPS} taps, 0 scrolls)"
          f" {'OK' if taps_ok else 'MISSED'}")
    return tap_ok and idle_ok and turn_ok and taps_ok


# --- full tracking (`--tracking full`) -------------------------------------------------------
# Two turns of a WBC final (a storm, a worm, an alliance, a revival and shipments each with its
# payment in the same request, a move, a win attempt and two battles) and a LoLV turn with the expansion factions, recorded in full from the
# next step's box (tests/e2e/full_walk.py): taps, scrolls, requests, seconds waiting and bytes
# per turn, on the same slow profile.
FULL_TAPS, FULL_SCROLLS, FULL_SECONDS, FULL_BYTES = 25, 2, 6.0, 60_000


def build_full(username: str = "bench-judge") -> tuple[Any, Any, Any]:
    """A WBC final at turn 2's storm phase and a LoLV final with the expansion factions at turn
    1's shipment and movement, both judged by the benchmark's judge (`username`)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tests.gameplay.full_game import BEFORE_THE_STORM, final_table, record
    from tests.gameplay.test_expansion_pieces_page import expansion_table

    judge = get_user_model().objects.create_user(username, password="bench-judge-password")
    wbc = final_table(judge)
    record(wbc, judge, BEFORE_THE_STORM)  # turn 2's storm phase
    lolv = expansion_table(judge)
    client = Client()
    client.force_login(judge)
    return wbc, lolv, client.cookies["sessionid"].value


def run_full(base: str, wbc: Any, lolv: Any, session: str, chromium: str = CHROMIUM) -> list[Any]:
    from tests.e2e.full_walk import Judge, lolv_turn, wbc_second_turn, wbc_turn
    from tests.e2e.phone_walk import Wire

    with phone(base, session, chromium=chromium) as context:
        turns = []
        for table, walks in ((wbc, (wbc_turn, wbc_second_turn)), (lolv, (lolv_turn,))):
            page = context.new_page()
            page.goto(f"{base}/tables/{table.pk}/")
            # Under the service worker, as a judge's phone is after the first visit; at a LAN
            # address (plain HTTP, not a secure context) the browser runs none.
            if page.evaluate("() => window.isSecureContext && !!navigator.serviceWorker"):
                page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
                page.reload()
            page.wait_for_load_state("networkidle")
            wire = Wire(page)
            wire.slow()
            judge = Judge(page, wire)
            turns.extend(walk(judge) for walk in walks)
            page.close()
    return turns


def print_full(turns: list[Any], where: str = "loopback 127.0.0.1") -> bool:
    print("input: a WBC final table of 6 at turn 2, walked through turns 2 and 3, and a LoLV final with the"
          " Ecaz, Moritani, Richese and Ixians, tracked in full, each shipment and revival sent with its"
          " payment; slow 3G: 400 ms round trip, 50 KB/s each way,"
          f" 390x844, at {where}")
    ok = True
    for t in turns:
        met = (t.taps <= FULL_TAPS and t.scrolls <= FULL_SCROLLS and t.seconds <= FULL_SECONDS
               and t.bytes <= FULL_BYTES)
        ok = ok and met
        print(f"  {t.name}: {t.taps} taps, {t.scrolls} scrolls, {t.requests} requests,"
              f" {t.seconds:.1f} s waiting, {t.bytes / 1000:.0f} KB ({len(t.sends)} sends: {', '.join(t.sends)})")
    print(f"targets a turn: <= {FULL_TAPS} taps, <= {FULL_SCROLLS} scrolls, <= {FULL_SECONDS:.0f} s waiting,"
          f" <= {FULL_BYTES // 1000} KB {'OK' if ok else 'MISSED'}")
    return ok


# --- a whole game (`--game FILE`) ----------------------------------------------------------------
# A game script (benchmarks/games/README.md) replayed through the phone at a LAN address on the
# slow profile: per turn and on average taps, scrolls, requests, seconds waiting and bytes, and
# the table's position at the end against the script's.
GAME_TAPS, GAME_SCROLLS, GAME_SECONDS, GAME_BYTES, GAME_MOST_TAPS = 50, 3, 12.0, 150_000, 80


def build_game(script: Any) -> tuple[Any, Any]:
    """The script's table, seated in its order, its game set up and judged by the benchmark's judge."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from benchmarks.games.script import setup_event
    from gameplay import services
    from tests.factories import make_players, make_round, make_tournament, seat_table

    judge = get_user_model().objects.create_user("bench-game-judge", password="bench-judge-password")
    tournament = make_tournament(format=script.game["format"])
    tournament.table_judges.add(judge)
    factions = tuple(script.game["factions"])
    table = seat_table(make_round(tournament, kind=script.game.get("round", "final")),
                       make_players(tournament, len(factions)), factions=factions, judge=judge)
    setup = {**services.setup_event_for(table), "placements": setup_event(script)["placements"]}
    services.start_game(table, setup, user=judge)
    client = Client()
    client.force_login(judge)
    return table, client.cookies["sessionid"].value


def run_game(base: str, table: Any, session: str, script: Any, chromium: str) -> list[Any]:
    from benchmarks.games.phone import CountingJudge, replay
    from gameplay.services import position_of, read_game
    from tests.e2e.phone_walk import Wire

    with phone(base, session, chromium=chromium) as context:
        page = context.new_page()
        page.goto(f"{base}/tables/{table.pk}/")
        page.wait_for_load_state("networkidle")
        wire = Wire(page)
        wire.slow()
        judge = CountingJudge(page, wire)
        turns = replay(judge, script, lambda: position_of(read_game(table)))
    print("scrolls, by the form scrolled to: " + ", ".join(f"{k} {n}" for k, n in sorted(judge.scrolled.items(), key=lambda x: -x[1])))
    return turns


def print_game(script: Any, turns: list[Any], final_ok: bool, where: str) -> bool:
    print(f"input: {script.name} ({script.path.name}), replayed on the table judge's phone at {where},"
          " slow 3G: 400 ms round trip, 50 KB/s each way, 390x844")
    for t in turns:
        print(f"  {t.name}: {t.taps} taps, {t.scrolls} scrolls, {t.requests} requests,"
              f" {t.seconds:.1f} s waiting, {t.bytes / 1000:.0f} KB ({len(t.sends)} sends)")
    n = max(1, len(turns))
    taps, scrolls = sum(t.taps for t in turns) / n, sum(t.scrolls for t in turns) / n
    seconds, kb = sum(t.seconds for t in turns) / n, sum(t.bytes for t in turns) / n / 1000
    most = max((t.taps for t in turns), default=0)
    ok = (taps <= GAME_TAPS and scrolls <= GAME_SCROLLS and seconds <= GAME_SECONDS
          and kb * 1000 <= GAME_BYTES and most <= GAME_MOST_TAPS and final_ok)
    print(f"targets, on average a turn: <= {GAME_TAPS} taps, <= {GAME_SCROLLS} scrolls, <= {GAME_SECONDS:.0f} s waiting,"
          f" <= {GAME_BYTES // 1000} KB; no turn over {GAME_MOST_TAPS} taps; the position at the end"
          f" {'equals' if final_ok else 'DIFFERS FROM'} the script's: {'OK' if ok else 'MISSED'}")
    print(f"game: {len(turns)} turns, average {taps:.1f} taps, {scrolls:.1f} scrolls, {seconds:.1f} s waiting,"
          f" {kb:.0f} KB a turn; most taps in a turn {most}")
    return ok


def game_main(path: str, port: int, address: str) -> int:
    from benchmarks.games.script import final_of, load, stated
    from tests.e2e.lan_host import lan_host, unavailable

    script = load(path)
    with throwaway_database(migrate=True):
        from django.conf import settings
        from pytest_django.live_server_helper import LiveServer

        from gameplay.services import read_game

        settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
        table, session = build_game(script)
        server = LiveServer(f"127.0.0.1:{port}")
        try:
            why = unavailable() if address != "loopback" else "loopback chosen"
            if why:
                print(f"LAN address: not run ({why}); at the loopback address instead")
                turns, where = run_game(server.url, table, session, script, CHROMIUM), "the loopback address"
            else:
                with lan_host(server.thread.host, server.thread.port) as lan:
                    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, lan.address]
                    turns = run_game(lan.url, table, session, script, lan.chromium)
                    where = f"the LAN address {lan.address}"
        finally:
            server.stop()
        got, want = final_of(read_game(table).position), stated(script)
        from django.db import connection

        with connection.cursor() as cursor:  # what the live server's threads left open
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                           " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        for key in want:
            if got.get(key) != want[key]:
                print(f"  at the end, {key}: the table has {got.get(key)}, the script says {want[key]}")
        return 0 if print_game(script, turns, got == want, where) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracking", choices=("quick", "full"), default="quick")
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--port", type=int, default=0, help="the live server's port (default: a free one)")
    parser.add_argument("--address", choices=["both", "loopback", "lan"], default="both")
    parser.add_argument("--game", help="a game script (benchmarks/games/*.toml) replayed turn by turn")
    parser.add_argument("--language", choices=("en", "es", "fr", "de"), default="en",
                        help="the language the phone reads the table page in (German has the longest words)")
    args = parser.parse_args()
    global LANGUAGE
    LANGUAGE = args.language
    print(f"language: {LANGUAGE}")
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dune_bench_phone")
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
        return 1
    from tests.e2e.lan_host import lan_host, unavailable

    if args.address == "lan" and unavailable():
        print(f"no LAN run: {unavailable()}")
        return 1
    if args.game:
        return game_main(args.game, args.port, args.address)
    ok = True
    with throwaway_database(migrate=True):
        from django.conf import settings
        from pytest_django.live_server_helper import LiveServer

        settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
        if args.tracking == "full":
            server = LiveServer(f"127.0.0.1:{args.port}")
            try:
                if args.address in ("both", "loopback"):
                    wbc, lolv, session = build_full("bench-judge")
                    ok = print_full(run_full(server.url, wbc, lolv, session)) and ok
                if args.address in ("both", "lan"):
                    why = unavailable()
                    if why:
                        print(f"LAN address: not run: {why}")
                    else:
                        wbc, lolv, session = build_full("bench-judge-lan")
                        with lan_host(server.thread.host, server.thread.port) as lan:
                            settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, lan.address]
                            turns = run_full(lan.url, wbc, lolv, session, chromium=lan.chromium)
                        ok = print_full(turns, f"the LAN address {lan.address} (namespace {lan.namespace})") and ok
            finally:
                server.stop()
            return 0 if ok else 1
        server = LiveServer(f"127.0.0.1:{args.port}")
        try:
            if args.address in ("both", "loopback"):
                table, session = build("bench-judge")
                result = run(f"{server.url}/tables/{table.pk}/", session, turns=args.turns,
                             idle_seconds=args.idle_seconds)
                ok = report("loopback 127.0.0.1", result, args.idle_seconds) and ok
            if args.address in ("both", "lan"):
                why = unavailable()
                if why:
                    print(f"LAN address: not run: {why}")
                else:
                    table, session = build("bench-judge-lan")
                    with lan_host(server.thread.host, server.thread.port) as lan:
                        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, lan.address]
                        result = run(f"{lan.url}/tables/{table.pk}/", session, turns=args.turns,
                                     idle_seconds=args.idle_seconds, chromium=lan.chromium)
                    ok = report(f"LAN address {lan.address} (namespace {lan.namespace})", result,
                                args.idle_seconds) and ok
        finally:
            server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
