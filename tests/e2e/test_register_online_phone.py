"""Players do it themselves, on a phone (390×844): a player registers online, confirms their
email from the message a real SMTP server received, opens their private link and, once the
round is published, receives the seating message, sees their table and confirms the filed result; a second registrant waits
on the waiting list, moves up when a player leaves by their private link, and disputes the
result, which the head judge reads on the round's confirmations. Bad input (an email already
registered in another case, a reused or expired link, a full event, a closed registration) is
refused in words and changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from mail.models import Message
from scoring import services as scoring
from scoring.models import GameReport, ResultConfirmation
from tests.conftest import PASSWORD
from tests.factories import make_players, make_tournament
from tests.scoring.db.conftest import report_for
from tournament import commands, private_links, registration
from tournament.models import Player, Registration, Round

LINK = re.compile(r"https?://\S+?/(?:register/confirm|me)/[\w-]+/")


def _link(message: Any, part: str) -> str:
    text = message.get_body(preferencelist=("plain",)).get_content()
    return next(m.group(0) for m in LINK.finditer(text) if f"/{part}/" in m.group(0))


def _fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1


def _state() -> tuple[Any, ...]:
    return (
        tuple(Registration.objects.order_by("pk").values_list("email", "state", "confirmed_at", "player")),
        tuple(Player.objects.order_by("pk").values_list("name", "status")),
    )


def _register(page: Any, url: str, name: str, email: str, club: str = "") -> None:
    page.goto(url)
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Email", exact=True).fill(email)
    if club:
        page.get_by_label("Club (optional)").fill(club)
    page.get_by_role("button", name="Register").click()


@pytest.mark.django_db(transaction=True)
def test_a_player_registers_on_a_phone_and_plays_from_their_private_link(
    phone_page: Any, second_page: Any, live_server: Any, head_judge: Any, sign_in: Any, screenshot: Any,
    smtp_server: Any, celery_worker: Any, settings: Any,
) -> None:
    settings.SITE_URL = live_server.url
    settings.REGISTRATION_RATE = 100
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Arrakeen Open")
    make_players(tournament, 5, prefix="Desk")
    now = timezone.now()
    registration.set_registration(tournament, opens=now - timedelta(hours=1), closes=now + timedelta(days=2),
                                  capacity=6)
    register_url = f"{live_server.url}/tournaments/{tournament.pk}/register/"

    # The sixth place: Ana registers on her phone, the refusals keep what she typed.
    page = phone_page
    _register(page, register_url, "Ana Ruiz", "not-an-email", "Madrid")
    assert "bad email" in page.locator("#email-error").inner_text()
    assert page.get_by_label("Club (optional)").input_value() == "Madrid"
    assert not Registration.objects.exists()
    page.get_by_label("Email", exact=True).fill("ana@example.org")
    page.get_by_role("button", name="Register").click()
    assert "ana@example.org" in page.locator("#register-done").inner_text()
    _fits(page)
    screenshot(page, "register-online-sent")

    [confirmation] = smtp_server.wait_for(1)
    assert confirmation["To"] == "ana@example.org" and "Confirm your email" in confirmation["Subject"]
    confirm_link = _link(confirmation, "register/confirm")
    page.goto(confirm_link)
    page.get_by_role("button", name="Confirm my email").click()
    assert "you are registered" in page.locator("#confirm-done").inner_text()
    accepted = smtp_server.wait_for(2)[1]
    assert accepted["To"] == "ana@example.org" and "registered" in accepted["Subject"]
    ana_link = _link(accepted, "me")
    page.get_by_role("link", name="Open my event").click()
    assert page.url == ana_link
    assert page.locator("#me-name").inner_text() == "Ana Ruiz"
    _fits(page)

    # An email already registered, in another case: refused next to the field, nothing changed.
    before = _state()
    _register(second_page, register_url, "Ana R", "ANA@Example.org")
    assert "one person registers once" in second_page.locator("#email-error").inner_text()
    assert second_page.get_by_label("Name", exact=True).input_value() == "Ana R"
    # A reused link.
    second_page.goto(confirm_link)
    second_page.get_by_role("button", name="Confirm my email").click()
    assert "used already" in second_page.locator("#confirm-refused").inner_text()
    assert _state() == before

    # The event is full: Bo registers for the waiting list.
    bo = second_page
    _register(bo, register_url, "Bo Lin", "bo@example.org")
    bo_confirmation = smtp_server.wait_for(3)[2]
    assert bo_confirmation["To"] == "bo@example.org"
    bo.goto(_link(bo_confirmation, "register/confirm"))
    bo.get_by_role("button", name="Confirm my email").click()
    assert "waiting list" in bo.locator("#confirm-done").inner_text()
    waiting = smtp_server.wait_for(4)[3]
    assert "waiting list" in waiting["Subject"]
    bo_link = _link(waiting, "me")
    bo.goto(bo_link)
    assert "number 1 on the waiting list" in bo.locator("#me-waiting").inner_text()

    # An expired link, a full event without a waiting list, a closed registration: refused.
    _register(bo, register_url, "Cy Park", "cy@example.org")
    cy_link = _link(smtp_server.wait_for(5)[4], "register/confirm")
    Registration.objects.filter(email_key="cy@example.org").update(expires_at=timezone.now() - timedelta(minutes=1))
    before = _state()
    bo.goto(cy_link)
    bo.get_by_role("button", name="Confirm my email").click()
    assert "expired" in bo.locator("#confirm-refused").inner_text()
    assert _state() == before
    registration.set_registration(tournament, waiting_list=False)
    _register(bo, register_url, "Di Moss", "di@example.org")
    assert "is full" in bo.locator("#register-error").inner_text()
    assert _state() == before
    registration.set_registration(tournament, waiting_list=True, closes=timezone.now() - timedelta(seconds=1),
                                  opens=timezone.now() - timedelta(hours=2))
    bo.goto(register_url)
    assert "closed on" in bo.locator("#register-closed").inner_text()
    assert _state() == before

    # A desk player leaves by their private link: Bo moves up and is told by email.
    leaving = Player.objects.get(name="Desk 005")
    page.goto(f"{live_server.url}/me/{private_links.link_for(leaving).token}/")
    page.get_by_label("Yes, I leave the event: the next round will not seat me.").check()
    page.get_by_role("button", name="Withdraw from the next round").click()
    moved = next(m for m in smtp_server.wait_for(6) if "is yours" in str(m["Subject"]))
    assert moved["To"] == "bo@example.org" and _link(moved, "me") == bo_link
    bo.goto(bo_link)
    assert bo.locator("#me-waiting").count() == 0

    # The head judge seats and publishes the heat; Ana and Bo find their table.
    round_ = Round.objects.create(tournament=tournament, number=1, kind="heat")
    commands.check_in_all(round_, actor=head_judge, key=None)
    commands.seat_round(round_, {"seed": 7}, actor=head_judge, key=None)
    commands.publish_round(round_, actor=head_judge, key=None)
    table = round_.tables.get()
    assert {s.player.name for s in table.seats.all()} >= {"Ana Ruiz", "Bo Lin"}
    ana_seat = table.seats.get(player__name="Ana Ruiz").seat
    # The seating message reaches Ana's mailbox, with her table and her private link.
    seating = Message.objects.filter(recipient="ana@example.org", kind="seating")
    assert seating.count() == 1
    mail = next(m for m in smtp_server.wait_for(Message.objects.count())
                if m["To"] == "ana@example.org" and f"table {table.number}, seat {ana_seat}" in str(m["Subject"]))
    assert _link(mail, "me") == ana_link
    page.goto(ana_link)
    assert f"table {table.number}, seat {ana_seat}" in page.locator("#me-seat").inner_text()
    _fits(page)
    screenshot(page, "register-online-table")

    # The report is filed: Ana confirms, Bo disputes, the head judge reads the dispute.
    scoring.file_report(table, report_for(table, {0: "solo_stronghold"}), user=head_judge)
    filed = GameReport.objects.get(table=table).data
    page.reload()
    page.get_by_role("button", name="Confirm this result").click()
    assert "You confirmed this result." in page.locator("#me-results").inner_text()
    bo.goto(bo_link)
    bo.get_by_label("Or dispute it, saying why:").fill("I held three strongholds")
    bo.get_by_role("button", name="Dispute this result").click()
    assert "You disputed this result: I held three strongholds" in bo.locator("#me-results").inner_text()
    assert ResultConfirmation.objects.filter(player__name="Bo Lin", agree=False).exists()
    assert GameReport.objects.get(table=table).data == filed

    sign_in(page, "head", PASSWORD)
    page.goto(f"{live_server.url}/rounds/{round_.pk}/")
    page.get_by_role("link", name="Players' confirmations and disputes").click()
    card = page.locator(f"#confirmations-table-{table.number}")
    assert "Bo Lin disputes: I held three strongholds" in card.inner_text()
    assert "Confirmed by Ana Ruiz" in card.inner_text()
