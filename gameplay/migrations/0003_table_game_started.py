"""Mark the tables whose game record has begun, so the seating keeps them frozen."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def mark_started(apps, schema_editor):
    Table = apps.get_model("tournament", "Table")
    Game = apps.get_model("gameplay", "Game")
    started = Game.objects.filter(table=OuterRef("pk")).values("created_at")[:1]
    Table.objects.filter(game__isnull=False, game_started_at=None).update(game_started_at=Subquery(started))


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0002_event_log_append_only"),
        ("tournament", "0004_table_freeze_and_disqualified"),
    ]

    operations = [migrations.RunPython(mark_started, migrations.RunPython.noop)]
