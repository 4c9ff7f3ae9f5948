"""The export document on its own (no database): checksum, version check, refusals."""

from __future__ import annotations

import json

import pytest

from dune.export_document import (
    FORMAT_VERSION,
    DocumentRefused,
    canonical,
    checksum,
    open_sealed,
    parse,
    seal,
)

CONTENT = {"rows": {"tournament.player": [{"id": 1, "name": "Alia Vance", "club": "Arrakeen"}]}, "tournament": 1}


def test_a_sealed_document_opens_to_its_content() -> None:
    document = seal(CONTENT)
    assert document["format_version"] == FORMAT_VERSION
    assert open_sealed(parse(json.dumps(document))) == CONTENT


def test_the_checksum_ignores_key_order_and_spacing_but_not_one_character() -> None:
    reordered = json.loads(json.dumps(CONTENT, sort_keys=False, indent=2))
    assert checksum(reordered) == checksum(CONTENT)
    changed = json.loads(json.dumps(CONTENT).replace("Alia", "Alie"))
    assert checksum(changed) != checksum(CONTENT)
    assert canonical({"b": 1, "a": "é"}) == '{"a":"é","b":1}'.encode()


def test_a_changed_character_is_refused_naming_the_checksum() -> None:
    text = json.dumps(seal(CONTENT)).replace("Arrakeen", "Arrakeem")
    with pytest.raises(DocumentRefused, match="checksum does not match") as refused:
        open_sealed(parse(text))
    assert refused.value.field == "checksum"


@pytest.mark.parametrize("version", [2, 0, "1", None, True])
def test_an_unknown_format_version_is_refused_naming_it(version: object) -> None:
    document = {**seal(CONTENT), "format_version": version}
    if version is None:
        del document["format_version"]
    with pytest.raises(DocumentRefused, match="format_version") as refused:
        open_sealed(document)
    assert refused.value.field == "format_version"


@pytest.mark.parametrize("text", ["", "[1, 2]", "{not json", b"\xff\xfe"])
def test_a_file_that_is_not_a_document_is_refused(text: str | bytes) -> None:
    with pytest.raises(DocumentRefused):
        open_sealed(parse(text))


def test_a_seal_proves_the_installation_wrote_it_and_a_recomputed_checksum_does_not() -> None:
    from dune.export_document import sealed_by

    ours, theirs = b"k" * 32, b"o" * 32
    document = seal(CONTENT, ours)
    assert document["seal"].startswith("hmac-sha256:") and sealed_by(document, ours)
    assert not sealed_by(document, theirs)
    # Tampered, with the plain checksum recomputed: it opens (the digest matches) but is not ours.
    tampered = json.loads(json.dumps(document).replace("Arrakeen", "Arrakeem"))
    tampered["checksum"] = checksum(tampered["content"])
    assert open_sealed(tampered)["rows"]["tournament.player"][0]["club"] == "Arrakeem"
    assert not sealed_by(tampered, ours)
    assert not sealed_by(seal(CONTENT), ours)
