"""The pure cores' words in the reader's language.

`dune/` imports no Django, so the words it hands a page (a clock's state, a stage of the time
limit) are English there. They are listed here, marked for the catalogue, and a page shows
`core_word(text)`: the reader's language where the catalogue has the word, else the word as
the core wrote it. Names of the game (factions, territories, leaders, cards) are never listed:
they stay as the board prints them (locale/GLOSSARY.md).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop, ngettext

#: The words of dune.clock_limits' states, as its STATE_LABELS writes them.
CLOCK_STATES = (
    gettext_noop("Not started"),
    gettext_noop("Running"),
    gettext_noop("Last 30 minutes"),
    gettext_noop("Last turn"),
    gettext_noop("Time up"),
    gettext_noop("Finished"),
)
_LAST_MINUTES = re.compile(r"^Last (\d+) minutes?$")


def core_word(text: str) -> str:
    """`text`, a word a pure core wrote, in the reader's language."""
    last = _LAST_MINUTES.match(text)
    if last and text not in CLOCK_STATES:  # a format's own no-new-turn window ("Last 20 minutes")
        minutes = int(last.group(1))
        return ngettext("Last %(minutes)s minute", "Last %(minutes)s minutes", minutes) % {"minutes": minutes}
    return gettext(text)
