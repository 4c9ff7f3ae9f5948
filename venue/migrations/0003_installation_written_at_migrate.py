"""The installation's identity is written when the database is made, so that no request has
to write it on its first cache use (a request that only reads then stays a read)."""

import uuid

from django.db import migrations


def write_identity(apps, schema_editor):
    Installation = apps.get_model("venue", "Installation")
    if not Installation.objects.exists():
        Installation.objects.create(id=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [("venue", "0002_installation_and_imports")]

    operations = [migrations.RunPython(write_identity, migrations.RunPython.noop)]
