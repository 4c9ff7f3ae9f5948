"""Mark the tables whose report is filed and the players a dropout disqualifies, so the
seating reads both from its own tables."""

from django.db import migrations
from django.db.models import OuterRef, Subquery

from dune.formats import get_format


def mark_filed(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Player = apps.get_model("tournament", "Player")
    Tournament = apps.get_model("tournament", "Tournament")
    GameReport = apps.get_model("scoring", "GameReport")
    ReportEntry = apps.get_model("scoring", "ReportEntry")
    filed = GameReport.objects.filter(table=OuterRef("pk"), state="filed").values("filed_at")[:1]
    Table.objects.filter(report__state="filed").update(report_filed_at=Subquery(filed))
    for tournament in Tournament.objects.all():
        if not get_format(tournament.format).points.dropout_disqualifies:
            continue
        barred = ReportEntry.objects.filter(
            tournament=tournament, result="dropout", report__state="filed"
        ).values_list("player_id", flat=True)
        Player.objects.filter(pk__in=list(barred)).update(disqualified=True)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_initial"),
        ("tournament", "0004_table_freeze_and_disqualified"),
    ]

    operations = [migrations.RunPython(mark_filed, migrations.RunPython.noop)]
