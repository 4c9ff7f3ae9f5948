"""Small helpers of the table judge's page: labels, errors next to their field."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from dune.engine.board import TERRITORIES
from dune.engine.names import FACTION_NAMES, PHASE_NAMES, place_name
from dune.engine.results import ENDING_WORDS, RESULTS, ResultKind
from dune.engine.rulesets import RULESETS
from foundation.core_words import core_word, phase_words
from gameplay import record_words

register = template.Library()


def _without_article(words: str) -> str:
    for article in ("a ", "an ", "the "):
        if words.startswith(article):
            return words[len(article):]
    return words


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


#: Result kinds and game endings as a person reads them (`bg_prediction` -> "Bene Gesserit
#: prediction victory", `turn_limit` -> "The turn limit"), from the engine's own words.
_KIND_WORDS = {kind.value: _without_article(row.name) for kind, row in RESULTS.items()}
_ENDING_WORDS = {key: _without_article(words) for key, words in ENDING_WORDS.items()}

#: Ids whose title case reads wrong.
_ID_WORDS = {"bg_prediction_made": gettext_lazy("Bene Gesserit prediction"),
             "bg_prediction_revealed": gettext_lazy("Bene Gesserit prediction revealed"),
             "hms_moved": gettext_lazy("Hidden Mobile Stronghold moved"), "choam_charity": "CHOAM Charity"}


@register.filter
def label(value: Any) -> str:
    """`bene_gesserit` -> `Bene Gesserit`; `shield_wall@8` -> `Shield Wall (sector 8)`;
    `allied_stronghold` -> `Allied stronghold victory`; any other id in words
    (`mentat_pause` -> `Mentat Pause`)."""
    if value is None:
        return "—"
    text = str(value)
    if isinstance(value, ResultKind):
        text = value.value
    kind_or_ending = _KIND_WORDS.get(text) or _ENDING_WORDS.get(text)
    if kind_or_ending:  # the engine's words, in the reader's language
        return _capital(core_word(kind_or_ending))
    if text in PHASE_NAMES:
        return _capital(phase_words(PHASE_NAMES[text]))
    return FACTION_NAMES.get(text) or str(_ID_WORDS.get(text) or "") or place_name(text)


@register.filter
def ending(value: Any) -> str:
    """How a game ended, inside a sentence: `turn_limit` -> "the turn limit"."""
    words = ENDING_WORDS.get(str(value))
    return core_word(words) if words else str(value).replace("_", " ")


#: Short faction names where a phone has room for three letters (a legend gives the full name).
_SHORT = {"bene_gesserit": "BG", "choam": "CHO"}


@register.filter
def short(faction: Any) -> str:
    """`atreides` -> `Atr`, `bene_gesserit` -> `BG`."""
    text = str(faction or "")
    return _SHORT.get(text, text[:3].title())


@register.simple_tag
def field_error(error: Any, action: str, field: str = "") -> str:
    """The error of `action`'s form, shown next to `field` (or at the form's foot with no field)."""
    if not error or error.get("action") != action:
        return ""
    if (error.get("field") or "") != field:
        return ""
    rule = error.get("rule")
    rule_text = format_html('<span class="rule">rule {}</span> ', rule) if rule else ""
    return format_html(
        '<p class="field-error" role="alert" id="err-{}-{}">{}{}</p>', action, field or "form", rule_text, error["message"]
    )


@register.simple_tag
def posted(values: Any, action: str, field: str, default: Any = "") -> Any:
    """The value a refused form had, so the judge does not type it again."""
    if values and values.get("action") == action and values.get(field) not in (None, ""):
        return values.get(field)
    return default


@register.filter
def get(mapping: Any, key: Any) -> Any:
    if not mapping:
        return None
    return mapping.get(key)


#: Every event field (`dune.engine.events.describe_events`) in words, in the reader's language.
_FIELD_WORDS = {
    "action": pgettext_lazy("a record's field", "action"),
    "advisors": pgettext_lazy("a record's field", "advisors"),
    "aggressor": pgettext_lazy("a record's field", "aggressor"),
    "allies_spared": pgettext_lazy("a record's field", "allies spared"),
    "ally_paid": pgettext_lazy("a record's field", "ally paid"),
    "ambassador": pgettext_lazy("a record's field", "ambassador"),
    "ambassadors": pgettext_lazy("a record's field", "ambassadors"),
    "amount": pgettext_lazy("a record's field", "amount"),
    "amounts": pgettext_lazy("a record's field", "amounts"),
    "automatic_losses": pgettext_lazy("a record's field", "automatic losses"),
    "before": pgettext_lazy("a record's field", "before"),
    "bg_prediction": pgettext_lazy("a record's field", "Bene Gesserit prediction"),
    "captor": pgettext_lazy("a record's field", "captor"),
    "capture": pgettext_lazy("a record's field", "capture"),
    "card": pgettext_lazy("a record's field", "card"),
    "cause": pgettext_lazy("a record's field", "cause"),
    "clock": pgettext_lazy("a record's field", "clock"),
    "coexisting": pgettext_lazy("a record's field", "coexisting"),
    "collections": pgettext_lazy("a record's field", "collections"),
    "cost": pgettext_lazy("a record's field", "cost"),
    "count": pgettext_lazy("a record's field", "count"),
    "defender": pgettext_lazy("a record's field", "defender"),
    "delta": pgettext_lazy("a record's field", "change"),
    "die": pgettext_lazy("a record's field", "die"),
    "effect": pgettext_lazy("a record's field", "effect"),
    "event": pgettext_lazy("a record's field", "record"),
    "face": pgettext_lazy("a record's field", "face"),
    "faction": pgettext_lazy("a record's field", "faction"),
    "factions": pgettext_lazy("a record's field", "factions"),
    "from_faction": pgettext_lazy("a record's field", "from"),
    "from_sector": pgettext_lazy("a record's field", "from sector"),
    "from_territory": pgettext_lazy("a record's field", "from"),
    "ghola": pgettext_lazy("a record's field", "ghola"),
    "holder": pgettext_lazy("a record's field", "holder"),
    "how": pgettext_lazy("a record's field", "by"),
    "income": pgettext_lazy("a record's field", "income"),
    "karama": pgettext_lazy("a record's field", "Karama"),
    "leader": pgettext_lazy("a record's field", "leader"),
    "markers": pgettext_lazy("a record's field", "markers"),
    "names": pgettext_lazy("a record's field", "names"),
    "no_field": pgettext_lazy("a record's field", "No-Field"),
    "normal": pgettext_lazy("a record's field", "forces"),
    "note": pgettext_lazy("a record's field", "note"),
    "occupants": pgettext_lazy("a record's field", "occupants"),
    "options": pgettext_lazy("a record's field", "options"),
    "order_card": pgettext_lazy("a record's field", "order card"),
    "out_of_game": pgettext_lazy("a record's field", "out of the game"),
    "override_reason": pgettext_lazy("a record's field", "override reason"),
    "phase": pgettext_lazy("a record's field", "phase"),
    "place": pgettext_lazy("a record's field", "place"),
    "placements": pgettext_lazy("a record's field", "placements"),
    "prescience": pgettext_lazy("a record's field", "Prescience"),
    "price": pgettext_lazy("a record's field", "price"),
    "quick": pgettext_lazy("a record's field", "quick tracking"),
    "raised_by": pgettext_lazy("a record's field", "raised by"),
    "ruleset": pgettext_lazy("a record's field", "rules"),
    "sector": pgettext_lazy("a record's field", "sector"),
    "sectors": pgettext_lazy("a record's field", "sectors"),
    "set_aside": pgettext_lazy("a record's field", "set aside"),
    "side": pgettext_lazy("a record's field", "side"),
    "source": pgettext_lazy("a record's field", "source"),
    "special": pgettext_lazy("a record's field", "special forces"),
    "status": pgettext_lazy("a record's field", "status"),
    "storm": pgettext_lazy("a record's field", "storm"),
    "supply": pgettext_lazy("a record's field", "supply"),
    "territory": pgettext_lazy("a record's field", "territory"),
    "three_alliances": pgettext_lazy("a record's field", "three-way alliances"),
    "to": pgettext_lazy("a record's field", "to"),
    "to_factions": pgettext_lazy("a record's field", "to"),
    "to_sector": pgettext_lazy("a record's field", "to sector"),
    "to_supply": pgettext_lazy("a record's field", "to the supply"),
    "to_territory": pgettext_lazy("a record's field", "to"),
    "triggered_by": pgettext_lazy("a record's field", "triggered by"),
    "turn": pgettext_lazy("a record's field", "turn"),
    "turns": pgettext_lazy("a record's field", "turns"),
    "unanimous": pgettext_lazy("a record's field", "unanimous"),
    "via": pgettext_lazy("a record's field", "via"),
    "voice": pgettext_lazy("a record's field", "Voice"),
    "winners": pgettext_lazy("a record's field", "winners"),
    "worms": pgettext_lazy("a record's field", "worms"),
    "kind": "",
}

#: Fields the log shows elsewhere (the reason after the line) or that only the engine reads.
_NOT_DESCRIBED = ("type", "v", "reason", "seed", "edition")

_ID = re.compile(r"^[a-z][a-z0-9_]*(@\d+)?$")


def words(value: Any) -> str:
    """One value of an event or report in words: ids (`allied_stronghold`, `nexus`,
    `cielago_north@2`) as names, numbers and free text as they are."""
    if isinstance(value, bool):
        return pgettext("a value in a record", "yes") if value else pgettext("a value in a record", "no")
    if isinstance(value, str) and _ID.match(value):
        named = "_" in value or "@" in value or value in FACTION_NAMES or value in TERRITORIES  # "arrakeen": Arrakeen
        return label(value) if named else value.replace("_", " ")
    if isinstance(value, list | tuple):
        return ", ".join(words(v) for v in value) or pgettext("a value in a record", "none")
    if isinstance(value, dict):
        return describe(value)
    return str(value)


@register.filter
def describe(body: Any) -> str:
    """An event's fields in words: `sectors 3`, `factions Atreides, Fremen`, `record #23`,
    `Allied Stronghold`. The reason is left out: the log shows it after the line."""
    if not isinstance(body, dict):
        return ""
    parts = []
    for key, value in body.items():
        if key in _NOT_DESCRIBED or value in (None, "", [], {}, False):
            continue
        name = str(_FIELD_WORDS.get(key, key.replace("_", " ")))
        if key == "seq":
            parts.append(gettext("record #%(seq)s") % {"seq": value})
            continue
        if key == "before":  # an insert: the record it counts before
            parts.append(gettext("before record #%(seq)s") % {"seq": value})
            continue
        if key == "event" and isinstance(value, dict) and "type" in value:  # the inserted record
            parts.append(f"{label(value['type'])}: {describe(value)}")
            continue
        if key == "ruleset" and isinstance(value, str) and value in RULESETS:
            parts.append(gettext("rules %(ruleset)s") % {"ruleset": core_word(RULESETS[value].name)})
            continue
        if isinstance(value, dict) and "type" not in value:
            shown = "; ".join(f"{words(k)}: {words(v)}" for k, v in value.items())
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            shown = "; ".join(describe(v) for v in value)
        else:
            shown = words(value)
        parts.append(f"{name} {shown}".strip())
    return " · ".join(parts)


@register.filter
def said(event: Any) -> str:
    """A record as what happened, in words (`gameplay.record_words`); "" for a kind with no
    sentence, which the page shows by its kind and fields (`label`, `describe`)."""
    return record_words.said(event) or ""


# --- parts: an in-place answer carries only what changed ------------------------------------

#: The request header in which the page lists the versions of the parts it shows: `3f2a…,9c1e…`
#: (a version names its part: it is the hash of the part's name and content; the older form
#: `quick:3f2a…` is read too).
PARTS_HEADER = "X-Table-Parts"

#: What differs between two renders of an unchanged part: the record a form expects, its key and
#: CSRF token (the outbox sends its own record number and key with every action).
_PER_RENDER = re.compile(r'name="(expected_seq|idempotency_key|csrfmiddlewaretoken)" value="[^"]*"')


def part_version(html: str, name: str = "") -> str:
    return hashlib.sha256(f"{name}\n{_PER_RENDER.sub('', html)}".encode()).hexdigest()[:10]


def shown_parts(request: Any) -> set[str]:
    """The versions of the parts the asking page shows (from `PARTS_HEADER`)."""
    header = request.headers.get(PARTS_HEADER, "") if request is not None else ""
    return {item.strip().rpartition(":")[2] for item in header.split(",") if item.strip()}


class PartNode(template.Node):
    def __init__(self, name: Any, nodelist: Any) -> None:
        self.name, self.nodelist = name, nodelist

    def render(self, context: Any) -> str:
        name = str(self.name.resolve(context))
        # The parts inside this one count by their versions, whether they come whole or left out.
        # Kept on the context itself: an included template renders with a render context of its own.
        stack = getattr(context, "table_parts", None)
        if stack is None:
            stack = context.table_parts = []
        inner: dict[str, str] = {}
        stack.append(inner)
        try:
            html = self.nodelist.render(context)
        finally:
            stack.pop()
        if not html.strip():
            return ""
        canonical = html
        for rendered, token in inner.items():
            canonical = canonical.replace(rendered, token)
        version = part_version(canonical, name)
        if version in shown_parts(context.get("request")):
            # The page has this very part: it keeps its own (with what the judge opened or typed).
            out = format_html('<div class="part" data-part="{}" data-version="{}" data-same></div>', name, version)
        else:
            opening = format_html('<div class="part" data-part="{}" data-version="{}">', name, version)
            out = mark_safe(f"{opening}{html}</div>")  # noqa: S308 - the part's own rendered template
        if stack:
            stack[-1][str(out)] = f"<part {version}>"
        return out


@register.tag("part")
def part(parser: Any, token: Any) -> PartNode:
    """`{% part "quick" %}…{% endpart %}`: a part of the table page that an in-place answer
    leaves out when the page already shows it unchanged (`PARTS_HEADER`)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("part takes one argument: the part's name")
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(parser.compile_filter(bits[1]), nodelist)
