"""Small helpers of the table judge's page: labels, the clock, errors next to their field."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.template import Context, Template
from django.utils.html import format_html

register = template.Library()

_CLOCK = "{% load clocks %}{% table_clock table %}"


@register.simple_tag
def table_clock_or_blank(table: Any) -> str:
    """The clocks app's `{% table_clock table %}`, or nothing while that app is not ready.

    The table page must render even when the clock cannot (a missing tag, template or table);
    the clock is then simply absent.
    """
    try:
        return Template(_CLOCK).render(Context({"table": table}))
    except Exception:  # noqa: BLE001 - any failure of another app's tag must not break this page
        return ""


@lru_cache(maxsize=1)
def _territory_names() -> dict[str, str]:
    from gameplay import engine_adapter

    return engine_adapter.territory_names()


@register.filter
def label(value: Any) -> str:
    """`bene_gesserit` -> `Bene Gesserit`; `shield_wall@8` -> `Shield Wall (sector 8)`."""
    if value is None:
        return "—"
    text = str(value)
    place, _, sector = text.partition("@")
    words = _territory_names().get(place) or place.replace("_", " ").title()
    return f"{words} (sector {sector})" if sector else words


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
