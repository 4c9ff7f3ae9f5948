"""Email as one component: every message goes through the outbox.

The API other apps call (they know nothing else of this app)::

    from mail.outbox import queue_message

    queue_message(to="paul@example.org", kind="seating", subject="Heat 2: table 4, seat 3",
                  text="...", html="<p>...</p>", tournament_id=tournament.pk)

`queue_messages([Outgoing(...), ...])` queues many at once (a round's seating), and
`recipients(kind=..., tournament_id=...)` says who a kind of message already went to.

`queue_message` records the message in the caller's transaction (a write rolled back sends
nothing) and returns at once; it never talks to a mail server. What happens next depends on
the installation (`EMAIL_URL`, config/settings.py):

- `EMAIL_URL` set: once the transaction commits, the Celery worker delivers the message
  (`mail.deliver`), trying again with a growing delay (`MAIL_RETRY_SECONDS`, doubled after each
  failure) up to `MAIL_ATTEMPTS` times; the message is then `sent` or `failed` with its last
  error. A page never waits for a mail server.
- `EMAIL_URL` unset (the venue default without internet, and `make run`'s demo): the message
  is `kept` in the outbox, where the head judge reads it on the tournament's outbox page.

Every message carries a stop link (`/mail/stop/{token}/`, appended to its text and HTML and
named in its `List-Unsubscribe` header): an address that asked to stop is keyed by
`dune.text_rules.email_key`, and messages to it are skipped (not recorded). An empty address
(a player without an email) is skipped too.

`text` is plain text; `html` is a whole HTML body or fragment (the caller escapes what it
puts in it, as a template does). Compose both in the reader's language and time zone: the
stop link's words are added in the language active when `queue_message` is called.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from dune.text_rules import email_key
from mail.models import Message, Stop

log = logging.getLogger(__name__)

#: The registered names of the worker's tasks that deliver one message, and that hand each of
#: many messages to its own delivery (mail/tasks.py).
DELIVER = "mail.deliver"
DELIVER_EACH = "mail.deliver_each"
_STOP_SALT = "mail.stop"
#: The longest error kept with a message.
_ERROR_LENGTH = 2000


def queue_message(
    *, to: str, kind: str, subject: str, text: str, html: str = "", tournament_id: int | None = None
) -> None:
    """Record a message to `to` in the caller's transaction; the worker delivers it after the
    commit (or it is kept in the outbox when no `EMAIL_URL` is set). An empty address or one
    that asked to stop receiving messages is skipped."""
    queue_messages([Outgoing(to=to, kind=kind, subject=subject, text=text, html=html, tournament_id=tournament_id)])


@dataclass(frozen=True)
class Outgoing:
    """One message to queue (the arguments of `queue_message`)."""

    to: str
    kind: str
    subject: str
    text: str
    html: str = ""
    tournament_id: int | None = None


def queue_messages(messages: Iterable[Outgoing]) -> int:
    """`queue_message` for many messages at once (a round's seating): one query for the stopped
    addresses, one insert, one hand-over to the worker. The number of messages recorded."""
    wanted = [m for m in messages if (m.to or "").strip()]
    if not wanted:
        return 0
    stopped = set(
        Stop.objects.filter(email_key__in={email_key(m.to) for m in wanted}).values_list("email_key", flat=True)
    )
    keep = settings.EMAIL_KEEP_IN_OUTBOX
    state = Message.State.KEPT if keep else Message.State.QUEUED
    rows = []
    for m in wanted:
        address = m.to.strip()
        if email_key(address) in stopped:
            continue
        link = stop_url(address)
        rows.append(Message(
            recipient=address,
            kind=m.kind,
            subject=" ".join(m.subject.split())[:255],
            text=f"{m.text.rstrip()}\n\n-- \n{_stop_words_text() % {'link': link}}\n",
            html=_with_stop_link(m.html, link) if m.html else "",
            tournament_id=m.tournament_id,
            state=state,
        ))
    created = Message.objects.bulk_create(rows)
    if not keep:
        ids = [message.pk for message in created]
        transaction.on_commit(lambda: _hand_to_worker(ids))
    return len(created)


def _stop_words_text() -> str:
    return _("To receive no more messages from this platform: %(link)s")


def _with_stop_link(html: str, link: str) -> str:
    words = escape(_("To receive no more messages from this platform, open this link."))
    footer = f'<hr><p style="font-size:small"><a href="{escape(link)}">{words}</a></p>'
    if "</body>" in html:
        return html.replace("</body>", f"{footer}</body>", 1)
    return html + footer


def _hand_to_worker(message_ids: list[int]) -> None:
    """One task for the page to send, whatever the number of messages: the worker fans many
    out into one delivery each (each retried on its own)."""
    try:
        if len(message_ids) == 1:
            current_app.send_task(DELIVER, args=[message_ids[0]])
        else:
            current_app.send_task(DELIVER_EACH, args=[message_ids])
    except OperationalError:
        log.warning("could not hand %s message(s) to the worker; the outbox sweep will", len(message_ids))


# --- The stop link --------------------------------------------------------------------------


def stop_token(address: str) -> str:
    """The token of `address`'s stop link: its email key, signed (nobody stops another's mail);
    the same address always has the same link, which never expires."""
    return signing.Signer(salt=_STOP_SALT).sign_object(email_key(address), compress=True)


def stop_url(address: str) -> str:
    """The absolute address of `address`'s stop link (`SITE_URL` + `/mail/stop/{token}/`)."""
    return f"{settings.SITE_URL}/mail/stop/{stop_token(address)}/"


def key_of_token(token: str) -> str | None:
    """The email key a stop token was made for; None for a token this installation never made."""
    try:
        value = signing.Signer(salt=_STOP_SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    return value if isinstance(value, str) and value else None


def stop(token: str) -> str | None:
    """The address behind `token` receives no more messages; its email key, or None for a
    token this installation never made (nothing changes)."""
    key = key_of_token(token)
    if key is not None:
        Stop.objects.get_or_create(email_key=key)
    return key


def is_stopped(address: str) -> bool:
    return Stop.objects.filter(email_key=email_key(address)).exists()


def recipients(*, kind: str, tournament_id: int) -> set[str]:
    """The email keys of the addresses a message of `kind` of the tournament was recorded for
    (a message sent once per person, such as the final's qualification, is not sent twice)."""
    rows = Message.objects.filter(kind=kind, tournament_id=tournament_id).values_list("recipient", flat=True)
    return {email_key(address) for address in rows}


# --- Delivery (on the worker) ---------------------------------------------------------------


@dataclass(frozen=True)
class Attempt:
    """What one delivery attempt did: `state` is the message's state after it; `retry_in` is
    the seconds before the next attempt (None: no more attempts)."""

    state: str
    retry_in: float | None = None
    error: str = ""


def deliver(message_id: int) -> Attempt:
    """Send one queued message through the configured email backend. A message not queued
    (already sent, failed or kept, or gone) is left alone: a repeated task sends nothing twice."""
    with transaction.atomic():
        message = Message.objects.select_for_update().filter(pk=message_id).first()
        if message is None or message.state != Message.State.QUEUED:
            return Attempt(state=message.state if message else "")
        if settings.EMAIL_KEEP_IN_OUTBOX:  # queued elsewhere (a restored or followed laptop's rows)
            Message.objects.filter(pk=message.pk).update(state=Message.State.KEPT, updated_at=timezone.now())
            return Attempt(state=Message.State.KEPT)
        try:
            _send(message)
        except Exception as exc:  # noqa: BLE001 - any failure of the mail server is recorded
            error = f"{type(exc).__name__}: {exc}"[:_ERROR_LENGTH]
            attempts = message.attempts + 1
            last = attempts >= settings.MAIL_ATTEMPTS
            Message.objects.filter(pk=message.pk).update(
                attempts=F("attempts") + 1,
                last_error=error,
                state=Message.State.FAILED if last else Message.State.QUEUED,
                updated_at=timezone.now(),
            )
            return Attempt(
                state=Message.State.FAILED if last else Message.State.QUEUED,
                retry_in=None if last else settings.MAIL_RETRY_SECONDS * 2 ** (attempts - 1),
                error=error,
            )
        Message.objects.filter(pk=message.pk).update(
            attempts=F("attempts") + 1, state=Message.State.SENT, sent_at=timezone.now(),
            last_error="", updated_at=timezone.now(),
        )
        return Attempt(state=Message.State.SENT)


def _send(message: Message) -> None:
    link = stop_url(message.recipient)
    email = EmailMultiAlternatives(
        subject=message.subject,
        body=message.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.recipient],
        headers={"List-Unsubscribe": f"<{link}>", "Auto-Submitted": "auto-generated"},
        connection=get_connection(fail_silently=False),
    )
    if message.html:
        email.attach_alternative(message.html, "text/html")
    email.send(fail_silently=False)


def waiting_too_long() -> list[int]:
    """Queued messages no task is known to be carrying: queued longer than the longest retry
    delay (their task was lost, e.g. the broker was unreachable at the commit)."""
    longest = settings.MAIL_RETRY_SECONDS * 2 ** max(settings.MAIL_ATTEMPTS - 1, 0) + 60
    since = timezone.now() - dt.timedelta(seconds=longest)
    return list(
        Message.objects.filter(state=Message.State.QUEUED, updated_at__lt=since).values_list("pk", flat=True)
    )
