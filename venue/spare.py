"""A spare laptop following the serving one (`bin/venue follow URL`), and taking over from it
(`bin/venue take-over`).

Following: sign in to the serving laptop as one of its head judges, then every `interval`
seconds pull the changes of every running tournament that head judge may follow
(`GET /api/tournaments/{id}/changes/?cursor=`) and write them here (venue.follow). The state
(the serving laptop's address, the account, each tournament's cursor, the follower's process id)
is kept in `var/follow.json`, so a follower stopped and started again goes on where it was.
A `.local` address (`http://dune-event.local:8000`) is resolved by multicast DNS, as phones do.

Taking over: stop a follower still running, make sure the serving laptop no longer answers
(two servers must never take records for one event), then serve (bin/venue) under the same
announced name.
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import re
import signal
import statistics
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from tournament.models import Table, Tournament
from venue import announce, follow, pairing
from venue.files import write_atomically

#: Seconds between two pulls.
INTERVAL = 2.0
#: Seconds a request to the serving laptop may take.
TIMEOUT = 20.0


class ServerUnreachable(OSError):
    """The serving laptop does not answer."""


class SignInRefused(RuntimeError):
    """The serving laptop refused the head judge's sign-in or a pull."""


def state_path() -> Path:
    return Path(settings.VAR_DIR) / "follow.json"


def load_state() -> dict[str, Any]:
    try:
        loaded = json.loads(state_path().read_text())
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def save_state(state: dict[str, Any]) -> None:
    write_atomically(state_path(), json.dumps(state, indent=1, sort_keys=True))


class Client:
    """HTTP to the serving laptop with a signed-in session (cookies kept by hand)."""

    def __init__(self, url: str, *, timeout: float = TIMEOUT) -> None:
        parsed = urllib.parse.urlsplit(url.rstrip("/"))
        if parsed.scheme != "http" or not parsed.hostname:
            raise ValueError(f"{url!r}: give the serving laptop's address as http://NAME-OR-ADDRESS:PORT")
        self.url = f"{parsed.scheme}://{parsed.netloc}"
        self.host, self.port = parsed.hostname, parsed.port or 80
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.address: str | None = None

    def _connect_to(self) -> str:
        if not self.host.endswith(".local"):
            return self.host
        if self.address is None:
            self.address = announce.resolve(self.host)
            if self.address is None:
                raise ServerUnreachable(f"nobody answers for {self.host} on this network")
        return self.address

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        try:
            connection = http.client.HTTPConnection(self._connect_to(), self.port, timeout=self.timeout)
            sent = {"Host": urllib.parse.urlsplit(self.url).netloc, **(headers or {})}
            if self.cookies:
                sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            data = answer.read()
            for value in answer.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            connection.close()
        except OSError as exc:
            self.address = None  # resolve the name again next time (a take-over moves it)
            raise ServerUnreachable(f"{self.url} does not answer ({exc})") from exc
        return answer.status, {k.lower(): v for k, v in answer.headers.items()}, data

    def sign_in(self, username: str, password: str) -> None:
        status, _, page = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or token is None:
            raise SignInRefused(f"{self.url}/accounts/login/ answered {status} without a sign-in form")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1).decode(), "username": username,
                                       "password": password}).encode()
        status, _, _ = self.request("POST", "/accounts/login/", body, {
            "Content-Type": "application/x-www-form-urlencoded", "Origin": self.url,
            "Referer": f"{self.url}/accounts/login/"})
        if status != 302 or "sessionid" not in self.cookies:
            raise SignInRefused(f"{self.url} refused the sign-in of {username!r} (answer {status}): "
                                "check the head judge's name and password")

    def get_json(self, path: str, headers: dict[str, str] | None = None) -> Any:
        status, _, data = self.request("GET", path, headers={"Accept": "application/json", **(headers or {})})
        if status in (401, 403):
            raise SignInRefused(f"{path}: {status} {data[:200].decode(errors='replace')}")
        if status != 200:
            raise ServerUnreachable(f"{path}: the serving laptop answered {status}")
        return json.loads(data)


@dataclass
class Pull:
    """One round of pulls: what arrived, and how far behind the serving laptop this one is."""

    tournaments: list[int] = field(default_factory=list)
    records: int = 0
    #: Seconds between a record written on the serving laptop and written here, per new record.
    lags: list[float] = field(default_factory=list)
    #: (tournament id, table id) -> highest record number held here.
    last_records: dict[tuple[int, int], int] = field(default_factory=dict)

    def words(self) -> str:
        lag = f"; new records {statistics.median(self.lags):.1f} s behind (at most {max(self.lags):.1f} s)" \
            if self.lags else ""
        return f"{len(self.tournaments)} tournament(s) followed, {self.records} new record(s){lag}"


class Follower:
    def __init__(self, client: Client, state: dict[str, Any], *, save: Callable[[dict[str, Any]], None] = save_state,
                 key: bytes | None = None):
        self.client, self.state, self.save = client, state, save
        #: The serving laptop's event key, when this laptop was paired with it (the newest pairing).
        self.key = key if key is not None else next(reversed(pairing.paired_keys(settings.VAR_DIR)), None)
        self.state.setdefault("cursors", {})

    def followed(self) -> list[int]:
        listed = [int(t["id"]) for t in self.client.get_json("/api/venue/followed/")["tournaments"]]
        return sorted(set(listed) | {int(k) for k in self.state["cursors"]})

    def pull(self) -> Pull:
        pulled = Pull()
        for tournament_id in self.followed():
            cursor = self.state["cursors"].get(str(tournament_id), {})
            raw = json.dumps(cursor, separators=(",", ":"))
            query = urllib.parse.urlencode({"cursor": raw})
            headers = {}
            if self.key is not None:  # paired with the serving laptop: its judges' sign-ins come along
                headers[pairing.SPARE_HEADER] = pairing.spare_proof(self.key, tournament_id, raw)
            change = self.client.get_json(f"/api/tournaments/{tournament_id}/changes/?{query}", headers=headers)
            applied = follow.apply(change)
            here = timezone.now()
            pulled.tournaments.append(tournament_id)
            pulled.records += len(applied.records)
            for table, seq, written in applied.records:
                if cursor:  # the first pull copies what was there before: no lag to speak of
                    pulled.lags.append(max(0.0, (here - written).total_seconds()))
                key = (tournament_id, table)
                pulled.last_records[key] = max(seq, pulled.last_records.get(key, 0))
            self.state["cursors"][str(tournament_id)] = change["cursor"]
            self.save(self.state)
        return pulled


def follow_forever(follower: Follower, *, interval: float = INTERVAL, say: Callable[[str], None] = print,
                   stop: Callable[[], bool] = lambda: False, sign_in: Callable[[], None] = lambda: None) -> None:
    """Pull every `interval` seconds until `stop()`; an unreachable laptop is reported and retried."""
    quiet_until = 0.0
    while not stop():
        began = time.monotonic()
        try:
            pulled = follower.pull()
            if pulled.records or time.monotonic() >= quiet_until:
                say(f"{dt.datetime.now().strftime('%H:%M:%S')} {pulled.words()}")
                quiet_until = time.monotonic() + 60
        except SignInRefused:
            say("the session ended; signing in again")
            sign_in()
        except (ServerUnreachable, follow.FollowRefused) as exc:
            say(f"{dt.datetime.now().strftime('%H:%M:%S')} {exc}; trying again "
                "(if the serving laptop is gone for good: bin/venue take-over)")
        while not stop() and time.monotonic() - began < interval:
            time.sleep(0.1)


def register_follower(state: dict[str, Any]) -> None:
    state["pid"] = os.getpid()
    save_state(state)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_follower(state: dict[str, Any], *, wait: float = 30.0) -> bool:
    """Stop the follower still running here (it finishes its pull); True if one was stopped."""
    pid = state.get("pid")
    if not isinstance(pid, int) or pid == os.getpid() or not _alive(pid):
        return False
    os.kill(pid, signal.SIGTERM)
    end = time.monotonic() + wait
    while _alive(pid) and time.monotonic() < end:
        time.sleep(0.1)
    return True


def still_serving(url: str, *, timeout: float = 3.0) -> bool:
    """Whether the serving laptop still answers at `url`."""
    client = Client(url, timeout=timeout)
    try:
        client.request("GET", "/healthz")
    except ServerUnreachable:
        return False
    return True


def held_records(tournament_ids: Iterable[int]) -> dict[str, list[tuple[int, int, int]]]:
    """Per tournament name: (round number, table number, highest record number) held here."""
    found: dict[str, list[tuple[int, int, int]]] = {}
    for tournament in Tournament.objects.filter(pk__in=list(tournament_ids)).order_by("pk"):
        tables = (Table.objects.filter(round__tournament=tournament, game__isnull=False).select_related("round")
                  .annotate(last=Max("game__events__seq")).order_by("round__number", "number"))
        found[tournament.name] = [(t.round.number, t.number, t.last or 0) for t in tables]
    return found
