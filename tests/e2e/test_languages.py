"""Browser, in Spanish, French and German, at a phone's 390×844 and a laptop's 1366×900: the
player's pages (round, standings, player, private link), the table judge's table page and the
head judge's pages (tournament, round, players' desk) leave no English behind, break no word
inside and never scroll sideways.

"No English" is checked against the catalogue itself: every English msgid whose translation in
that language differs from it is a sentence the page must not show. A text or a read attribute
(title, aria-label, placeholder, alt) equal to one of them, or holding a longer one (four words
and more, or a fragment of four words between a msgid's placeholders), is English left over.
Names (players, tournaments, factions, territories, cards) and rule numbers are not msgids.
Sentences the pages assemble from the cores' English (a planner's issue, a place such as "1st",
the turn's next step, the board's caption, a result's id) are not msgids either: the telltales of
their English (TELLTALES) must not show.

"No word broken inside": every word of every visible text lies on one line (a range over the
word has its boxes on one line; a line may break after a hyphen, a dash or a slash, as in
"three-faction"), and no text is cut by an element that hides its overflow.
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gameplay import services
from scoring import services as scoring
from tests.e2e.conftest import PHONE
from tests.e2e.shared_rows import SharedRows
from tests.factories import make_players, make_round, make_tournament, seat_table
from tests.gameplay.recorded_game import recorded_game
from tests.scoring.db.conftest import report_for
from tournament import private_links
from tournament import services as tservices

LOCALE = Path(__file__).resolve().parents[2] / "locale"
LAPTOP = {"width": 1366, "height": 900}
SIX = ("atreides", "bene_gesserit", "emperor", "fremen", "harkonnen", "guild")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
#: Words the reader's language writes as English does (checked per language by the catalogue:
#: an entry translated as itself is never English left over); these few are names of the game.
GAME_NAMES = {"Bene Gesserit", "Cheap Hero", "Hidden Mobile Stronghold"}
#: English the pages assemble from the cores' words, which no catalogue entry catches: an English
#: ordinal, a planner's issue, a player's place or standing, a table's state, a result's id
#: shown as stored, the turn's next step, the board's caption and strongholds, points twice.
TELLTALES = re.compile(
    r"\b\d+(st|nd|rd|th)\b|\b[a-z]+_[a-z_]+\b|already (met|played)|share table|kept apart|gets (it|them) again|"
    r"\bplaced\b|qualified for the final|so far\b|\bPlaying\b|[Rr]eports? filed|\bcontrols\b|storm is in sector|"
    r"force stacks? on the board|Nexus done|alliances may form|Storm recorded|No worm|Mentat Pause:|"
    r"\b(contested|not controlled)\b|\bpoints? points\b|from the seating|Game Setup|\bquick (yes|no)\b|"
    r"no new turn in the last"
)


@functools.cache
def english_left(lang: str) -> tuple[set[str], list[str]]:
    """The English a page in `lang` must not show: whole texts, and longer runs of words (read
    once per language: every walk in that language asks again)."""
    whole: set[str] = set()
    runs: list[str] = []
    translations: set[str] = set()
    for domain in ("django", "djangojs"):
        with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as compiled:
            catalogue = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
        translations |= {t.strip() for t in catalogue.values()}
        for key, translated in catalogue.items():
            english = key[0] if isinstance(key, tuple) else key
            english = english.split("\x04")[-1]  # a context is not shown
            if english == translated or english in GAME_NAMES or not re.search(r"[A-Za-z]{2}", english):
                continue
            pieces = [p.strip(" .,:;·—()") for p in PLACEHOLDER.split(english)]
            if len(pieces) == 1 and len(english.split()) <= 3:
                whole.add(english.strip())
            runs += [p for p in pieces if len(p.split()) >= 4 and p not in translated]
    # A word the language writes like an English msgid ("Place", a seat in French) is not English.
    return whole - translations, sorted(set(runs))


#: Visible texts and read attributes; words split across lines; text cut by hidden overflow.
LOOK = r"""() => {
  const visible = (el) => {
    const s = getComputedStyle(el);
    if (s.display === "none" || s.visibility === "hidden") return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  // The body of a closed <details> is not shown (its summary is).
  const inClosedDetails = (el) => {
    const d = el.closest("details:not([open])");
    return !!d && !el.closest("summary");
  };
  const texts = [], broken = [], cut = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(el.tagName) || !visible(el)) continue;
    if (el.closest("[hidden], [aria-hidden=true], svg") || inClosedDetails(el)) continue;
    const text = node.textContent.replace(/\s+/g, " ").trim();
    if (!text) continue;
    texts.push(text);
    const re = /[^\s\-‐–—\/]{2,}/g;  // a line may break after a hyphen, a dash or a slash
    let m;
    while ((m = re.exec(node.textContent))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0] + " (in " + el.tagName.toLowerCase() + "." + el.className + ")");
    }
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (!visible(el) || el.closest("[hidden], svg") || inClosedDetails(el)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const v = el.getAttribute(name);
      if (v && v.trim()) texts.push(v.replace(/\s+/g, " ").trim());
    }
    const s = getComputedStyle(el);
    const hides = ["hidden", "clip"].includes(s.overflowX) || s.textOverflow === "ellipsis";
    if (hides && el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && el.textContent.trim()) {
      cut.push(el.tagName + "." + el.className + ": " + el.textContent.trim().slice(0, 60));
    }
  }
  return { texts, broken, cut, wide: document.documentElement.scrollWidth, width: window.innerWidth };
}"""


@pytest.fixture(scope="module")
def _shared_event(django_db_blocker: Any) -> Iterator[SharedRows]:
    with SharedRows.kept(django_db_blocker) as rows:
        yield rows


@pytest.fixture
def event(_shared_event: SharedRows, request: Any) -> dict[str, Any]:
    """A WBC heat: table 1 in play at turn 2's worm (a nexus open), table 2 filed. Built once per
    test process (recording the game is most of it); each language's walk gets the same rows anew."""
    ids = _shared_event.lend(lambda: _build_event(request.getfixturevalue("head_judge"),
                                                  request.getfixturevalue("make_user")))
    return _load(ids)


def _build_event(head_judge: Any, make_user: Any) -> dict[str, Any]:
    judge = make_user("judge1")
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Open Arrakis")
    tournament.table_judges.add(judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    playing = seat_table(heat, players[:6], factions=SIX, judge=judge)
    services.game_for(playing)
    seq = 1
    for body in recorded_game():
        services.append_event(playing, body, expected_seq=seq, user=judge)
        seq += 1
        if body["type"] == "worm":
            break
    filed = seat_table(heat, players[6:], number=2, factions=SIX)
    scoring.file_report(filed, report_for(filed, {0: "solo_stronghold"}), user=head_judge)
    return {"tournament": tournament.pk, "heat": heat.pk, "playing": playing.pk, "player": players[6].pk,
            "token": private_links.link_for(players[6]).token, "judge": judge.pk, "head": head_judge.pk}


def _load(ids: dict[str, Any]) -> dict[str, Any]:
    """The objects of a shared build's ids, read anew (tokens stay as they are)."""
    from django.contrib.auth import get_user_model

    from tournament.models import Player, Round, Table, Tournament

    models = {"tournament": Tournament, "heat": Round, "second": Round, "final": Round, "playing": Table,
              "final_table": Table, "player": Player, "champion": Player,
              "judge": get_user_model(), "head": get_user_model()}
    return {key: models[key].objects.get(pk=value) if key in models else value for key, value in ids.items()}


def _page(new_page: Any, live_server: Any, lang: str, user: Any = None) -> Any:
    """A phone reading in `lang` (its browser's language and the switcher's choice), signed in
    as `user` if given."""
    from django.test import Client

    page = new_page(PHONE, locale=lang, timezone_id="UTC", timeout=15_000)
    cookies = [{"name": "django_language", "value": lang, "url": live_server.url}]
    if user is not None:
        client = Client()
        client.force_login(user)
        cookies.append({"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url})
    page.context.add_cookies(cookies)
    return page


#: The one thing a page lays out by the window's size when it loads (board.js opens the board's
#: fold on a wide screen): a page holding it is loaded anew at each size, any other is resized.
LOADED_BY_SIZE = "() => !!document.getElementById('board-fold')"


def _walk(
    page: Any, urls: list[str], lang: str, sizes: tuple[dict[str, int], ...] = (PHONE, LAPTOP)
) -> Iterator[tuple[str, str, list[str]]]:
    """(viewport, url, problems) of each page at each size: each page is loaded once and looked
    at in every size, the window resized between (`LOADED_BY_SIZE`)."""
    whole, runs = english_left(lang)
    for url in urls:
        for n, viewport in enumerate(sizes):
            page.set_viewport_size(viewport)
            if n == 0 or page.evaluate(LOADED_BY_SIZE):
                page.goto(url)
                page.wait_for_load_state("networkidle")
            assert page.locator("html").get_attribute("lang") == lang, url
            seen = page.evaluate(LOOK)
            problems = [f"English: {t!r}" for t in seen["texts"] if t in whole]
            problems += [f"English: {r!r} in {t!r}" for t in seen["texts"] for r in runs if r in t]
            problems += [f"English: {t!r}" for t in seen["texts"] if TELLTALES.search(t)]
            problems += [f"word broken inside: {w!r}" for w in seen["broken"]]
            problems += [f"text cut: {c}" for c in seen["cut"]]
            if seen["width"] != viewport["width"]:
                problems.append(f"window {seen['width']} wide, not {viewport['width']}")
            if seen["wide"] > seen["width"] + 1:
                problems.append(f"sideways scroll: {seen['wide']} > {seen['width']}")
            yield f"{viewport['width']}x{viewport['height']}", url, problems


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_the_main_pages_are_all_in_the_readers_language(
    new_page: Any, live_server: Any, event: dict[str, Any], lang: str
) -> None:
    from django.core.cache import cache

    cache.clear()
    t, heat, base = event["tournament"], event["heat"], live_server.url
    walks = [
        (None, [f"{base}/rounds/{heat.pk}/", f"{base}/tournaments/{t.pk}/standings/",
                f"{base}/tournaments/{t.pk}/players/{event['player'].pk}/", f"{base}/me/{event['token']}/"]),
        (event["judge"], [f"{base}/tables/{event['playing'].pk}/"]),
        (event["head"], [f"{base}/tournaments/{t.pk}/", f"{base}/rounds/{heat.pk}/", f"{base}/tournaments/{t.pk}/players/"]),
    ]
    found: list[str] = []
    for user, urls in walks:
        page = _page(new_page, live_server, lang, user)
        for size, url, problems in _walk(page, urls, lang):
            found += [f"{size} {url.removeprefix(base)}: {p}" for p in problems]
        new_page.give_back(page)  # emptied: the next reader starts with no cookies
    assert found == [], "\n".join(found[:60])


def test_the_english_list_holds_what_a_page_must_not_show() -> None:
    whole, runs = english_left("de")
    assert {"Standings", "Table", "Record the battle"} <= whole
    assert "Bene Gesserit" not in whole
    assert any(r.startswith("No table is assigned to you yet") for r in runs)


@pytest.fixture(scope="module")
def _shared_final_event(django_db_blocker: Any) -> Iterator[SharedRows]:
    with SharedRows.kept(django_db_blocker) as rows:
        yield rows


@pytest.fixture
def final_event(_shared_final_event: SharedRows, request: Any) -> dict[str, Any]:
    """A WBC event a judge runs to its end: heat 1 filed (one game recorded at the table),
    heat 2 drawn by the planner among players who met in heat 1 (issues it could not avoid) and
    in play at a nexus, the final filed (placings, a champion). Built once per test process;
    each language's walk gets the same rows anew."""
    ids = _shared_final_event.lend(lambda: _build_final_event(request.getfixturevalue("head_judge"),
                                                              request.getfixturevalue("make_user")))
    return _load(ids)


def _build_final_event(head_judge: Any, make_user: Any) -> dict[str, Any]:
    judge = make_user("judge1")
    tournament = make_tournament(format="wbc", head_judge=head_judge, name="Open Arrakis")
    tournament.table_judges.add(judge)
    players = make_players(tournament, 12)
    heat = make_round(tournament)
    recorded = seat_table(heat, players[:6], factions=SIX, judge=judge)
    other = seat_table(heat, players[6:], number=2, factions=SIX)
    _record_to_the_worm(recorded, judge)
    scoring.file_report(recorded, report_for(recorded, {2: "solo_stronghold"}), user=head_judge)
    scoring.file_report(other, report_for(other, {0: "solo_stronghold"}), user=head_judge)
    second = make_round(tournament, number=2, state="planned")
    tservices.seat_round(second, user=head_judge, players=[p.pk for p in players[:6]], seed=3)
    tservices.publish_round(second, user=head_judge)
    playing = second.tables.get()
    playing.judge = judge
    playing.save(update_fields=["judge"])
    _record_to_the_worm(playing, judge)
    final = make_round(tournament, number=3, kind="final")
    final_table = seat_table(final, players[6:], factions=SIX, judge=judge)
    scoring.file_report(final_table, report_for(final_table, {0: "solo_stronghold"}), user=head_judge)
    return {"tournament": tournament.pk, "heat": heat.pk, "second": second.pk, "playing": playing.pk,
            "final": final.pk, "final_table": final_table.pk, "champion": players[6].pk, "judge": judge.pk,
            "head": head_judge.pk, "token": private_links.link_for(players[6]).token,
            "third": private_links.link_for(players[8]).token}


def _record_to_the_worm(table: Any, judge: Any) -> None:
    """The recorded game up to turn 2's worm (a nexus open)."""
    services.game_for(table)
    for seq, body in enumerate(recorded_game(), start=1):
        services.append_event(table, body, expected_seq=seq, user=judge)
        if body["type"] == "worm":
            break


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_a_whole_event_on_a_phone_is_in_the_readers_language(
    new_page: Any, live_server: Any, final_event: dict[str, Any], lang: str
) -> None:
    """The planner's issues on the seating page, the final's places and the champion's standing,
    a filed game's result on the player's page, the turn's next step, the board at a nexus, the
    game log, a table's clock and the round's clocks with their limit, the players' roster, the
    format's fields, choices and rules, and a filed report."""
    from django.core.cache import cache

    cache.clear()
    e, base = final_event, live_server.url
    t = e["tournament"]
    walks = [
        (None, [f"{base}/tournaments/{t.pk}/standings/", f"{base}/me/{e['token']}/", f"{base}/me/{e['third']}/",
                f"{base}/tournaments/{t.pk}/players/{e['champion'].pk}/", f"{base}/rounds/{e['final'].pk}/"]),
        (e["judge"], [f"{base}/tables/{e['playing'].pk}/", f"{base}/tables/{e['playing'].pk}/history/",
                      f"{base}/tables/{e['playing'].pk}/clock/", f"{base}/my/tables/"]),
        (e["head"], [f"{base}/rounds/{e['second'].pk}/seat/", f"{base}/tournaments/{t.pk}/",
                     f"{base}/rounds/{e['second'].pk}/", f"{base}/rounds/{e['second'].pk}/clocks/",
                     f"{base}/tournaments/{t.pk}/players/", f"{base}/tournaments/{t.pk}/format/",
                     f"{base}/tables/{e['final_table'].pk}/filed-report/"]),
    ]
    found: list[str] = []
    for user, urls in walks:
        page = _page(new_page, live_server, lang, user)
        for size, url, problems in _walk(page, urls, lang, sizes=(PHONE,)):
            found += [f"{size} {url.removeprefix(base)}: {p}" for p in problems]
        new_page.give_back(page)  # emptied: the next reader starts with no cookies
    assert found == [], "\n".join(found[:60])


def test_the_telltales_catch_the_english_the_pages_assemble() -> None:
    english = [
        "Player 001 and Player 002 already met once and share table 1", "placed 1st", "2nd (tied)",
        "Heat 1, table 2: solo_stronghold", "Rank 1 with 2 points points after 1 game", "Playing",
        "0 of 1 report filed", "Nexus: alliances may form or break", "The storm is in sector 8.",
        "Atreides controls Arrakeen", "in the top 6 so far", "— from the seating", "Game Setup",
        "WBC heat: 10 turns or 5 hours, no new turn in the last 30 minutes",
    ]
    assert [text for text in english if not TELLTALES.search(text)] == []
    translated = [
        "Player 001 y Player 002 ya se enfrentaron una vez y comparten la mesa 1", "1.º puesto", "classé 2e",
        "Platz 1.", "Rang 1 avec 2 points après 1 partie", "Nexus : des alliances peuvent se former ou se rompre",
    ]
    assert [text for text in translated if TELLTALES.search(text)] == []
