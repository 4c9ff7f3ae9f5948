"""Page-driving steps shared by the whole-tournament browser tests.

Every step clicks through the pages a head judge, a table judge or a player uses; none writes
to the database. A step that a page refuses fails with the page's own message (the field
error, the rule, the HTTP status), so a failing run says which page is missing what.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from playwright.sync_api import expect

from dune.engine.names import faction_name

#: Strongholds of the quick-tracking grid (stable ids of DESIGN.md).
STRONGHOLDS = ("arrakeen", "carthag", "sietch_tabr", "tueks_sietch", "habbanya_sietch")


class PageRefused(AssertionError):
    """A page answered an action with an error instead of doing it."""


def _errors(page: Any) -> str:
    """The error messages a page shows (field errors, alerts), joined."""
    texts = page.locator(".field-error, .error, [role=alert]").all_inner_texts()
    return " | ".join(t.strip() for t in texts if t.strip())


def submit(page: Any, button: Any, *, expect: str | None = None, what: str = "") -> None:
    """Click a submit button, wait for the answer page, and fail with the page's message
    if it shows an error (or lacks the `expect`ed confirmation)."""
    with page.expect_navigation(wait_until="load") as nav:
        button.click()
    response = nav.value
    status = response.status if response is not None else 0
    errors = _errors(page)
    label = what or "form"
    if status >= 400 or (errors and expect is None):
        raise PageRefused(f"{label}: {page.url} answered HTTP {status}: {errors or page.title()}")
    if expect is not None:
        shown = page.locator(".messages").all_inner_texts()
        if not any(expect in t for t in shown):
            raise PageRefused(
                f"{label}: expected the message {expect!r} at {page.url}, got {shown!r}; errors: {errors!r}"
            )


def record(page: Any, button: Any, *, what: str = "") -> None:
    """Tap a table-page action (recorded in place, without a page load) and wait for the
    answer: the record number moves on, or a refusal or stale notice is pinned in view."""
    before = page.locator("#table-live").get_attribute("data-seq")
    button.click()
    page.wait_for_function(
        "([seq]) => { const live = document.getElementById('table-live');"
        " return live.dataset.seq !== seq || live.querySelector('#refusal, #stale')"
        " || !document.getElementById('conflict').hidden; }",
        arg=[before],
    )
    refused = page.locator("#refusal, #stale, #conflict:not([hidden])")
    if refused.count():
        raise PageRefused(f"{what or 'action'}: {refused.first.inner_text()}")


def goto(page: Any, url: str, *, status: int = 200) -> Any:
    response = page.goto(url)
    assert response is not None, url
    if response.status != status:
        raise PageRefused(f"GET {url} answered HTTP {response.status} (expected {status}): {_errors(page)}")
    return response


def show(page: Any, url: str) -> None:
    """Open `url` unless the page shows it already: a page the steps left there is the answer of
    its own last action (a form's redirect back to it, or its in-place updates), as current as a
    reload would make it, so loading it again would check nothing new."""
    if page.url.split("#", 1)[0] != url:
        goto(page, url)


def tap(page: Any, button: Any) -> None:
    """Click a button that posts in place (htmx) and wait for the server's answer to it, so that
    the check of what the page then shows passes at its first look instead of polling."""
    with page.expect_response(lambda response: response.request.method == "POST"):
        button.click()


@pytest.fixture
def player(new_page: Any) -> Any:
    """A player's phone (390×844) on which nobody is signed in."""
    from tests.e2e.conftest import PHONE

    return new_page(PHONE, locale="en-US", timezone_id="UTC", timeout=10_000)


def api(page: Any, url: str) -> Any:
    """GET a JSON API answer with the page's session (reading what the pages did)."""
    response = page.request.get(url)
    assert response.ok, f"GET {url}: HTTP {response.status}"
    return response.json()


# ----------------------------------------------------------------------------- head judge


def create_tournament(page: Any, base: str, *, name: str, format: str) -> int:
    goto(page, f"{base}/tournaments/new/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Format").select_option(format)
    submit(page, page.get_by_role("button", name="Create tournament"), expect=f"Created {name}.")
    match = re.search(r"/tournaments/(\d+)/", page.url)
    assert match, page.url
    return int(match.group(1))


def add_round(page: Any, base: str, tournament: int, *, kind: str = "heat", starts_at: str = "") -> None:
    show(page, f"{base}/tournaments/{tournament}/")
    page.get_by_label("Kind").select_option(kind)
    if starts_at:
        page.get_by_label("Scheduled start").fill(starts_at)
    submit(page, page.get_by_role("button", name="Add round"), expect="Added")


def appoint_judge(page: Any, base: str, tournament: int, username: str) -> None:
    """Invite the account on the dashboard; it accepts (its account page is tested apart)."""
    from tournament import services
    from tournament.judge_models import JudgeInvitation

    show(page, f"{base}/tournaments/{tournament}/")
    page.get_by_label("Invite an existing account to judge tables (username)").fill(username)
    submit(page, page.get_by_role("button", name="Invite"), expect=f"{username} is invited")
    invitation = JudgeInvitation.objects.get(tournament_id=tournament, user__username=username)
    services.accept_invitation(invitation.user, invitation.pk)


def import_players_csv(
    page: Any, base: str, tournament: int, csv_text: str, *, expect_refused: int = 0
) -> int:
    """Paste the CSV, check the preview, register the accepted rows; answers how many."""
    goto(page, f"{base}/tournaments/{tournament}/players/import/")
    page.get_by_label("…or paste the CSV").fill(csv_text)
    with page.expect_navigation():
        page.get_by_role("button", name="Preview").click()
    refused = page.locator("tr.row-refused").count()
    assert refused == expect_refused, f"the preview refuses {refused} rows: {_errors(page)}"
    accepted = page.locator("tr.row-ok").count()
    if refused:
        page.get_by_label(re.compile(r"Skip the \d+ refused row")).check()
    submit(
        page,
        page.get_by_role("button", name=f"Register {accepted} player"),
        expect=f"Registered {accepted} players.",
        what="CSV import",
    )
    return accepted


def check_in(page: Any, base: str, tournament: int, round_pk: int, names: Iterable[str]) -> int:
    """Check the named players in for a round, one tap each, in place; answers the page's count.

    Each button is looked for in its player's row (read from the database): naming every
    button of a long roster to find one costs the browser more than the tap itself."""
    from tournament.models import Player

    names = list(names)
    rows = dict(Player.objects.filter(tournament_id=tournament, name__in=names).values_list("name", "pk"))
    goto(page, f"{base}/tournaments/{tournament}/players/?round={round_pk}")
    for name in names:
        row = page.locator(f"#player-{rows[name]}")
        tap(page, row.get_by_role("button", name=f"Check {name} in", exact=True))
        expect(row.get_by_role("button", name=f"Check {name} out", exact=True)).to_be_visible()
    return int(page.locator("#checked-count").inner_text())


def drop_player(page: Any, base: str, tournament: int, name: str) -> None:
    """Drop a player at the desk: the page asks to confirm first."""
    goto(page, f"{base}/tournaments/{tournament}/players/")
    page.once("dialog", lambda dialog: dialog.accept())
    tap(page, page.get_by_role("button", name=f"Drop {name}", exact=True))
    expect(page.get_by_role("button", name=f"Reinstate {name}", exact=True)).to_be_visible()


def seat_round(page: Any, base: str, round_pk: int, *, seed: int, players: int) -> None:
    goto(page, f"{base}/rounds/{round_pk}/seat/")
    page.get_by_label("Seed (empty: a new random draw)").fill(str(seed))
    submit(
        page, page.get_by_role("button", name=f"Seat {players} players"), expect="Seated", what="seat a round"
    )


def publish(page: Any, base: str, round_pk: int, label: str) -> None:
    show(page, f"{base}/rounds/{round_pk}/seat/")
    submit(
        page,
        page.get_by_role("button", name="Publish the seating"),
        expect=f"Published the seating of {label}.",
        what="publish",
    )


def seat_and_publish(page: Any, base: str, round_pk: int, *, seed: int, players: int, label: str) -> None:
    seat_round(page, base, round_pk, seed=seed, players=players)
    publish(page, base, round_pk, label)


def seat_latecomer(page: Any, base: str, round_pk: int, name: str) -> None:
    show(page, f"{base}/rounds/{round_pk}/seat/")
    page.locator("#id_late").select_option(label=name)
    submit(page, page.get_by_role("button", name="Seat latecomer"), expect=f"Seated latecomer {name}.")


def take_undrawn(page: Any, base: str, round_pk: int, player_option: str, faction_label: str) -> None:
    """WBC: at a table of five a player takes the undrawn faction, everyone consenting."""
    show(page, f"{base}/rounds/{round_pk}/seat/")
    form = page.locator("form[action*=\"/seat/undrawn/\"]")
    form.get_by_label("Player").select_option(label=player_option)
    form.get_by_label("Takes the undrawn faction").select_option(label=faction_label)
    form.get_by_label("Everyone at the table consents").check()
    submit(page, form.get_by_role("button", name="Record"), expect="Recorded the faction change.")


def keep_card(page: Any, table: int, name: str, faction_label: str) -> None:
    """LoLV 0.08: one tap on the dealt card the player keeps; the table's card updates in place."""
    card = page.locator(f"#keep-table-{table}")
    tap(page, card.get_by_role("button", name=f"{faction_label} for {name}", exact=True))
    expect(card).to_contain_text(f"{name} keeps {faction_label}.")


def find_my_table(page: Any, base: str, round_pk: int, name: str) -> str:
    """A player's "where do I sit?" search; answers what the page says."""
    goto(page, f"{base}/rounds/{round_pk}/")
    page.get_by_label("Where do I sit?").fill(name)
    with page.expect_navigation():
        page.get_by_role("button", name="Find my table").click()
    return page.get_by_role("status").inner_text()


# ----------------------------------------------------------------------------- table judge


def label(faction: str) -> str:
    return faction_name(faction)


@dataclass
class TableJudge:
    """A table judge's phone on one table page, recording the game as the table plays it."""

    page: Any
    base: str
    table: int
    log: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"{self.base}/tables/{self.table}/"

    def open(self) -> TableJudge:
        goto(self.page, self.url)
        return self

    def open_details(self, section: str, summary: str) -> None:
        """Open a folded form (it may be open already: an unchanged part keeps what the judge opened)."""
        folded = self.page.locator(f"{section} summary", has_text=summary).first
        if not folded.evaluate("s => s.parentElement.open"):
            folded.click()

    def form(self, action: str) -> Any:
        return self.page.locator(f"form[data-action={action}]").first

    def do(self, action: str, button: str, *, what: str = "") -> None:
        self.log.append(action)
        record(self.page, self.form(action).get_by_role("button", name=button), what=f"table {self.table} {what or action}")

    # --- the flow of a turn
    def place_storm(self, sector: int) -> None:
        self.form("place_storm").get_by_label("Storm starts in sector").fill(str(sector))
        self.do("place_storm", "Place storm")

    def phase(self, phase: str) -> None:
        self.page.locator("#phase-select").select_option(phase)
        self.do("advance_phase", "Advance phase", what=f"advance to {phase}")

    def next_turn(self) -> None:
        self.do("advance_turn", re.compile(r"Next turn"))  # type: ignore[arg-type]

    def move_storm(self, sectors: int) -> None:
        self.page.get_by_label("Move storm by (sectors)").fill(str(sectors))
        self.do("move_storm", "Move storm")

    def worm(self) -> None:
        self.do("worm", "Record worm")

    def ally(self, *factions: str) -> None:
        nexus = self.form("form_alliance")
        for f in factions:
            nexus.get_by_label(label(f), exact=True).check()
        self.do("form_alliance", "Form alliance")

    def strongholds(self, occupants: Mapping[str, Sequence[str]]) -> None:
        """Quick tracking: tick who stands in each stronghold (all others cleared)."""
        grid = self.form("quick_record")
        cells = grid.locator("input[name=occ]").evaluate_all("boxes => boxes.map(b => [b.value, b.checked])")
        for value, checked in cells:
            place, _, faction = value.partition("|")
            if (faction in occupants.get(place, ())) != checked:
                grid.locator(f'input[name=occ][value="{value}"]').click()
        self.do("quick_record", "Record strongholds")

    def confirm_attempts(self) -> int:
        """Confirm every win attempt the engine proposes at this battle phase."""
        done = 0
        while self.page.locator("form.proposal[data-action=confirm_win_attempt]").count():
            proposal = self.page.locator("form.proposal[data-action=confirm_win_attempt]").first
            proposal.get_by_label("Note").fill("seen at the start of the battle phase")
            record(self.page, proposal.get_by_role("button", name="Confirm win attempt"),
                   what=f"table {self.table} win attempt")
            done += 1
        return done

    def play_turn(
        self, storm: int = 0, occupants: Mapping[str, Sequence[str]] | None = None, *, attempts: bool = False
    ) -> None:
        """From a Mentat Pause: the next turn, its storm (0: not recorded), the battle phase's
        strongholds if given, its win attempts if asked, then the Mentat Pause."""
        self.next_turn()
        if storm:
            self.move_storm(storm)
        if occupants is not None:
            self.phase("battle")
            self.strongholds(occupants)
            if attempts:
                self.confirm_attempts()
        self.phase("mentat_pause")

    # --- setup
    def predict(self, faction: str, turn: int) -> None:
        form = self.form("make_prediction")
        form.locator("select[name=faction]").select_option(faction)
        form.get_by_label("Turn").fill(str(turn))
        self.do("make_prediction", "Record prediction")

    def start_forces(self, faction: str, piece: str, normal: int) -> None:
        form = self.form("place_forces")
        form.locator("select[name=faction]").select_option(faction)
        form.locator("select[name=piece]").select_option(piece)
        form.locator("input[name=normal]").fill(str(normal))
        self.do("place_forces", "Place starting forces")

    def place_forces(self, faction: str, piece: str, normal: int) -> None:
        form = self.page.locator("#full form[data-action=place_forces]")
        self.open_details("#full", "Forces")
        form.locator("select[name=faction]").select_option(faction)
        form.locator("select[name=piece]").select_option(piece)
        form.locator("input[name=normal]").fill(str(normal))
        self.log.append("place_forces")
        record(self.page, form.get_by_role("button", name="Place forces"), what=f"table {self.table} place forces")

    def set_spice(self, faction: str, amount: int) -> None:
        self.open_details("#full", "Spice, cards, leaders")
        form = self.form("set_spice")
        form.locator("select[name=faction]").select_option(faction)
        form.locator("input[name=amount]").fill(str(amount))
        self.do("set_spice", "Set spice")

    def start(self, *, storm: int) -> None:
        """Setup done: the storm's first position, then the first turn's storm phase."""
        self.place_storm(storm)
        self.phase("storm")

    # --- endings
    def confirm_victory(self) -> str:
        proposal = self.page.locator("form.proposal[data-action=claim_victory]")
        assert proposal.count() == 1, f"table {self.table}: no victory proposed at the Mentat Pause"
        text = proposal.inner_text()
        self.log.append("claim_victory")
        record(self.page, proposal.get_by_role("button", name="Confirm victory"), what=f"table {self.table} victory")
        return text

    def _open(self, summary: str) -> None:
        self.open_details("#ending", summary)

    def end_last_turn(self) -> None:
        self._open("End of the last turn")
        self.do("end_last_turn", "End of the last turn")

    def concede(self, *factions: str) -> None:
        self._open("End of the last turn")
        form = self.form("concede")
        for f in factions:
            form.get_by_label(label(f), exact=True).check()
        self.do("concede", "Record concession")

    def drop_out(self, faction: str, why: str) -> None:
        self._open("Dropout")
        form = self.form("drop_out")
        form.locator("select[name=faction]").select_option(faction)
        form.get_by_label("Why").fill(why)
        self.do("drop_out", "Record dropout")

    def adjudicate(self) -> str:
        """Confirm the engine's adjudication (its first-ranked side is pre-ticked)."""
        self._open("Time out: adjudication")
        ranking = self.page.locator("#ending details", has_text="Time out").inner_text()
        self.do("confirm_adjudication", "Confirm adjudication")
        return ranking

    def outcome(self) -> str:
        return self.page.locator(".outcome").inner_text()

    def file_report(self) -> None:
        self.page.get_by_role("link", name=re.compile(r"^Game report")).click()
        self.page.wait_for_load_state()
        self.page.get_by_label("I checked every row with the players").check()
        submit(
            self.page,
            self.page.get_by_role("button", name="File the report"),
            expect="Filed.",
            what=f"table {self.table} report",
        )
