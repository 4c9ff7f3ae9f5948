"""Sentences a pure core writes for a person, in the reader's language (pure: no Django).

A core that assembles sentences (a chart's caption and its text alternative, say) takes a
`Words` and writes every sentence through it: `words.gettext("Games by result")`,
`words.ngettext("%(n)s game", "%(n)s games", n) % {"n": n}`. The cores stay free of Django:
`ENGLISH` is the default, and the Django layer hands in `django.utils.translation` itself,
which has the same three functions. The catalogue extraction (`make messages`) reads these
calls where they are written, so each sentence has one home, in the core that says it.
"""

from __future__ import annotations

from typing import Protocol


class Words(Protocol):
    """The three translation calls a core writes its sentences through."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, number: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class _English:
    """The sentences as the core writes them (English, the source language)."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, number: int) -> str:
        return singular if number == 1 else plural

    @staticmethod
    def pgettext(context: str, message: str) -> str:
        return message


ENGLISH: Words = _English()


def gettext_noop(message: str) -> str:
    """Marks `message` for the catalogue where it is written (a label a core keeps in a table and
    a page translates later, through `Words.gettext` or foundation.core_words.core_word)."""
    return message
