"""A head judge who runs a WBC event through the platform's doors, keeping `EventModel` beside it.

Every step goes through the API (or, for the desk's own actions, the command the desk page
calls) and, once the platform has said yes, is written into the model. The draw is the
platform's choice: the model takes the tables it answers as a fact and checks them against the
rules. `story.check_story` then reads what the platform says.
"""

from __future__ import annotations

from itertools import count
from typing import Any

from rest_framework.test import APIClient

from tests.tournament.event_model import EventModel, ModelPlayer, ModelRound, ModelTable

#: The six factions of the WBC game, in the order the final's picks take them.
FACTIONS = ("atreides", "bene_gesserit", "emperor", "fremen", "guild", "harkonnen")

_serial = count(1)


class EventDriver:
    def __init__(self) -> None:
        from django.contrib.auth import get_user_model

        number = next(_serial)
        self.head = get_user_model().objects.create_user(
            username=f"simulated-head-{number}", password="not used", is_staff=True, is_superuser=True
        )
        self.judge = APIClient()
        self.judge.force_authenticate(self.head)
        self.public = APIClient()
        answer = self.post("/api/tournaments/", {"name": f"Simulated event {number}", "format": "wbc"})
        assert answer.status_code == 201, answer.content
        self.tournament = answer.json()["id"]
        self.model = EventModel()
        self.steps = 0

    # --- doors ----------------------------------------------------------------------------------

    def post(self, url: str, body: dict[str, Any] | None = None) -> Any:
        answer = self.judge.post(url, body or {}, format="json")
        assert answer.status_code < 500, (url, answer.status_code, answer.content[:500])
        return answer

    def _tournament(self) -> Any:
        from tournament.models import Tournament

        return Tournament.objects.get(pk=self.tournament)

    def _round(self, round_: ModelRound) -> Any:
        from tournament.models import Round

        return Round.objects.get(pk=round_.pk)

    def _take_seating(self, round_: ModelRound, seating: dict[str, Any]) -> None:
        round_.tables = {
            table["id"]: ModelTable(
                pk=table["id"], number=table["number"], players=[s["player"] for s in table["seats"]],
                factions={s["player"]: s["faction"] for s in table["seats"]},
            )
            for table in seating["tables"]
        }

    # --- the desk -------------------------------------------------------------------------------

    def register(self, name: str) -> int:
        answer = self.post(f"/api/tournaments/{self.tournament}/players/", {"name": name})
        assert answer.status_code == 201, answer.content
        pk = answer.json()["id"]
        self.model.players[pk] = ModelPlayer(pk, name)
        self.steps += 1
        return pk

    def import_players(self, names: list[str]) -> None:
        """A CSV of new names and one already registered: the known name is refused (one person,
        one entry) and the others are registered."""
        known = [p.name for p in self.model.players.values()][:1]
        rows = "".join(f"{name},,\n" for name in [*names, *known])
        answer = self.post(f"/api/tournaments/{self.tournament}/players/import/",
                           {"csv": f"name,email,club\n{rows}", "skip_refused": True})
        assert answer.status_code == 201, answer.content
        body = answer.json()
        assert sorted(p["name"] for p in body["created"]) == sorted(names)
        assert body["refused"] == len(known)
        for player in body["created"]:
            self.model.players[player["id"]] = ModelPlayer(player["id"], player["name"])
        self.steps += 1

    def drop(self, pk: int) -> None:
        from tournament import commands

        commands.drop(self._tournament(), {"player": pk}, actor=self.head, key=None)
        self.model.players[pk].status = "dropped"
        # A player who leaves is checked out of every round not yet published.
        for round_ in self.model.rounds:
            if round_.state in ("planned", "seated"):
                round_.checked_in.discard(pk)
        self.steps += 1

    def reinstate(self, pk: int) -> None:
        from tournament import commands

        commands.reinstate(self._tournament(), {"player": pk}, actor=self.head, key=None)
        self.model.players[pk].status = "active"
        self.steps += 1

    def add_heat(self) -> ModelRound:
        answer = self.post(f"/api/tournaments/{self.tournament}/rounds/", {"kind": "heat"})
        assert answer.status_code == 201, answer.content
        heat = ModelRound(pk=answer.json()["id"], kind="heat", number=answer.json()["number"])
        self.model.rounds.append(heat)
        self.steps += 1
        return heat

    def check_in(self, heat: ModelRound, players: list[int]) -> None:
        for pk in players:
            answer = self.post(f"/api/rounds/{heat.pk}/checkins/", {"player": pk})
            assert answer.status_code == 200, answer.content
            heat.checked_in.add(pk)
        self.steps += 1

    # --- seating and clocks -----------------------------------------------------------------------

    def seat_and_publish(self, heat: ModelRound) -> bool:
        """Seat and publish a heat; False (and nothing seated) when too few checked in."""
        playing = sorted(pk for pk in heat.checked_in if self.model.players[pk].status == "active")
        # A seed of our own: the same event replays to the same tables (Hypothesis replays it).
        draw = {"seed": 7919 * heat.number}
        answer = self.post(f"/api/rounds/{heat.pk}/seating/", draw)
        if len(playing) < 5:
            # Not one table's worth: refused in words, nothing seated.
            assert answer.status_code in (400, 409), answer.content
            assert answer.json().get("detail")
            self.steps += 1
            return False
        if answer.status_code == 409:
            options = answer.json().get("options") or []
            assert options, answer.content
            answer = self.post(f"/api/rounds/{heat.pk}/seating/", {**draw, "small_tables": options[0]["key"]})
        assert answer.status_code == 200, answer.content
        self._take_seating(heat, answer.json())
        seated = [p for t in heat.tables.values() for p in t.players]
        # WBC 2018: players are grouped among those present, each once, at least 5 a game
        # where possible.
        assert len(seated) == len(set(seated)), "a player is seated twice"
        assert set(seated) <= set(playing), "a player who did not check in, or left, was seated"
        if any(5 * k <= len(playing) <= 6 * k for k in range(1, len(playing) // 5 + 1)):
            assert all(5 <= len(t.players) <= 6 for t in heat.tables.values()), heat.tables
        heat.state = "seated"
        published = self.post(f"/api/rounds/{heat.pk}/seating/publish/")
        assert published.status_code == 200, published.content
        heat.state = "published"
        self.steps += 1
        return True

    def start_clocks(self, round_: ModelRound) -> None:
        answer = self.post(f"/api/rounds/{round_.pk}/clocks/start/", {})
        assert answer.status_code == 200, answer.content
        round_.clocks_started = True
        self.steps += 1

    def extend(self, table: ModelTable, minutes: int) -> None:
        answer = self.post(f"/api/tables/{table.pk}/clock/extend/",
                           {"minutes": minutes, "reason": "a long battle at the table"})
        assert answer.status_code == 200, answer.content
        table.extended += minutes
        self.steps += 1

    def no_show(self, round_: ModelRound, pk: int) -> bool:
        """Mark a player who never came a no-show for the round: off their table, not a dropout.
        A refusal (the table's size rule, a game begun) is said in words and changes nothing."""
        answer = self.post(f"/api/rounds/{round_.pk}/no-shows/", {"player": pk, "reason": "never came to the table"})
        self.steps += 1
        if answer.status_code >= 400:
            assert answer.json().get("detail"), answer.content
            return False
        table = round_.seat_of(pk)
        if table is not None:
            table.players.remove(pk)
            del table.factions[pk]
        round_.checked_in.discard(pk)
        round_.no_shows.add(pk)
        return True

    # --- reports ----------------------------------------------------------------------------------

    def report(self, table: ModelTable, outcome: str, chosen: list[int]) -> tuple[dict[str, Any], dict[int, str]]:
        """A report of `outcome` at `table`; `chosen` names the winner (solo) or the allies."""
        results = dict.fromkeys(table.players, "loss")
        body: dict[str, Any] = {"turns": 5, "ended_by": "victory"}
        by_faction = {f: p for p, f in table.factions.items()}
        if outcome == "alliance":
            for pk in chosen[:2]:
                results[pk] = "allied_stronghold"
            body["alliances"] = [chosen[:2]]
        elif outcome == "guild_default" and "guild" in by_faction:
            results[by_faction["guild"]] = "guild_default_solo"
            body.update(turns=10, ended_by="turn_limit")
        elif outcome == "fremen_default" and "fremen" in by_faction and "guild" not in by_faction:
            # The Fremen's default win is for a game without the Guild (AH IV.C.1).
            results[by_faction["fremen"]] = "fremen_default_solo"
            body.update(turns=10, ended_by="turn_limit")
        else:
            results[chosen[0]] = "solo_stronghold"
        body["results"] = [{"player": pk, "result": results[pk]} for pk in table.players]
        return body, results

    def file(self, table: ModelTable, outcome: str, chosen: list[int]) -> None:
        body, results = self.report(table, outcome, chosen)
        answer = self.post(f"/api/tables/{table.pk}/report/", body)
        assert answer.status_code in (200, 201), answer.content
        table.results = results
        self.steps += 1

    def reopen(self, table: ModelTable) -> None:
        answer = self.post(f"/api/tables/{table.pk}/report/reopen/", {"reason": "the judge misread a seat"})
        assert answer.status_code == 200, answer.content
        table.results = None
        self.steps += 1

    def close(self, round_: ModelRound) -> None:
        from tournament import commands

        commands.finish_round(self._round(round_), actor=self.head, key=None)
        round_.state = "closed"
        self.steps += 1

    # --- the final --------------------------------------------------------------------------------

    def seat_final(self, absent: int | None = None) -> ModelRound:
        """Add the final, seat it from the standings (one qualifier `absent`, whose seat the first
        alternate takes), record the picks in qualifying order and publish it."""
        answer = self.post(f"/api/tournaments/{self.tournament}/rounds/", {"kind": "final"})
        assert answer.status_code == 201, answer.content
        final = ModelRound(pk=answer.json()["id"], kind="final", number=answer.json()["number"])
        self.model.rounds.append(final)
        body: dict[str, Any] = {"seed": 7919}
        if absent is not None:
            named = self.public.get(f"/api/tournaments/{self.tournament}/finalists/").json()
            body = {**body, "players": named["finalists"], "alternates": named["alternates"], "absent": [absent]}
            final.absent.add(absent)
        seated = self.post(f"/api/rounds/{final.pk}/seating/", body)
        assert seated.status_code == 200, seated.content
        self._take_seating(final, seated.json())
        final.state = "seated"
        (table,) = final.tables.values()
        free = [f for f in FACTIONS if f not in table.factions.values()]
        # Picks go in qualifying order (WBC 2018, Final Round Faction Assignment): the order the
        # platform lists the seated finalists in, lots drawn for ties included.
        in_order = self.public.get(f"/api/tournaments/{self.tournament}/finalists/").json()["finalists"]
        assert sorted(in_order) == sorted(table.players), (in_order, table.players)
        for player in in_order:
            if not table.factions.get(player):
                faction = free.pop(0)
                picked = self.post(f"/api/rounds/{final.pk}/final/picks/", {"player": player, "faction": faction})
                assert picked.status_code == 200, picked.content
                table.factions[player] = faction
        published = self.post(f"/api/rounds/{final.pk}/seating/publish/")
        assert published.status_code == 200, published.content
        final.state = "published"
        self.steps += 1
        return final
