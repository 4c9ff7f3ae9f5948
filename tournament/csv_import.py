"""Reading a player list from CSV (name, email, club) with the reason for every refused row.

Nothing here writes: the preview shows each row and why it would be refused (empty name,
bad email, duplicate in the file, already registered) before the head judge imports anything.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext

from dune.text_rules import clean_name, email_key, name_key, name_problem, text_problem
from foundation.core_words import core_refusal

COLUMNS = ("name", "email", "club")
MAX_NAME = 120
#: Player.email's length (Django's EmailField default); the email validator alone allows 320.
MAX_EMAIL = 254
MAX_ROWS = 5000


@dataclass
class ImportRow:
    """One data row of the CSV: its line number, fields, and why it is refused (empty if accepted)."""

    line: int
    name: str
    email: str
    club: str
    errors: list[str] = field(default_factory=list)
    #: Accepted, but worth a look: a name equal to a registered player's once normalised and
    #: case-folded (a second registration of the same person?).
    warnings: list[str] = field(default_factory=list)
    #: Registered players (or earlier rows) probably the same person: the same name once
    #: accents and case are set aside, and the same club (`text_rules.duplicate_key`).
    probable_duplicates: list[str] = field(default_factory=list)
    #: The existing person the row's email links it to (None: a new person), and their name.
    person: int | None = None
    person_name: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def other_name(self) -> bool:
        """The email belongs to a person registered under another name: the head judge decides."""
        return self.person is not None and self.person_name.casefold() != self.name.casefold()

    @property
    def link_words(self) -> str:
        """What registering the row does to people, in words."""
        if self.person is None:
            return "new person"
        words = f"will be linked to {self.person_name}, registered before with the same email"
        return words + ", registered under another name" if self.other_name else words

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "name": self.name,
            "email": self.email,
            "club": self.club,
            "ok": self.ok,
            "errors": list(self.errors),
            "warnings": list(self.warnings),
            "probable_duplicates": list(self.probable_duplicates),
            "person": self.person,
            "person_name": self.person_name or None,
            "other_name": self.other_name,
            "link": self.link_words,
        }


def validate_player_fields(name: str, email: str) -> list[tuple[str, str]]:
    """Answer (field, message) for each problem with a player's name and email (the name as it
    will be stored: `clean_name`)."""
    problems: list[tuple[str, str]] = []
    refused = name_problem(name or "")
    name = clean_name(name)
    if refused:
        problems.append(("name", core_refusal(f"the name {refused}")))
    elif not name:
        problems.append(("name", gettext("empty name")))
    elif len(name) > MAX_NAME:
        problems.append(("name", gettext("name longer than %(n)s characters") % {"n": MAX_NAME}))
    email = (email or "").strip()
    if len(email) > MAX_EMAIL:
        problems.append(("email", gettext("email longer than %(n)s characters") % {"n": MAX_EMAIL}))
    elif email:
        try:
            validate_email(email)
        except ValidationError:
            problems.append(("email", gettext("bad email %(email)s") % {"email": repr(email)}))
    return problems


def _rows(reader: Any) -> Any:
    """The reader's rows; a malformed file (a field over the csv module's 128 KB limit, a NUL)
    is refused as a whole, naming the line."""
    try:
        yield from reader
    except csv.Error as exc:
        raise ValidationError({"csv": [f"line {reader.line_num + 1}: {exc}"]}) from exc


def _one_registration_per_name(
    row: ImportRow, seen: dict[str, int], registered: Collection[str], similar: dict[str, str]
) -> None:
    """Refuse the row if its name (case-folded) is an earlier row's or a registered player's;
    warn if it equals a registered one's once normalised."""
    key = row.name.casefold()
    if not row.name:
        return
    if key in seen:
        row.errors.append(f"duplicate of line {seen[key]}")
    elif key in registered:
        row.errors.append("already registered")
    else:
        seen[key] = row.line
        twin = similar.get(name_key(row.name))
        if twin is not None:
            row.warnings.append(f"the same name as the registered player {twin} once normalised")


def _one_registration_per_email(
    row: ImportRow, seen: dict[str, tuple[int, str]], registered: dict[str, str]
) -> None:
    """Refuse the row if its email (by `email_key`) is an earlier row's or a registered
    player's; otherwise remember it in `seen`."""
    address = email_key(row.email)
    if not address or any(e.startswith("bad email") for e in row.errors):
        return
    if address in seen:
        line, other = seen[address]
        row.errors.append(f"the same email as line {line} ({other}): one person registers once")
    elif address in registered:
        row.errors.append(f"the email of the registered player {registered[address]}: one person registers once")
    else:
        seen[address] = (row.line, row.name)


def parse_players_csv(
    text: str,
    *,
    registered: Collection[str] = (),
    similar: dict[str, str] | None = None,
    emails: dict[str, str] | None = None,
) -> list[ImportRow]:
    """Parse CSV text into rows, each with its refusal reasons.

    A first row naming the columns (``name``, ``email``, ``club`` in any order) is a header;
    otherwise the columns are taken in that order. ``registered`` holds the casefolded names
    already in the tournament, ``similar`` their `name_key` -> name (a row equal to one of them
    once normalised is accepted with a warning), ``emails`` the registered players' names by
    `email_key`. One email (compared by `email_key`: "PAUL@x.org" is "paul@x.org") is one
    person, who registers once: a row repeating an earlier row's email or a registered
    player's is refused. Names are read as stored (`clean_name`). Blank lines are skipped.
    """
    text = (text or "").lstrip("\ufeff")
    problem = text_problem(text)
    if problem:
        raise ValidationError({"csv": [gettext("the CSV %(problem)s") % {"problem": core_refusal(problem)}]})
    reader = csv.reader(io.StringIO(text))
    rows: list[ImportRow] = []
    order = list(COLUMNS)
    seen: dict[str, int] = {}
    seen_emails: dict[str, tuple[int, str]] = {}
    first = True
    for cells in _rows(reader):
        index = reader.line_num
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if first:
            first = False
            lowered = [c.lower() for c in cells]
            if "name" in lowered:
                order = [c if c in COLUMNS else "" for c in lowered]
                continue
        values = dict.fromkeys(COLUMNS, "")
        for column, value in zip(order, cells, strict=False):
            if column:
                values[column] = value
        row = ImportRow(
            line=index, name=clean_name(values["name"]), email=values["email"], club=values["club"]
        )
        extra = [c for c in cells[len(order) :] if c]
        if extra:
            row.errors.append(
                f"unexpected extra column{'s' if len(extra) != 1 else ''} "
                + ", ".join(f"“{c}”" for c in extra)
                + ": a row has a name, an email and a club"
            )
        row.errors.extend(message for _, message in validate_player_fields(values["name"], row.email))
        _one_registration_per_name(row, seen, registered, similar or {})
        _one_registration_per_email(row, seen_emails, emails or {})
        rows.append(row)
        if len(rows) > MAX_ROWS:
            row.errors.append(f"more than {MAX_ROWS} rows")
            break
    return rows
