"""A table's personal link as a QR code, for its printed report and seating sheets.

The code is an SVG drawn on the server by segno (no JavaScript, no image service, prints
sharp at any size); scanning it opens the table page, after sign-in when needed.
"""

from __future__ import annotations

from typing import Any

import segno
from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournament.links import absolute_link

register = template.Library()


def table_link(request: Any, table: Any) -> str:
    """The absolute personal link of a table (sign-in first, then the table page)."""
    return absolute_link(request, reverse("table-judge-link", args=[table.pk]))


@register.simple_tag(takes_context=True)
def table_qr(context: Any, table: Any) -> str:
    link = table_link(context["request"], table)
    # The sheet's language is active while it renders: the caption reads in it.
    title = _("Table %(number)s: %(link)s") % {"number": table.number, "link": link}
    svg = segno.make(link, error="m").svg_inline(scale=4, border=2, title=title)
    return format_html(
        '<figure class="qr-link">{}<figcaption><strong>{}</strong><br><small>{}</small></figcaption></figure>',
        mark_safe(svg),  # noqa: S308 - segno's own SVG markup, built from our link only
        _("Table %(number)s judge") % {"number": table.number},
        link,
    )
