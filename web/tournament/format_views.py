"""The head judge's format page: the tournament's document field by field, in words, with its
preset's value and rule beside each; change what the event changes until the first round is
seated (refused afterwards, saying why); download the document or upload another.

Every write is a command of `tournament.commands` (change_format, replace_format, reset_format),
the one the API's PATCH calls too; a refusal puts each message next to its field and keeps what
was typed.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from dune.formats import FormatDocumentError, UnknownFormat
from dune.formats.document import FIELDS, dump_json, dump_toml
from dune.refusals import Refusal
from dune.text_rules import whole_number
from foundation.core_words import core_refusal, core_word
from tournament import commands, services
from tournament.models import Tournament
from tournament.permissions import is_head_judge
from web.idempotency_api import form_key
from web.page_helpers import guard as _guard
from web.tournament.format_words import choice_options, difference_rows, field_words, rule_words, value_words

#: The largest document a head judge uploads (a preset is about 6 kB).
MAX_UPLOAD = commands.FormatChanges.DOCUMENT_FIELDS["text"].max_length


def value_at(doc: Any, path: str) -> Any:
    node = doc
    for part in path.split("."):
        node = node[part]
    return node


def _typed(current: Any, text: str) -> Any:
    """What a person typed, as the kind of value the field holds (anything unreadable is passed
    on as typed: the document's check names the field and why)."""
    text = text.strip()
    if isinstance(current, bool):
        return {"yes": True, "no": False}.get(text, text)
    if isinstance(current, list):
        items = [t.strip() for t in text.split(",") if t.strip()]
        if current and isinstance(current[0], int):
            return [whole_number(t) if whole_number(t) is not None else t for t in items]
        return items
    if isinstance(current, int) or isinstance(current, float):
        number = whole_number(text)
        if number is not None:
            return number
        try:
            exact = Decimal(text)
        except InvalidOperation:
            return text
        return float(exact) if exact.is_finite() else text
    return text


def shown_value(value: Any) -> str:
    """A value as the form shows it back."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _posted_changes(request: HttpRequest, doc: Any) -> dict[str, Any]:
    changes = {}
    for spec in FIELDS:
        if spec.path not in request.POST:
            continue
        current = value_at(doc, spec.path)
        typed = _typed(current, request.POST[spec.path])
        if typed != current:
            changes[spec.path] = typed
    return changes


def _groups(tournament: Tournament, errors: dict[str, str], typed: Any) -> list[dict[str, Any]]:
    rules = tournament.rules
    preset = rules.preset.document
    groups: dict[str, list[dict[str, Any]]] = {}
    for spec in FIELDS:
        value = value_at(rules.document, spec.path)
        preset_value = value_at(preset, spec.path)
        groups.setdefault(spec.group, []).append(
            {
                "path": spec.path,
                "id": "f-" + spec.path.replace(".", "-"),
                "words": field_words(spec.path, spec.words),
                "help": core_word(spec.help),
                "rule": rule_words(rules.rule_of(spec.path)),
                "preset": value_words(spec.path, preset_value),
                "changed": value != preset_value,
                "kind": "bool" if isinstance(value, bool) else "choice" if spec.choices else "text",
                "choices": choice_options(spec.path, spec.choices),
                "value": typed.get(spec.path, shown_value(value)),
                "error": errors.get(spec.path, ""),
            }
        )
    return [{"name": core_word(name), "fields": fields} for name, fields in groups.items()]


@require_http_methods(["GET", "POST"])
def format_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's format, field by field; POST `action` = change, upload or reset."""
    tournament = get_object_or_404(Tournament, pk=pk)
    errors: dict[str, str] = {}
    typed: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        if (denied := _guard(request, tournament)) is not None:
            return denied
        action = request.POST.get("action", "change")
        try:
            if action == "upload":
                upload = request.FILES.get("document")
                text = upload.read(MAX_UPLOAD + 1).decode("utf-8", "replace") if upload else request.POST.get("text", "")
                if len(text) > MAX_UPLOAD or not text.strip():
                    raise FormatDocumentError({"document": _("choose a TOML or JSON document of at most %(kb)s kB") % {"kb": MAX_UPLOAD // 1024}})
                done = commands.replace_format(tournament, {"text": text}, actor=request.user, key=form_key(request))
            elif action == "reset":
                preset = {"preset": request.POST.get("preset", tournament.format)}
                done = commands.reset_format(tournament, preset, actor=request.user, key=form_key(request))
            else:
                typed = {spec.path: request.POST[spec.path] for spec in FIELDS if spec.path in request.POST}
                changes = {"format_changes": _posted_changes(request, tournament.rules.document)}
                done = commands.change_format(tournament, changes, actor=request.user, key=form_key(request))
        except FormatDocumentError as refusal:
            errors = {key: core_refusal(problem) for key, problem in refusal.problems.items()}
            status = 400
        except (Refusal, UnknownFormat) as refusal:
            errors = {"general": core_refusal(refusal.message)}
            status = refusal.status
        else:
            messages.success(request, done.message)
            return redirect("tournament-format", pk=tournament.pk)
    rules = tournament.rules
    frozen = services.frozen_because(tournament)
    shown_errors = {k: v for k, v in errors.items() if k in {f.path for f in FIELDS}}
    other = {k: v for k, v in errors.items() if k not in shown_errors}
    return render(
        request,
        "tournament/format.html",
        {
            "tournament": tournament,
            "rules": rules,
            "judge": is_head_judge(request.user, tournament),
            "groups": _groups(tournament, shown_errors, typed),
            "differences": difference_rows(rules.differences()),
            "frozen": frozen,
            "other_errors": other,
        },
        status=status,
    )


def format_download(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """The tournament's document as a TOML or JSON file (next year's event starts from it)."""
    if kind not in ("toml", "json"):
        raise Http404(_("a format document downloads as .toml or .json"))
    tournament = get_object_or_404(Tournament, pk=pk)
    document = dict(tournament.rules.document)
    text, content_type = (dump_json(document), "application/json") if kind == "json" else (dump_toml(document), "application/toml")
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="format-{tournament.pk}-{tournament.format}.{kind}"'
    return response
