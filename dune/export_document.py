"""An exported tournament as one self-describing document (no Django).

The document is plain JSON::

    {"format_version": 1, "checksum": "sha256:…", "content": {…}}

`content` holds the rows; `checksum` is the SHA-256 of `content` written as canonical JSON
(keys sorted, no spaces, UTF-8), so a changed character anywhere in the content is found
before anything is imported. `format_version` says how the content is laid out: a reader
refuses a version it does not know instead of guessing.

The checksum finds damage, not tampering: anyone can recompute it after changing the content.
The installation that writes a document adds a `seal`, an HMAC-SHA256 of the same bytes under
its own key (`"seal": "hmac-sha256:…"`). Only that installation can check it: a document it
sealed itself is its own records (`sealed_by`); every other document, from another
installation or from anyone's editor, is read as untrusted input.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

#: The layout of `content` this code writes and reads.
FORMAT_VERSION = 1
#: Every layout this code can read.
KNOWN_VERSIONS = frozenset({FORMAT_VERSION})
CHECKSUM_PREFIX = "sha256:"
SEAL_PREFIX = "hmac-sha256:"


class DocumentRefused(ValueError):
    """A document that cannot be imported; the message says why, for the person importing it."""

    def __init__(self, message: str, *, field: str) -> None:
        self.message = message
        self.field = field
        super().__init__(message)


def canonical(content: Any) -> bytes:
    """`content` as canonical JSON bytes: the same content always gives the same bytes."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def checksum(content: Any) -> str:
    return CHECKSUM_PREFIX + hashlib.sha256(canonical(content)).hexdigest()


def seal_of(content: Any, key: bytes) -> str:
    """The HMAC-SHA256 of `content` (canonical JSON) under `key`."""
    return SEAL_PREFIX + hmac.new(key, canonical(content), hashlib.sha256).hexdigest()


def seal(content: Mapping[str, Any], key: bytes | None = None) -> dict[str, Any]:
    """The document for `content`: its format version, the content and its checksum, and the
    seal of the installation whose `key` is given."""
    document = {"format_version": FORMAT_VERSION, "checksum": checksum(content), "content": dict(content)}
    if key is not None:
        document["seal"] = seal_of(content, key)
    return document


def sealed_by(document: Mapping[str, Any], key: bytes) -> bool:
    """Whether the installation whose key is `key` sealed this document (compared in constant
    time); False for a document without a seal or sealed elsewhere."""
    stated = document.get("seal")
    content = document.get("content")
    if not isinstance(stated, str) or not isinstance(content, dict):
        return False
    return hmac.compare_digest(stated.encode(), seal_of(content, key).encode())


def parse(text: str | bytes) -> dict[str, Any]:
    """The document in `text`. Raises DocumentRefused when it is not a JSON object."""
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DocumentRefused(f"the file is not a JSON document ({exc})", field="file") from None
    if not isinstance(document, dict):
        raise DocumentRefused("the file is not an exported tournament (no JSON object)", field="file")
    return document


def open_sealed(document: Mapping[str, Any]) -> dict[str, Any]:
    """The content of a document whose version is known and whose checksum matches.

    Raises DocumentRefused naming `format_version`, `checksum` or `content`.
    """
    version = document.get("format_version")
    if version is None:
        raise DocumentRefused("the file has no format_version: it is not an exported tournament",
                              field="format_version")
    if isinstance(version, bool) or version not in KNOWN_VERSIONS:
        known = ", ".join(str(v) for v in sorted(KNOWN_VERSIONS))
        raise DocumentRefused(
            f"format_version {version!r} is not one this installation reads (it reads {known}); "
            "update the platform to import it", field="format_version",
        )
    content = document.get("content")
    if not isinstance(content, dict):
        raise DocumentRefused("the file has no content object", field="content")
    stated = document.get("checksum")
    if not isinstance(stated, str) or not stated.startswith(CHECKSUM_PREFIX):
        raise DocumentRefused("the file has no sha256 checksum", field="checksum")
    actual = checksum(content)
    if actual != stated:
        raise DocumentRefused(
            "the checksum does not match the content: the file was changed or damaged after it was "
            f"written (stated {stated[:19]}…, content gives {actual[:19]}…)", field="checksum",
        )
    return content
