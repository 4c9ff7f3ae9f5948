import datetime

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_seat_faction_labels"),
    ]

    operations = [
        # A start time stored before the window existed may be one no page can read back
        # (year 0, past 9999): forget it, so the round's pages open again and the head judge
        # can schedule it anew.
        migrations.RunSQL(
            "UPDATE tournament_round SET starts_at = NULL"
            " WHERE starts_at < '1990-01-01' OR starts_at >= '2101-01-01'",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("starts_at__isnull", True),
                    models.Q(
                        ("starts_at__gte", datetime.datetime(1990, 1, 1, 0, 0, tzinfo=datetime.UTC)),
                        ("starts_at__lt", datetime.datetime(2101, 1, 1, 0, 0, tzinfo=datetime.UTC)),
                    ),
                    _connector="OR",
                ),
                name="round_starts_at_in_window",
            ),
        ),
    ]
