"""A record's reason in the reader's language where the platform wrote it (the seating, the
clocks); a reason a judge typed is shown as typed."""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.translation import gettext, gettext_lazy

register = template.Library()

#: The reasons the platform writes on the records it makes itself.
PLATFORM_REASONS = {
    "from the seating": gettext_lazy("from the seating"),
    "setup recorded by the judge": gettext_lazy("setup recorded by the judge"),
    "diplomacy chip": gettext_lazy("diplomacy chip"),
    "the game's result is recorded": gettext_lazy("the game's result is recorded"),
    "the game's result was voided: the game and its clock go on": gettext_lazy(
        "the game's result was voided: the game and its clock go on"
    ),
    "time_up recorded in the game log": gettext_lazy("time up recorded in the game log"),
    "time_up could not be recorded": gettext_lazy("time up could not be recorded"),
    "time_up voided in the game log": gettext_lazy("time up voided in the game log"),
    "time_up could not be voided": gettext_lazy("time up could not be voided"),
}
_NO_NEW_TURN = re.compile(r"^(?P<rule>.+): the time limit allows no new turn$")
_CALLED_CLOCK = re.compile(r"^(?P<rule>.+): called clock expired$")


@register.filter
def reason_words(reason: Any) -> str:
    """`from the seating` in the reader's language; a rule number stays as it is."""
    text = str(reason or "")
    known = PLATFORM_REASONS.get(text)
    if known is not None:
        return str(known)
    found = _NO_NEW_TURN.match(text)
    if found:
        return gettext("%(rule)s: the time limit allows no new turn") % found.groupdict()
    found = _CALLED_CLOCK.match(text)
    if found:
        return gettext("%(rule)s: called clock expired") % found.groupdict()
    return text
