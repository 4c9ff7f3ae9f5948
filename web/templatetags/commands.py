"""`{% command_key %}`: the hidden `idempotency_key` field of a form that posts a command.

A fresh key per form and per render: a double tap or a re-sent post of the same form carries
the same key, so its command acts once (`foundation.idempotency`); the page shown after it
has new keys for the next action.
"""

from __future__ import annotations

import uuid

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from foundation.idempotency import FORM_FIELD

register = template.Library()


@register.simple_tag
def command_key() -> SafeString:
    return format_html('<input type="hidden" name="{}" value="{}">', FORM_FIELD, uuid.uuid4())
