"""The laptop serving the event announces itself on the venue's network by a stable name
(multicast DNS, `dune-event.local` by default), so phones and printed QR codes reach the event
by that name rather than by one laptop's address: after a take-over the spare announces the
same name and the phones follow it.

It registers an HTTP service (`_http._tcp`) whose host is the event's name with the laptop's
address; python-zeroconf then answers the phones' queries for `NAME.local`. Before claiming the
name it probes the network: a laptop still announcing it is a refusal (two servers must never
answer for one event). No Django here (it runs beside the servers, in venue.supervise).

`VENUE_NAME` sets the name (`VENUE_NAME=` turns the announcement off), `VENUE_ADDRESS` the
address announced when the laptop has several.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import zeroconf
from zeroconf import NonUniqueNameException, ServiceInfo, Zeroconf

from venue import launch

SERVICE = "_http._tcp.local."


class NameTaken(RuntimeError):
    """Another machine already announces the event's name."""


def service_info(name: str, address: str, port: int) -> ServiceInfo:
    return ServiceInfo(
        SERVICE, f"{name}.{SERVICE}", addresses=[socket.inet_aton(address)], port=port,
        server=f"{name}.local.", properties={"path": "/"},
    )


@contextmanager
def announced(environ: Mapping[str, str]) -> Iterator[str | None]:
    """Announce `NAME.local` at the laptop's address while the block runs; yields the name."""
    name = launch.event_name(environ)
    if not name:
        yield None
        return
    address = environ.get("VENUE_ADDRESS") or next(iter(launch.lan_addresses()), "")
    if not address:
        print(f"venue: no network address to announce {name}.local on", flush=True)
        yield None
        return
    try:
        zc = Zeroconf(interfaces=[address])
    except OSError as exc:  # no multicast on this network: the address still works
        print(f"venue: could not announce {name}.local on {address} ({exc}); phones use the address", flush=True)
        yield None
        return
    info = service_info(name, address, int(environ.get("PORT", "8000")))
    try:
        try:
            zc.register_service(info, allow_name_change=False)
        except NonUniqueNameException:
            raise NameTaken(f"{name}.local is already announced by another machine on this network: "
                            "stop that laptop's venue first (Ctrl-C), then try again") from None
        print(f"venue: announced as {name}.local at {address}", flush=True)
        yield name
    finally:
        try:
            zc.unregister_service(info)
        except Exception:  # noqa: BLE001 - never registered (the name was taken) or the network is gone
            pass
        zc.close()


def resolve(name: str, *, interface: str | None = None, timeout: float = 3.0) -> str | None:
    """The IPv4 address announced for `NAME.local` (None when nobody answers in time)."""
    host = name if name.endswith(".local.") else f"{name.removesuffix('.')}."
    if not host.endswith(".local."):
        host = f"{host.removesuffix('.')}.local."
    zc = Zeroconf(interfaces=[interface]) if interface else Zeroconf()
    try:
        resolver = zeroconf.AddressResolverIPv4(host)  # type: ignore[attr-defined]  # public, not in __all__
        if resolver.request(zc, timeout * 1000):
            addresses = resolver.parsed_addresses()
            return addresses[0] if addresses else None
        return None
    finally:
        zc.close()


def main(argv: list[str], environ: Mapping[str, str] = os.environ) -> int:
    """`python -m venue.announce serve` announces the event's name until Ctrl-C (what venue mode
    does beside its servers); `python -m venue.announce resolve NAME [ADDRESS]` says which
    address answers for NAME (from the network of ADDRESS, if given)."""
    if argv[1:2] == ["serve"]:
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        try:
            with announced(environ) as name:
                if name is None:
                    return 1
                stop.wait()
        except NameTaken as taken:
            print(f"venue: {taken}", file=sys.stderr, flush=True)
            return 1
        return 0
    if argv[1:2] == ["resolve"] and len(argv) in (3, 4):
        found = resolve(argv[2], interface=argv[3] if len(argv) == 4 else None)
        print(found or f"nobody answers for {argv[2]}")
        return 0 if found else 1
    print("usage: python -m venue.announce serve | resolve NAME [ADDRESS]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
