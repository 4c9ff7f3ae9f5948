"""A label a pure core wrote (a clock limit's name, say), in the reader's language where the
catalogue has it (foundation.core_words.core_word)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import translation

from dune.clock_limits import Limit, limit_words
from foundation.core_words import core_word
from web.tournament.format_words import difference_rows

register = template.Library()


@register.filter
def core_label(text: Any) -> str:
    """`{{ limit.label|core_label }}`: the label in the reader's language, else as written."""
    return core_word(str(text or ""))


@register.filter
def format_differences(differences: Any) -> list[dict[str, str]]:
    """`{{ rules.differences|format_differences }}`: a format's differences from its preset as
    the list shows them, in the reader's language (web.tournament.format_words)."""
    return difference_rows(differences)


@register.filter
def limit_label(limit: Limit) -> str:
    """`{{ limit|limit_label }}`: a clock limit in the reader's language, a preset's by its name
    and a format's own from its numbers (dune.clock_limits.limit_words)."""
    return limit_words(limit, translation)
