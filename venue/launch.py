"""The settings of `make venue` (bin/venue): one laptop serving the venue's network.

Run before Django starts, so it imports no Django:

- `python -m venue.launch env` prints the environment of venue mode as shell assignments:
  DEBUG off, the secret key (generated once and kept in var/secret_key), allowed hosts and
  CSRF origins for the laptop's addresses, plain HTTP on the venue's network, and
  `VENUE_URL`, the address the printed QR codes and self check-in links use;
- `python -m venue.launch banner` prints that address and a QR code of it for the terminal.

`VENUE_ADDRESS` picks the address when the laptop has several (Wi-Fi and cable). The links
and QR codes use the event's name (`VENUE_NAME`, `dune-event` by default: `http://dune-event.local:8000`),
which the running venue announces on the LAN (venue.announce) so that a spare laptop taking
over keeps every printed link working; `VENUE_NAME=` (empty) uses the address instead.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import shlex
import socket
import sys
from collections.abc import Mapping
from pathlib import Path

import segno

ROOT = Path(__file__).resolve().parent.parent
#: Characters of a generated secret key (token_urlsafe(64) gives 86).
KEY_BYTES = 64


def var_dir(environ: Mapping[str, str] = os.environ) -> Path:
    return Path(environ.get("VAR_DIR") or ROOT / "var")


def secret_key(folder: Path) -> str:
    """The installation's secret key: read from `folder/secret_key`, generated the first time
    (readable by its owner only). Keeping it means sessions survive a restart."""
    path = folder / "secret_key"
    if path.exists():
        return path.read_text().strip()
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(KEY_BYTES)
    temporary = folder / ".secret_key.partial"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    os.replace(temporary, path)
    return key


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def lan_addresses() -> list[str]:
    """The laptop's IPv4 addresses on its networks, the one of the default route first."""
    found: list[str] = []
    try:
        # A UDP "connect" sends nothing; it only asks the system which address it would use.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return list(dict.fromkeys(a for a in found if _usable(a)))


def event_name(environ: Mapping[str, str]) -> str:
    """The name announced on the LAN without `.local` ('' when off); see venue.announce."""
    return environ.get("VENUE_NAME", "dune-event").strip().lower().removesuffix(".").removesuffix(".local")


def environment(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    port = environ.get("PORT") or "8000"
    addresses = lan_addresses()
    name = event_name(environ)
    address = environ.get("VENUE_ADDRESS") or (addresses[0] if addresses else socket.gethostname())
    chosen = f"{name}.local" if name else address
    hosts = list(dict.fromkeys([chosen, address, *addresses, socket.gethostname(), f"{socket.gethostname()}.local",
                                "127.0.0.1", "localhost"]))
    return {
        "DEBUG": "false",
        "SECRET_KEY": secret_key(var_dir(environ)),
        "ALLOWED_HOSTS": ",".join(hosts),
        # A browser leaves the default port out of the origin it sends.
        "CSRF_TRUSTED_ORIGINS": ",".join(f"http://{h}{'' if port == '80' else ':' + port}" for h in hosts),
        # The venue's own network speaks plain HTTP: cookies without the HTTPS-only flag, no
        # redirect to HTTPS, no HSTS (a phone would refuse the laptop for a year).
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "VENUE_URL": f"http://{chosen}{'' if port == '80' else ':' + port}",
        # The same event by the laptop's address, for a phone that cannot resolve `.local` names.
        "VENUE_ADDRESS_URL": f"http://{address}{'' if port == '80' else ':' + port}",
        "PORT": port,
    }


def main(argv: list[str]) -> int:
    if argv[1:] == ["env"]:
        for name, value in environment().items():
            print(f"export {name}={shlex.quote(value)}")
        return 0
    if argv[1:] == ["banner"]:
        url = os.environ.get("VENUE_URL") or environment()["VENUE_URL"]
        print(f"\nPhones on the venue's network open: {url}/  (Ctrl-C stops web, worker and beat)")
        direct = os.environ.get("VENUE_ADDRESS_URL")
        if direct and direct != url:
            print(f"A phone that cannot open that name: {direct}/")
        segno.make(url + "/", error="m").terminal(compact=True)
        return 0
    print("usage: python -m venue.launch env|banner", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
