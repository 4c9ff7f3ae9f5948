"""The pure cores' words in the reader's language.

`dune/` imports no Django, so the words it hands a page (a clock's state, a stage of the time
limit, a refusal's message) are English there. They are listed here, marked for the catalogue,
and a page shows `core_word(text)` or `core_refusal(message)`: the reader's language where the
catalogue has the words, else the words as the core wrote them. A refusal's message is matched
against the cores' message templates (the f-strings of their `msg=`), its filled-in parts
(names, numbers, inputs) carried over as they are; its rule number is not part of the message
and never changes. Names of the game (factions, territories, leaders, cards) are never listed:
they stay as the board prints them (locale/GLOSSARY.md).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext, pgettext_lazy

#: The words of dune.clock_limits' states, as its STATE_LABELS writes them.
CLOCK_STATES = (
    gettext_noop("Not started"),
    gettext_noop("Running"),
    gettext_noop("Last 30 minutes"),
    gettext_noop("Last turn"),
    gettext_noop("Time up"),
    gettext_noop("Finished"),
)
#: The cores' labels a page shows as they are: result kinds (with and without their article, and
#: as each points system's table names them), how a game ended, the tiebreaks' labels and
#: summaries and the reasons of the final's placings. Rule numbers inside stay as they are.
LABELS = (
    gettext_noop("a solo stronghold victory"),
    gettext_noop("an allied stronghold victory"),
    gettext_noop("a three-faction alliance victory"),
    gettext_noop("a Bene Gesserit prediction victory"),
    gettext_noop("a solo Fremen special victory"),
    gettext_noop("an allied Fremen special victory"),
    gettext_noop("a solo Guild default victory"),
    gettext_noop("an allied Guild default victory"),
    gettext_noop("a solo Fremen default victory"),
    gettext_noop("an allied Fremen default victory"),
    gettext_noop("a solo end-game victory"),
    gettext_noop("an allied end-game victory"),
    gettext_noop("an adjudicated victory"),
    gettext_noop("a loss"),
    gettext_noop("a dropout"),
    gettext_noop("solo stronghold victory"),
    gettext_noop("allied stronghold victory"),
    gettext_noop("three-faction alliance victory"),
    gettext_noop("Bene Gesserit prediction victory"),
    gettext_noop("solo Fremen special victory"),
    gettext_noop("allied Fremen special victory"),
    gettext_noop("solo Guild default victory"),
    gettext_noop("allied Guild default victory"),
    gettext_noop("solo Fremen default victory"),
    gettext_noop("allied Fremen default victory"),
    gettext_noop("solo end-game victory"),
    gettext_noop("allied end-game victory"),
    gettext_noop("adjudicated victory"),
    gettext_noop("loss"),
    gettext_noop("dropout"),
    gettext_noop("Bene Gesserit prediction"),
    gettext_noop("solo Fremen challenged special"),
    gettext_noop("allied Fremen challenged special"),
    gettext_noop("solo end game victory"),
    gettext_noop("allied end game victory"),
    gettext_noop("solo default victory"),
    gettext_noop("allied default victory"),
    gettext_noop("adjudicated"),
    gettext_noop("a victory"),
    gettext_noop("the turn limit"),
    gettext_noop("the time limit"),
    gettext_noop("a concession"),
    gettext_noop("victory"),
    gettext_noop("turn limit"),
    gettext_noop("time limit"),
    gettext_noop("concession"),
    gettext_noop("solo stronghold victory wins (4.01.09.01)"),
    gettext_noop("Bene Gesserit prediction wins (4.01.09.02)"),
    gettext_noop("allied stronghold victory wins (4.01.09.03)"),
    gettext_noop("solo Fremen challenged special wins (4.01.09.04)"),
    gettext_noop("allied Fremen challenged special wins (4.01.09.05)"),
    gettext_noop("solo end game victory wins (4.01.09.06)"),
    gettext_noop("allied end game victory wins (4.01.09.07)"),
    gettext_noop("solo default victory wins (4.01.09.08)"),
    gettext_noop("allied default victory wins (4.01.09.09)"),
    gettext_noop("adjudicated wins (4.01.09.10)"),
    gettext_noop("wins per 4.01.09 category, heaviest first"),
    gettext_noop("best game points (4.01.10)"),
    gettext_noop("best game win attempts (4.01.10.01)"),
    gettext_noop("best game strongholds (4.01.10.02)"),
    gettext_noop("best game forces on board (4.01.10.03)"),
    gettext_noop("best game spice (4.01.10.04)"),
    gettext_noop("best game treachery cards (4.01.10.05)"),
    gettext_noop("best game active leaders (4.01.10.06)"),
    gettext_noop("the best game (its points, then win attempts, strongholds, forces, spice, cards, leaders; 4.01.10)"),
    gettext_noop("best game QP"),
    gettext_noop("best game strongholds"),
    gettext_noop("best game weighted tokens"),
    gettext_noop("best game spice"),
    gettext_noop("best game cards"),
    gettext_noop("best game leaders"),
    gettext_noop("best game die roll"),
    gettext_noop("the best single game (its QP, then strongholds, weighted tokens, spice, cards, leaders, die roll)"),
    gettext_noop("the player the Bene Gesserit predicted"),
    gettext_noop("ally of the predicted player"),
    gettext_noop("sole winner"),
    gettext_noop("the Fremen player of a Fremen default victory"),
    gettext_noop("the Guild player of a Guild default victory"),
    gettext_noop("ally of the 1st place"),
    gettext_noop("simultaneous solo victory, ordered by the adjudication criteria"),
    gettext_noop("winning alliance, ordered by the adjudication criteria"),
    gettext_noop("most strongholds, then the adjudication criteria"),
    gettext_noop("dropped out (WBC Dropouts)"),
    gettext_noop("performance points per turn (5-player tables scaled by 5/6)"),
    gettext_noop("each heat game's performance points ÷ turns played, × 5/6 at a 5-player table"),
    gettext_noop("strongholds held at the end of the game per turn played"),
    gettext_noop("each heat game's strongholds held at the end ÷ turns played"),
    gettext_noop("strongholds"),
)
#: The engine's phase names (dune.engine.names.PHASE_NAMES), as a sentence names a phase.
PHASES = {
    "setup": pgettext_lazy("phase", "setup"),
    "storm": pgettext_lazy("phase", "storm"),
    "spice blow": pgettext_lazy("phase", "spice blow"),
    "CHOAM Charity": pgettext_lazy("phase", "CHOAM Charity"),
    "bidding": pgettext_lazy("phase", "bidding"),
    "revival": pgettext_lazy("phase", "revival"),
    "shipment and movement": pgettext_lazy("phase", "shipment and movement"),
    "battle": pgettext_lazy("phase", "battle"),
    "spice collection": pgettext_lazy("phase", "spice collection"),
    "Mentat Pause": pgettext_lazy("phase", "Mentat Pause"),
}
#: The cores' refusal messages, their f-strings' fields as %(name)s.
REFUSALS = (
    gettext_noop("limit has no stage where new turns stop"),
    gettext_noop("an extension is a whole number of minutes"),
    gettext_noop("an extension must be at least 1 minute"),
    gettext_noop("an extension may be at most %(max_extension_minutes)s minutes"),
    gettext_noop("the total extension cannot be negative"),
    gettext_noop("these tournament rules have no diplomacy chips"),
    gettext_noop("each player has %(chips)s diplomacy chips per game and %(faction_name)s has used them all"),
    gettext_noop("a table has 1 to 6 players"),
    gettext_noop("pauses must be ordered and not overlap"),
    gettext_noop("a pause cannot end before it starts"),
    gettext_noop("only timed stages have deadlines"),
    gettext_noop("this time limit cannot be waived"),
    gettext_noop("expected one of %(value)s"),
    gettext_noop("only the last pause may be open"),
    gettext_noop("%(replace)s is not a phase of %(name)s"),
    gettext_noop("the table's clock ran out (%(time_up)s): no new turn may start"),
    gettext_noop("unknown stronghold %(key)s"),
    gettext_noop("quick records name strongholds (and Shield Wall sides), not %(place_name)s"),
    gettext_noop("the Shield Wall spans sectors %(join_names)s"),
    gettext_noop("the Bene Gesserit is not recorded in %(place_name)s"),
    gettext_noop("%(place_name)s cannot hold forces of %(value)s factions"),
    gettext_noop("allies %(faction_name)s and %(faction_name2)s cannot share %(place_name)s"),
    gettext_noop("only the Bene Gesserit makes a prediction"),
    gettext_noop("the prediction must name another faction in the game, not %(faction_name)s"),
    gettext_noop("the predicted turn must be 1..%(turn_limit)s"),
    gettext_noop("%(faction_name)s does not play in this game"),
    gettext_noop("%(faction_name)s starts with fixed placements only"),
    gettext_noop("%(faction_name)s starts only in %(join_names)s, not %(place_name)s"),
    gettext_noop("%(faction_name)s must start in an unoccupied territory"),
    gettext_noop("%(faction_name)s places only %(choose_count)s forces at start"),
    gettext_noop("the game is already set up"),
    gettext_noop("a game has 2 to 6 factions"),
    gettext_noop("every faction needs exactly one player marker"),
    gettext_noop("two player markers on one dot"),
    gettext_noop("a game lasts 1..%(max_turns)s turns"),
    gettext_noop("three-faction alliances need a 6-player WBC table"),
    gettext_noop("the prediction is made at setup"),
    gettext_noop("the prediction is already made"),
    gettext_noop("in the Basic game the Bene Gesserit starts with a fighter in the Polar Sink, not in %(place_name)s"),
    gettext_noop("%(faction_name)s has not that many forces"),
    gettext_noop("%(faction_name)s is not a faction of %(name)s"),
    gettext_noop("player markers stand on dots %(list)s, not %(s)s"),
    gettext_noop("%(faction_name)s has no leader %(leader)s; leaders: %(join_names)s"),
    gettext_noop("%(faction_name)s has no leader %(leader)s"),
    gettext_noop("battles are fought in the battle phase, not in the %(phase_name)s phase"),
    gettext_noop("unknown territory %(territory)s"),
    gettext_noop("%(what)s only in the %(phases_text)s phase, not in the %(phase_name)s phase"),
    gettext_noop("unknown territory %(place_name)s"),
    gettext_noop("force counts cannot be negative"),
    gettext_noop("%(what)s needs full tracking; this game records only the strongholds (use quick_record)"),
    gettext_noop("%(place_name)s spans no sector; sector must be null"),
    gettext_noop("%(place_name)s spans sectors %(join_names)s, not %(sector)s"),
    gettext_noop("unknown event type %(event_type)s"),
    gettext_noop("the game has not been set up"),
    gettext_noop("field %(field)s: %(msg)s"),
    gettext_noop("field %(name)s: unknown faction %(s)s"),
    gettext_noop("field %(name)s: unknown ruleset %(s)s"),
    gettext_noop("field %(name)s: unknown phase %(s)s"),
    gettext_noop("field %(name)s: unknown result kind %(s)s"),
    gettext_noop("field 'type': unknown event type %(t)s"),
    gettext_noop("an event is an Event or its dict"),
    gettext_noop("no rule handles %(name)s"),
    gettext_noop("the first event of a game is game_setup"),
    gettext_noop("the game is over; only a correction (void) may follow"),
    gettext_noop("a void needs a reason"),
    gettext_noop("this position has no event log to correct"),
    gettext_noop("no event %(seq)s in a log of %(value)s"),
    gettext_noop("a void cannot itself be voided"),
    gettext_noop("event %(seq)s is already void"),
    gettext_noop("%(without)s, the %(type)s inserted by event %(at)s before event %(i)s would be refused: %(message)s"),
    gettext_noop("%(without)s, event %(i)s (%(type)s) would be refused: %(message)s"),
    gettext_noop("option %(option)s for %(key)s: %(why)s"),
    gettext_noop("unknown ruleset %(key)s; known: %(value)s"),
    gettext_noop("a round is a heat or a final, not %(kind)s"),
    gettext_noop("%(value)s must be an object"),
    gettext_noop("unknown faction %(f)s"),
    gettext_noop("unknown phase %(phase)s"),
    gettext_noop("Bene Gesserit tokens have no advisor side under %(name)s: they coexist by territory, not as advisors (%(places)s)"),
    gettext_noop("unknown result kind %(kind)s"),
    gettext_noop("%(name)s must be %(words)s (%(holds)s)"),
    gettext_noop("forces[%(i)s]: %(faction_name)s does not play in this game"),
    gettext_noop("forces[%(i)s]: unknown territory %(t)s"),
    gettext_noop("unknown territory %(t)s in 'coexisting'"),
    gettext_noop("moves[%(i)s]: %(faction_name)s does not play"),
    gettext_noop("%(key)s: unknown territory"),
    gettext_noop("%(f)s: unknown leader state %(v)s"),
    gettext_noop("alliance member %(faction_name)s does not play here"),
    gettext_noop("moves[%(i)s]: unknown territory %(t)s"),
    gettext_noop("%(key)s must be a list"),
    gettext_noop("%(key)s: each token exists once"),
    gettext_noop("Ambassadors set aside or out of the game are tracked with the supply: state 'ambassador_supply'"),
    gettext_noop("%(key)s: unknown token %(x)s"),
    gettext_noop("the recorded game ended by %(get)s, not by %(get2)s"),
    gettext_noop("the recorded game says %(won)s; %(faction_name)s did not win"),
    gettext_noop("the recorded game says %(faction_name)s won with %(kind_name)s, not %(kind_name2)s"),
)
_LAST_MINUTES = re.compile(r"^Last (\d+) minutes?$")


def core_word(text: str) -> str:
    """`text`, a word or label a pure core wrote, in the reader's language."""
    last = _LAST_MINUTES.match(text)
    if last and text not in CLOCK_STATES:  # a format's own no-new-turn window ("Last 20 minutes")
        minutes = int(last.group(1))
        return ngettext("Last %(minutes)s minute", "Last %(minutes)s minutes", minutes) % {"minutes": minutes}
    return gettext(text) if text else text


def phase_words(text: str) -> str:
    """A phase as the engine names it in a sentence ("shipment and movement", or several joined
    by "or"), in the reader's language."""
    phases = text.split(" or ")
    if not all(p in PHASES for p in phases):
        return text
    between = pgettext("between phase names", "or")
    return f" {between} ".join(str(PHASES[p]) for p in phases)


#: A template's fields that name phases: translated as phases, the rest carried over as they are.
_PHASE_FIELDS = ("phase_name", "phases_text")


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(%\(\w+\)s)", template)
    regex = "".join(
        f"(?P<{part[2:-2]}>.+?)" if re.fullmatch(r"%\(\w+\)s", part) else re.escape(part.replace("%%", "%"))
        for part in parts
    )
    return re.compile(regex + r"\Z", re.S)


_PATTERNS = tuple((template, _pattern(template)) for template in REFUSALS)


def core_refusal(message: str) -> str:
    """A pure core's refusal `message` in the reader's language (as it is when no template fits)."""
    for template, pattern in _PATTERNS:
        found = pattern.match(message)
        if found:
            translated = gettext(template)
            if translated == template:
                return message
            # A message quoted inside another (a field's, a replayed event's) is translated too.
            fields = {
                k: core_refusal(v) if k in ("msg", "message") else phase_words(v) if k in _PHASE_FIELDS else v
                for k, v in found.groupdict().items()
            }
            return translated % fields
    return message
