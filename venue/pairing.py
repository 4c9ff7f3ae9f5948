"""Pairing a spare laptop with the serving one: the spare is given the serving laptop's event key,
so that a backup the serving laptop sealed is the spare's own records too (its judges keep their
passwords and roles when it is restored there).

The event key is the key an installation seals its exports and backups with
(`installation.export_key`, derived from its secret key). `bin/venue` prints it as a pairing
code on the serving laptop's terminal (`bin/venue pair CODE`); the spare keeps the keys it was
given in `var/paired_keys.json` (readable by its owner only) and trusts a seal made with any of
them, as its own.

The code is the key and three check bytes (a mistyped code is refused, never stored), in base32
groups of eight letters and digits. Nothing here imports Django: `venue.launch` prints the code
before the server starts.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
from pathlib import Path

from django.utils.translation import gettext as _

from venue.files import write_atomically

#: What an installation's seal key is derived from (its secret key), and the prefix of that.
SEAL_PREFIX = b"dune.venue.export-seal:"
CHECK_BYTES = 3
GROUP = 8
FILE_NAME = "paired_keys.json"


class CodeRefused(ValueError):
    """A pairing code that is not one `bin/venue` printed (mistyped, cut short)."""


def seal_key(secret_key: str) -> bytes:
    """The key an installation with this secret key seals its documents with."""
    return hashlib.sha256(SEAL_PREFIX + secret_key.encode("utf-8")).digest()


def fingerprint(key: bytes) -> str:
    """A short name of a key for people to compare (never enough to seal with)."""
    return hashlib.sha256(b"dune.venue.fingerprint:" + key).hexdigest()[:12]


def code_of(key: bytes) -> str:
    """The pairing code of `key`: base32 of the key and its check bytes, in groups."""
    check = hashlib.sha256(b"dune.venue.pairing:" + key).digest()[:CHECK_BYTES]
    text = base64.b32encode(key + check).decode("ascii").rstrip("=")
    return "-".join(text[i:i + GROUP] for i in range(0, len(text), GROUP))


def key_of(code: str) -> bytes:
    """The key in a pairing code (spaces, dashes and case ignored). Raises CodeRefused."""
    text = "".join(ch for ch in code.upper() if ch not in " -\t\n")
    text = text.replace("0", "O").replace("1", "I").replace("8", "B")  # digits base32 never uses, misread
    try:
        raw = base64.b32decode(text + "=" * (-len(text) % 8))
    except ValueError:
        raise CodeRefused(_("the pairing code has letters a pairing code never has: copy it again")) from None
    key, check = raw[:-CHECK_BYTES], raw[-CHECK_BYTES:]
    if len(key) != 32 or hashlib.sha256(b"dune.venue.pairing:" + key).digest()[:CHECK_BYTES] != check:
        raise CodeRefused(_("the pairing code is not the one the serving laptop printed (a letter is wrong or missing): copy it again"))
    return key


#: The request header a paired spare proves itself with when it pulls the changes feed.
SPARE_HEADER = "X-Venue-Spare"


def spare_proof(key: bytes, tournament_id: int, cursor: str) -> str:
    """What a spare holding `key` sends with its pull of `tournament_id` from `cursor` (the
    query's text): the feed then carries the judges' sign-in content (`venue.changes`)."""
    message = f"dune.venue.follow:{int(tournament_id)}:{cursor}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def proves_spare(key: bytes, tournament_id: int, cursor: str, proof: str) -> bool:
    return hmac.compare_digest(spare_proof(key, tournament_id, cursor).encode(), (proof or "").encode())


def _path(var_dir: Path) -> Path:
    return Path(var_dir) / FILE_NAME


def paired(var_dir: Path) -> list[dict[str, str]]:
    """The keys this laptop was given: [{"key": hex, "fingerprint", "paired_at"}], oldest first."""
    try:
        loaded = json.loads(_path(var_dir).read_text())
    except (OSError, ValueError):
        return []
    found = loaded.get("keys", []) if isinstance(loaded, dict) else []
    return [k for k in found if isinstance(k, dict) and isinstance(k.get("key"), str)]


def paired_keys(var_dir: Path) -> list[bytes]:
    keys = []
    for entry in paired(var_dir):
        try:
            keys.append(bytes.fromhex(entry["key"]))
        except ValueError:
            continue
    return keys


def pair(var_dir: Path, code: str, *, now: dt.datetime | None = None) -> tuple[bytes, bool]:
    """Keep the key of `code` on this laptop; returns (key, whether it is new). Raises CodeRefused."""
    key = key_of(code)
    entries = paired(var_dir)
    if any(e["key"] == key.hex() for e in entries):
        return key, False
    at = (now or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    entries.append({"key": key.hex(), "fingerprint": fingerprint(key), "paired_at": at})
    _write_private(_path(var_dir), json.dumps({"keys": entries}, indent=1, sort_keys=True))
    return key, True


def _write_private(path: Path, text: str) -> None:
    """Write `text` readable by this user only, atomically."""
    write_atomically(path, text, private=True)
