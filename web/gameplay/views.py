"""The table judge's pages: the game at a glance with its quick actions, the history, the report.

Every action is a plain server-rendered form (works without JavaScript) that carries the
sequence number it was made against. A refused form is shown again with the engine's rule
next to the field; a stale one (the game moved on) shows what changed and records nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from clocks import services as clock_services
from clocks.presenters import table_states
from dune import turn_flow
from dune.engine.codec.schema import SnapshotView
from dune.engine.errors import RuleViolation
from dune.engine.results import ENDED_BY
from dune.refusals import Refusal
from dune.text_rules import whole_number
from foundation import idempotency
from foundation.core_words import core_refusal
from gameplay import commands, presenters, services
from gameplay.models import Game
from scoring import commands as report_commands
from scoring import corrections
from scoring import services as scoring
from tournament.models import Round, Table, Tournament
from tournament.permissions import can_judge_table, is_head_judge, judged_tables_q
from web.gameplay import actions
from web.gameplay.page import OFFLINE_CACHE, page_context
from web.gameplay.page_forms import preview_battle
from web.page_text import refuse_unsafe_text, shows_text_refusals
from web.templatetags.table_tags import label


def _field_of(refusal: Refusal, form: Any) -> str:
    """The form field a refusal is about, when it names one the form has (its `field`, or an
    engine schema message's `field '...'`); blank when the refusal is about the whole form."""
    if refusal.field and refusal.field in form:
        return refusal.field
    message = refusal.message
    if message.startswith("field '"):
        name = message.split("'")[1].split(".")[0].split("[")[0]
        if name in form:
            return name
    return ""


def page_refusal(refusal: Refusal, *, action: str, form: Any) -> dict[str, Any]:
    """A refused command as the page shows it: `{"error": ...}` next to the form's field
    (rule and message as the API answers them), or `{"stale": ...}` with what changed."""
    if isinstance(refusal, commands.Stale):
        voided = services.voided_seqs(refusal.changes)
        game = refusal.changes[0].game if refusal.changes else None
        return {"stale": {
            "expected_seq": refusal.expected_seq,
            "current_seq": refusal.current_seq,
            "changes": presenters.events_json(refusal.changes, game=game, judge=True, voided=voided) if game else [],
            "action": action,
        }}
    field = refusal.field if isinstance(refusal, actions.ActionError) else _field_of(refusal, form)
    # The engine's refusals are English in dune/: the page reads them in the reader's language.
    message = core_refusal(refusal.message)
    return {"error": {"action": action, "field": field, "message": message, "rule": refusal.rule or None}}


#: Form fields that are not part of what the judge asked for.
_NOT_ASKED = ("csrfmiddlewaretoken", "idempotency_key")


def _answer(request: HttpRequest, table: Any) -> tuple[commands.EventCommand, commands.Recorded]:
    """The posted action through the one command service (`commands.record`): text no page
    stores is refused first (nothing recorded, no key looked up), then the form becomes its
    command's one typed input (`actions.command_of`: the engine event, its sequence number,
    what comes next), recorded at most once per key (the form's hidden key, or the outbox's
    `Idempotency-Key` header); the command answers who may. Raises Refusal (every refusal of
    the command, Stale and NotJudge included)."""
    refuse_unsafe_text(request)
    command = actions.command_of(request.POST)
    key = request.headers.get(idempotency.HEADER) or request.POST.get("idempotency_key")
    return command, commands.record(table, command, actor=request.user, key=key)


#: Every kind of record (dune.engine.events.EVENT_TYPES), as the line after a record names it:
#: the kind's id in words; names of the game (Duke Vidal, Family Atomics, No-Field) as they are.
RECORD_KINDS = {
    "action_ended": pgettext_lazy("a record's kind", "action ended"),
    "adjudication_confirmed": pgettext_lazy("a record's kind", "adjudication confirmed"),
    "alliance_broken": pgettext_lazy("a record's kind", "alliance broken"),
    "alliance_formed": pgettext_lazy("a record's kind", "alliance formed"),
    "ambassador_placed": pgettext_lazy("a record's kind", "ambassador placed"),
    "ambassador_removed": pgettext_lazy("a record's kind", "ambassador removed"),
    "ambassador_supply_set": pgettext_lazy("a record's kind", "ambassador supply set"),
    "ambassadors_drawn": pgettext_lazy("a record's kind", "ambassadors drawn"),
    "battle": pgettext_lazy("a record's kind", "battle"),
    "bg_prediction_made": pgettext_lazy("a record's kind", "bg prediction made"),
    "bg_prediction_revealed": pgettext_lazy("a record's kind", "Bene Gesserit prediction revealed"),
    "board_spice_set": pgettext_lazy("a record's kind", "board spice set"),
    "card_bought": pgettext_lazy("a record's kind", "card bought"),
    "cards_set": pgettext_lazy("a record's kind", "cards set"),
    "charity_collected": pgettext_lazy("a record's kind", "charity collected"),
    "coexistence_declared": pgettext_lazy("a record's kind", "coexistence declared"),
    "concession": pgettext_lazy("a record's kind", "concession"),
    "default_action": pgettext_lazy("a record's kind", "default action"),
    "die_rolled": pgettext_lazy("a record's kind", "die rolled"),
    "diplomacy_chip_used": pgettext_lazy("a record's kind", "diplomacy chip used"),
    "dropout": pgettext_lazy("a record's kind", "dropout"),
    "duke_vidal": pgettext_lazy("a record's kind", "Duke Vidal"),
    "family_atomics": pgettext_lazy("a record's kind", "Family Atomics"),
    "forces_flipped": pgettext_lazy("a record's kind", "forces flipped"),
    "forces_moved": pgettext_lazy("a record's kind", "forces moved"),
    "forces_placed": pgettext_lazy("a record's kind", "forces placed"),
    "forces_removed": pgettext_lazy("a record's kind", "forces removed"),
    "forces_revived": pgettext_lazy("a record's kind", "forces revived"),
    "game_ended": pgettext_lazy("a record's kind", "game ended"),
    "game_setup": pgettext_lazy("a record's kind", "game setup"),
    "hms_moved": pgettext_lazy("a record's kind", "HMS moved"),
    "inflation_placed": pgettext_lazy("a record's kind", "inflation placed"),
    "insert": pgettext_lazy("a record's kind", "insert"),
    "last_turn_ended": pgettext_lazy("a record's kind", "last turn ended"),
    "leader_changed": pgettext_lazy("a record's kind", "leader changed"),
    "loss_corrected": pgettext_lazy("a record's kind", "loss corrected"),
    "no_field_placed": pgettext_lazy("a record's kind", "No-Field placed"),
    "no_field_revealed": pgettext_lazy("a record's kind", "No-Field revealed"),
    "order_card_played": pgettext_lazy("a record's kind", "order card played"),
    "phase_advanced": pgettext_lazy("a record's kind", "phase advanced"),
    "quick_record": pgettext_lazy("a record's kind", "quick record"),
    "spice_blow": pgettext_lazy("a record's kind", "spice blow"),
    "spice_changed": pgettext_lazy("a record's kind", "spice changed"),
    "spice_collected": pgettext_lazy("a record's kind", "spice collected"),
    "spice_harvested": pgettext_lazy("a record's kind", "spice harvested"),
    "spice_in_front": pgettext_lazy("a record's kind", "spice in front"),
    "spice_set": pgettext_lazy("a record's kind", "spice set"),
    "storm_moved": pgettext_lazy("a record's kind", "storm moved"),
    "storm_placed": pgettext_lazy("a record's kind", "storm placed"),
    "terror_placed": pgettext_lazy("a record's kind", "Terror token placed"),
    "terror_revealed": pgettext_lazy("a record's kind", "Terror token revealed"),
    "time_up": pgettext_lazy("a record's kind", "time up"),
    "turn_advanced": pgettext_lazy("a record's kind", "turn advanced"),
    "victory_claimed": pgettext_lazy("a record's kind", "victory claimed"),
    "void": pgettext_lazy("a record's kind", "void"),
    "win_attempt_confirmed": pgettext_lazy("a record's kind", "win attempt confirmed"),
    "worm": pgettext_lazy("a record's kind", "worm"),
}

def _record_kind_words(kind: str) -> str:
    known = RECORD_KINDS.get(kind)
    return str(known) if known is not None else kind.replace("_", " ")


def _notice(recorded: commands.Recorded, *, then_turn: bool) -> str:
    """The one line saying what was recorded, and the later phase or the next turn a "then"
    button moved on to, in the reader's language (the record's kind and number read from the
    answer's JSON, as the API sends them, so the view does not go back into the command)."""
    recorded_event = recorded.body["event"]
    kind, seq = str(recorded_event["type"]), int(recorded_event["seq"])
    event = recorded_event.get("event") or {}
    if kind == "insert" and isinstance(event.get("event"), dict):
        inserted = {"type": _record_kind_words(str(event["event"].get("type", ""))),
                    "before": event.get("before"), "seq": seq}
        if recorded.replayed:
            return gettext("Already recorded: %(type)s, before record #%(before)s (correction record #%(seq)s).") % inserted
        return gettext("Recorded: %(type)s, before record #%(before)s (correction record #%(seq)s).") % inserted
    what = {"what": _record_kind_words(kind), "seq": seq}
    if recorded.body.get("seq", seq) == seq:
        if recorded.replayed:
            return gettext("Already recorded: %(what)s (record #%(seq)s).") % what
        return gettext("Recorded: %(what)s (record #%(seq)s).") % what
    after = SnapshotView.of(recorded.body.get("position"))
    then = (
        gettext("turn %(turn)s") % {"turn": after.turn}
        if then_turn
        else turn_flow.phase_label(str(after.phase or ""), translation)
    )
    what |= {"then": then, "then_seq": recorded.body["seq"]}
    if recorded.replayed:
        return gettext("Already recorded: %(what)s (record #%(seq)s), then %(then)s (record #%(then_seq)s).") % what
    return gettext("Recorded: %(what)s (record #%(seq)s), then %(then)s (record #%(then_seq)s).") % what


def load_table(pk: int) -> Table:
    """The table with its round and tournament (one query). Raises Http404."""
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


def published_game(table: Table) -> Game:
    """The table's game; refused while the round's seating is not published (it may change).

    Raises ValidationError.
    """
    if table.round.state == Round.State.PLANNED:
        raise ValidationError({"table": _("the seating of this round is not published yet")})
    return services.read_game(table)


def _published_or_page(request: HttpRequest, table: Table) -> Any:
    """The table's game, or (while its round's seating is not published) the page saying so."""
    try:
        return published_game(table)
    except ValidationError as exc:
        context = {"table": table, "problem": " ".join(exc.messages)}
        return render(request, "gameplay/not_ready.html", context, status=409)


@shows_text_refusals
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table judge's page. One view serves the whole page and, for an htmx request, only
    the live part (`gameplay/_table_live.html`, the same template the page includes).

    A posted action is recorded at most once per idempotency key (the form's hidden key, or
    the outbox's `Idempotency-Key` header). Without JavaScript a recorded action redirects
    back to the page (POST/redirect/GET, so a reload never sends it again); an htmx request
    gets the updated live part at once. A refusal is shown with the form's input kept.
    """
    table = load_table(pk)
    error: dict[str, Any] | None = None
    stale: dict[str, Any] | None = None
    values: dict[str, Any] | None = None
    notice = ""
    asked: dict[str, list[str]] = {}
    status = 200
    record = ""  # `X-Record`: the record number an outbox reads as "recorded" (static/js/outbox.js)
    game: Any = None  # a post goes straight to its command, which reads the game itself
    if request.method == "POST" and table.round.state != Round.State.PLANNED:
        asked = {k: request.POST.getlist(k) for k in sorted(request.POST) if k not in _NOT_ASKED}
        if request.POST.get("action") == "battle" and request.POST.get("preview"):
            return _battle_preview(request, table, asked)
        try:
            command, recorded = _answer(request, table)
        except Refusal as refusal:
            game = _judged_game(request, table, refusal)
            if isinstance(game, HttpResponse):
                return game
            shown = page_refusal(refusal, action=request.POST.get("action", ""), form=request.POST)
            error, stale, status = shown.get("error"), shown.get("stale"), refusal.status
            values = {k: v if len(v) > 1 else v[0] for k, v in asked.items()}
            if error and isinstance(refusal, RuleViolation) and error["action"] not in ("void", "insert"):
                _offer_insertion(error, table, request, asked)
        else:
            notice = _notice(recorded, then_turn=command.then_turn)
            record = str(recorded.body["event"]["seq"])
            if not request.htmx:
                messages.success(request, notice)
                return redirect("gameplay-table", pk=table.pk)
    if game is None:
        game = _published_or_page(request, table)
        if isinstance(game, HttpResponse):
            return game
    context = page_context(
        request, table, game, error=error, stale=stale, values=values, filed=scoring.filed_report(table)
    )
    context["notice"] = notice
    context["picked"] = asked if (error or stale) else {}  # every value of a refused form's checkboxes
    context["page_key"] = uuid.uuid4()
    if request.htmx:
        response = render(request, "gameplay/_table_live.html", context, status=status)
        response["Vary"] = "HX-Request, X-Table-Parts"  # an in-place answer leaves out the parts shown
        if record:
            response["X-Record"] = record
        _keep_csrf_cookie(request)
        return response
    response = render(request, "gameplay/table.html", context, status=status)
    response["Vary"] = "HX-Request"
    return response


def _judged_game(request: HttpRequest, table: Table, refusal: Refusal) -> Any:
    """The game a refused post is shown with, asked in the order the page answers: a game its
    seating cannot start is the page saying so (`_published_or_page`), then a person who may
    not record it is refused (403, whatever else the post got wrong), then the refusal is
    shown. A post goes straight to its command, which reads the game and answers who may."""
    game = _published_or_page(request, table)
    if isinstance(game, HttpResponse):
        return game
    if isinstance(refusal, commands.NotJudge) or not can_judge_table(request.user, table):
        raise PermissionDenied(_("Only this table's judge or a head judge may record its game."))
    return game


def _offer_insertion(error: dict[str, Any], table: Any, request: HttpRequest, asked: dict[str, list[str]]) -> None:
    """An action refused at the end of the log: where in the log it would hold, for the
    refusal's "Record it before #N" and the form fields it sends again."""
    error["insert_before"] = services.insertion_point(table, actions.build(error["action"], request.POST))
    error["fields"] = [(k, v) for k, vs in asked.items() for v in vs if k not in ("action", "expected_seq", "then")]
    error["event_type"] = actions.ACTION_EVENTS.get(error["action"], "")


def _keep_csrf_cookie(request: HttpRequest) -> None:
    """An in-place answer does not send the CSRF cookie again when the phone sent the very one
    it would set (it only renews its expiry, which the page's own load does): a tap's answer
    on slow Wi-Fi stays small. A missing or rotated cookie is still set."""
    if request.COOKIES.get(settings.CSRF_COOKIE_NAME) == request.META.get("CSRF_COOKIE"):
        request.META["CSRF_COOKIE_NEEDS_UPDATE"] = False


def _battle_preview(request: HttpRequest, table: Table, asked: dict[str, list[str]]) -> HttpResponse:
    """The battle form answered with the engine's resolution of it (nothing recorded): the
    judge reads who wins and what each side loses, then records the battle as shown."""
    game = _published_or_page(request, table)
    if isinstance(game, HttpResponse):
        return game
    if not can_judge_table(request.user, table):
        raise PermissionDenied(_("Only this table's judge or a head judge may record its game."))
    values = {k: v if len(v) > 1 else v[0] for k, v in asked.items() if k != "preview"}
    error: dict[str, Any] | None = None
    shown: dict[str, Any] | None = None
    status = 200
    try:
        refuse_unsafe_text(request)
        shown = preview_battle(game, request.POST)
    except Refusal as refusal:
        error = page_refusal(refusal, action="battle", form=request.POST).get("error")
        status = refusal.status
    context = page_context(request, table, game, error=error, values=values, filed=scoring.filed_report(table))
    context.update({"notice": "", "picked": {}, "page_key": uuid.uuid4(), "battle_preview": shown})
    template = "gameplay/_table_live.html" if request.htmx else "gameplay/table.html"
    response = render(request, template, context, status=status)
    response["Vary"] = "HX-Request, X-Table-Parts"
    return response


@login_required
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    """The head judge's view of a table's whole log: every event, its author, time and reason."""
    table = load_table(pk)
    if not is_head_judge(request.user, table.round.tournament):
        raise PermissionDenied(_("Only a head judge sees a table's full history."))
    game = _published_or_page(request, table)
    if isinstance(game, HttpResponse):
        return game
    events = services.game_events(game)
    voided = services.voided_seqs(events)
    rows = presenters.events_json(events, game=game, judge=True, voided=voided)
    for row, event in zip(rows, events, strict=True):
        row["at"] = event.created_at  # shown in the tournament's zone
    return render(request, "gameplay/history.html", {"table": table, "game": game, "rows": rows})


def _report_rows(report: dict[str, Any], seats: list[Any], errors: Any = None) -> list[dict[str, Any]]:
    """The report's rows with each player's name and, per number, the refusal of that field."""
    names = {s.player_id: s.player.name for s in seats}
    errors = errors or {}
    return [
        {
            **row,
            "name": names.get(row["player"], row["player"]),
            "errors": {n: " ".join(errors[f"p{row['player']}_{n}"]) for n in REPORT_NUMBERS if f"p{row['player']}_{n}" in errors},
        }
        for row in report.get("results", [])
    ]


REPORT_NUMBERS = ("win_attempts", "strongholds", "forces", "tokens", "spice", "cards", "leaders", "pp", "die")
REPORT_LABELS = tuple((n, corrections.FIELD_WORDS[n]) for n in REPORT_NUMBERS)


def _error_words(errors: Any, seats: list[Any]) -> list[tuple[str, list[str]]]:
    """The report's refusals with each field in words: `p12_spice` -> "Alice: Spice"."""
    names = {f"p{s.player_id}_": s.player.name for s in seats}
    labels = dict(REPORT_LABELS)
    out = []
    for field, msgs in (errors or {}).items():
        words = field.replace("_", " ").capitalize()
        for prefix, name in names.items():
            if field.startswith(prefix):
                key = field[len(prefix):]
                words = f"{name}: {labels.get(key, key.replace('_', ' '))}"
        out.append((words, list(msgs)))
    return out


def _report_from_form(form: Any, draft: dict[str, Any]) -> dict[str, Any]:
    """The judge's edits over the draft: every number and result of every row."""
    results: list[dict[str, Any]] = []
    report: dict[str, Any] = {"turns": draft.get("turns"), "ended_by": form.get("ended_by") or draft.get("ended_by"),
                              "results": results}
    turns = whole_number(form.get("turns", report["turns"]))
    if turns is not None:
        report["turns"] = turns
    for key in ("predicted", "alliances"):
        if key in draft:
            report[key] = draft[key]
    if "predicted" in form:  # the player a Bene Gesserit prediction named (blank: none)
        raw = form.get("predicted", "").strip()
        number = whole_number(raw)
        if raw == "":
            report.pop("predicted", None)
        else:
            # Anything but a seated player's id is refused by scoring, the field named.
            report["predicted"] = raw if number is None else number
    for row in draft["results"]:
        prefix = f"p{row['player']}_"
        out = dict(row)
        out["result"] = form.get(prefix + "result", row["result"])
        for key in REPORT_NUMBERS:
            raw = form.get(prefix + key)
            if raw is None:
                continue
            raw = raw.strip()
            if raw == "":
                out.pop(key, None)
            elif key in ("tokens", "pp"):
                out[key] = raw
            else:
                number = whole_number(raw, signed=True)
                # Anything else is kept as typed: scoring refuses it with the row and field named.
                out[key] = raw if number is None else number
        results.append(out)
    return report


def _form_base(form: Any, draft: corrections.ReportDraft) -> dict[str, Any]:
    """The report a posted form was drawn over (what it leaves out keeps): the filed report
    when the page started from it (`base_version`, the filed version it showed), the game
    record's draft when the page was drawn before the first filing, so that a form sent again
    after its own filing is the very same report (and answers as already filed)."""
    if (whole_number(form.get("base_version", "")) or 0) > 0 or draft.game_record is None:
        return draft.report
    return draft.game_record


def _already_filed(table: Any) -> str:
    """What a repeated filing (a double tap, a resent form) tells the judge: when and by whom."""
    report = scoring.filed_report(table)
    if report is None:
        return _("Filed.")
    when = timezone.localtime(report.filed_at).strftime("%H:%M")
    who = report.filed_by.get_username() if report.filed_by else _("a judge")
    return _("Already filed at %(when)s by %(who)s.") % {"when": when, "who": who}


@shows_text_refusals
def table_report(request: HttpRequest, pk: int) -> HttpResponse:
    """The game report, prefilled from the position; the judge confirms it and it is filed."""
    table = load_table(pk)
    if not can_judge_table(request.user, table):
        raise PermissionDenied(_("Only this table's judge or a head judge may file its report."))
    game = _published_or_page(request, table)
    if isinstance(game, HttpResponse):
        return game
    seats = list(table.seats.select_related("player").order_by("seat"))
    filed = scoring.filed_report(table)
    # Once a report is filed, the form starts from what was filed (a correction changes only
    # what the judge changes), with the game record's differences beside it; before the
    # first filing, from the game record.
    draft = corrections.report_draft(table, report=filed)
    errors: Any = None
    status = 200
    report = draft.report
    if request.method == "POST":
        report = _report_from_form(request.POST, _form_base(request.POST, draft))
        try:
            refuse_unsafe_text(request)  # before the key is looked up: nothing filed, nothing replayed
            if request.POST.get("confirm") != "yes":
                errors, status = {"confirm": [
                    _("tick the confirmation: a filed report is locked and only a head judge can reopen it")
                ]}, 400
            else:
                filed = report_commands.file_report(
                    table, report, actor=request.user, key=request.POST.get("idempotency_key"),
                    clock_ran_out=clock_services.ran_out(table),
                )
                messages.success(request, _("Filed.") if not filed.replayed else _already_filed(table))
                return redirect("gameplay-table", pk=table.pk)
        except Refusal as refusal:  # the report's row and field; a key's refusal above the form
            key_refused = refusal.field == idempotency.HEADER
            errors = {"report": [refusal.message]} if key_refused else refusal.form_errors("report")
            status = refusal.status
    context = _report_context(table, game, report, seats, errors, draft=draft)
    context["confirmed"] = request.method == "POST" and request.POST.get("confirm") == "yes"
    context["head"] = is_head_judge(request.user, table.round.tournament)
    return render(request, "gameplay/report.html", context, status=status)


#: A game conceded to a side is that side's victory (WBC Concessions): scored as the stronghold
#: victory of its size, but no stronghold was held, so the report says how it was won.
_CONCEDED_WORDS = {"solo_stronghold": gettext_lazy("Solo victory by concession"),
                   "allied_stronghold": gettext_lazy("Alliance victory by concession"),
                   "three_alliance": gettext_lazy("Three-faction alliance victory by concession")}


def _kind_words(kinds: list[str], ended_by: Any) -> list[tuple[str, str]]:
    """Each result kind with the words the report's menu shows for it."""
    conceded = _CONCEDED_WORDS if ended_by == "concession" else {}
    return [(k, str(conceded.get(k) or label(k))) for k in kinds]


def _record_beside(draft: corrections.ReportDraft) -> tuple[dict[str, Any], dict[Any, dict[str, Any]]]:
    """The game record's values where they differ from the filed ones: the report's own
    fields, and per player each row's fields (shown beside the filed values)."""
    top: dict[str, Any] = {}
    rows: dict[Any, dict[str, Any]] = {}
    for change in draft.differences:
        if change.player is None:
            top[change.field] = change.after
        else:
            rows.setdefault(change.player, {})[change.field] = change.after
    return top, rows


def _report_context(
    table: Any, game: Any, report: Any, seats: list[Any], errors: Any, *, draft: corrections.ReportDraft
) -> dict[str, Any]:
    """What the report form shows: the starting rows (the filed report's once filed, with the
    game record's differences beside them), the format's results, its turn limit."""
    rules = table.round.tournament.rules
    system = rules.points
    record_top, record_rows = _record_beside(draft)
    rows = _report_rows(report, seats, errors)
    for row in rows:
        row["record"] = record_rows.get(row["player"], {})
    return {
        "table": table,
        "game": game,
        "report": report,
        "draft_source": draft.source,
        # Who a Bene Gesserit prediction may name: every other seated player (AH III.E.1.a).
        "predictable": [r for r in rows if r.get("faction") != "bene_gesserit"],
        "has_bg": any(r.get("faction") == "bene_gesserit" for r in rows),
        "is_final": table.round.kind == Round.Kind.FINAL,
        "record": record_top,
        "rows": rows,
        "errors": errors,
        "error_list": _error_words(errors, seats),
        "filed": scoring.filed_report(table),
        # The results this table's format scores, in its points table's order, in words.
        "kinds": _kind_words([k.value for k in rules.result_kinds], report.get("ended_by")),
        "scoring_text": f"{rules.report_rule}; {system.name}, {system.text}",
        # The most turns a game of this round may last (the ruleset's, for the round's kind).
        "turn_limit": rules.turn_limit(table.round.kind),
        "endings": list(ENDED_BY),
        "numbers": REPORT_LABELS,
        "page_key": uuid.uuid4(),
    }




def service_worker(request: HttpRequest) -> HttpResponse:
    """The table pages' service worker (`/sw.js`): keeps the table page and its assets on the
    phone so the page opens without a connection. Served by a view, not as a static file, so
    that it lists the current (hashed) asset names and may control `/tables/`."""
    response = render(request, "gameplay/sw.js", {"offline_cache": OFFLINE_CACHE}, content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/tables/"
    response["Cache-Control"] = "no-cache"
    return response


def _judged_tables(user: Any) -> list[Any]:
    """The user's tables, current round first: published rounds (newest first), then planned,
    then finished ones."""
    rank = {Round.State.PUBLISHED: 0, Round.State.PLANNED: 1, Round.State.FINISHED: 2}
    tables = list(
        Table.objects.filter(judged_tables_q(user))
        .distinct()
        .select_related("round__tournament")
        .order_by("-round__tournament__created_at", "-round__number", "number")
    )
    return sorted(tables, key=lambda t: rank.get(t.round.state, 3))


@login_required
def my_tables(request: HttpRequest) -> HttpResponse:
    """A table judge's tables, the current round's first: one tap to the table page."""
    tables = _judged_tables(request.user)
    games = {g.table_id: g for g in Game.objects.filter(table__in=tables)}
    states = table_states(list(tables))
    rows = [
        {"table": t, "game": game, "game_view": SnapshotView.of(game.position) if game else None, "state": states[t.pk]}
        for t in tables
        for game in [games.get(t.pk)]
    ]
    return render(request, "gameplay/my_tables.html", {"rows": rows})


def after_sign_in(request: HttpRequest) -> HttpResponse:
    """Where signing in leads when no page asked for it: a head judge to the newest tournament
    they run, a table judge to their tables."""
    if request.user.is_authenticated:
        running = Tournament.objects.filter(head_judges=request.user).order_by("-pk").first()
        if running is not None:
            return redirect("tournament-detail", pk=running.pk)
    if request.user.is_authenticated and Table.objects.filter(judged_tables_q(request.user)).exists():
        return redirect("my-tables")
    return redirect("home")


@login_required
def judge_link(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's personal link (printed as a QR code): sign in first, then the table page."""
    table = load_table(pk)
    return redirect("gameplay-table", pk=table.pk)
