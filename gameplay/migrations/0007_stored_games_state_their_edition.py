"""Every game stored before the editions existed says which rulings it was played under.

A setup or snapshot that names no `edition` now means the current rulings. Games recorded
before the corrections named none and were played under the first edition: this writes
`edition: 1` into their `game_setup` event and their stored positions, so their logs keep
their meaning. The event log is append-only (0002); this one-off statement of the version
runs as the table's owner inside the migration's transaction, with the update trigger
switched off only for it.
"""

from django.db import migrations

FIRST = 1


def _needs_edition(body: object) -> bool:
    return isinstance(body, dict) and "edition" not in body


def forwards(apps, schema_editor):
    Game = apps.get_model("gameplay", "Game")
    GameEvent = apps.get_model("gameplay", "GameEvent")
    GameSnapshot = apps.get_model("gameplay", "GameSnapshot")
    postgres = schema_editor.connection.vendor == "postgresql"
    setups = [e for e in GameEvent.objects.filter(type="game_setup").only("pk", "body") if _needs_edition(e.body)]
    if setups:
        if postgres:
            schema_editor.execute("ALTER TABLE gameplay_gameevent DISABLE TRIGGER gameplay_gameevent_append_only")
        for event in setups:
            # A queryset update: the model's save() refuses to touch a recorded event.
            GameEvent.objects.filter(pk=event.pk).update(body={**event.body, "edition": FIRST})
        if postgres:
            schema_editor.execute("ALTER TABLE gameplay_gameevent ENABLE TRIGGER gameplay_gameevent_append_only")
    for model in (Game, GameSnapshot):
        for row in model.objects.only("pk", "position"):
            if _needs_edition(row.position) and row.position:
                model.objects.filter(pk=row.pk).update(position={**row.position, "edition": FIRST})


class Migration(migrations.Migration):
    dependencies = [("gameplay", "0006_event_author_kept")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
