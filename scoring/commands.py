"""Filing a game report: one service for the table's report page and `POST /api/tables/{id}/report/`.

`file_report(table, report, actor=..., key=...)` files the report at most once per (actor, table,
key) — one idempotency scope for both doors, the key stored in the filing's transaction — and
returns `Filed` (the API's JSON of the filed report, and whether it is the stored answer of an
earlier send). Every refusal is a `dune.refusals.Refusal`: scoring's own (the report's row,
field and rule; 409 already filed and locked), or `Refused` (403 not this table's judge or
a head judge; 400/422 the `Idempotency-Key`). `reopen_report(report, data, ...)` reopens a
filed report for correction (a head judge, with a reason), at most once per key, for the
report page's form and `POST /api/tables/{id}/report/reopen/` alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dune.points.base import ENDED_BY
from dune.points.report import DECIMAL_FIELDS, INT_FIELDS
from foundation import idempotency
from foundation.commands import Field, Refused, declared, read_fields, run, text_field, yes
from scoring import confirmations, presenters, services
from tournament.models import Table

__all__ = ["Filed", "REPORT_FIELDS", "file_report", "reopen_report", "confirm_result", "CONFIRM_FIELDS", "SELF_REPORT_FIELDS", "self_report", "SCOPE"]

#: What a report row's decimal numbers hold.
REPORT_NUMBER_HELP = {
    "tokens": gettext_lazy("WBC weighted tokens (halves)"),
    "pp": gettext_lazy("performance points before normalisation"),
}

#: The idempotency scope of a table's report filings (`table:<id>:report`), one for both doors.
SCOPE = "report"


@dataclass(frozen=True)
class Filed(idempotency.Answer):
    """A filed report's answer (the API's JSON); `replayed` when it is an earlier send's."""


#: The one declaration of a game report's body, in the names the pure core reads it by
#: (`dune.points.report`, which refuses a malformed report citing the rule): the API's body
#: and its schema, and the form's starting values.
REPORT_FIELDS = declared(
    Field("turns", kind="number", required=True, low=1),
    Field("ended_by", required=True, max_length=20, choices=ENDED_BY),
    Field("results", kind="rows", required=True, rows=(
        Field("player", kind="number", required=True),
        Field("result", required=True, max_length=40,
              help=gettext_lazy("a result kind id, e.g. solo_stronghold, loss")),
        *(Field(name, kind="number") for name in INT_FIELDS),
        *(Field(name, kind="decimal", help=REPORT_NUMBER_HELP.get(name, "")) for name in DECIMAL_FIELDS),
    )),
    Field("predicted", kind="number", nullable=True, help=gettext_lazy("the player a BG prediction named")),
    Field("alliances", kind="value", help=gettext_lazy("the allied players' ids, one list per alliance")),
)


def file_report(
    table: Any, report: Any, *, actor: Any, key: str | None, clock_ran_out: bool | None = None
) -> Filed:
    """File `report` for `table` (loaded with its round and tournament), at most once per key.

    `clock_ran_out`: the table's clock as the door read it (`clocks.services.ran_out`).

    Raises scoring's refusals (ReportRejected, ReportLocked...) and Refused.
    """

    def perform() -> tuple[int, dict[str, Any]]:
        try:
            filed = services.file_report(table, report, user=actor, clock_ran_out=clock_ran_out)
        except PermissionDenied as denied:
            raise Refused(str(denied), status=403) from None
        return 201, presenters.report_json(filed)

    answer = run(actor=actor, scope=idempotency.scope_for(table.pk, SCOPE), key=key, body=report, perform=perform)
    return Filed(body=answer.body, replayed=answer.replayed, status=answer.status, text=answer.text)


#: The one declaration of a reopening's body: the reason goes in the report's history (scoring
#: refuses a reopening without one, in its own words).
REOPEN_FIELDS = declared(
    Field("reason", required=True, max_length=10_000, help=gettext_lazy("why the filed report is reopened"),
          reader=lambda data, field: text_field(data, field.name, max_length=field.max_length)),
)


def reopen_report(report: Any, data: Any, *, actor: Any, key: str | None) -> idempotency.Answer:
    """Unlock `report` (filed, with its table and tournament) for correction, with the request's
    `reason`, at most once per (actor, table, key): a retry answers the first answer, not
    "already reopened". 200, the report's JSON.

    Raises Refused (403 not a head judge; 400 the reason not text; 400/422 the key) and
    scoring's ReportRefused (no reason, not locked)."""
    if not isinstance(data, Mapping):
        raise Refused(_("expected a JSON object with a reason, not %(name)s") % {"name": type(data).__name__}, field="reason")
    reason = read_fields(REOPEN_FIELDS, data)["reason"]

    def perform() -> tuple[int, dict[str, Any]]:
        try:
            reopened = services.reopen_report(report, user=actor, reason=reason)
        except PermissionDenied as denied:
            raise Refused(str(denied), status=403) from None
        return 200, presenters.report_json(reopened)

    scope = idempotency.scope_for(report.table_id, "reopen")
    return run(actor=actor, scope=scope, key=key, body={"reason": reason}, perform=perform)


def _table_id(data: Mapping[str, Any]) -> int:
    """The `table` a player's write names, by its id (a form's digits or JSON's number)."""
    table_id = data.get("table")
    if isinstance(table_id, str) and table_id.strip().isdigit():
        table_id = int(table_id)
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        raise Refused(_("name the table by its id"), field="table", offending=table_id)
    return table_id


def _table_of(player: Any, table_id: int) -> Table:
    """The table `table_id` of the player's tournament. Raises Refused (field "table") for another."""
    table = Table.objects.select_related("round__tournament").filter(
        pk=table_id, round__tournament_id=player.tournament_id
    ).first()
    if table is None:
        raise Refused(_("no table %(id)s in this tournament") % {"id": table_id}, field="table", offending=table_id)
    return table


def _read_table(data: Mapping[str, Any], field: Field) -> int:
    return _table_id(data)


def _read_agree(data: Mapping[str, Any], field: Field) -> bool:
    if field.name not in data:
        raise Refused(_("say whether you agree with the filed result (agree: true or false)"), field=field.name)
    return yes(data.get(field.name))


#: The one declaration of a player's word on a filed result: the player's page's form, the
#: API's body and its schema.
CONFIRM_FIELDS = declared(
    Field("table", kind="number", required=True, reader=_read_table,
          help=gettext_lazy("the id of the table whose filed result you confirm or dispute")),
    Field("agree", kind="flag", required=True, reader=_read_agree,
          help=gettext_lazy("true: the result is right; false: you dispute it")),
    Field("reason", max_length=confirmations.MAX_REASON,
          help=gettext_lazy("why you dispute it (required when agree is false)")),
)


def confirm_result(player: Any, data: Any, *, actor: Any, key: str | None) -> idempotency.Answer:
    """The player (found by their private link) confirms (`agree` true) or disputes (`agree`
    false, with a `reason`) the filed report of `table` (the table's id), at most once per key.
    200, their word; refusals name the field (`scoring.confirmations.confirm`)."""
    if not isinstance(data, Mapping):
        raise Refused(_("expected a JSON object with table, agree and reason"), field="table")
    sent = read_fields(CONFIRM_FIELDS, data)
    table_id, agree, reason = sent["table"], sent["agree"], sent["reason"]
    table = _table_of(player, table_id)

    def perform() -> tuple[int, dict[str, Any]]:
        word = confirmations.confirm(player, table, agree=agree, reason=reason)
        return 200, {
            "table": table.pk, "number": table.number, "round": table.round_id, "player": player.pk,
            "agree": word.agree, "reason": word.reason, "version": word.version,
        }

    scope = idempotency.scope_for(player.pk, "confirmations", kind="player")
    return run(actor=actor, scope=scope, key=key, body={"table": table_id, "agree": agree, "reason": reason},
               perform=perform)


def _read_report(data: Mapping[str, Any], field: Field) -> Mapping[str, Any]:
    report = data.get(field.name)
    if not isinstance(report, Mapping):
        raise Refused(_("the report is an object: turns, ended_by and each player's result"), field=field.name)
    return report


#: The one declaration of a player's own report: their table and the game report.
SELF_REPORT_FIELDS = declared(
    Field("table", kind="number", required=True, reader=_read_table,
          help=gettext_lazy("the id of your table (one without a judge)")),
    Field("report", kind="object", required=True, reader=_read_report,
          help=gettext_lazy("the game report: turns, ended_by and results (player, result)")),
)


def self_report(player: Any, data: Any, *, actor: Any, key: str | None) -> idempotency.Answer:
    """The player (found by their private link) files the report of their table without a judge
    (`table`, the table's id, and `report`, the game report), where the format lets players
    report; filing it is their confirmation, the others confirm or dispute it. 201, the report.
    Refusals name the field or the rule (`services.file_own_report`)."""
    if not isinstance(data, Mapping):
        raise Refused(_("expected a JSON object with table and report"), field="table")
    sent = read_fields(SELF_REPORT_FIELDS, data)
    table_id, report = sent["table"], sent["report"]
    table = _table_of(player, table_id)

    def perform() -> tuple[int, dict[str, Any]]:
        with transaction.atomic():  # a player on their private link is anonymous: the frame opens none
            filed = services.file_own_report(player, table, dict(report))
            confirmations.confirm(player, table, agree=True, reason="")
        return 201, presenters.report_json(filed)

    return run(actor=actor, scope=idempotency.scope_for(player.pk, "self-report", kind="player"), key=key,
               body={"table": table_id, "report": report}, perform=perform)
