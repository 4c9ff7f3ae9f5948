"""Load a demo: a WBC tournament mid-way, with its head judge and table judges.

47 players; heat 1 finished (eight games recorded through the table game's services and
their reports filed through scoring: solo and alliance victories, a BG prediction, a Guild
default with a dropout, a concession, a time-out adjudication and a default at the table of
five); heat 2 seated, published and running, its clocks ticking and its games a few turns in;
heat 3 and the final planned.

Run by `make run`; safe to run again: each stage is done only if it is not done yet (an
older demo is brought up to date). The judges' logins are kept in `var/demo-logins.txt`: a
second run sets the same passwords again (so the logins written down keep working) and prints
them; `--no-logins` leaves the printing to `bin/run-embedded`, which shows the file once the
servers answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from clocks import services as clocks
from clocks.models import TableClock
from gameplay import services as games
from gameplay.models import Game
from scoring import services as scoring
from scoring.models import GameReport
from tournament import services
from tournament.models import Player, Round, Table, Tournament
from tournament.services.judges import How, Role, agree
from venue import demo

DEMO_NAME = "WBC Dune demo"
PLAYERS = 47
#: Heat 2 is entered by the players from this line of the roster on (some play both heats).
HEAT_2_FROM = 12

Event = dict[str, Any]


# ----------------------------------------------------------------------------- recording games


class Recorder:
    """A table judge keeping one table's game through `gameplay.services.append_event`."""

    def __init__(self, table: Table, judge: Any) -> None:

        self.games = games
        self.table = table
        self.judge = judge
        self.game = games.game_for(table)
        self.factions = [s.faction for s in table.seats.order_by("seat")]

    @property
    def evaluation(self) -> dict[str, Any]:
        return self.game.evaluation or {}

    def __call__(self, event: Event, *, reason: str = "", by_clock: bool = False) -> None:
        # The clock writes with no user, as clocks.game_log does; everything else is the judge's.
        recorded = self.games.append_event(
            self.table, event, expected_seq=self.game.seq, user=None if by_clock else self.judge, reason=reason
        )
        self.game = recorded.game

    def phase(self, phase: str) -> None:
        self({"type": "phase_advanced", "phase": phase})

    def start(self, storm: int) -> None:
        self({"type": "storm_placed", "sector": storm})
        self.phase("storm")

    def next_turn(self, storm: int) -> None:
        self({"type": "turn_advanced", "turn": int(self.evaluation.get("turn") or 1) + 1})
        self({"type": "storm_moved", "sectors": storm})

    def battle(self, occupants: dict[str, list[str]]) -> None:
        """The battle phase as a judge on quick tracking records it: who stands in the
        strongholds, then the win attempts the engine sees, confirmed (LoLV 4.01.04)."""
        self.phase("battle")
        self({"type": "quick_record", "occupants": occupants, "coexisting": [], "storm": None, "worms": None})
        for side in self.evaluation.get("win_attempts") or []:
            self(
                {
                    "type": "win_attempt_confirmed",
                    "factions": list(side),
                    "note": "at the start of the battle",
                }
            )

    def turn(self, storm: int, occupants: dict[str, list[str]] | None = None, *, worm: bool = False) -> None:
        """From a Mentat Pause to the next one."""
        self.next_turn(storm)
        if worm:
            self.phase("spice_blow")
            self({"type": "worm", "territory": None, "karama": False})
        if occupants is not None:
            self.battle(occupants)
        self.phase("mentat_pause")

    def claim(self) -> None:
        victory = self.evaluation.get("victory")
        if not victory:
            raise RuntimeError(f"{self.table}: no victory at this Mentat Pause")
        self({"type": "victory_claimed", "winners": victory["winners"], "kind": None})


def _solo(r: Recorder, winner: str, rival: str, storm: int) -> None:
    r.start(storm)
    r.battle({"arrakeen": [winner], "carthag": [rival], "tueks_sietch": ["guild"]})
    r.phase("mentat_pause")
    r.turn(3, {"arrakeen": [winner], "carthag": [winner], "tueks_sietch": ["guild"]}, worm=True)
    r.turn(
        2, {"arrakeen": [winner], "carthag": [winner], "habbanya_sietch": [winner], "tueks_sietch": ["guild"]}
    )
    r.claim()


def _allied(r: Recorder, a: str, b: str, rival: str, storm: int) -> None:
    r.start(storm)
    r.battle({"arrakeen": ["atreides"], "carthag": ["harkonnen"], "sietch_tabr": ["fremen"]})
    r.phase("mentat_pause")
    r.next_turn(4)
    r.phase("spice_blow")
    r({"type": "worm", "territory": None, "karama": False})
    r({"type": "alliance_formed", "factions": [a, b]})
    r.battle({"arrakeen": [a], "carthag": [rival], "sietch_tabr": [b]})
    r.phase("mentat_pause")
    r.turn(
        1,
        {
            "arrakeen": [a],
            "tueks_sietch": [a],
            "sietch_tabr": [b],
            "habbanya_sietch": [b],
            "carthag": [rival],
        },
    )
    r.claim()


def _prediction(r: Recorder, predicted: str, turn: int, storm: int) -> None:
    r({"type": "bg_prediction_made", "faction": predicted, "turn": turn})
    r.start(storm)
    r.battle({"carthag": ["harkonnen"], "sietch_tabr": [predicted]})
    r.phase("mentat_pause")
    while int(r.evaluation.get("turn") or 1) < turn - 1:
        r.turn(2, {"carthag": ["harkonnen"], "sietch_tabr": [predicted], "tueks_sietch": ["guild"]})
    r.turn(5, {"sietch_tabr": [predicted], "tueks_sietch": [predicted], "habbanya_sietch": [predicted]})
    r.claim()


def _last_turn(r: Recorder, holder: str, storm: int, *, dropout: str | None = None) -> None:
    """Ten turns without a stronghold winner: the special or default victory decides."""
    r.start(storm)
    r.battle({"sietch_tabr": [holder], "arrakeen": [f for f in r.factions if f == "atreides"]})
    r.phase("mentat_pause")
    while int(r.evaluation.get("turn") or 1) < 10:
        turn = int(r.evaluation.get("turn") or 1) + 1
        r.turn(1 + turn % 6, {"sietch_tabr": [holder]} if turn % 3 == 0 else None, worm=turn in (3, 6))
        if dropout is not None and turn == 4:
            r({"type": "dropout", "faction": dropout, "reason": "left the event after turn 4"})
    r({"type": "last_turn_ended"})


def _concession(r: Recorder, to: str, storm: int) -> None:
    r.start(storm)
    r.phase("mentat_pause")
    for n in range(3):
        r.turn(n + 2, {"arrakeen": [to], "carthag": [to]} if n else None)
    r({"type": "concession", "to_factions": [to], "unanimous": True})


def _time_out(r: Recorder, leader: str, second: str, storm: int) -> None:
    """Six turns, then the clock runs out (the clocks write `time_up`); the judge confirms
    the engine's adjudication (WBC Preliminary Heat Duration and Adjudication)."""
    r.start(storm)
    r.phase("mentat_pause")
    for n in range(5):
        r.turn(1 + n, {"arrakeen": [leader], "carthag": [leader], "sietch_tabr": [second]} if n % 2 else None)
    r({"type": "time_up", "clock": "wbc_heat"}, reason="WBC Preliminary Heat Duration: no new turn", by_clock=True)
    ranking = r.evaluation.get("adjudication") or [[leader]]
    r({"type": "adjudication_confirmed", "winners": list(ranking[0]), "override_reason": None})


#: Heat 1's games by table number: each plays out as its table judge records it.
HEAT_1_GAMES: dict[int, Callable[[Recorder], None]] = {
    1: lambda r: _solo(r, "harkonnen", "atreides", 4),
    2: lambda r: _allied(r, "atreides", "emperor", "harkonnen", 7),
    3: lambda r: _prediction(r, "fremen", 3, 11),
    4: lambda r: _last_turn(r, "harkonnen", 2, dropout="emperor"),
    5: lambda r: _concession(r, "emperor", 9),
    6: lambda r: _time_out(r, "emperor", "fremen", 5),
    7: lambda r: _solo(r, "fremen", "emperor", 14),
    8: lambda r: _last_turn(r, next(f for f in ("harkonnen", "atreides", "emperor") if f in r.factions), 16),
}


def _progress(r: Recorder, turns: int) -> None:
    """A heat 2 game a few turns in, still running."""
    sides = [f for f in r.factions if f not in ("guild",)]
    r.start(1 + turns * 3)
    r.battle({"arrakeen": sides[:1], "carthag": sides[1:2]})
    r.phase("mentat_pause")
    for n in range(1, turns):
        places = {"arrakeen": sides[:1], "carthag": sides[1:2], "sietch_tabr": sides[2:3]}
        if n == 2:
            places["habbanya_sietch"] = sides[:1]
        r.turn(n + 1, places, worm=n == 1)
    r.next_turn(2)


LOGINS_FILE = "demo-logins.txt"
LOGIN_LINE = re.compile(r"^\s+(\S+)\s+password: (\S+)$")


def _kept_logins(path: Path) -> dict[str, str]:
    """The logins the last run wrote down, {username: password}; none when there is no file."""
    if not path.exists():
        return {}
    return {m[1]: m[2] for line in path.read_text().splitlines() if (m := LOGIN_LINE.match(line))}


# ----------------------------------------------------------------------------- the command


class Command(BaseCommand):
    help = (
        "Load the demo WBC tournament (47 players; heat 1 finished, heat 2 running with its clocks) "
        "and print the judges' logins."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--no-logins", action="store_true", help="keep the logins in var/demo-logins.txt without printing them"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kept_at = Path(settings.VAR_DIR) / LOGINS_FILE
        head, judges, logins = demo.demo_accounts(8, kept=_kept_logins(kept_at))
        with transaction.atomic():
            tournament = Tournament.objects.filter(name=DEMO_NAME).first()
            if tournament is None:
                tournament = services.create_tournament(name=DEMO_NAME, format="wbc", user=head)
                self._register(tournament)
                self.stdout.write(f"Created {DEMO_NAME} with {PLAYERS} players.")
            # The demo's accounts are made for its tournament: they judge it by that agreement.
            agree(tournament, head, role=Role.HEAD_JUDGE, how=How.CREATED_TOURNAMENT, by=head)
            for judge in judges:
                agree(tournament, judge, role=Role.TABLE_JUDGE, how=How.ACCOUNT_MADE, by=head)
        heats = list(tournament.rounds.filter(kind=Round.Kind.HEAT).order_by("number"))
        self._heat_1(tournament, heats[0], head, judges)
        if len(heats) > 1:
            self._heat_2(tournament, heats[1], head, judges)
        lines = [f"  {username:<10} password: {password}" for username, password in logins]
        lines.append(f"Dashboard: /tournaments/{tournament.pk}/")
        if len(heats) > 1:
            lines.append(f"Heat 2 clocks: /rounds/{heats[1].pk}/clocks/")
        lines.append(f"Standings: /tournaments/{tournament.pk}/standings/")
        kept_at.parent.mkdir(parents=True, exist_ok=True)
        kept_at.write_text("\n".join(lines) + "\n")
        if not options["no_logins"]:
            self.stdout.write("\n".join(lines))


    def _register(self, tournament: Tournament) -> None:
        now = timezone.now().replace(second=0, microsecond=0)
        demo.register_roster(tournament, PLAYERS)
        services.create_round(tournament, kind=Round.Kind.HEAT, starts_at=now - timedelta(hours=6))
        services.create_round(tournament, kind=Round.Kind.HEAT, starts_at=now - timedelta(minutes=10))
        services.create_round(tournament, kind=Round.Kind.HEAT, starts_at=now + timedelta(days=1))
        services.create_round(tournament, kind=Round.Kind.FINAL, starts_at=now + timedelta(days=1, hours=7))

    def _seat(self, heat: Round, players: Sequence[Player], head: Any, judges: list[Any], seed: int) -> None:
        """Check in, seat, appoint a judge per table and publish (a heat not seated yet)."""
        if heat.tables.exists():
            return
        with transaction.atomic():
            for player in players:
                services.check_in(heat, player)
            services.seat_round(heat, user=head, seed=seed)
            for table, judge in zip(heat.tables.order_by("number"), judges, strict=False):
                services.assign_table_judge(table, judge.username)
            services.publish_round(heat, user=head)

    def _heat_1(self, tournament: Tournament, heat: Round, head: Any, judges: list[Any]) -> None:
        """Everybody plays heat 1; every game is recorded and its report filed."""

        self._seat(heat, list(tournament.players.order_by("pk")), head, judges, seed=2018)
        played = 0
        for table in heat.tables.select_related("judge").order_by("number"):
            if GameReport.objects.filter(table=table).exists():
                continue
            judge = table.judge or head
            game = Game.objects.filter(table=table).first()
            try:
                with transaction.atomic():
                    clock = clocks.clock_for(table)
                    if clock.started_at is None:
                        clocks.start(table, user=head)
                    if game is None or game.seq == 1:
                        recorder = Recorder(table, judge)
                        HEAT_1_GAMES.get(table.number, HEAT_1_GAMES[1])(recorder)
                        game = recorder.game
                    if not (game.evaluation or {}).get("outcome"):
                        continue  # recorded by hand meanwhile: left to its judge
                    self._file(table, judge)  # filing finishes the table's clock
                    if clocks.clock_for(table).state != "finished":
                        clocks.finish(table, user=judge, reason="game over")
                    self._played_this_morning(table, heat)
            except Exception as error:  # noqa: BLE001 - one refused demo game must not stop `make run`
                self._skipped(table, error)
                continue
            played += 1
        if played:
            self.stdout.write(f"Heat 1: recorded and filed {played} games.")
        if heat.state == Round.State.PUBLISHED:
            try:
                services.finish_round(heat, user=head)
                self.stdout.write("Heat 1: closed.")
            except services.Refused as error:
                self.stderr.write(f"Heat 1 stays open: {error}")

    def _played_this_morning(self, table: Table, heat: Round) -> None:
        """The demo records a game in a moment; its clock is set to have run from the round's
        start for about half an hour a turn (to the time limit for a game that ran out of
        time), so the event report's hours read like an event's."""
        clock = TableClock.objects.get(table=table)
        data = GameReport.objects.get(table=table).data
        if data["ended_by"] == "time_limit":
            played = clock.limit.time_limit(players=clock.players)
        else:
            played = timedelta(minutes=20 + 28 * int(data["turns"]))
        start = heat.starts_at or timezone.now() - timedelta(hours=6)
        demo.backdate_clock(table, started=start, finished=start + played)

    def _skipped(self, table: Table, error: Exception) -> None:
        """Say which demo game the current rules or services refused (it is left unrecorded)."""
        self.stderr.write(f"{table}: demo game not recorded: {type(error).__name__}: {error}")

    def _file(self, table: Table, judge: Any) -> None:
        report = games.prefill_report(table)
        scoring.file_report(table, report, user=judge)
        for row in report["results"]:
            if row["result"] == "dropout":
                services.set_status(Player.objects.get(pk=row["player"]), Player.Status.DROPPED)

    def _heat_2(self, tournament: Tournament, heat: Round, head: Any, judges: list[Any]) -> None:
        """Heat 2 running: seated from the players who entered it, clocks started, games under way."""

        if heat.tables.exists():
            return
        entered = list(tournament.players.filter(status=Player.Status.ACTIVE).order_by("pk")[HEAT_2_FROM:])
        self._seat(heat, entered, head, judges, seed=2019)
        clocks.start_round(heat, user=head, reason="heat 2 begins")
        for table in heat.tables.select_related("judge").order_by("number"):
            try:
                with transaction.atomic():
                    _progress(Recorder(table, table.judge or head), turns=1 + table.number % 4)
            except Exception as error:  # noqa: BLE001 - as in heat 1: the demo still loads
                self._skipped(table, error)
        self.stdout.write(f"Heat 2: {heat.tables.count()} tables running, clocks started.")
