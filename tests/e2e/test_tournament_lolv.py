"""A Landsraad of Las Vegas tournament (2.8.4) in Chromium, through the pages its people use.

30 players are imported and checked in; two rounds are seated into five tables of six, each
player dealt one classic and one expansion alliance card and keeping one (LoLV 0.08). Table
judges record the games on the table page, confirming at each battle phase the win attempts
the engine sees (4.01.04); the reports carry them into the weighted points (4.01.09) and the
best-game tiebreak tuple (points, win attempts, strongholds, forces, spice, cards, leaders;
4.01.10), and the standings draw the finals cut.

The database is only read: to check what the pages did and to know the seeded seating.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest

from dune.engine.ids import CLASSIC_FACTIONS, EXPANSION_FACTIONS
from tests.e2e import tour
from tests.e2e.tour import TableJudge

player = tour.player  # a fixture: a player's phone, nobody signed in

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    f"{first} {last}"
    for first, last in zip(
        [
            "Ana",
            "Ben",
            "Cleo",
            "Dev",
            "Eli",
            "Fay",
            "Gus",
            "Hana",
            "Ivo",
            "Jo",
            "Kai",
            "Lea",
            "Max",
            "Nia",
            "Oto",
            "Pia",
            "Quin",
            "Rui",
            "Sol",
            "Tea",
            "Uma",
            "Vik",
            "Wes",
            "Xia",
            "Yan",
            "Zoe",
            "Ari",
            "Bo",
            "Cy",
            "Di",
        ],
        [
            "Reyes",
            "Kowalski",
            "Haddad",
            "Mensah",
            "Ito",
            "Larsen",
            "Costa",
            "Petrov",
            "Nakamura",
            "Dubois",
            "Okoye",
            "Schmidt",
            "Rossi",
            "Kim",
            "Silva",
            "Novak",
            "Byrne",
            "Lopes",
            "Aziz",
            "Moreno",
            "Weiss",
            "Quist",
            "Ueda",
            "Park",
            "Jensen",
            "Fischer",
            "Banda",
            "Ortiz",
            "Lund",
            "Vega",
        ],
        strict=True,
    )
]
CSV = "name,email,club\n" + "".join(f"{n},{n.split()[0].lower()}@example.org,Las Vegas\n" for n in NAMES)


def num(value: Any) -> Fraction:
    return Fraction(str(value))


def seating(round_pk: int) -> list[dict[str, Any]]:
    """Tables of the published seating: pk, number and the seats (name, seat, dealt, faction)."""
    from tournament.models import Table

    out = []
    for table in Table.objects.filter(round_id=round_pk).prefetch_related("seats__player").order_by("number"):
        seats = [
            {
                "name": s.player.name,
                "player": s.player_id,
                "seat": s.seat,
                "dealt": list(s.dealt),
                "faction": s.faction,
            }
            for s in table.seats.order_by("seat")
        ]
        out.append({"pk": table.pk, "number": table.number, "seats": seats})
    return out


def filed(table_pk: int) -> dict[str, dict[str, Any]]:
    from scoring.models import GameReport

    report = GameReport.objects.get(table_id=table_pk)
    assert report.locked
    return {row["faction"]: row for row in report.data["results"]}


# ----------------------------------------------------------------------------- the games


def solo(j: TableJudge, winner: str, rival: str, *, attempts: int) -> None:
    """`attempts` battle phases with the winner standing in three strongholds (the rival
    contesting one until the last), then the win at the Mentat Pause (1.09.02.01)."""
    three = {"arrakeen": [winner], "carthag": [winner], "sietch_tabr": [winner]}
    j.start(storm=4)
    for turn in range(1, attempts + 1):
        if turn > 1:
            j.next_turn()
            j.move_storm(turn)
        j.phase("battle")
        last = turn == attempts
        j.strongholds(three if last else {**three, "sietch_tabr": [winner, rival]})
        assert j.confirm_attempts() == 1
        j.phase("mentat_pause")
    assert tour.label(winner) in j.confirm_victory()


def allied(j: TableJudge, a: str, b: str, rival: str) -> None:
    """A worm in turn 2 opens a nexus; the allies stand in four strongholds (1.09.02.02)."""
    j.start(storm=8)
    j.phase("battle")
    j.strongholds({"arrakeen": [a], "carthag": [rival]})
    j.phase("mentat_pause")
    j.next_turn()
    j.move_storm(3)
    j.phase("spice_blow")
    j.worm()
    j.ally(a, b)
    j.phase("battle")
    j.strongholds(
        {"arrakeen": [a], "tueks_sietch": [a], "sietch_tabr": [b], "habbanya_sietch": [b], "carthag": [rival]}
    )
    assert j.confirm_attempts() == 1
    j.phase("mentat_pause")
    j.confirm_victory()


def conceded(j: TableJudge, to: str) -> None:
    """Turn 2: everyone concedes to an unallied player (4.01.05)."""
    j.start(storm=12)
    j.phase("mentat_pause")
    j.play_turn(2, {"arrakeen": [to]})
    j.concede(to)


def test_lolv_tournament_two_rounds_weighted_points_and_finalists(
    page: Any,
    phone_page: Any,
    second_page: Any,
    player: Any,
    live_server: Any,
    head_judge: Any,
    make_user: Any,
    password: str,
    sign_in: Any,
    screenshot: Any,
) -> None:
    from django.core.cache import cache

    from tournament.models import Player, Round

    cache.clear()
    base = live_server.url
    make_user("lolv1")
    make_user("lolv2")
    sign_in(page, "head", password)
    tournament = tour.create_tournament(page, base, name="Landsraad of Las Vegas 2026", format="lolv")
    for _ in range(2):
        tour.add_round(page, base, tournament, kind="heat")
    tour.add_round(page, base, tournament, kind="final")
    for judge in ("lolv1", "lolv2"):
        tour.appoint_judge(page, base, tournament, judge)
    assert tour.import_players_csv(page, base, tournament, CSV) == 30
    round1, round2 = (
        r.pk for r in Round.objects.filter(tournament_id=tournament, kind="heat").order_by("number")
    )
    sign_in(phone_page, "lolv1", password)
    sign_in(second_page, "lolv2", password)
    judges = [phone_page, second_page]
    winners: dict[int, list[tuple[str, str]]] = {}

    for number, round_pk in ((1, round1), (2, round2)):
        tour.goto(page, f"{base}/tournaments/{tournament}/players/?round={round_pk}")
        tour.submit(page, page.get_by_role("button", name="Check in every active player"))  # asks first
        tour.submit(
            page, page.get_by_role("button", name=re.compile(r"^Yes, check in all")), expect="active players for"
        )
        tour.seat_round(page, base, round_pk, seed=400 + number, players=30)
        tables = seating(round_pk)
        assert [len(t["seats"]) for t in tables] == [6] * 5
        # LoLV 0.08: two alliance cards each, one classic and one expansion, none twice at a table.
        for t in tables:
            dealt = [f for s in t["seats"] for f in s["dealt"]]
            assert len(dealt) == len(set(dealt)) == 12
            for s in t["seats"]:
                assert sum(f in CLASSIC_FACTIONS for f in s["dealt"]) == 1
                assert sum(f in EXPANSION_FACTIONS for f in s["dealt"]) == 1
        # Each player keeps one card, one tap each on the seating page: odd seats their
        # classic faction, even seats the expansion one. Publishing waits for all of them.
        tour.show(page, f"{base}/rounds/{round_pk}/seat/")  # where seating the round left it
        for t in tables:
            for s in t["seats"]:
                classic = next(f for f in s["dealt"] if f in CLASSIC_FACTIONS)
                expansion = next(f for f in s["dealt"] if f in EXPANSION_FACTIONS)
                kept = classic if s["seat"] % 2 else expansion
                tour.keep_card(page, t["number"], s["name"], tour.label(kept))
        tables = seating(round_pk)
        for t in tables:
            for s in t["seats"]:
                assert s["faction"] in s["dealt"]
        if number == 1:
            screenshot(page, "lolv-kept-cards-laptop")
        tour.publish(page, base, round_pk, f"Heat {number}")
        # A player finds their table, seat and the faction kept.
        first = tables[0]["seats"][0]
        found = tour.find_my_table(player, base, round_pk, first["name"])
        assert f"{first['name']}: table 1, seat 1" in found
        assert tour.label(first["faction"]) in player.locator("#table-1").inner_text()
        if number == 1:
            screenshot(player, "lolv-seating-phone")

        # Five games: solo wins with 2 and 1 win attempts, two alliance wins, a concession.
        results: list[tuple[str, str]] = []
        for i, t in enumerate(tables):
            factions = [s["faction"] for s in t["seats"]]
            name = {s["faction"]: s["name"] for s in t["seats"]}
            j = TableJudge(judges[i % 2], base, t["pk"]).open()
            w = factions[(i + number) % 6]
            others = [f for f in factions if f != w]
            if i == 0:
                solo(j, w, others[0], attempts=2)
                results.append((name[w], "solo_stronghold"))
            elif i in (1, 3):
                allied(j, w, others[1], others[2])
                results += [(name[w], "allied_stronghold"), (name[others[1]], "allied_stronghold")]
            elif i == 2:
                solo(j, w, others[0], attempts=1)
                results.append((name[w], "solo_stronghold"))
            else:
                conceded(j, w)
                results.append((name[w], "solo_stronghold"))
            if number == 1 and i == 0:
                screenshot(judges[0], "lolv-table-victory-phone")
            j.file_report()
            rows = filed(t["pk"])
            assert rows[w]["result"] in ("solo_stronghold", "allied_stronghold")
            if i == 0:
                assert rows[w]["win_attempts"] == 2
            if i == 2:
                assert rows[w]["win_attempts"] == 1
        winners[number] = results

    # --- Standings: 3 per solo win or concession, 2 per alliance win (4.01.09); ties by the
    # heavier wins, then the best game's tuple among the tied players only (4.01.10).
    standings = tour.api(page, f"{base}/api/tournaments/{tournament}/standings/")["standings"]
    names = dict(Player.objects.filter(tournament_id=tournament).values_list("pk", "name"))
    expected: dict[str, Fraction] = {}
    for results in winners.values():
        for name, kind in results:
            expected[name] = expected.get(name, Fraction(0)) + (3 if kind == "solo_stronghold" else 2)
    shown = {names[r["player"]]: num(r["points"]) for r in standings}
    assert {n: p for n, p in shown.items() if p} == expected
    assert len(standings) == 30
    for above, below in zip(standings, standings[1:], strict=False):
        a, b = num(above["points"]), num(below["points"])
        assert a >= b
        if a == b and not below["tied"]:
            assert [num(v) for v in above["tiebreak"]] > [num(v) for v in below["tiebreak"]], (above, below)
    # Two solo wins of round 1, one with two win attempts and one with one: if neither player
    # scored again, the tuple's second figure orders them.
    two, one = winners[1][0][0], winners[1][3][0]
    if expected[two] == expected[one] == 3:
        rank = {names[r["player"]]: r["rank"] for r in standings}
        assert rank[two] < rank[one]

    qualifying = tour.api(page, f"{base}/api/tournaments/{tournament}/finalists/")
    finalists = qualifying["finalists"]
    assert finalists == [r["player"] for r in standings[: len(finalists)]]
    assert len(finalists) == 6

    tour.goto(player, f"{base}/tournaments/{tournament}/standings/")
    assert player.locator("tr.cut-marker").count() == 1
    assert player.locator("tr.cut-marker").locator("xpath=preceding-sibling::tr").count() == 6
    top = player.locator("table.standings tbody tr").first
    # Each tiebreak value sits in its own column under its label.
    values = top.locator("td.tiebreak-value").all_inner_texts()
    assert values[-7:] == [
        str(num(v)) if num(v).denominator == 1 else str(float(num(v))) for v in standings[0]["tiebreak"][-7:]
    ]
    assert "win attempts" in player.locator("table.standings thead").inner_text().lower()
    screenshot(player, "lolv-standings-phone")
    tour.goto(page, f"{base}/tournaments/{tournament}/standings/")
    screenshot(page, "lolv-standings-laptop")
    tour.goto(page, f"{base}/rounds/{Round.objects.get(tournament_id=tournament, kind='final').pk}/final/")
    assert page.eval_on_selector_all(
        'select[name^="pick_"]', 'els => els.filter(e => e.value === "finalist").map(e => +e.name.slice(5))'
    ) == finalists
