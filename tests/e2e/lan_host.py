"""A phone on the venue's network, as phones see the laptop: Chromium in a network namespace of
its own, reaching the server at a LAN address (10.233.x.1), not at the loopback address.

Browsers treat the loopback address as a secure context (a service worker, CacheStorage,
`crypto.randomUUID`) and a plain-HTTP LAN address as an insecure one: only a run from another
host shows what a phone at the venue gets. `lan_host()` creates the namespace (`dune-phone-…`)
and a veth pair, forwards the host side's address to the live server on loopback, and gives a
Chromium launched inside the namespace (`ip netns exec`); everything is removed at the end.
Used by the browser tests and benchmarks/table_phone.py.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import selectors
import shutil
import socket
import socketserver
import stat
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"


def unavailable() -> str:
    """Why a namespace cannot be made here ('' when it can)."""
    if shutil.which("ip") is None:
        return "the `ip` command (iproute2) is missing"
    if os.geteuid() != 0:
        return "network namespaces need root (CAP_NET_ADMIN); this run is not root"
    probe = f"dune-probe-{secrets.token_hex(2)}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return ""


def _run(*args: str) -> None:
    subprocess.run(list(args), check=True, capture_output=True, text=True)


class _Forward(socketserver.BaseRequestHandler):
    """One connection from the namespace, piped to the server on loopback."""

    target: tuple[str, int]

    def handle(self) -> None:
        upstream = socket.create_connection(self.target)
        sel = selectors.DefaultSelector()
        sel.register(self.request, selectors.EVENT_READ, upstream)
        sel.register(upstream, selectors.EVENT_READ, self.request)
        try:
            while True:
                for key, _ in sel.select(timeout=60):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            upstream.close()


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


@dataclass
class LanHost:
    namespace: str
    address: str  # the server's address as the phone sees it
    port: int
    chromium: str  # an executable that runs Chromium inside the namespace

    @property
    def url(self) -> str:
        return f"http://{self.address}:{self.port}"


@contextlib.contextmanager
def lan_host(server_host: str, server_port: int) -> Iterator[LanHost]:
    """A namespace whose only way out is a veth to this host; the host side listens on a free
    port of its LAN address and forwards to `server_host:server_port`."""
    tag = secrets.token_hex(2)
    namespace, host_if, phone_if = f"dune-phone-{tag}", f"dnh{tag}", f"dnp{tag}"
    subnet = 10 + int(tag, 16) % 200  # 10.233.<n>.0/30: its own link, apart from other runs
    host_ip, phone_ip = f"10.233.{subnet}.1", f"10.233.{subnet}.2"
    server: _Server | None = None
    workdir = Path(tempfile.mkdtemp(prefix="dune-phone-"))
    try:
        _run("ip", "netns", "add", namespace)
        _run("ip", "link", "add", host_if, "type", "veth", "peer", "name", phone_if)
        _run("ip", "link", "set", phone_if, "netns", namespace)
        _run("ip", "addr", "add", f"{host_ip}/30", "dev", host_if)
        _run("ip", "link", "set", host_if, "up")
        _run("ip", "netns", "exec", namespace, "ip", "addr", "add", f"{phone_ip}/30", "dev", phone_if)
        _run("ip", "netns", "exec", namespace, "ip", "link", "set", phone_if, "up")
        _run("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up")
        handler = type("Forward", (_Forward,), {"target": (server_host, server_port)})
        server = _Server((host_ip, 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        wrapper = workdir / "chromium-in-namespace"
        # Playwright talks to Chromium over inherited pipes: they pass through `ip netns exec`.
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {namespace} {CHROMIUM} "$@"\n')
        wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
        yield LanHost(namespace=namespace, address=host_ip, port=server.server_address[1], chromium=str(wrapper))
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
        subprocess.run(["ip", "link", "del", host_if], capture_output=True)
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        shutil.rmtree(workdir, ignore_errors=True)
