"""People, their ratings and series: `GET /api/people/?search=&page=` (paginated: `count`,
`next`, `previous`, `results`), `GET /api/people/{id}/`, `GET /api/series/{id}/`, and
`POST /api/series/` for head judges (staff), who own the series they create. Reads are open;
a person's email never leaves the server."""

from __future__ import annotations

from typing import Any

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from dune.ratings.compute import Rating, initial
from ratings import presenters, records, services
from tournament import commands, people
from tournament.models import Person, Series
from web.api_fields import body_of
from web.idempotency_api import SCHEMA_PARAMETER, SCHEMA_REUSED, answered, key_of

REFUSED = OpenApiResponse(description="refused: the message names the field; nothing written")


def person_body(person: Person) -> dict[str, Any]:
    regs = records.registrations([person])[person.pk]
    return presenters.person_json(person, regs, services.rating_of(person.pk), services.last_recomputed())


class PeoplePages(PageNumberPagination):
    page_size = people.PEOPLE_PER_PAGE


class PeopleView(APIView):
    @extend_schema(
        operation_id="people_list",
        parameters=[
            OpenApiParameter("search", str, description="part of a person's public name"),
            OpenApiParameter("page", int, description=f"page number ({people.PEOPLE_PER_PAGE} people a page)"),
        ],
        responses={
            200: OpenApiResponse(description="count, next, previous and this page's people, by name"),
            400: REFUSED,
            404: OpenApiResponse(description="no such page"),
        },
    )
    def get(self, request: Request) -> Response:
        pages = PeoplePages()
        found = pages.paginate_queryset(
            people.search_people(request.query_params.get("search", ""), limit=None), request, view=self
        ) or []
        regs = records.registrations(found)
        ratings = {r.person_id: r for r in services.ratings_list([p.pk for p in found])}
        recomputed = services.last_recomputed()
        results = []
        for person in found:
            row = ratings.get(person.pk)
            rating = Rating(mu=row.mu, sigma=row.sigma, games=row.games) if row else initial()
            results.append(presenters.person_json(person, regs[person.pk], rating, recomputed))
        return pages.get_paginated_response(results)


class PersonView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="the person, their tournaments and rating")})
    def get(self, request: Request, pk: int) -> Response:
        person = get_object_or_404(Person, pk=pk)
        body = person_body(person)
        body["history"] = presenters.history_json(services.history_of(person.pk))
        return Response(body)


#: The body of `create_series`, from the command's own declaration.
SeriesIn = body_of("SeriesIn", commands.NewSeries.FIELDS)


class SeriesListView(APIView):
    @extend_schema(
        parameters=[SCHEMA_PARAMETER], request=SeriesIn,
        responses={201: OpenApiResponse(description="the series"), 400: REFUSED, 422: SCHEMA_REUSED},
    )
    def post(self, request: Request) -> HttpResponseBase:
        created = commands.create_series(request.data, actor=request.user, key=key_of(request), present=series_body)
        return answered(request, created)


def series_body(series: Series) -> dict[str, Any]:
    editions = records.editions(series)
    tournaments = [e.tournament for e in editions]
    return presenters.series_json(
        series,
        editions,
        records.faction_balance(tournaments),
        services.ratings_list(people.people_of(tournaments)),
        services.last_recomputed(),
    )


class SeriesView(APIView):
    @extend_schema(responses={200: OpenApiResponse(description="editions, faction balance and rating list")})
    def get(self, request: Request, pk: int) -> Response:
        return Response(series_body(get_object_or_404(Series, pk=pk)))
