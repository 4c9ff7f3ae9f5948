"""The dashboard's restore report: per table, the record number this server has, the highest
one a phone saw, what phones sent back since the restore, and tables still behind."""

from __future__ import annotations

from typing import Any

from django import template

from gameplay.models import Game, PhoneSeen

register = template.Library()


@register.inclusion_tag("gameplay/_phone_records.html")
def phone_records(tournament: Any) -> dict[str, Any]:
    seen = list(
        PhoneSeen.objects.filter(table__round__tournament=tournament)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    seqs = dict(Game.objects.filter(table__in=[s.table_id for s in seen]).values_list("table_id", "seq"))
    rows = []
    for s in seen:
        has = seqs.get(s.table_id, 0)
        rows.append({
            "table": s.table, "has": has, "seen": s.highest_seq, "backup": s.behind_at_seq,
            "refilled": s.refilled, "behind": max(0, s.highest_seq - has), "at": s.reported_at,
        })
    return {"rows": rows, "behind": sum(1 for r in rows if r["behind"])}
