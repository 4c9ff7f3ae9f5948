"""A spare paired with the serving laptop (`bin/venue pair CODE`, the code `bin/venue` prints)
restores that laptop's backups as its own: every judge signs in with their own password and keeps
their roles, head judges their staff pages, superusers acting as head judges included. Without
the pairing, the import says in one line how the judges sign in, and one command gives each a
one-time sign-in code. An installation whose key is the public development key seals nothing as
trusted and trusts no seal."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import make_players, make_round, make_tournament, seat_table

pytestmark = pytest.mark.django_db(transaction=True)

SERVING = "serving-laptop-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz-AB"
SPARE = "spare-laptop-secret-key-9876543210-zyxwvutsrqponmlkjihgfedcba-CD"
DEVELOPMENT = "embedded-default-secret-key-change-me-for-any-real-deployment-0123456789"
PASSWORDS = {"head": "the head judge's own password 1", "boss": "the organiser's own password 2",
             "judge1": "table one's own password 3", "judge2": "table two's own password 4"}


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def serving(settings: Any, tmp_path: Path) -> dict[str, Any]:
    """The serving laptop's event: a head judge (staff), a superuser acting as head judge, a
    table judge of the tournament and a judge of one table; its backup, as `bin/venue` writes it."""
    from django.contrib.auth import get_user_model

    from venue import backups

    settings.SECRET_KEY = SERVING
    settings.VAR_DIR = tmp_path / "serving"
    settings.VENUE_BACKUP_DIR = tmp_path / "serving" / "backups"
    users = get_user_model().objects
    head = users.create_user("head", password=PASSWORDS["head"], is_staff=True)
    boss = users.create_superuser("boss", password=PASSWORDS["boss"])
    judge1 = users.create_user("judge1", password=PASSWORDS["judge1"])
    judge2 = users.create_user("judge2", password=PASSWORDS["judge2"])
    tournament = make_tournament(format="wbc", head_judge=head)
    tournament.head_judges.add(boss)
    tournament.table_judges.add(judge1)
    # The head judge and the table judge agreed to judge it (tournament.judges.sign_in_accounts).
    from django.utils import timezone

    from tournament.judge_models import JudgeInvitation

    for user, role in ((head, JudgeInvitation.Role.HEAD_JUDGE), (judge1, JudgeInvitation.Role.TABLE_JUDGE)):
        JudgeInvitation.objects.update_or_create(tournament=tournament, user=user, role=role,
                                                 defaults={"accepted_at": timezone.now()})
    players = make_players(tournament, 6)
    seat_table(make_round(tournament), players, number=1, judge=judge2)
    code = run("pair", "--show").split("bin/venue pair ")[1].strip()
    written = backups.write_backup(tournament)
    return {"tournament": tournament.pk, "code": code, "backup": written.path}


def signs_in(client: Any, username: str, password: str) -> bool:
    """Whether the sign-in page signs `username` in with `password` (then signs out again)."""
    client.post("/accounts/login/", {"username": username, "password": password})
    signed = "_auth_user_id" in client.session
    client.logout()
    return signed


def become_another_laptop(settings: Any, tmp_path: Path, secret: str = SPARE) -> None:
    """An empty installation with a secret key of its own."""
    call_command("flush", interactive=False, verbosity=0)
    cache.clear()
    settings.SECRET_KEY = secret
    settings.VAR_DIR = tmp_path / "spare"


def test_a_paired_spare_restores_every_judge_with_their_own_password_and_roles(
    serving: dict[str, Any], settings: Any, tmp_path: Path, client: Any
) -> None:
    from django.contrib.auth import get_user_model

    from tournament.models import Tournament

    become_another_laptop(settings, tmp_path)
    assert "Paired with the serving laptop" in run("pair", serving["code"])
    said = run("import_tournament", str(serving["backup"]))
    assert "paired with the laptop that sealed the file" in said
    # Every account whose hash the sign-in content carries signs in with its own password; the
    # others (a superuser, a judge who never agreed) are named in one line with the command.
    for name in ("head", "judge1"):
        assert signs_in(client, name, PASSWORDS[name]), name
    told = [line for line in said.splitlines() if "no password here" in line]
    assert len(told) == 1 and "boss" in told[0] and "judge2" in told[0] and "head" not in told[0].split("(")[1]
    users = get_user_model().objects
    tournament = Tournament.objects.get()
    assert set(tournament.head_judges.values_list("username", flat=True)) == {"head", "boss"}
    assert set(tournament.table_judges.values_list("username", flat=True)) == {"judge1"}
    assert tournament.rounds.get().tables.get().judge.username == "judge2"
    assert users.get(username="head").is_staff and not users.get(username="head").is_superuser
    assert users.get(username="boss").is_superuser
    assert not users.get(username="judge1").is_staff


def test_without_the_pairing_one_line_says_how_and_one_command_gives_each_judge_a_code(
    serving: dict[str, Any], settings: Any, tmp_path: Path, client: Any
) -> None:
    from django.contrib.auth import get_user_model

    settings.VENUE_URL = "http://192.0.2.10:8000"
    become_another_laptop(settings, tmp_path)
    said = run("import_tournament", str(serving["backup"]))
    told = [line for line in said.splitlines() if "no password here" in line]
    assert len(told) == 1 and "bin/venue sign_in_codes" in told[0] and "bin/venue pair CODE" in told[0]
    assert not any(signs_in(client, n, p) for n, p in PASSWORDS.items())

    tournament = told[0].split("bin/venue sign_in_codes ")[1].split("`")[0]
    printed = run("sign_in_codes", tournament)
    codes = dict(line.strip().split(": ") for line in printed.splitlines()[1:])
    assert set(codes) == set(PASSWORDS)
    assert signs_in(client, "judge1", codes["judge1"])
    assert not signs_in(client, "judge1", codes["judge1"]), "a code signs in once"
    assert not signs_in(client, "judge2", codes["judge1"]), "a code is its account's only"
    assert get_user_model().objects.get(username="judge2").has_usable_password() is False


def test_a_mistyped_pairing_code_is_refused_and_nothing_kept(serving: dict[str, Any], settings: Any,
                                                            tmp_path: Path) -> None:
    from venue import pairing

    become_another_laptop(settings, tmp_path)
    code = serving["code"]
    wrong = code[:5] + ("A" if code[5] != "A" else "B") + code[6:]
    with pytest.raises(CommandError, match="not the pairing code the serving laptop printed"):
        run("pair", wrong)
    assert pairing.paired_keys(settings.VAR_DIR) == []
    assert pairing.key_of(code.lower().replace("-", " ")) == pairing.key_of(code)


def test_45_4_a_development_key_seals_nothing_as_trusted_and_trusts_no_seal(
    serving: dict[str, Any], settings: Any, tmp_path: Path, client: Any
) -> None:
    """An installation running with the public development key (`make run`): its files carry no
    trusted seal and no sign-in content; it takes no seal, even its own, and says so on import."""
    from django.contrib.auth import get_user_model

    from dune import export_document as document
    from tournament.models import Tournament
    from venue import export

    # The serving laptop's own sealed backup, imported on a laptop running the development key.
    become_another_laptop(settings, tmp_path, secret=DEVELOPMENT)
    settings.PUBLIC_SECRET_KEYS = (DEVELOPMENT,)
    assert "public development key" in run("pair", "--show")
    said = run("import_tournament", str(serving["backup"]))
    assert "public development key" in said
    assert not any(signs_in(client, n, p) for n, p in PASSWORDS.items())
    assert not get_user_model().objects.filter(is_superuser=True).exists()

    # What it exports: no seal anyone trusts, no password hash, no privilege.
    tournament = Tournament.objects.get()
    sealed = json.loads(export.export_text(tournament))
    assert "seal" not in sealed
    assert sealed["content"]["sign_in"] == {} and sealed["content"]["privileges"] == {}

    # A file sealed with the development key (anyone can make one) on a real installation: untrusted.
    from django.contrib.auth.hashers import make_password

    from venue import pairing

    crafted = dict(sealed["content"], sign_in={"head": make_password("chosen by the file")},
                   privileges={"head": {"is_superuser": True}}, origin={"installation": "elsewhere", "tournament": 99})
    forged = document.seal(crafted, pairing.seal_key(DEVELOPMENT))
    become_another_laptop(settings, tmp_path, secret=SPARE)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    said = run("import_tournament", str(path))
    assert "public development key" in said
    assert not get_user_model().objects.filter(is_superuser=True).exists()
    assert not any(u.has_usable_password() for u in get_user_model().objects.all())
    assert not signs_in(client, "head", "chosen by the file")
