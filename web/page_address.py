"""Post/redirect/get for the refusals too: a page that answers a form's POST in place (a refusal
shown next to its field, a question to confirm) names the address it stands for, the GET page the
form belongs to. `static/js/refused_form.js` puts that address in the browser's history, so a
reload shows the page again rather than posting the form a second time; an action's own POST
address, visited, sends the visitor to that page (never an empty 405).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

ATTRIBUTE = "page_address"


def answer_at(request: HttpRequest, address: str) -> None:
    """This POST's answer stands for the GET page at `address` (its form's page)."""
    setattr(request, ATTRIBUTE, address)


def page_address(request: HttpRequest) -> dict[str, Any]:
    """Context processor: `page_address`, the GET address a POST's answer stands for (its own
    address unless the view named another); empty for a GET."""
    if request.method != "POST":
        return {"page_address": ""}
    return {"page_address": getattr(request, ATTRIBUTE, None) or request.get_full_path()}


def post_only(page: Callable[..., str]) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A form's action address: POST runs the view; any other visit is sent to the page the form
    is on (`page(request, **kwargs)`, its address), and a POST's answer in place names that page."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            address = page(request, *args, **kwargs)
            if request.method != "POST":
                return HttpResponseRedirect(address)
            answer_at(request, address)
            return view(request, *args, **kwargs)

        return answer

    return wrap
