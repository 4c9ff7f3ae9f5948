"""A crafted import file changes nothing it should not, and says why (venue/restore.py).

The plain checksum finds damage only: anyone can recompute it after editing the file. Only a
file this installation sealed (its HMAC) is taken as its own records; every other file links
no existing account, joins no other organiser's series, names only its own tables and
players, and has every value checked as the API checks it. A tournament already here is
refused: a rated game never counts twice.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dune import export_document as document

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(make_user: Any) -> dict[str, Any]:
    """Alia's tournament (a table judge, six players who are people, a series of hers, an
    idempotency record of the table), and Rival's tournament with its series and a victim."""
    from foundation.models import IdempotencyRecord
    from tests.factories import make_players, make_round, make_tournament, seat_table
    from tournament import people
    from tournament.models import Tournament

    alia = make_user("alia", is_staff=True)
    judge = make_user("judge1")
    rival = make_user("rival", is_staff=True)
    mallory = make_user("mallory", is_staff=True)
    from tournament.services.judges import How, Role, agree

    ours = make_tournament(name="Alia Open", head_judge=alia)
    agree(ours, alia, role=Role.HEAD_JUDGE, how=How.CREATED_TOURNAMENT, by=alia)
    agree(ours, judge, role=Role.TABLE_JUDGE, how=How.ACCOUNT_MADE, by=alia)
    Tournament.objects.filter(pk=ours.pk).update(series=people.create_series(name="Alia Cup", format="wbc", owner=alia))
    players = make_players(ours, 6)
    people.link_players(players)
    table = seat_table(make_round(ours), players, judge=judge)
    from gameplay import services as gameplay

    gameplay.game_for(table)
    IdempotencyRecord.objects.create(user=judge, scope=f"table:{table.pk}:events", key="k1", request_hash="0" * 64,
                                     status=201, response={"seq": 1})
    theirs = make_tournament(name="Rival Open", head_judge=rival)
    rival_series = people.create_series(name="Rival Cup", format="wbc", owner=rival)
    Tournament.objects.filter(pk=theirs.pk).update(series=rival_series)
    (victim,) = make_players(theirs, 1, prefix="Victim")
    victim.email = "victim@example.org"
    victim.save(update_fields=["email"])
    people.link_players([victim])
    victim.refresh_from_db()
    people.list_by_initials(victim, True, user=rival)
    other_table = seat_table(make_round(theirs), [victim], number=9)
    return {"ours": ours, "alia": alia, "judge": judge, "rival": rival, "mallory": mallory, "victim": victim,
            "rival_series": rival_series, "other_table": other_table, "table": table}


def _content(tournament: Any) -> dict[str, Any]:
    from venue import export

    content = copy.deepcopy(export.export_content(tournament))
    # Another tournament as far as this installation can tell (else it is refused as already here).
    content["origin"] = {"installation": "another-installation", "tournament": 1}
    return content


def _crafted(content: dict[str, Any]) -> str:
    """Edited by hand: the plain checksum recomputed, no seal of this installation."""
    return json.dumps(document.seal(content))


def _counts() -> dict[str, int]:
    from django.contrib.auth import get_user_model

    from foundation.models import IdempotencyRecord
    from tournament.models import Person, Player, Series, Tournament

    return {m.__name__: m.objects.count() for m in (Tournament, Player, Person, Series, IdempotencyRecord,
                                                    get_user_model())}


def _import(text: str, by: Any = None) -> Any:
    from venue import restore

    return restore.import_text(text, by=by)


def test_a_recomputed_checksum_opens_but_is_not_taken_as_this_installations_own(event: dict[str, Any]) -> None:
    from venue import export

    own = json.dumps(export.seal(_content(event["ours"])))
    assert _import(own).own is True
    assert _import(_crafted(_content(event["ours"]) | {"origin": {"installation": "x", "tournament": 2}})).own is False


def test_a_crafted_file_does_not_join_another_organisers_series(event: dict[str, Any]) -> None:
    content = _content(event["ours"])
    for row in content["shared"]["tournament.series"]:
        row["name"] = "Rival Cup"  # the same name and format as Rival's series
    imported = _import(_crafted(content), by=event["mallory"])
    series = imported.tournament.series
    assert series is not None and series.pk != event["rival_series"].pk and series.owner == event["mallory"]
    assert not event["rival_series"].tournaments.filter(pk=imported.tournament.pk).exists()
    assert any("belongs to another organiser" in line for line in imported.not_trusted)


def test_a_crafted_file_joins_a_series_the_importing_head_judge_owns(event: dict[str, Any]) -> None:
    content = _content(event["ours"])
    imported = _import(_crafted(content), by=event["alia"])
    assert imported.tournament.series.name == "Alia Cup" and imported.tournament.series.owner == event["alia"]


def test_a_player_row_naming_an_account_and_a_victims_email_does_not_make_that_account_the_person(
    event: dict[str, Any],
) -> None:
    from tournament import people

    content = _content(event["ours"])
    mallory = event["mallory"]
    content["shared"]["auth.user"].append({"id": 990001, "username": "mallory", "email": "", "is_active": True})
    row = content["rows"]["tournament.player"][0]
    row["user_id"], row["email"] = 990001, "victim@example.org"
    for person in content["shared"]["tournament.person"]:
        if person["id"] == row["person_id"]:
            person["email"] = "victim@example.org"
    imported = _import(_crafted(content), by=mallory)
    player = imported.tournament.players.get(pk__in=[p.pk for p in imported.tournament.players.all()],
                                             name=row["name"])
    assert player.user is not None and player.user != mallory and player.user.username == "mallory-2"
    assert not player.user.has_usable_password()
    assert imported.renamed_accounts["mallory"] == "mallory-2"
    # Mallory cannot undo the victim's wish to be listed by initials, in Rival's tournament.
    with pytest.raises(people.PeopleRefused):
        people.list_by_initials(event["victim"], False, user=mallory)
    event["victim"].person.refresh_from_db()
    assert event["victim"].person.listed_by_initials is True


def test_a_crafted_file_makes_no_existing_account_a_head_judge(event: dict[str, Any]) -> None:
    content = _content(event["ours"])
    for name, uid in (("rival", 990002), ("alia", 990003)):
        content["shared"]["auth.user"].append({"id": uid, "username": name, "is_active": True})
        content["many_to_many"]["tournament.tournament.head_judges"].append([event["ours"].pk, uid])
    imported = _import(_crafted(content), by=event["mallory"])
    heads = set(imported.tournament.head_judges.values_list("username", flat=True))
    assert not heads & {"rival", "alia", "judge1"}
    assert "mallory" in heads  # who imported it runs it
    assert {"rival-2", "alia-2"} <= heads  # the file's own accounts, new and without a password


@pytest.mark.parametrize("where", ["another tournament's table", "no table", "a foreign player in a report"])
def test_stored_records_may_name_only_the_files_own_tables_and_players(event: dict[str, Any], where: str) -> None:
    content = _content(event["ours"])
    if where == "a foreign player in a report":
        content["rows"]["tournament.round"][0]["waiting"] = [event["victim"].pk]
        said = "not one of the file's players"
    else:
        scope = f"table:{event['other_table'].pk}:events" if where == "another tournament's table" else "round:1:x"
        content["rows"]["foundation.idempotencyrecord"][0]["scope"] = scope
        said = "not one of the file's own tables"
    before = _counts()
    with pytest.raises(document.DocumentRefused, match=said):
        _import(_crafted(content))
    assert _counts() == before


@pytest.mark.parametrize(
    ("label", "field", "value", "said"),
    [
        ("tournament.tournament", "name", "x" * 300, "at most 200"),
        ("tournament.player", "name", "Alia" + "\u202e" + "nidaJ", "bidirectional"),
        ("tournament.player", "club", "c" * 500, "at most 120"),
        ("tournament.tournament", "format", "chess", "'chess' is refused"),
        ("tournament.tournament", "time_zone", "Mars/Olympus", "not a time zone"),
        ("tournament.round", "kind", "semifinal", "kind"),
    ],
)
def test_every_field_is_checked_as_the_api_would_with_a_message_not_a_traceback(
    event: dict[str, Any], label: str, field: str, value: str, said: str
) -> None:
    content = _content(event["ours"])
    content["rows"][label][0][field] = value
    before = _counts()
    with pytest.raises(document.DocumentRefused, match=said) as refused:
        _import(_crafted(content))
    assert field in refused.value.message
    assert _counts() == before


def test_the_same_tournament_twice_is_refused_and_no_rated_game_counts_twice(event: dict[str, Any]) -> None:
    from venue import export

    text = export.export_text(event["ours"])
    before = _counts()
    with pytest.raises(document.DocumentRefused, match="already here as Alia Open") as refused:
        _import(text)
    assert refused.value.field == "origin" and _counts() == before
    # A copy imported elsewhere carries the first origin along: it is the same tournament.
    copy_content = _content(event["ours"])
    first = _import(_crafted(copy_content)).tournament
    from venue import export as export_again

    again = export_again.export_content(first)
    assert again["origin"] == {"installation": "another-installation", "tournament": 1}
    with pytest.raises(document.DocumentRefused, match=f"tournament {first.pk}"):
        _import(_crafted(again))


def test_judges_sign_in_after_a_restore_of_this_installations_own_file_only(
    event: dict[str, Any], password: str, client: Any
) -> None:
    from django.contrib.auth import get_user_model

    from venue import export

    content = _content(event["ours"])
    assert set(content["sign_in"]) == {"alia", "judge1"}
    # A restore where the accounts are gone (another database with this installation's key).
    users = get_user_model().objects
    users.filter(pk=event["alia"].pk).update(username="alia-old")
    users.filter(pk=event["judge"].pk).update(username="judge1-old")
    imported = _import(json.dumps(export.seal(content)))
    assert sorted(imported.signed_in_as_before) == ["alia", "judge1"]
    assert users.get(username="judge1").check_password(password)
    # The same hashes in a file sealed elsewhere are not taken.
    users.filter(username__in=["alia", "judge1"]).update(is_active=False)
    users.filter(username="alia").update(username="alia-gone")
    users.filter(username="judge1").update(username="judge1-gone")
    foreign = _import(_crafted(content | {"origin": {"installation": "y", "tournament": 5}}))
    assert foreign.signed_in_as_before == [] and any("password hashes" in n for n in foreign.not_trusted)
    assert not users.get(username="judge1").has_usable_password()


def test_the_download_carries_no_password_hash_nor_privilege(event: dict[str, Any], client: Any) -> None:
    """Only a backup sealed for this installation's spares carries them: a download leaves it."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(pk=event["alia"].pk).update(is_superuser=True)
    client.force_login(event["alia"])
    content = client.get(f"/api/tournaments/{event['ours'].pk}/export/").json()["content"]
    assert content["sign_in"] == {} and content["privileges"] == {}


def test_the_command_names_the_venue_command_for_passwords(event: dict[str, Any], tmp_path: Any,
                                                           settings: Any) -> None:
    settings.VENUE_URL = "http://192.0.2.10:8000"
    path = tmp_path / "crafted.json"
    path.write_text(_crafted(_content(event["ours"])))
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        call_command("import_tournament", str(path), "--by", "alia", stdout=handle)
    said = out.read_text()
    line = next(line for line in said.splitlines() if "no password here" in line)
    assert "`bin/venue sign_in_codes " in line and "manage.py" not in said


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**63, max_value=2**70),
    st.text(max_size=300),
    st.sampled_from(["²", "\u202e", "\u3164", "table:999999:events", "x" * 5000, "", "wbc", "localtime"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
_serial = iter(range(10**9))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data(), value=ODD_VALUES)
def test_any_crafted_value_anywhere_is_imported_or_refused_with_a_message(
    event: dict[str, Any], data: Any, value: Any
) -> None:
    """One value of one row of one record changed to anything: the import either takes the
    file (checked as the API checks it) or refuses it saying why, writing nothing; never a
    traceback."""
    from venue import restore

    content = _content(event["ours"])
    content["origin"] = {"installation": "fuzz", "tournament": next(_serial)}
    part = data.draw(st.sampled_from(["rows", "shared"]))
    labels = sorted(label for label, rows in content[part].items() if rows)
    label = data.draw(st.sampled_from(labels))
    row = data.draw(st.sampled_from(content[part][label]))
    field = data.draw(st.sampled_from(sorted(row)))
    row[field] = value
    before = _counts()
    try:
        restore.import_content(content, own=False, by=event["mallory"])
    except document.DocumentRefused as refused:
        assert refused.message and _counts() == before


@pytest.mark.parametrize("change", ["a changed event", "a stored position of another game"])
def test_an_untrusted_game_log_must_fold_to_its_stored_position(event: dict[str, Any], change: str) -> None:
    content = _content(event["ours"])
    (game,) = content["rows"]["gameplay.game"]
    if change == "a changed event":
        first = content["rows"]["gameplay.gameevent"][0]
        first["body"] = {**first["body"], "seed": (first["body"].get("seed") or 0) + 1}
    else:
        game["position"] = {**game["position"], "turn": 9}
    before = _counts()
    with pytest.raises(document.DocumentRefused, match="game log of game"):
        _import(_crafted(content))
    assert _counts() == before
