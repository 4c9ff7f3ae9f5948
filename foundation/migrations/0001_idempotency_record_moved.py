# The idempotency record moves from the table games app to the layer under every app; its
# table, columns and constraint stay as they are (only Django's record of the model moves).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("gameplay", "0007_stored_games_state_their_edition"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("scope", models.CharField(max_length=80)),
                        ("key", models.CharField(max_length=200)),
                        ("request_hash", models.CharField(max_length=64)),
                        ("status", models.PositiveSmallIntegerField()),
                        ("response", models.JSONField()),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "gameplay_idempotencyrecord",
                        "constraints": [models.UniqueConstraint(models.F("user"), models.F("scope"), models.F("key"), name="idempotency_key_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
