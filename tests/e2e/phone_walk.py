"""Walking whole turns on the table judge's page the way a judge does: one tap on the next
step's control, then the next. Shared by the browser tests (what the judge sees after every
tap) and `benchmarks/table_phone.py` (bytes and seconds per tap on slow 3G).

Bytes are counted as they cross the wire, from Chromium's own network events: every response
(headers and body as transferred, a 304 included) and every request (its line, headers with
cookies, and body).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: What a judge or a player reads must not contain an id such as `allied_stronghold`.
SNAKE_CASE = re.compile(r"\b[A-Za-z]+_[A-Za-z_]+\b")

#: The slow profile: 400 ms round trip, 50 KB/s each way.
SLOW_3G = {"offline": False, "latency": 400, "downloadThroughput": 50 * 1024, "uploadThroughput": 50 * 1024}

#: The next step's control: the one it marks, else its first primary button or link.
NEXT_CONTROL = "#next [data-next-control], #next button.primary, #next a.button.primary"


class Wire:
    """Counts the bytes a page sends and receives (Chrome DevTools Protocol network events)."""

    def __init__(self, page: Any) -> None:
        self.bytes = 0
        self.requests = 0
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.on("Network.loadingFinished", self._received)
        self.cdp.on("Network.requestWillBeSentExtraInfo", self._headers)
        self.cdp.on("Network.requestWillBeSent", self._sent)

    def _received(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength") or 0)

    def _headers(self, event: dict[str, Any]) -> None:
        headers = event.get("headers") or {}
        self.bytes += 40 + sum(len(k) + len(str(v)) + 4 for k, v in headers.items())

    def _sent(self, event: dict[str, Any]) -> None:
        self.requests += 1
        request = event.get("request") or {}
        for entry in request.get("postDataEntries") or []:
            self.bytes += len(entry.get("bytes") or "") * 3 // 4  # base64
        if not request.get("postDataEntries") and request.get("postData"):
            self.bytes += len(request["postData"])

    def slow(self) -> None:
        self.cdp.send("Network.emulateNetworkConditions", SLOW_3G)


@dataclass
class Tap:
    step: str
    control: str
    seconds: float
    bytes: int
    requests: int
    #: The control was not wholly inside the viewport before the tap: the judge had to scroll.
    scrolled: bool = False


@dataclass
class Walk:
    taps: list[Tap] = field(default_factory=list)
    turns: list[float] = field(default_factory=list)  # seconds waited per whole turn


def next_control(page: Any) -> Any:
    return page.locator(NEXT_CONTROL).first


def walk_turns(page: Any, wire: Wire | None = None, *, turns: int = 2, storm: str = "2",
               after_tap: Callable[[Any, Tap], None] | None = None, most_taps: int = 60) -> Walk:
    """Tap the next step's control until `turns` turns were advanced (or the game is over). The
    next step's control is the usual answer: where two steps go in one tap (the storm and no
    worm, the Mentat Pause and the next turn), the pair."""
    walk = Walk()
    turn_wait = 0.0
    for _ in range(most_taps):
        step = page.locator("#next").get_attribute("data-step") or ""
        if step == "report":
            break
        if step == "move_storm":
            page.locator("#storm-sectors").fill(storm)
        control = next_control(page)
        name = control.inner_text().strip()
        scrolled = not control.evaluate(
            "c => { const r = c.getBoundingClientRect(); return r.top >= 0 && r.left >= 0"
            " && r.bottom <= window.innerHeight && r.right <= window.innerWidth; }")
        before = page.locator("#table-live").get_attribute("data-seq")
        turn = page.locator("#turn").inner_text()
        sent, asked = (wire.bytes, wire.requests) if wire else (0, 0)
        start = time.perf_counter()
        control.click()
        page.wait_for_function(
            """([seq, selector]) => {
                 const live = document.getElementById('table-live');
                 if (live.querySelector('#refusal') || !document.getElementById('conflict').hidden) return true;
                 const control = document.querySelector(selector);
                 return live.dataset.seq !== seq && control && document.activeElement === control;
               }""",
            arg=[before, NEXT_CONTROL],
        )
        seconds = time.perf_counter() - start
        page.wait_for_timeout(50)  # the page's copy and any late byte are counted with this tap
        tap = Tap(step, name, seconds, (wire.bytes - sent) if wire else 0, (wire.requests - asked) if wire else 0,
                  scrolled)
        walk.taps.append(tap)
        turn_wait += seconds
        if after_tap:
            after_tap(page, tap)
        if page.locator("#turn").inner_text() != turn:  # "Next turn", or the Mentat Pause with it
            walk.turns.append(turn_wait)
            turn_wait = 0.0
            if len(walk.turns) == turns:
                break
    return walk


def visible_text(page: Any) -> str:
    return str(page.evaluate("() => document.body.innerText"))


def snake_words(text: str) -> list[str]:
    return sorted(set(SNAKE_CASE.findall(text)))
