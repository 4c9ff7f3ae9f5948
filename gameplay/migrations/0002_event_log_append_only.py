"""The database itself refuses to rewrite a recorded game event (PostgreSQL trigger).

Corrections are new `void` events (DESIGN.md principle 2); an UPDATE of the log is a bug or
tampering either way. Deleting a whole game with its table stays possible.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION gameplay_gameevent_refuse_update() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'game event #% is append-only; record a void event instead', OLD.seq;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER gameplay_gameevent_append_only
    BEFORE UPDATE ON gameplay_gameevent
    FOR EACH ROW EXECUTE FUNCTION gameplay_gameevent_refuse_update();
"""
DROP = """
DROP TRIGGER IF EXISTS gameplay_gameevent_append_only ON gameplay_gameevent;
DROP FUNCTION IF EXISTS gameplay_gameevent_refuse_update();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("gameplay", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
