# The idempotency record now belongs to `foundation` (its table stays where it is).

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("gameplay", "0007_stored_games_state_their_edition"),
        ("foundation", "0001_idempotency_record_moved"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyRecord")],
            database_operations=[],
        ),
    ]
