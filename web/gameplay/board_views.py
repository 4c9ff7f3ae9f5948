"""The board picture of a table: `GET /tables/{id}/board.svg` and the board panel fragment.

Anyone may look (players and spectators follow a table as the API lets them). The picture of
record N never changes (the log is append-only), so it answers with an ETag by record number
and a repeat costs a 304; without `?seq` the latest record's picture is revalidated each time.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from gameplay import board
from tournament.models import Table


def load_table(pk: int) -> Table:
    """The table with its round and tournament (one query). Raises Http404."""
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


def _not_modified(request: HttpRequest, etag: str) -> bool:
    asked = request.headers.get("If-None-Match", "")
    return etag in [tag.strip().removeprefix("W/") for tag in asked.split(",")] or asked.strip() == "*"


def _cache_headers(response: HttpResponse, drawing: board.Drawing, pinned: bool) -> HttpResponse:
    response["ETag"] = drawing.etag
    # A numbered record's picture is final; the latest one may move on with the next record.
    response["Cache-Control"] = "public, max-age=86400" if pinned else "no-cache"
    # Its words are the reader's: a shared cache keeps one picture per language asked for.
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _refused(refusal: board.NoBoard) -> HttpResponse:
    return HttpResponse(refusal.message, status=refusal.status, content_type="text/plain; charset=utf-8")


@require_safe
def board_svg(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's position as the Dune board (`image/svg+xml`); `?seq=N` after record N.
    404 with a message for a table whose record has not begun or a record it does not hold."""
    table = load_table(pk)
    seq = request.GET.get("seq")
    try:
        game = board.recorded_game(table)
        at = board.record_number(seq, game)
        etag = board.etag_for(game, at, board.picture_kind())
        if _not_modified(request, etag):
            response = HttpResponse(status=304)
            response["ETag"] = etag
            return response
        drawing = board.drawing(table, at, game=game)
    except board.NoBoard as refusal:
        return _refused(refusal)
    response = HttpResponse(drawing.svg, content_type="image/svg+xml; charset=utf-8")
    return _cache_headers(response, drawing, pinned=bool(seq))


@require_safe
def board_panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The board panel's inside (the drawing inline and its stacks as a table), for a page
    that brings its board up to date in place; `?seq=N` after record N."""
    table = load_table(pk)
    seq = request.GET.get("seq")
    try:
        game = board.recorded_game(table)
        at = board.record_number(seq, game)
        etag = board.etag_for(game, at, f"panel-{translation.get_language()}")
        if _not_modified(request, etag):
            response = HttpResponse(status=304)
            response["ETag"] = etag
            return response
        drawing = board.drawing(table, at, game=game)
    except board.NoBoard as refusal:
        return _refused(refusal)
    response = render(request, "gameplay/_board_body.html", {"drawing": drawing, "table": table})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
