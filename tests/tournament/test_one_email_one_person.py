"""One email, one person: emails that differ only in case (or in a letter case folding joins,
such as ß and ss) name the same person everywhere: the CSV import, a registration at the desk
and the linking of players to people, in Python and in the database alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from dune.text_rules import email_key
from foundation.commands import Refused
from tests.factories import make_tournament
from tournament import people, services
from tournament.models import Person, Player

pytestmark = pytest.mark.django_db


def test_the_email_key_is_trimmed_compatibility_normalised_and_case_folded() -> None:
    assert email_key("  Paul@Example.ORG ") == "paul@example.org"
    assert email_key("a@STRAßE.de") == email_key("A@strasse.DE")
    assert email_key("ｐａｕｌ@example.org") == "paul@example.org"  # full-width letters
    assert email_key("") == ""


def test_a_csv_with_two_rows_differing_only_by_email_case_registers_the_person_once(head_judge: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    text = "name,email\nPaul Muad'Dib,paul@example.org\nPaul Atreides,PAUL@example.org\n"
    rows = services.preview_import(tournament, text)
    assert rows[0].ok
    assert not rows[1].ok
    assert rows[1].errors == ["the same email as line 2 (Paul Muad'Dib): one person registers once"]
    created, _ = services.import_players(tournament, text, skip_refused=True)
    assert [p.name for p in created] == ["Paul Muad'Dib"]
    assert Player.objects.filter(tournament=tournament).count() == 1


def test_a_csv_row_whose_email_is_already_registered_in_the_tournament_is_refused(head_judge: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    services.add_player(tournament, name="Paul Atreides", email="paul@example.org")
    rows = services.preview_import(tournament, "name,email\nPaul Muad'Dib,PAUL@Example.org\n")
    assert rows[0].errors == ["the email of the registered player Paul Atreides: one person registers once"]


def test_the_desk_refuses_a_second_registration_of_one_email_in_any_case(head_judge: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    services.add_player(tournament, name="Paul Atreides", email="paul@example.org")
    with pytest.raises(Refused) as refused:
        services.add_player(tournament, name="Usul", email="PAUL@EXAMPLE.ORG")
    assert refused.value.field == "email"
    assert "Paul Atreides" in refused.value.message
    assert Player.objects.filter(tournament=tournament).count() == 1


def test_an_email_case_folding_changes_links_without_a_key_error_or_a_rollback(head_judge: Any) -> None:
    earlier = make_tournament(name="Last year", head_judge=head_judge)
    first = services.add_player(earlier, name="Anna Weiß", email="a@STRAßE.de")
    tournament = make_tournament(head_judge=head_judge)
    again = services.add_player(tournament, name="Anna Weiss", email="A@strasse.de")
    assert Player.objects.filter(pk=again.pk).exists()
    again.refresh_from_db()
    assert again.person_id == first.person_id
    assert Person.objects.count() == 1


def test_the_database_refuses_a_second_person_of_one_email_key() -> None:
    Person.objects.create(name="Anna", email="a@STRAßE.de")
    with pytest.raises(IntegrityError), transaction.atomic():
        Person.objects.create(name="Anna again", email="A@strasse.de")


def test_the_database_refuses_one_person_twice_in_a_tournament(head_judge: Any) -> None:
    tournament = make_tournament(head_judge=head_judge)
    a = services.add_player(tournament, name="Paul", email="paul@example.org")
    b = services.add_player(tournament, name="Usul")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=b.pk).update(person_id=a.person_id)


def test_people_with_emails_answers_by_the_shared_key() -> None:
    person = Person.objects.create(name="Anna", email="a@STRAßE.de")
    assert people.people_with_emails(["A@Strasse.de"]) == {email_key("A@Strasse.de"): person}
