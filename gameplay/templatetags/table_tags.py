"""Small helpers of the table judge's page: labels, errors next to their field."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from dune.engine.names import FACTION_NAMES, place_name

register = template.Library()


@register.filter
def label(value: Any) -> str:
    """`bene_gesserit` -> `Bene Gesserit`; `shield_wall@8` -> `Shield Wall (sector 8)`;
    any other id in words (`mentat_pause` -> `Mentat Pause`)."""
    if value is None:
        return "—"
    text = str(value)
    return FACTION_NAMES.get(text) or place_name(text)


#: Short faction names where a phone has room for three letters (a legend gives the full name).
_SHORT = {"bene_gesserit": "BG", "choam": "CHO"}


@register.filter
def short(faction: Any) -> str:
    """`atreides` -> `Atr`, `bene_gesserit` -> `BG`."""
    text = str(faction or "")
    return _SHORT.get(text, text[:3].title())


@register.simple_tag
def field_error(error: Any, action: str, field: str = "") -> str:
    """The error of `action`'s form, shown next to `field` (or at the form's foot with no field)."""
    if not error or error.get("action") != action:
        return ""
    if (error.get("field") or "") != field:
        return ""
    rule = error.get("rule")
    rule_text = format_html('<span class="rule">rule {}</span> ', rule) if rule else ""
    return format_html(
        '<p class="field-error" role="alert" id="err-{}-{}">{}{}</p>', action, field or "form", rule_text, error["message"]
    )


@register.simple_tag
def posted(values: Any, action: str, field: str, default: Any = "") -> Any:
    """The value a refused form had, so the judge does not type it again."""
    if values and values.get("action") == action and values.get(field) not in (None, ""):
        return values.get(field)
    return default


@register.filter
def get(mapping: Any, key: Any) -> Any:
    if not mapping:
        return None
    return mapping.get(key)


@register.filter
def describe(body: Any) -> str:
    """An event's fields in words: `sectors 3`, `factions Atreides, Fremen`."""
    if not isinstance(body, dict):
        return ""
    parts = []
    for key, value in body.items():
        if key in ("type", "v") or value in (None, "", [], {}, False):
            continue
        if isinstance(value, list):
            shown = ", ".join(label(v) if isinstance(v, str) else str(v) for v in value)
        elif isinstance(value, dict):
            shown = "; ".join(f"{label(k)}: {describe_value(v)}" for k, v in value.items())
        elif isinstance(value, str) and key in ("faction", "territory", "phase", "captor", "from_territory", "to_territory"):
            shown = label(value)
        else:
            shown = str(value)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return " · ".join(parts)


def describe_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(label(v) if isinstance(v, str) else str(v) for v in value) or "—"
    return str(value)
