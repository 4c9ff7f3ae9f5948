"""A format document's fields, values, rules and differences in the reader's language.

The document's core (dune.formats.document) writes a field's name, a choice's meaning and its
differences from the preset in English; the words are listed for the catalogue in
foundation.core_words (FORMAT_WORDS, FORMAT_CHOICES, FORMAT_RULES) and shown here through
`core_word`. Keys stay what the form posts; names (factions, presets, rulesets) and rule
numbers stay as they are.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from dune.engine.ids import FACTIONS, ResultKind
from dune.engine.names import faction_name
from dune.engine.results import kind_words
from dune.formats.document import FIELDS_BY_PATH, ROUND_KINDS, Difference, choice_words
from foundation.core_words import core_word
from web.templatetags.locale_numbers import locale_number

#: The result kinds, by id: each has a points field in the document.
RESULT_KINDS = frozenset(kind.value for kind in ResultKind)


def field_words(path: str, words: str) -> str:
    """A field's name in the reader's language (a result kind's points named by the kind)."""
    kind = path.removeprefix("points.results.")
    if kind != path and kind in RESULT_KINDS:
        return _("points for %(kind)s") % {"kind": core_word(kind_words(kind))}
    return core_word(words)


def _round_field_words(path: str) -> str:
    """A field's name in a list without group headings: a round's field says which round."""
    spec = FIELDS_BY_PATH[path]
    for kind in ROUND_KINDS:
        if path.startswith(f"rounds.{kind}."):
            field = field_words(path, spec.words)
            if kind == "heat":
                return pgettext("a heat's field of a format, in a list", "heat %(field)s") % {"field": field}
            return pgettext("the final's field of a format, in a list", "final %(field)s") % {"field": field}
    return field_words(path, spec.words)


def value_words(path: str, value: Any) -> str:
    """A field's value as a person reads it: yes or no, a choice by what it means, factions by
    name, numbers with the locale's decimal mark, "all" and "(none)" in words."""
    words = choice_words(path)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == []:
        return pgettext("a format field without a value", "(none)")
    if isinstance(value, str) and value in words:
        return core_word(words[value])
    if isinstance(value, list):
        if words and all(v in words for v in value):
            return "; ".join(core_word(words[v]) for v in value)
        return ", ".join(faction_name(v) if v in FACTIONS else str(v) for v in value)
    if value == "all":
        return pgettext("every eligible player is an alternate", "all")
    number = locale_number(value)
    return number if number is not None else core_word(str(value))


def choice_options(path: str, choices: tuple[str, ...]) -> list[tuple[str, str]]:
    """A choice field's options: (the key the form posts, its words)."""
    return [(key, value_words(path, key)) for key in choices]


def rule_words(rule: Any) -> str:
    """The rule a document cites, in the reader's language where a preset writes it (its rule
    numbers kept); a document's own words as they are."""
    return core_word(str(rule or ""))


#: What a format document's describing fields and cited topics are called in a list.
def _meta_words(name: str) -> str:
    return {
        "name": pgettext("a format document's field", "name"),
        "long_name": pgettext("a format document's field", "long name"),
        "version": pgettext("a format document's field", "version"),
        "text": pgettext("a format document's field", "text"),
    }.get(name, name.replace("_", " "))


def _topic_words(topic: str) -> str:
    return {
        "report": pgettext("a topic a format cites a rule for", "the game report"),
        "dropouts": pgettext("a topic a format cites a rule for", "dropouts"),
        "qualifying": pgettext("a topic a format cites a rule for", "qualifying"),
        "latecomers": pgettext("a topic a format cites a rule for", "latecomers"),
        "seat_order": pgettext("a topic a format cites a rule for", "seat order"),
    }.get(topic, topic.replace("_", " "))


def difference_row(d: Difference) -> dict[str, str]:
    """One difference from the preset as the list shows it: the field, the event's and the
    preset's value and the rule, in the reader's language."""
    table, _dot, key = d.field.partition(".")
    if d.field in FIELDS_BY_PATH:
        words = _round_field_words(d.field)
        event, preset = value_words(d.field, d.event), value_words(d.field, d.preset)
    elif table in ("rules", "citations") and key:
        what = _round_field_words(key) if key in FIELDS_BY_PATH else _topic_words(key)
        words = _("rule cited for %(what)s") % {"what": what}
        event, preset = rule_words(d.event) or value_words("", None), rule_words(d.preset) or value_words("", None)
    else:
        words = _meta_words(d.field)
        event, preset = value_words("", d.event), value_words("", d.preset)
    return {"field": d.field, "words": words, "event_words": event, "preset_words": preset, "rule": rule_words(d.rule)}


def difference_rows(differences: Any) -> list[dict[str, str]]:
    return [difference_row(d) for d in differences or ()]
