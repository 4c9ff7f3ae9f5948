"""What text the platform accepts from anyone (pure: no Django).

Every name, reason and free-text field is checked here, once, before it reaches a view:
PostgreSQL cannot store a NUL, a lone surrogate (half of a UTF-16 pair, which JSON's `\\ud800`
escape can smuggle in) is not text at all, and other control characters only hide what a
judge wrote. Tabs and line breaks stay allowed in reasons.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable, Iterator
from typing import Any, TypeVar

#: Deeper JSON than this is refused before it is looked at (no request needs more than a few).
MAX_JSON_DEPTH = 64
#: The most items any list in a request may hold: more than the largest event's players
#: (a seating of 300,000 ids is refused at once, naming its field, before any work).
MAX_JSON_LIST = 10_000
_ALLOWED_CONTROLS = {"\t", "\n", "\r"}


def _refused_as(char: str) -> str | None:
    """What `char` is, in words, when no text may hold it; None when it is fine."""
    if char == "\x00":
        return "a NUL character"
    if "\ud800" <= char <= "\udfff":
        return "an unpaired surrogate (not valid Unicode)"
    if char not in _ALLOWED_CONTROLS and unicodedata.category(char) == "Cc":
        return f"the control character U+{ord(char):04X}"
    return None


def _refused(value: str) -> Iterator[tuple[int, str]]:
    for index, char in enumerate(value):
        what = _refused_as(char)
        if what is not None:
            yield index + 1, what


#: Every character `_refused_as` refuses (the Cc category but tab and line breaks, and the
#: surrogates): text without one is fine, found by the regular expression engine at once
#: rather than character by character (every string of every API body is checked).
_ANY_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why `value` is refused, or None when it is fine."""
    if _ANY_REFUSED.search(value) is None:
        return None
    for position, what in _refused(value):
        return f"contains {what} at position {position}"
    return None


#: Characters no name may hold although other text may: they hide what is written (zero-width
#: characters) or reorder it on screen (bidirectional controls), or break a name over lines.
_NAME_REFUSED = {
    "\t": "a tab",
    "\n": "a line break",
    "\r": "a line break",
    "\u200b": "a zero-width space",
    "\u200c": "a zero-width non-joiner",
    "\u200d": "a zero-width joiner",
    "\u2060": "a word joiner",
    "\ufeff": "a zero-width no-break space",
    "\u00ad": "a soft hyphen",
    "\u180e": "a Mongolian vowel separator",
    "\u061c": "a bidirectional control (U+061C)",
    "\u200e": "a bidirectional control (U+200E)",
    "\u200f": "a bidirectional control (U+200F)",
    **{
        chr(c): f"a bidirectional control (U+{c:04X})"
        for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
    },
}


_NAME_REFUSED.update({
    "\u2028": "a line separator",
    "\u2029": "a paragraph separator",
    "\u0085": "a line break",
    "\u000b": "a line break",
    "\u000c": "a line break",
})

#: Characters that show nothing although they are not spaces (Hangul fillers, the braille
#: blank, the invisible operators): a name of them alone looks empty on every page.
_BLANK_LOOKING = frozenset("\u3164\u115f\u1160\uffa0\u2800\u2061\u2062\u2063\u2064\u034f\u17b4\u17b5")


def _name_refused_as(char: str) -> str | None:
    what = _NAME_REFUSED.get(char)
    if what is not None:
        return what
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return f"a tag character (U+{code:04X})"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return None  # variation selectors shape the character before them (emoji, CJK)
    if unicodedata.category(char) == "Cf" and char not in _ALLOWED_FORMAT:
        return f"an invisible formatting character (U+{code:04X})"
    return None


#: Format characters a name may hold: they join letters of some scripts (Persian, Indic).
_ALLOWED_FORMAT: frozenset[str] = frozenset()


def _shows_something(char: str) -> bool:
    return not (char.isspace() or char in _BLANK_LOOKING or unicodedata.category(char) in ("Cf", "Mn", "Me", "Mc"))


def name_problem(value: str) -> str | None:
    """The one rule for names (tournaments, series, players, people): why `value` cannot be
    one, or None. Refused text (`text_problem`); a tab, line break, line or paragraph
    separator, zero-width character, bidirectional control, tag character or other invisible
    formatting character, with its position; a name that shows nothing (only spaces, Hangul
    fillers such as U+3164, or combining marks with no letter to sit on)."""
    problem = text_problem(value)
    if problem:
        return problem
    for index, char in enumerate(value):
        what = _name_refused_as(char)
        if what is not None:
            return f"contains {what} at position {index + 1}"
    if value.strip() and not any(_shows_something(char) for char in value):
        return "shows nothing: it has no letter, digit or sign a reader would see"
    if value.strip() and unicodedata.category(value.strip()[0]) in ("Mn", "Me", "Mc"):
        return "begins with a combining mark, which has no letter to sit on"
    return None


def clean_name(value: str) -> str:
    """A name as it is stored: NFC-normalised (one code point per accented letter, however it
    was typed), runs of spaces as one, no space at either end."""
    return " ".join(unicodedata.normalize("NFC", value or "").split())


#: The most characters of a title (a tournament's or a series' name), as its column stores it.
TITLE_LIMIT = 200


def title_problem(value: object, *, what: str, longest: int = TITLE_LIMIT) -> tuple[str, str | None]:
    """A title (a tournament's or a series' name) as stored, and why it cannot be one (None
    when it can): text no page stores, nothing after tidying, or over `longest` characters.
    `what` names the thing in the message ("a series")."""
    problem = name_problem(value) if isinstance(value, str) else None
    if problem:
        return "", f"the name {problem}"
    name = clean_name(value) if isinstance(value, str) else ""
    if not name:
        return "", f"{what} needs a name"
    if len(name) > longest:
        return name, f"{what} name has at most {longest} characters"
    return name, None


def name_key(value: str) -> str:
    """What two names are compared by for "the same name": compatibility-normalised (NFKC:
    full-width letters, ligatures) and case-folded ("Straße" and "STRASSE" are one)."""
    return unicodedata.normalize("NFKC", clean_name(value)).casefold()


def search_key(value: str) -> str:
    """What a name is searched by: accents set aside (NFKD with the combining marks dropped:
    "Núñez" is "nunez", "Müller" is "muller"), case-folded ("Straße" is "strasse"), one space
    between words."""
    decomposed = unicodedata.normalize("NFKD", value or "")
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


K = TypeVar("K", bound=Hashable)


def duplicate_key(name: str, club: str) -> tuple[str, str]:
    """What makes two registrations probably one person: the same name and the same club, each
    with accents and case set aside (`search_key`: "José Núñez" of "Arrakis" is "Jose Nunez" of
    "ARRAKIS")."""
    return search_key(name), search_key(club)


def probable_duplicates(players: Iterable[tuple[K, str, str]]) -> list[tuple[K, ...]]:
    """The groups of `(id, name, club)` sharing a `duplicate_key`, each in the order given, the
    groups in the order of their first member; a name alone in its club is in none."""
    groups: dict[tuple[str, str], list[K]] = {}
    for pk, name, club in players:
        if search_key(name):
            groups.setdefault(duplicate_key(name, club), []).append(pk)
    return [tuple(members) for members in groups.values() if len(members) > 1]


def name_matches(query: str, *texts: str) -> bool:
    """Whether every word of `query` is found in one of `texts` (a name, a club...), accents and
    case set aside (`search_key`): the one test every search of names uses. An empty query
    matches everything."""
    haystacks = [search_key(t) for t in texts if t]
    return all(any(word in h for h in haystacks) for word in search_key(query).split())


def email_key(value: str) -> str:
    """What two email addresses are compared by, everywhere (the CSV import, the desk, linking
    players to people, and the database's stored `email_key` column with its unique index):
    trimmed, compatibility-normalised (NFKC) and case-folded, so "PAUL@example.org" is
    "paul@example.org" and "a@STRAßE.de" is "a@strasse.de". Only Python computes it; the
    database stores and compares the result, so no `lower()` there can disagree."""
    return unicodedata.normalize("NFKC", (value or "").strip()).casefold()


def account_key(value: object) -> str:
    """What an account's name is known by wherever a person types it: the sign-in doors, their
    guard and failure log, the lookups of a head judge's pages, and the check that a new name
    is not an existing one's lookalike. Trimmed, compatibility-normalised (NFKC: the sign-in
    form folds fullwidth `ｔｖｄ` to `tvd` before authenticating) and case-folded; an email used
    as a name is compared as every email is (`email_key`, the same rule). Anything but text
    is no name ("")."""
    if not isinstance(value, str):
        return ""
    return email_key(value) if "@" in value else unicodedata.normalize("NFKC", value.strip()).casefold()


def refused_characters(value: str) -> list[tuple[int, str]]:
    """Every character of `value` that `text_problem` refuses: (position from 1, what it is)."""
    return list(_refused(value))


def without_refused(value: str) -> str:
    """`value` with every refused character taken out (what a page shows back to a person)."""
    return "".join(char for char in value if _refused_as(char) is None)


class RefusedNumber:
    """Stands in a parsed JSON body for a number the parser would not read (too many digits or
    too large an exponent); `structure_problems` names its field."""

    __slots__ = ("problem",)

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _walk(value: Any, path: str, depth: int) -> Iterator[tuple[str, str]]:
    if depth > MAX_JSON_DEPTH:
        yield path or "body", f"nested more than {MAX_JSON_DEPTH} levels deep"
        return
    if isinstance(value, RefusedNumber):
        yield path or "body", value.problem
    elif isinstance(value, str):
        problem = text_problem(value)
        if problem:
            yield path or "body", problem
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            problem = text_problem(str(key))
            if problem:
                yield path or "body", f"a key {problem}"
                return
            yield from _walk(item, where, depth + 1)
    elif isinstance(value, list):
        if len(value) > MAX_JSON_LIST:
            yield path or "body", f"has {len(value)} items; at most {MAX_JSON_LIST} are accepted"
            return
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]" if path else f"[{index}]", depth + 1)


def structure_problems(value: Any) -> dict[str, str]:
    """{field path: problem} for every refused string or number in a parsed JSON body, and for
    depth."""
    problems: dict[str, str] = {}
    for where, problem in _walk(value, "", 1):
        problems.setdefault(where, problem)
    return problems


#: A JSON string (skipped whole) or a bracket, for `nesting_depth_exceeds`.
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


#: A TOML string (basic, literal, multi-line) or comment (skipped whole) or a bracket.
_TOML_STRUCTURE = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]', re.DOTALL
)


def toml_nesting_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether TOML text opens more than `limit` arrays or inline tables at once (checked before
    parsing, which recurses once per level); strings and comments are skipped whole."""
    return _depth_exceeds(_TOML_STRUCTURE, text, limit)


def value_nesting_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether a parsed value nests lists or tables more than `limit` deep (TOML's dotted keys
    `a.b.c…` nest without a bracket); walked without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def nesting_depth_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether raw JSON text opens more than `limit` arrays or objects at once (checked before
    parsing, which would otherwise recurse once per level). Strings are skipped by the regular
    expression engine, not character by character: a 2 MB body takes milliseconds."""
    return _depth_exceeds(_STRUCTURE, text, limit)


def _depth_exceeds(structure: re.Pattern[str], text: str, limit: int) -> bool:
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in structure.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def overlong_list(value: Any, limit: int = MAX_JSON_LIST) -> tuple[str, str] | None:
    """(field path, problem) of the first list in a parsed JSON value with more than `limit`
    items, or None; looks at lengths only, so a huge body is refused in milliseconds."""
    pending: list[tuple[Any, str]] = [(value, "")]
    while pending:
        item, path = pending.pop()
        if isinstance(item, list):
            if len(item) > limit:
                return path or "body", f"has {len(item)} items; at most {limit} are accepted"
            pending.extend((v, f"{path}[{i}]" if path else f"[{i}]") for i, v in enumerate(item)
                           if isinstance(v, list | dict))
        elif isinstance(item, dict):
            pending.extend((v, f"{path}.{k}" if path else str(k)) for k, v in item.items()
                           if isinstance(v, list | dict))
    return None


#: The largest whole number any query string, form field or JSON body may give (a bigint).
MAX_WHOLE = 2**63 - 1
_ASCII_DIGITS = frozenset("0123456789")


def whole_number(value: Any, *, signed: bool = False) -> int | None:
    """The one parser of whole numbers typed into query strings and forms: `value` (text, or
    an int from a JSON body) as an int, or None when it is not one.

    Only the ASCII digits 0-9 count, with a leading `-` when `signed` (and an optional `+`):
    `str.isdigit()` also accepts `²` or `①`, which `int()` then refuses, and `int()` itself
    accepts Arabic-Indic or full-width digits and `1_000`, which no judge types on purpose. A
    number beyond a 64-bit integer is None too (the database could not store it).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        sign = 1
        if text[:1] in ("-", "+"):
            if text[0] == "-":
                if not signed:
                    return None
                sign = -1
            text = text[1:]
        if not text or len(text) > 19 or not set(text) <= _ASCII_DIGITS:
            return None
        number = sign * int(text)
    else:
        return None
    return number if -MAX_WHOLE - 1 <= number <= MAX_WHOLE else None
