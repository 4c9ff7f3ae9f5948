"""Phones reach the event by a stable name: the serving laptop announces `dune-event.local` on the
venue's network (multicast DNS), a second laptop cannot claim it while the first holds it, and
after the first one stops the spare announces the same name and phones resolve it to the spare.

The venue's network is made of network namespaces of this test's own (a bridge and three hosts
on 10.34.0.0/24: laptop A, laptop B, a phone), removed at the end: no packet leaves the machine."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PREFIX = f"dune-name-{os.getpid() % 10000}"
HOSTS = {"a": "10.34.0.1", "b": "10.34.0.2", "phone": "10.34.0.3"}


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


@pytest.fixture
def venue_network() -> Iterator[dict[str, str]]:
    """Namespaces `{PREFIX}-a`, `-b`, `-phone` joined by a bridge in `{PREFIX}-lan`."""
    lan = f"{PREFIX}-lan"
    made: list[str] = []
    try:
        ip("netns", "add", lan)
        made.append(lan)
        ip("-n", lan, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        ip("-n", lan, "link", "set", "br0", "up")
        for number, (host, address) in enumerate(HOSTS.items()):
            space = f"{PREFIX}-{host}"
            ip("netns", "add", space)
            made.append(space)
            ip("-n", lan, "link", "add", f"port{number}", "type", "veth", "peer", "name", "eth0", "netns", space)
            ip("-n", lan, "link", "set", f"port{number}", "master", "br0", "up")
            ip("-n", space, "addr", "add", f"{address}/24", "dev", "eth0")
            ip("-n", space, "link", "set", "eth0", "up", "multicast", "on")
            ip("-n", space, "link", "set", "lo", "up")
        yield {host: f"{PREFIX}-{host}" for host in HOSTS}
    finally:
        for space in reversed(made):
            subprocess.run(["ip", "netns", "del", space], capture_output=True)


def in_namespace(space: str, *argv: str, env: dict[str, str] | None = None) -> list[str]:
    return ["ip", "netns", "exec", space, "env", *[f"{k}={v}" for k, v in (env or {}).items()], *argv]


def announce(space: str, address: str, log: Path) -> subprocess.Popen[bytes]:
    env = {"VENUE_NAME": "dune-event", "VENUE_ADDRESS": address, "PORT": "8000", "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(in_namespace(space, sys.executable, "-m", "venue.announce", "serve", env=env),
                            cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def resolve(network: dict[str, str]) -> str:
    done = subprocess.run(
        in_namespace(network["phone"], sys.executable, "-m", "venue.announce", "resolve", "dune-event.local",
                     HOSTS["phone"], env={"PYTHONPATH": str(ROOT)}),
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


def wait_for(log: Path, text: str, timeout: float = 30) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if text in log.read_text(errors="replace"):
            return True
        time.sleep(0.2)
    return False


def test_the_event_name_moves_to_the_spare_after_the_serving_laptop_stops(
    venue_network: dict[str, str], tmp_path: Path
) -> None:
    a_log, b_log, taken_log = tmp_path / "a.log", tmp_path / "b.log", tmp_path / "taken.log"
    a = announce(venue_network["a"], HOSTS["a"], a_log)
    b: subprocess.Popen[bytes] | None = None
    try:
        assert wait_for(a_log, "announced as dune-event.local at 10.34.0.1"), a_log.read_text()
        assert resolve(venue_network) == HOSTS["a"]

        # While A holds the name, B cannot claim it: two servers never answer for one event.
        taken = announce(venue_network["b"], HOSTS["b"], taken_log)
        assert taken.wait(timeout=60) == 1
        assert "already announced by another machine" in taken_log.read_text()
        assert resolve(venue_network) == HOSTS["a"]

        a.send_signal(signal.SIGINT)  # Ctrl-C on A: it says goodbye to the network
        assert a.wait(timeout=30) == 0
        b = announce(venue_network["b"], HOSTS["b"], b_log)
        assert wait_for(b_log, "announced as dune-event.local at 10.34.0.2"), b_log.read_text()
        assert resolve(venue_network) == HOSTS["b"]
    finally:
        for process in (a, b):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
