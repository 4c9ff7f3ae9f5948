"""A judge's forgotten password: Django's own reset views, the message sent through the outbox.

Django's `PasswordResetForm` sends its message itself, at once; ours hands the same message
(subject, plain text, HTML rendered from our templates) to `mail.outbox.queue_message`, so the
page never waits for a mail server and the message is retried, kept or stopped like every
other. The form answers the same whatever the address (it never tells who has an account), and
one address gets at most three such messages in a quarter of an hour.
A link that expired or was already used, and a form with a bad field, are refused in words
(400) and change nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone

from mail.models import Message
from mail.outbox import queue_message
from web.page_text import TextRefusalFormMixin

PASSWORD_RESET = "password_reset"
#: At most this many reset messages to one address within `RESET_WINDOW`: asking again and again
#: fills nobody's mailbox (the page answers the same, so it tells nothing either).
RESETS_PER_WINDOW = 3
RESET_WINDOW = timedelta(minutes=15)


class OutboxPasswordResetForm(TextRefusalFormMixin, PasswordResetForm):
    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        if recent_resets(to_email) >= RESETS_PER_WINDOW:
            return
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        text = render_to_string(email_template_name, context)
        html = render_to_string(html_email_template_name, context) if html_email_template_name else ""
        queue_message(to=to_email, kind=PASSWORD_RESET, subject=subject, text=text, html=html)


def recent_resets(address: str) -> int:
    since = timezone.now() - RESET_WINDOW
    return Message.objects.filter(kind=PASSWORD_RESET, recipient__iexact=address.strip(), created_at__gte=since).count()


class ResetView(auth_views.PasswordResetView):
    form_class = OutboxPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    html_email_template_name = "registration/password_reset_email.html"
    subject_template_name = "registration/password_reset_subject.txt"

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class ResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if not context.get("validlink"):
            kwargs["status"] = 400
        return super().render_to_response(context, **kwargs)


reset = ResetView.as_view()
reset_done = auth_views.PasswordResetDoneView.as_view()
reset_confirm = ResetConfirmView.as_view()
reset_complete = auth_views.PasswordResetCompleteView.as_view()
