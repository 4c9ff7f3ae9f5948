"""The database refuses to delete or truncate recorded game events (PostgreSQL triggers).

0002 refuses UPDATE. DELETE and TRUNCATE are refused the same way for every role that does
not own the table: the app's own database role must never own it (README, "Deployment"), so
the app, or anyone holding its password, cannot erase the log nor disable these triggers.
The owner (migrations, an operator's maintenance) may still remove a whole tournament.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION gameplay_gameevent_refuse_removal() RETURNS trigger AS $$
BEGIN
    IF pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE') THEN
        IF TG_LEVEL = 'ROW' THEN
            RETURN OLD;
        END IF;
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'the game event log is append-only: % refused; record a void event instead', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER gameplay_gameevent_no_delete
    BEFORE DELETE ON gameplay_gameevent
    FOR EACH ROW EXECUTE FUNCTION gameplay_gameevent_refuse_removal();
CREATE TRIGGER gameplay_gameevent_no_truncate
    BEFORE TRUNCATE ON gameplay_gameevent
    FOR EACH STATEMENT EXECUTE FUNCTION gameplay_gameevent_refuse_removal();
"""
DROP = """
DROP TRIGGER IF EXISTS gameplay_gameevent_no_truncate ON gameplay_gameevent;
DROP TRIGGER IF EXISTS gameplay_gameevent_no_delete ON gameplay_gameevent;
DROP FUNCTION IF EXISTS gameplay_gameevent_refuse_removal();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("gameplay", "0003_table_game_started")]

    operations = [migrations.RunPython(forwards, backwards)]
