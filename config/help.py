"""The guides for the people who use the platform (`docs/guides/*.md`), served at `/help/` by
the platform itself so they are read at the venue without internet."""

from __future__ import annotations

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

GUIDES = {
    "head-judge": _("The head judge's guide"),
    "table-judge": _("The table judge's guide"),
    "player": _("The player's guide"),
}

def help_index(request: HttpRequest) -> HttpResponse:
    return render(request, "help.html", {"guides": GUIDES.items(), "body": None})

def help_page(request: HttpRequest, slug: str) -> HttpResponse:
    if slug not in GUIDES:
        raise Http404(slug)
    import markdown

    text = (settings.BASE_DIR / "docs" / "guides" / f"{slug}.md").read_text(encoding="utf-8")
    # Our own files, written by the platform's authors: their HTML is trusted as the templates are.
    body = mark_safe(markdown.markdown(text, extensions=["tables"]))  # noqa: S308
    return render(request, "help.html", {"guides": GUIDES.items(), "body": body, "slug": slug})


def help_screenshot(request: HttpRequest, name: str) -> FileResponse:
    """A screenshot a guide shows (`docs/screenshots/NAME.png`, taken by the browser tests): a
    guide's `../screenshots/NAME.png` at /help/GUIDE/ reads it here."""
    path = settings.BASE_DIR / "docs" / "screenshots" / f"{name}.png"
    if not path.is_file():
        raise Http404(name)
    return FileResponse(path.open("rb"), content_type="image/png")
