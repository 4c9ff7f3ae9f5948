"""Text no page may store, as the pages answer it: next to the field, with the typed text kept.

`config.text_guard` finds such text in a request before any view runs (the rule is
dune/text_rules.py). The API, and any page that does not show these refusals itself,
answers 400 there. A view marked `@shows_text_refusals` gets the request instead, with:

- the refused characters taken out of `request.POST` and `request.GET`, so that its form shows
  what the person typed without the characters nobody can see, and never renders them;
- a `TextRefused` attached, naming the field and which character at which position was taken
  out. The view raises it with `refuse_unsafe_text(request)` at the start of the code that
  handles its other refusals, before it changes anything, so it shows up where any refusal
  of that field does. A search page reads it with `text_refusal(request)`, a Django form
  through `TextRefusalFormMixin`.

The mark keeps its promise when a view forgets: a marked view that answers without showing
the refusal has its writes rolled back and answers the same 400 as an unmarked page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict
from django.utils.html import escape
from django.utils.translation import gettext, ngettext

from dune.text_rules import refused_characters, text_problem, without_refused
from foundation.commands import Refused
from foundation.core_words import character_words, core_refusal

#: The attribute a marked view carries (read by config.text_guard).
MARK = "shows_text_refusals"
#: How many refused characters one message lists before it says "and N more".
LISTED = 3

View = Callable[..., HttpResponse]


def _where(value: str, position: int) -> str:
    """`position` (from 1) in words; by line and position in the line for text of several lines."""
    if "\n" not in value:
        return gettext("position %(position)s") % {"position": position}
    line_start = value.rfind("\n", 0, position - 1) + 1
    line = value.count("\n", 0, line_start) + 1
    return gettext("line %(line)s, position %(position)s") % {"line": line, "position": position - line_start}


def _at(value: str, position: int, what: str) -> dict[str, str]:
    return {"character": character_words(what), "where": _where(value, position)}


def words_for(value: str) -> str:
    """What a person reads next to a field whose `value` held refused characters, in the
    reader's language (the characters named as dune.text_rules names them)."""
    found = refused_characters(value)
    if len(found) == 1:
        said = _at(value, *found[0])
        said["character"] = said["character"][:1].upper() + said["character"][1:]
        return gettext(
            "%(character)s at %(where)s cannot be stored and was taken out: check the text and send it again."
        ) % said
    listed = ", ".join(gettext("%(character)s at %(where)s") % _at(value, *at) for at in found[:LISTED])
    if len(found) > LISTED:
        more = len(found) - LISTED
        listed = ngettext("%(listed)s and %(more)s more", "%(listed)s and %(more)s more", more) % {
            "listed": listed, "more": more}
    return ngettext(
        "%(count)s character that cannot be stored was taken out (%(listed)s): check the text and send it again.",
        "%(count)s characters that cannot be stored were taken out (%(listed)s): check the text and send it again.",
        len(found),
    ) % {"count": len(found), "listed": listed}


class TextRefused(Refused):
    """Form text holding characters no page may store; nothing was written.

    `field` is the first field that held them and `message` says which characters at which
    positions were taken out (and which other fields lost some); `messages` and
    `form_errors()` have one message per field, for a form that shows each by its own field.
    """

    def __init__(self, typed: dict[str, str]) -> None:
        self.messages = {field: words_for(value) for field, value in typed.items()}
        field, *others = self.messages
        message = self.messages[field]
        if others:
            message = gettext("%(message)s Also taken out of: %(fields)s.") % {
                "message": message, "fields": ", ".join(name.replace("_", " ") for name in others)}
        super().__init__(message, field=field)
        self.offending = typed
        self.problem = text_problem(typed[field]) or ""
        #: Set once a view has raised or read the refusal (see `shows_text_refusals`).
        self.shown = False

    def form_errors(self, default_field: str) -> dict[str, list[str]]:
        """Each field's own message under that field."""
        return {field: [message] for field, message in self.messages.items()}


def refused_page(field: str, problem: str) -> HttpResponse:
    """The answer of a page that cannot show the refusal next to the field: 400, in words."""
    said = gettext("%(field)s: %(problem)s. Go back, correct the field and send it again.") % {
        "field": field, "problem": core_refusal(problem)}
    return HttpResponseBadRequest(f"<!doctype html><title>{escape(gettext('Refused'))}</title><p>{escape(said)}</p>")


def _cleaned(source: QueryDict, typed: dict[str, str]) -> QueryDict | None:
    """A copy of `source` without refused characters (None when a field's name holds one);
    the first refused value of each field goes into `typed`."""
    cleaned = QueryDict(mutable=True)
    for field, values in source.lists():
        if text_problem(field):
            return None
        for value in values:
            if text_problem(value) and field not in typed:
                typed[field] = value
        cleaned.setlist(field, [without_refused(value) for value in values])
    cleaned._mutable = False
    return cleaned


def take_out(request: HttpRequest, *, form_body: bool) -> bool:
    """Take the refused characters out of the request's query (and form body) and attach the
    refusal; False, changing nothing, when a field's name holds one (no field to show it by)."""
    typed: dict[str, str] = {}
    query = _cleaned(request.GET, typed)
    body = _cleaned(request.POST, typed) if form_body else request.POST
    if query is None or body is None or not typed:
        return False
    request.GET, request.POST = query, body
    request.text_refusal = TextRefused(typed)  # type: ignore[attr-defined]
    return True


def text_refusal(request: HttpRequest, *, field: str | None = None) -> TextRefused | None:
    """The refusal attached to `request`, now counted as shown; None when its text is fine
    (or, given `field`, when the refusal is about another field: a search box shows only its own)."""
    refusal: TextRefused | None = getattr(request, "text_refusal", None)
    if refusal is None or (field is not None and refusal.field != field):
        return None
    refusal.shown = True
    return refusal


def refuse_unsafe_text(request: HttpRequest) -> None:
    """Raise the attached `TextRefused`, if any: call it where the view handles refusals,
    before it changes anything."""
    refusal = text_refusal(request)
    if refusal is not None:
        raise refusal


def shows_text_refusals(view: View) -> View:
    """Mark a page view that shows text refusals next to the field (see the module's doc).

    When the view answers without having raised or read the refusal, whatever it wrote is
    rolled back and the answer is the plain 400 of an unmarked page.
    """

    @wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal: TextRefused | None = getattr(request, "text_refusal", None)
        if refusal is None:
            return view(request, *args, **kwargs)
        with transaction.atomic():
            try:
                response = view(request, *args, **kwargs)
            except TextRefused:
                refusal.shown = False
            if refusal.shown:
                return response
            transaction.set_rollback(True)
        return refused_page(str(refusal.field), refusal.problem)

    setattr(guarded, MARK, True)
    return guarded


class TextRefusalFormMixin(forms.Form):
    """A Django form of a marked view: each field that held refused characters gets its
    message, and the form's own checks (a sign-in, say) do not run. Needs `self.request`."""

    def clean(self) -> dict[str, Any] | None:
        request = getattr(self, "request", None)
        refusal = text_refusal(request) if request is not None else None
        if refusal is None:
            return super().clean()
        for field, message in refusal.messages.items():
            self.add_error(field if field in self.fields else None, message)
        return self.cleaned_data
