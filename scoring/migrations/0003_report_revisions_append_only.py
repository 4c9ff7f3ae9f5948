"""A report's revisions (every filing and reopening) are append-only, like the game event log.

The author's user is protected: deleting a user who wrote rows here is refused (a user is
deactivated instead), since blanking the author out would be a change.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "scoring_reportrevision"
UPDATE_SQL = f"""
CREATE OR REPLACE FUNCTION {TABLE}_refuse_update() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'report revisions are append-only: a row is added, never changed'
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {TABLE}_append_only
    BEFORE UPDATE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION {TABLE}_refuse_update();
"""
# DELETE and TRUNCATE: refused for every role that does not own the table (the app's role never
# does: README, "Deployment"); the owner (migrations, an operator) may still remove a tournament.
REMOVAL_SQL = f"""
CREATE OR REPLACE FUNCTION {TABLE}_refuse_removal() RETURNS trigger AS $$
BEGIN
    IF pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE') THEN
        IF TG_LEVEL = 'ROW' THEN
            RETURN OLD;
        END IF;
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'report revisions are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {TABLE}_no_delete
    BEFORE DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION {TABLE}_refuse_removal();
CREATE TRIGGER {TABLE}_no_truncate
    BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_refuse_removal();
"""
DROP_SQL = f"""
DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE};
DROP TRIGGER IF EXISTS {TABLE}_no_delete ON {TABLE};
DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE};
DROP FUNCTION IF EXISTS {TABLE}_refuse_removal();
DROP FUNCTION IF EXISTS {TABLE}_refuse_update();
"""
REFUSE_REMOVAL = True


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(UPDATE_SQL, params=None)
        if REFUSE_REMOVAL:
            schema_editor.execute(REMOVAL_SQL, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_SQL, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_seating_in_step"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.AlterField(
            model_name="reportrevision",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
    ]
