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

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext, pgettext_lazy

from dune.engine.battle.cards import card_name
from dune.seating import times_count, times_words

#: The words of dune.clock_limits' states, as its STATE_LABELS writes them.
CLOCK_STATES = (
    gettext_noop("Not started"),
    gettext_noop("Running"),
    gettext_noop("Last 30 minutes"),
    gettext_noop("Last turn"),
    gettext_noop("Time up"),
    gettext_noop("Finished"),
)
#: The clock limits' names as the presets write them (dune.clock_limits.LIMITS); a limit a
#: tournament's own format builds is named by its document's words.
CLOCK_LIMITS = (
    gettext_noop("LoLV: 1 hour per player, then 30 minutes to finish the turn"),
    gettext_noop("WBC heat: 10 turns or 5 hours, no new turn in the last 30 minutes"),
    gettext_noop("WBC final: 15 turns or 8 hours, no new turn in the last 30 minutes"),
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
    gettext_noop("no wins"),
)
#: The format document's fields as its page shows them (dune.formats.document.FIELDS): each
#: field's group, words and help.
FORMAT_WORDS = (
    gettext_noop("Tables"),
    gettext_noop("table sizes"),
    gettext_noop("consecutive numbers of players per table (2 to 6): the seating planner seats as many tables of the largest as possible, every table at least the smallest"),
    gettext_noop("Factions"),
    gettext_noop("factions dealt in the heats"),
    gettext_noop("the factions a heat's players get theirs from"),
    gettext_noop("factions finalists pick from"),
    gettext_noop("the factions finalists choose from, in qualifying order"),
    gettext_noop("how factions are dealt"),
    gettext_noop("`draw`: the classic factions drawn at random, one each; `deal_two_keep_one`: one classic and one expansion alliance card dealt, one kept"),
    gettext_noop("faction trades by consent"),
    gettext_noop("players at a table may trade factions (and take the undrawn one) by consent"),
    gettext_noop("Heats"),
    gettext_noop("turn limit"),
    gettext_noop("the most game turns a table plays"),
    gettext_noop("time limit (hours)"),
    gettext_noop("the fixed time limit of a table"),
    gettext_noop("time per player (hours)"),
    gettext_noop("time added per player at the table"),
    gettext_noop("minutes to finish the turn"),
    gettext_noop("time after the limit to finish the turn in progress"),
    gettext_noop("no new turn in the last (minutes)"),
    gettext_noop("no new turn starts this long before the end (0: turns start until the time is up); the clock's warning stage"),
    gettext_noop("start grace (minutes)"),
    gettext_noop("games begin within this time of the scheduled start"),
    gettext_noop("time limit waivable by all players"),
    gettext_noop("all players may waive the time limit at the start"),
    gettext_noop("tracking depth"),
    gettext_noop("how much of a game the table judge records"),
    gettext_noop("three-faction alliances"),
    gettext_noop("whether three-faction alliances may form in this round"),
    gettext_noop("The final"),
    gettext_noop("Game rules"),
    gettext_noop("rules of the game"),
    gettext_noop("the engine's ruleset: `ah1979` (Avalon Hill 1979), `wbc2018` (WBC 2018 (AH 1979 with WBC house rules)), `lolv-2.8.4` (Landsraad of Las Vegas 2.8.4)"),
    gettext_noop("ruleset options"),
    gettext_noop("the ruleset's own options (AH section XX house rules, the LoLV Advanced game)"),
    gettext_noop("Shield Wall a stronghold after worm"),
    gettext_noop("the Shield Wall counts as a stronghold once this many worms appeared after the first turn (0: never)"),
    gettext_noop("Shield Wall side that counts"),
    gettext_noop("`whole`: the whole territory; `imperial_basin_side`: only the side touching the Imperial Basin"),
    gettext_noop("BG coexistence"),
    gettext_noop("`assumed`: the BG is coexisting unless it says otherwise; `declared`: only when declared"),
    gettext_noop("Fremen at full strength in every battle"),
    gettext_noop("with spice dialing, the Fremen's forces count at full strength without spice in every battle (off: supported like every faction's); the engine resolves battles so"),
    gettext_noop("two spice blows a turn"),
    gettext_noop("two Spice Blows each spice blow phase (off: one); the engine refuses a blow more"),
    gettext_noop("Time at the table"),
    gettext_noop("diplomacy chips per player per game"),
    gettext_noop("each chip buys a timed talk away from the table (0: none)"),
    gettext_noop("call-the-clock timers"),
    gettext_noop("a judge may call the clock on a bid, a turn, a battle plan, a nexus"),
    gettext_noop("Points"),
    gettext_noop("points system"),
    gettext_noop("the labels and refused result kinds: lolv, wbc"),
    gettext_noop("points per seat with this result"),
    gettext_noop("tiebreak order"),
    gettext_noop("tiebreakers after total points: `weighted_wins` (wins per 4.01.09 category, heaviest first), `best_game` (the best game (its points, then win attempts, strongholds, forces, spice, cards, leaders; 4.01.10)), `best_single_game` (the best single game (its QP, then strongholds, weighted tokens, spice, cards, leaders, die roll))"),
    gettext_noop("a dropout is barred from the final"),
    gettext_noop("a player who drops out of a game is disqualified"),
    gettext_noop("Final"),
    gettext_noop("finalists"),
    gettext_noop("seats at the final table"),
    gettext_noop("alternates"),
    gettext_noop('how many alternates are listed after the finalists ("all": every eligible player)'),
    gettext_noop("final placings"),
    gettext_noop("the final's report places every finalist, 1st to last: the winner, the allies, then the adjudication criteria (WBC Final Round Format); without it the final names its winners only"),
    gettext_noop("Awards"),
    gettext_noop("best-faction awards"),
    gettext_noop("the format names a best player of each faction"),
    gettext_noop("best-faction measure"),
    gettext_noop("`performance_points`: performance points per turn (5-player tables scaled by 5/6); `strongholds_per_turn`: strongholds held at the end of the game per turn played"),
    gettext_noop("Players"),
    gettext_noop("faction preferences"),
    gettext_noop("players rank the factions they would rather play from their private link, for the head judge to read before seating (off: nobody is asked)"),
    gettext_noop("player self-report"),
    gettext_noop("at a table without a judge, a player files the game report from their private link and the others confirm or dispute it (off: only a judge files)"),
)
#: A format document's choices in words (dune.formats.document.choice_words): how factions are
#: dealt, the tracking depth, the Shield Wall's side, the BG's coexistence, the WBC ruleset.
FORMAT_CHOICES = (
    gettext_noop("the classic factions drawn at random, one each"),
    gettext_noop("one classic and one expansion alliance card dealt, one kept"),
    gettext_noop("quick tracking (who stands in each stronghold, win attempts, the ending)"),
    gettext_noop("full tracking (every force, spice and card)"),
    gettext_noop("the whole territory"),
    gettext_noop("only the side touching the Imperial Basin"),
    gettext_noop("the BG is coexisting unless it says otherwise"),
    gettext_noop("only when declared"),
    gettext_noop("WBC 2018 (AH 1979 with WBC house rules)"),
)
#: The rules the presets cite (dune/formats/presets/*.toml `[rules]` and `[citations]`) where
#: their words say more than a rule's number or title; a document's own rules read as written.
FORMAT_RULES = (
    gettext_noop("AH 1979 (Fremen battle strength)"),
    gettext_noop("AH I (2 to 6 players); club format: tables of 6, at least 5"),
    gettext_noop("AH III.A (factions at random)"),
    gettext_noop("AH IV.A; club points"),
    gettext_noop("AH IV.B; club points"),
    gettext_noop("AH IV.C; club points"),
    gettext_noop("AH IV.C.1; club points"),
    gettext_noop("AH IV; club points"),
    gettext_noop("AH XII.E.1; club points"),
    gettext_noop("AH IV.C.1 (never at a table of five or six classic factions)"),
    gettext_noop("AH V (no time rules)"),
    gettext_noop("AH VII.A (one spice blow a turn)"),
    gettext_noop("AH XX (optional house rules)"),
    gettext_noop("AH IV (victory conditions); club points after the WBC QP list"),
    gettext_noop("club format"),
    gettext_noop("club points"),
    gettext_noop("club format (WBC QP list)"),
    gettext_noop("club format (a platform option, off)"),
    gettext_noop("club format (adjudicated games)"),
    gettext_noop("club format (best single game after points)"),
    gettext_noop("club format (no best-faction awards)"),
    gettext_noop("club format (no dropout penalty)"),
    gettext_noop("club format (six finalists)"),
    gettext_noop("club format (the 1979 text sets no time limit)"),
    gettext_noop("club format (trades by consent)"),
    gettext_noop("no final placings (WBC Final Round Format not played)"),
    gettext_noop("4.01.09.00 (no dropout penalty in LoLV)"),
    gettext_noop("LoLV 4.01 (no best-faction awards)"),
    gettext_noop("LoLV 4.01.07 (game report)"),
    gettext_noop("LoLV 4.01.07 (game report) and 4.01.09 (points)"),
    gettext_noop("not in LoLV 2.8.4 (a platform option, off)"),
    gettext_noop("WBC 2018 format (heats: tables of 6, at least 5)"),
    gettext_noop("WBC 2018 format (heats: the judge records strongholds and the result)"),
    gettext_noop("WBC 2018 format (game results and qualification points)"),
    gettext_noop("WBC 2018 format (15-minute grace period)"),
    gettext_noop("WBC 2018 house rules"),
    gettext_noop("WBC 2018 house rules (faction draw and trades)"),
    gettext_noop("WBC Final Round Format (every force tracked)"),
    gettext_noop("WBC house rules (Fremen)"),
    gettext_noop("WBC house rules (Shield Wall)"),
    gettext_noop("WBC house rules (alliances)"),
    gettext_noop("WBC start grace"),
    gettext_noop("not in the WBC 2018 format (a platform option, off)"),
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
#: The actions a refusal names by the engine's words (`need_phase`, `need_full_tracking`): the
#: template's `what`, translated where it is one of these.
ACTIONS = {
    "Terror tokens are placed or moved": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "Terror tokens are placed or moved"),
    "Ambassadors are placed": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "Ambassadors are placed"),
    "a shipment-and-movement action ends": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a shipment-and-movement action ends"),
    "spice blows": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "spice blows"),
    "spice is collected": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "spice is collected"),
    "a new turn starts": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a new turn starts"),
    "win attempts are recorded": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "win attempts are recorded"),
    "the Guild is forced into storm order": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "the Guild is forced into storm order"),
    "the Inflation token is placed": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "the Inflation token is placed"),
    "CHOAM Charity is collected": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "CHOAM Charity is collected"),
    "Treachery Cards are bought": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "Treachery Cards are bought"),
    "the storm moves": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "the storm moves"),
    "worms appear": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "worms appear"),
    "Family Atomics is played": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "Family Atomics is played"),
    "a stronghold victory is claimed": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a stronghold victory is claimed"),
    "the last turn ends": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "the last turn ends"),
    "forces move": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "forces move"),
    "forces cross-ship": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "forces cross-ship"),
    "the Fremen Ambassador moves forces": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "the Fremen Ambassador moves forces"),
    "the Fremen ride a worm": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "the Fremen ride a worm"),
    "a default bid is taken": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a default bid is taken"),
    "a default turn is taken": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a default turn is taken"),
    "a default battle plan is taken": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a default battle plan is taken"),
    "a default nexus is taken": pgettext_lazy("an action, in a refusal naming the phase it belongs to", "a default nexus is taken"),
    "CHOAM Charity": pgettext_lazy("an action, in a refusal asking for full tracking", "CHOAM Charity"),
    "the bidding round": pgettext_lazy("an action, in a refusal asking for full tracking", "the bidding round"),
    "placing forces": pgettext_lazy("an action, in a refusal asking for full tracking", "placing forces"),
    "moving forces": pgettext_lazy("an action, in a refusal asking for full tracking", "moving forces"),
    "removing forces": pgettext_lazy("an action, in a refusal asking for full tracking", "removing forces"),
    "reviving forces": pgettext_lazy("an action, in a refusal asking for full tracking", "reviving forces"),
    "flipping forces": pgettext_lazy("an action, in a refusal asking for full tracking", "flipping forces"),
    "placing revealed forces": pgettext_lazy("an action, in a refusal asking for full tracking", "placing revealed forces"),
    "correcting losses": pgettext_lazy("an action, in a refusal asking for full tracking", "correcting losses"),
    "spice on the board": pgettext_lazy("an action, in a refusal asking for full tracking", "spice on the board"),
}
#: The kinds of move a movement card is not played with (dune.engine.movement.MOVE_KIND_WORDS),
#: as a refusal's `via` names them; a kind of move given as input stays as it is.
MOVE_KINDS = {
    "a worm ride": pgettext_lazy("a kind of move, with its article", "a worm ride"),
    "a cross-ship": pgettext_lazy("a kind of move, with its article", "a cross-ship"),
    "an Ambassador move": pgettext_lazy("a kind of move, with its article", "an Ambassador move"),
}
#: The battle cards a plan names by their kind (dune.engine.battle.cards.CARD_NAMES), as a
#: refusal's or a ruling's `weapon`, `defense` or `card` names them; a card's own name stays.
CARD_KINDS = {
    "a projectile weapon": pgettext_lazy("a battle card named by its kind", "a projectile weapon"),
    "a poison weapon": pgettext_lazy("a battle card named by its kind", "a poison weapon"),
    "a worthless card": pgettext_lazy("a battle card named by its kind", "a worthless card"),
}
#: Why two players are kept apart (dune.seating.KEEP_APART_KINDS), as an issue names it.
KEEP_APART = {
    "request": pgettext_lazy("why two players are kept apart", "request"),
    "household": pgettext_lazy("why two players are kept apart", "household"),
    "club": pgettext_lazy("why two players are kept apart", "club"),
}
#: The cores' refusal messages, their f-strings' fields as %(name)s.
REFUSALS = (
    # The seating planner's issues (dune.seating.assess), shown on the round's seating page.
    gettext_noop("%(name_of)s and %(name_of2)s already met %(times_words)s and share table %(number)s"),
    gettext_noop("%(name_of)s and %(name_of2)s asked to be kept apart (%(keep_apart)s) but share table %(number)s"),
    gettext_noop("%(name)s already played %(faction_name)s and gets it again at table %(table)s"),
    gettext_noop("%(name)s already played %(factions_text)s and gets them again at table %(table)s"),
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
    gettext_noop("the recorded game says %(faction_name)s won with %(kind_name)s, not %(kind_name2)s"),
    gettext_noop("the Basic game sends no advisors: sending them is an Advanced ability (2.02.11, 1.13.00)"),
    gettext_noop("only the Ixians ship forces into the Hidden Mobile Stronghold"),
    gettext_noop("no forces may ship into %(place_name)s: the Atomics Aftermath lies there"),
    gettext_noop("no shipment into %(place_name)s sector %(sector)s: it is in storm"),
    gettext_noop("the Fremen send reserves only to the Great Flat or within two territories of it, not %(place_name)s"),
    gettext_noop("%(faction_name)s has %(have)s normal, %(have2)s special, %(have3)s advisor forces in %(place_name)s sector %(sector)s"),
    gettext_noop("forces do not move during setup"),
    gettext_noop("a move needs a different destination"),
    gettext_noop("no move out of %(place_name)s sector %(from_sector)s: it is in storm"),
    gettext_noop("no move into %(place_name)s sector %(to_sector)s: it is in storm"),
    gettext_noop("only the Guild ships forces back to reserves"),
    gettext_noop("%(faction_name)s's reserves and tanks are unknown in this position"),
    gettext_noop("%(faction_name)s has only %(tanks)s normal and %(tanks2)s special forces in the tanks"),
    gettext_noop("one advisor follows a shipment, alone"),
    gettext_noop("the Bene Gesserit has fighters in %(place_name)s: no advisors may join them"),
    gettext_noop("the Bene Gesserit has advisors in %(place_name)s: no fighters may ship there"),
    gettext_noop("the Basic game has no flips: they are Advanced abilities (2.02.14-21, 1.13.00)"),
    gettext_noop("flip at least one force"),
    gettext_noop("only %(n)s fighters there to flip"),
    gettext_noop("only %(a)s advisors there to flip"),
    gettext_noop("advisors under the storm cannot flip to fighters"),
    gettext_noop("every Bene Gesserit force in %(place_name)s flips together: fighters and advisors never share a territory"),
    gettext_noop("advisors cannot flip to fighters in %(place_name)s: the Bene Gesserit's ally %(faction_name)s is there"),
    gettext_noop("coexistence is declared only in the movement round"),
    gettext_noop("%(place_name)s was declared coexisting this turn and stays so until the turn ends"),
    gettext_noop("no shipment with a No-Field token during setup"),
    gettext_noop("%(card)s was not played in this plan"),
    gettext_noop("%(card)s is either kept or discarded, not both"),
    gettext_noop("this game has no spice dialing: no spice is paid in a battle plan"),
    gettext_noop("a battle wheel dials whole numbers here (halves only with spice dialing)"),
    gettext_noop("%(spice)s spice supports more forces than the %(value)s in the battle"),
    gettext_noop("%(faction_name)s has %(spice)s spice, not %(spice2)s"),
    gettext_noop("%(faction_name)s can dial at most %(decimal_str)s with the forces in the battle"),
    gettext_noop("only the Atreides have the Kwisatz Haderach"),
    gettext_noop("the Kwisatz Haderach goes with a leader or a Cheap Hero, never alone"),
    gettext_noop("the Kwisatz Haderach goes only with an Atreides leader"),
    gettext_noop("the Kwisatz Haderach is in the tanks"),
    gettext_noop("the Atreides have lost %(kh_losses)s forces in battles; the Kwisatz Haderach awakens at %(KH_AWAKENS)s"),
    gettext_noop("the Kwisatz Haderach goes with one leader a turn"),
    gettext_noop("the Kwisatz Haderach fought in %(place_name)s this turn: one territory a turn"),
    gettext_noop("a traitor is called on the opponent's leader disc, and there is none"),
    gettext_noop("a leader with the Kwisatz Haderach cannot turn traitor"),
    gettext_noop("a battle plan holds one leader disc or a Cheap Hero, not both"),
    gettext_noop("%(name)s already fought in another territory this turn"),
    gettext_noop("%(faction_name)s has a leader to play (%(join)s) and must play one"),
    gettext_noop("without a leader or a Cheap Hero no treachery card may be played"),
    gettext_noop("%(weapon)s is a defense, not a weapon"),
    gettext_noop("%(defense)s is a weapon, not a defense"),
    gettext_noop("%(faction_name)s holds %(held)s treachery cards and cannot play %(len)s"),
    gettext_noop("%(place_name)s already holds forces of %(factions_text)s: no third faction may enter"),
    gettext_noop("%(faction_name)s may not end in %(place_name)s with its ally %(faction_name2)s"),
    gettext_noop("%(faction_name)s has dropped out of the game"),
    gettext_noop("no forces given"),
    gettext_noop("%(faction_name)s has no special forces"),
    gettext_noop("only the Bene Gesserit has advisors, not %(faction_name)s"),
    gettext_noop("only the Fremen ride worms, not %(faction_name)s"),
    gettext_noop("only the Guild and its allies ship from one territory to another, not %(faction_name)s"),
    gettext_noop("%(where)s is %(clear)s territories from %(place_name)s; %(faction_name)s may move %(reach)s this time (ornithopters: %(value)s)"),
    gettext_noop("no path of %(reach)s territories to %(where)s avoids the storm"),
    gettext_noop("every path of %(reach)s territories to %(where)s crosses a stronghold held by two other factions or a territory where an ally stands"),
    gettext_noop("%(faction_name)s's spice is unknown in this position"),
    gettext_noop("the deck holds one Tleilaxu Ghola card and it has been played this turn"),
    gettext_noop("%(faction_name)s holds no treachery card to play as the Tleilaxu Ghola"),
    gettext_noop("%(faction_name)s cannot raise %(faction_name2)s's revival limit here"),
    gettext_noop("the Tleilaxu Ghola card revives up to %(GHOLA_LIMIT)s forces, not %(count)s"),
    gettext_noop("%(faction_name)s revives one starred force a turn"),
    gettext_noop("no side controls enough strongholds to win (strongholds controlled: %(held)s)"),
    gettext_noop("the position's winners are %(factions_text)s, not %(factions_text2)s"),
    gettext_noop("the victory is %(kind_name)s, not %(kind_name2)s"),
    gettext_noop("no prediction has been recorded"),
    gettext_noop("the prediction is already revealed"),
    gettext_noop("the prediction names %(who)s on turn %(turn)s: it is revealed at that turn's Mentat Pause"),
    gettext_noop("%(who)s has not won on turn %(turn)s: nothing makes the prediction come true"),
    gettext_noop("turn %(turn)s is not the last of %(turn_limit)s"),
    gettext_noop("a concession needs every player's agreement"),
    gettext_noop("concede to an unallied player or a whole alliance, not part of one"),
    gettext_noop("a game needs at least two players; record a concession"),
    gettext_noop("the adjudicated winner is an unallied player or a whole alliance"),
    gettext_noop("record how the game ended first (victory, last turn, concession, adjudication)"),
    gettext_noop("time ran out before the last turn: record adjudication_confirmed"),
    gettext_noop("this ruleset has no adjudication criteria: give an override reason"),
    gettext_noop("the top sides are tied on every criterion: record die rolls"),
    gettext_noop("the criteria rank %(factions_text)s first, not %(factions_text2)s"),
    gettext_noop("turn %(turn)s was the last of %(turn_limit)s; record last_turn_ended"),
    gettext_noop("the next turn is %(value)s, not %(turn)s"),
    gettext_noop("quick records start with turn 1"),
    gettext_noop("a win attempt is made by a side: an unallied faction or a whole alliance"),
    gettext_noop("the win attempt of %(factions_text)s is already recorded this turn"),
    gettext_noop("time is already up"),
    gettext_noop("there is no nexus to miss"),
    gettext_noop("%(name)s has no diplomacy chips"),
    gettext_noop("%(faction_name)s has used all %(chips)s diplomacy chips"),
    gettext_noop("the first turn starts with the %(phase_name)s phase"),
    gettext_noop("the game is in the %(phase_name)s phase; phases only move forward"),
    gettext_noop("%(faction_name)s must place %(choose_count)s starting forces first"),
    gettext_noop("%(worms)s worms have already appeared; the count never goes down"),
    gettext_noop("a die roll is 1..6"),
    gettext_noop("the HMS points at a sector of a non-stronghold territory"),
    gettext_noop("the HMS cannot move into the storm"),
    gettext_noop("moving the HMS with a Karama (1.14.07) is an Advanced power (1.13.00)"),
    gettext_noop("the HMS moves in the shipment and movement phase only with a Karama card, at the Mentat Pause without one"),
    gettext_noop("the Ixians move the HMS only while their forces occupy it"),
    gettext_noop("the HMS cannot move out of the storm"),
    gettext_noop("the HMS moves up to %(reach)s territories, never through the storm"),
    gettext_noop("there is already a No-Field token on the board"),
    gettext_noop("no shipment into %(place_name)s: it is in storm"),
    gettext_noop("no No-Field token is on the board"),
    gettext_noop("a No-Field token shows 0, 3 or 5"),
    gettext_noop("the Richese forces in reserve are not known"),
    gettext_noop("%(place_name)s already holds a Terror token"),
    gettext_noop("the Moritani have no Terror token left behind their shield"),
    gettext_noop("no Terror token in %(place_name)s"),
    gettext_noop("%(place_name)s already holds an Ambassador"),
    gettext_noop("%(place_name)s is in storm"),
    gettext_noop("the Ecaz Ambassador is already on the board"),
    gettext_noop("no Ambassador in %(place_name)s"),
    gettext_noop("%(faction_name)s cannot trigger a token of %(faction_name2)s: only a faction other than its ally"),
    gettext_noop("the Moritani take Duke Vidal at the end of the shipment and movement phase"),
    gettext_noop("%(faction_name)s has only %(spice_front)s spice in front of its shield"),
    gettext_noop("spice changes hands only in the collection round, not in the %(phase_name)s phase"),
    gettext_noop("%(faction_name)s and %(faction_name2)s are allies: allies make deals, never bribes"),
    gettext_noop("no bribe before the first storm"),
    gettext_noop("no bribe once the Mentat Pause has begun"),
    gettext_noop("%(faction_name)s is shipping and moving now, not %(faction_name2)s"),
    gettext_noop("a correction needs a reason"),
    gettext_noop("the HMS is deployed after the first storm (2.07.04)"),
    gettext_noop("no Terror token in %(place_name)s to move"),
    gettext_noop("the Hidden Mobile Stronghold is not on the board yet"),
    gettext_noop("a bribe moves spice from one faction to another"),
    gettext_noop("%(faction_name)s has only %(spice)s spice"),
    gettext_noop("the storm is already on the board; record storm_moved"),
    gettext_noop("the storm is placed on a sector 0..17"),
    gettext_noop("the storm is first placed in turn 1"),
    gettext_noop("the storm has not been placed yet"),
    gettext_noop("in turn 1 the storm is placed, not moved"),
    gettext_noop("the storm moves at most %(SECTOR_COUNT)s sectors"),
    gettext_noop("the storm moves at most %(STORM_MOST)s sectors, not %(sectors)s"),
    gettext_noop("the storm has already moved in this storm phase"),
    gettext_noop("worms of the first turn are set aside and do not count"),
    gettext_noop("the Fremen's allies are spared by worms; the Fremen cannot withdraw it"),
    gettext_noop("Family Atomics may not be played in the first turn"),
    gettext_noop("Family Atomics has already been played"),
    gettext_noop("an alliance needs at least two factions"),
    gettext_noop("no nexus and so no alliance in turn 1"),
    gettext_noop("alliances are formed only during a nexus"),
    gettext_noop("a faction may belong to only one alliance"),
    gettext_noop("an alliance has at most %(limit)s factions"),
    gettext_noop("these factions are already allied"),
    gettext_noop("this alliance is between %(faction_name)s and the faction it met"),
    gettext_noop("alliances are broken only during a nexus"),
    gettext_noop("%(faction_name)s is not allied"),
    gettext_noop("spice cannot be negative"),
    gettext_noop("%(faction_name)s's spice is unknown; record spice_set"),
    gettext_noop("%(faction_name)s holds at most %(limit)s treachery cards"),
    gettext_noop("name every card or none"),
    gettext_noop("a captor (or holder) is named exactly when the leader is captured or held"),
    gettext_noop("%(factions_text)s already allied in this nexus; a faction allies once per nexus"),
    gettext_noop("Enemy of My Enemy is never offered to the Ecaz"),
    gettext_noop("the Ecaz Ambassador is not on the board to trigger"),
    gettext_noop("%(faction_name)s already have %(active)s active leaders: a ghola needs fewer than five"),
    gettext_noop("only the CHOAM place the Inflation token"),
    gettext_noop("the Inflation token was placed before: it is played once, then leaves the game"),
    gettext_noop("CHOAM Charity is collected once a turn, and it was this turn"),
    gettext_noop("CHOAM Charity is collected at the start of the bidding round, before the first card"),
    gettext_noop("the collection round is recorded once a turn, and it was this turn"),
    gettext_noop("%(dealt)s cards were dealt for bid this turn and all %(dealt2)s are sold"),
    gettext_noop("a card was passed by everyone: the bidding round is over"),
    gettext_noop("%(faction_name)s holds %(cards)s cards, a full hand: it may not bid"),
    gettext_noop("a card is bought for a bid of 1 spice or more"),
    gettext_noop("there is no territory %(territory)s"),
    gettext_noop("%(place_name)s holds only %(lying)s spice"),
    gettext_noop("%(faction_name)s's forces in %(place_name)s collect at most %(max)s spice"),
    gettext_noop("%(faction_name)s has no ally to pay part of the price"),
    gettext_noop("the ally pays at most the price, %(cost)s spice"),
    gettext_noop("%(faction_name)s has only %(got)s spice"),
    gettext_noop("%(faction_name)s has only %(spice)s spice and cannot pay %(own)s"),
    gettext_noop("%(faction_name)s has already moved this phase: a faction ships first, then moves"),
    gettext_noop("%(name)s plays no Juice of Sappho card"),
    gettext_noop("Juice of Sappho puts its player first or last, or makes it the aggressor"),
    gettext_noop("only the aggressor's place names a territory"),
    gettext_noop("Juice of Sappho changes the order of a phase played in storm order"),
    gettext_noop("%(begun)s has already begun to ship and move: nobody can go first now"),
    gettext_noop("%(faction_name)s has already had its turn to ship and move"),
    gettext_noop("Juice of Sappho makes its player the aggressor in the battle phase"),
    gettext_noop("the aggressor's place names the battle's territory"),
    gettext_noop("a Karama card here forces the Guild into storm order"),
    gettext_noop("the Guild does not play in this game"),
    gettext_noop("the Guild is already forced into storm order this phase"),
    gettext_noop("the Guild has no ability to go out of turn in this game"),
    gettext_noop("the Guild has already had its turn to ship and move"),
    gettext_noop("%(faction_name)s, after the Guild in storm order, has begun its turn"),
    gettext_noop("true or false is expected, not %(value)s"),
    gettext_noop("a non-empty text is expected"),
    gettext_noop("at most 200 characters"),
    gettext_noop("points must be from 0 to 100, not %(fmt)s"),
    gettext_noop("%(value)s has more than six decimals"),
    gettext_noop("a list of faction ids is expected"),
    gettext_noop("unknown factions %(unknown)s; known: %(join)s"),
    gettext_noop("a faction is listed twice"),
    gettext_noop("a list of whole numbers of players is expected, not %(value)s"),
    gettext_noop("a table seats %(low)s to %(high)s players, not %(value)s"),
    gettext_noop("consecutive sizes, smallest first, each once (such as [4, 5, 6]), not %(value)s"),
    gettext_noop("a list of option names is expected"),
    gettext_noop("an option is listed twice"),
    gettext_noop("a whole number is expected, not %(value)s"),
    gettext_noop("must be from %(low)s to %(high)s, not %(value)s"),
    gettext_noop("one of %(join)s is expected, not %(_shown)s"),
    gettext_noop("must be from 0 to %(high)s, not %(fmt)s"),
    gettext_noop("%(fmt)s hours is not a whole number of minutes"),
    gettext_noop("a number of points is expected, not %(value)s"),
    gettext_noop("a non-empty list of keys is expected"),
    gettext_noop("unknown %(unknown)s; known: %(join)s"),
    gettext_noop("a key is listed twice"),
    gettext_noop('"all" or a whole number from 0 to 1000 is expected, not %(value)s'),
    gettext_noop("a number is expected, not %(value)s"),
    gettext_noop("%(value)s is not a number"),
    gettext_noop("three-faction alliances may not be formed in the final"),
    gettext_noop("a Bene Gesserit prediction victory in the final names the predicted player, who places 2nd"),
    gettext_noop("a player is named by their id, got %(_shown)s"),
    gettext_noop("%(who)s is not seated at this table"),
    gettext_noop("result row %(value)s must be an object, got %(_shown)s"),
    gettext_noop("result row %(value)s names no player"),
    gettext_noop("unknown fields %(join)s; a row has %(join2)s"),
    gettext_noop("%(who)s plays %(faction_name)s at this table, not %(_shown)s"),
    gettext_noop("%(who)s's result is missing"),
    gettext_noop("must be a whole number >= 0, got %(_shown)s"),
    gettext_noop("must be a decimal number >= 0, got %(_shown)s"),
    gettext_noop("results must be a non-empty list of rows, got %(_shown)s"),
    gettext_noop("%(join_names)s has no row; one row per seated player"),
    gettext_noop("alliances must be a list of lists of players, got %(_shown)s"),
    gettext_noop("a report is an object, got %(_shown)s"),
    gettext_noop("unknown fields %(join)s; a report has %(join2)s"),
    gettext_noop("turns must be a whole number from 1, got %(_shown)s"),
    gettext_noop("ended_by must be one of %(join)s, got %(_shown)s"),
    gettext_noop("%(_shown)s is not a result kind; one of %(join)s"),
    gettext_noop("%(kind_name)s does not exist in %(name)s: %(why)s"),
    gettext_noop("%(who)s has two rows; one row per seated player"),
    gettext_noop("an alliance lists at least two players"),
    gettext_noop("an alliance lists each player once"),
    gettext_noop("player %(player)s is seated at two tables in one round: %(value)s"),
    gettext_noop("player %(player)s dropped out in round %(dropout_round)s and was seated again in round %(rounds)s"),
    gettext_noop("%(name_of)s has no seat in this round"),
    gettext_noop("nobody to seat: no player is checked in for this round"),
    gettext_noop("cannot seat %(count)s players"),
    gettext_noop("%(player_name)s is listed twice"),
    gettext_noop("table %(number)s has a faction twice: %(factions_text)s"),
    gettext_noop("%(player_name)s is seated at table %(where)s and table %(number)s"),
    gettext_noop("%(name_of)s appears at two tables of earlier round %(round)s"),
    gettext_noop("%(name)s cannot trade with themselves"),
    gettext_noop("%(name)s (table %(number)s) and %(name2)s (table %(number2)s) are at different tables"),
    gettext_noop("%(faction_name)s is not undrawn at table %(number)s; undrawn there: %(factions_text)s"),
    gettext_noop("%(name)s factions are drawn, not chosen from dealt cards"),
    gettext_noop("%(name_of)s (table %(number)s) was dealt %(factions_text)s; %(value)s is not one of them"),
    gettext_noop("%(name)s already has a place in this round"),
    gettext_noop("%(name)s arrived %(minutes)s minutes after the start, past the %(int)s-minute grace period; only the head judge's override can seat them"),
    gettext_noop("every table already has %(get)s players; %(name)s cannot join without reseating"),
    gettext_noop("%(name_of)s has no place in this round"),
    gettext_noop("cannot swap %(name)s with themselves"),
    gettext_noop("%(players_text)s both wait; there is nothing to swap"),
    gettext_noop("%(players_text)s already share table %(where)s"),
    gettext_noop("a final table has 5 or 6 seats, not %(size)s"),
    gettext_noop("every finalist has already picked"),
    gettext_noop("it is %(name_of)s's turn to pick, not %(name_of2)s's"),
    gettext_noop("%(faction_name)s cannot be picked: %(why)s; still free: %(factions_text)s"),
    gettext_noop("%(name)s is not part of this round"),
    gettext_noop("table sizes %(tuple)s do not seat %(len)s players"),
    gettext_noop("%(count)s players cannot each draw a distinct faction from %(tuple)s"),
    gettext_noop("faction pool %(tuple)s names a faction twice"),
    gettext_noop('"all" or a whole number from 0 to 1000 is expected, not %(value)s'),
    gettext_noop("%(name)s has no Ambassadors"),
    gettext_noop("the Ecaz Ambassador goes back to the supply when triggered, never aside or out of the game"),
    gettext_noop("the Ecaz supply is not tracked yet: record it with ambassador_supply_set"),
    gettext_noop("only the Harkonnen take a leader, and only after a battle they won"),
    gettext_noop("capturing leaders is an Advanced ability: the Basic game plays the Harkonnen sheet to 2.05.09"),
    gettext_noop("the Harkonnen take a leader of the loser, %(faction_name)s"),
    gettext_noop("%(name)s was killed in this battle"),
    gettext_noop("%(name)s fought elsewhere this turn and cannot be taken"),
    gettext_noop("%(faction_name)s did not win this battle and keeps none of the cards it played"),
    gettext_noop("%(replace)s is discarded after use"),
    gettext_noop("%(faction_name)s has %(normal)s and %(special)s starred forces in the battle"),
    gettext_noop("losing %(n)s forces and %(sp)s starred forces does not make up the %(decimal_str)s dialed"),
    gettext_noop("%(faction_name)s has no forces in the battle in sector %(sector)s"),
    gettext_noop("%(faction_name)s comes first in storm order and still has its battles to fight (%(join)s) before the one in %(place_name)s"),
    gettext_noop("quick tracking records no battles (forces are unknown)"),
    gettext_noop("a battle is fought between two factions"),
    gettext_noop("nobody battles in the Polar Sink"),
    gettext_noop("%(faction_name)s and %(faction_name2)s have no battle in %(place_name)s"),
    gettext_noop("%(faction_name)s played Juice of Sappho to be the aggressor in %(place_name)s"),
    gettext_noop("%(faction_name)s comes before %(faction_name2)s in storm order and is the aggressor"),
    gettext_noop("only the Stone Burner's player may kill both leaders with it"),
    gettext_noop("only the Fremen's ally may be granted full strength without spice, and %(faction_name)s is not one here"),
    gettext_noop("the Kwisatz Haderach is an Advanced ability: the Basic game plays the Atreides sheet to 2.01.09"),
    gettext_noop("%(faction_name)s holds no captive or ghola %(name)s of %(faction_name2)s"),
    gettext_noop("%(faction_name)s do not play in this game"),
    gettext_noop("the %(power)s is used by %(faction_name)s"),
    gettext_noop("%(faction_name)s use it in their own battle or their ally's, not between %(join_names)s"),
    gettext_noop("%(faction_name)s was Voiced not to play %(replace)s and played %(replace2)s"),
    gettext_noop("with a No-Field token present the Richese are not made to show the number dialed"),
    gettext_noop("one leader disc cannot be on both wheels"),
    gettext_noop("a leader's owner is named only with the leader"),
    gettext_noop("%(faction_name)s has already used its Karama power: once a game"),
    gettext_noop("only the Fremen place a worm with a Karama card, and they do not play here"),
    gettext_noop("a Karama buys a shipment from reserves, not a revival from the tanks"),
    gettext_noop("a Karama buys a shipment in the shipment and movement phase, not in the %(phase_name)s phase"),
    gettext_noop("the Karama revival is the Emperor's power, not %(faction_name)s's"),
    gettext_noop("the Emperor revives with a Karama in the %(phases_text)s phase, not in the %(phase_name)s phase"),
    gettext_noop("a Karama revives up to %(KARAMA_REVIVAL)s forces, not %(value)s"),
    gettext_noop("%(faction_name)s held no treachery card, so no Karama card to play"),
    gettext_noop("%(card)s is not a movement card in %(name)s"),
    gettext_noop("only %(factions_text)s may use %(card)s (%(rule)s)"),
    gettext_noop("%(faction_name)s holds no treachery card to play %(card)s"),
    gettext_noop("the Fremen Ambassador moves the Ecaz's forces, not %(faction_name)s"),
    gettext_noop("%(name)s has no No-Field tokens"),
    gettext_noop("a No-Field shipment comes from reserves"),
    gettext_noop("%(faction_name)s's reserves are unknown in this position"),
    gettext_noop("the No-Field token %(no_field)s brings %(lands)s %(faction_name)s forces from reserves, not %(value)s"),
    gettext_noop("one Spice Blow a turn (no double spice blow in this game) and it was placed this turn; no spice lands in %(place_name)s"),
    gettext_noop("the Spice Blow sector of %(place_name)s is in the storm: no spice is placed"),
    gettext_noop("the double spice blow places two Spice Blows a turn and both were placed this turn; no spice lands in %(place_name)s"),
    gettext_noop("collect at least 1 spice"),
    gettext_noop("%(faction_name)s has no forces in %(place_name)s"),
    gettext_noop("the Spice Blow sector of %(place_name)s is in the storm: the card is turned up but no spice is placed (record 0 spice)"),
    gettext_noop("a Spice Blow places at least 1 spice"),
    gettext_noop("%(faction_name)s played Juice of Sappho to ship and move first, even before %(faction_name2)s"),
    gettext_noop("the %(who)s forces in the tanks are not known"),
    gettext_noop("%(who)s has only %(tanks)s special forces in the tanks"),
    gettext_noop("%(who)s has only %(tanks)s forces in the tanks"),
    gettext_noop("the %(faction_name)s Ambassador is not triggered by the %(faction_name2)s"),
    gettext_noop("at the Mentat Pause Duke Vidal is set aside, not made a leader of %(faction_name)s"),
    gettext_noop("the Moritani are in %(len)s battles in strongholds without the Ecaz; Duke Vidal needs two"),
    gettext_noop("%(factions_text)s already allied: the Ambassador allies two unallied factions"),
    gettext_noop("no Terror token is on the board to trigger: Enemy of My Enemy is offered before one is revealed"),
    gettext_noop("the Basic game has no captured leaders (2.05.10 is an Advanced ability), so %(name)s is not captured"),
    gettext_noop("placings are computed for the finals table only"),
    gettext_noop("table %(table)s is a final; qualifying standings count heats only"),
    gettext_noop("table %(table)s is a final; awards count preliminary heats only"),
    gettext_noop("player %(player)s at table %(table)s has no faction"),
    gettext_noop("unknown format %(key)s; known formats: %(known)s"),
    gettext_noop("%(value)s is outside the bounds of a decimal the platform reads"),
    gettext_noop("the number is too large: at most %(MAX_WHOLE_DIGITS)s digits before the decimal point"),
    gettext_noop("%(value)s has no exact decimal form"),
    gettext_noop("PP values must be whole tenths: %(values)s"),
    gettext_noop('"all" or a whole number from 0 to 1000 is expected, not %(value)s'),
    gettext_noop("the %(faction_name)s Ambassador is not in the Ecaz supply (in it: %(_names)s)"),
    gettext_noop("at setup the supply is the Ecaz Ambassador and %(RANDOM_AMBASSADORS)s random ones, nothing set aside"),
    gettext_noop("the supply holds at most %(FULL_AMBASSADOR_SUPPLY)s Ambassadors, the Ecaz's and %(RANDOM_AMBASSADORS)s random ones"),
    gettext_noop("only the Bene Gesserit Ambassador leaves the game, not %(_names)s"),
    gettext_noop("%(RANDOM_AMBASSADORS)s random Ambassadors are drawn at a time: %(_names)s are too many"),
    gettext_noop("%(RANDOM_AMBASSADORS)s Ambassadors other than the Ecaz's are drawn at random"),
    gettext_noop("a new supply is drawn once all five random Ambassadors have been triggered: %(_names)s have not"),
    gettext_noop("%(_names)s left the game when triggered and is never drawn again"),
    gettext_noop("there is no %(faction_name)s Ambassador: the Ecaz's and one of each other faction but the Moritani"),
    gettext_noop("each Ambassador exists once: %(_names)s is already on the board or listed"),
    gettext_noop("the Guild alliance does not ship the Fremen's reserves: they are sent only to the Great Flat or within two territories of it, not %(place_name)s"),
    gettext_noop("an advisor follows another faction's shipment from off-planet into the same territory and sector, and none went to %(place_name)s sector %(sector)s"),
    gettext_noop("%(place_name)s was announced not coexisting this turn; it may coexist again only after every other faction has left it and a different faction enters"),
    gettext_noop("the HMS moves at the Mentat Pause, not in %(phase)s"),
    gettext_noop("%(name)s has no alliances by %(replace)s: alliances form in a nexus"),
    gettext_noop("the Harkonnen capture a leader after a battle they won, not in the %(phase_name)s phase"),
    gettext_noop("a captive stays captive only when it was played by the side that won by calling a traitor, where the rules consider it not used"),
    gettext_noop("the Voice cannot name %(replace)s in this game"),
    gettext_noop("%(faction_name)s showed the Prescience %(shown)s as its %(element)s and must play it"),
    gettext_noop("%(power)s with a Karama (%(rule)s) is an Advanced power (1.13.00, 1.13.05)"),
    gettext_noop("a Karama revives a leader from the tanks to active, not from %(before)s to %(status)s"),
    gettext_noop("the No-Field token %(number)s already lies face up in front of the Richese shield: the one revealed shows another of 0, 3 and 5"),
    gettext_noop("%(faction_name)s already goes %(place)s this phase"),
    gettext_noop("%(faction_name)s played Juice of Sappho to go last, even after %(faction_name2)s, and has begun: %(faction_name3)s's turn is over"),
    gettext_noop("the Shield Wall waits for 0 to %(MOST_WORMS)s worms"),
    gettext_noop("unknown option; known: %(join)s"),
    gettext_noop("an option is a name"),
    gettext_noop("%(who)s's seat has no known faction (%(_shown)s)"),
    gettext_noop("must be a decimal number >= 0: %(exc)s"),
    gettext_noop('"all" or a whole number from 0 to 1000 is expected, not %(value)s'),
    gettext_noop("must be true or false"),
    gettext_noop("a sector is 0..17 (or null for the Polar Sink)"),
    gettext_noop("lists a faction twice"),
    gettext_noop("must be one of %(join)s"),
    gettext_noop("must be an object"),
    gettext_noop("must be a list"),
    gettext_noop("unknown keys %(sorted)s"),
    gettext_noop("turns start at 1"),
    gettext_noop("must be a number"),
    gettext_noop("is a whole number or a half (2.5), not negative"),
    gettext_noop("is not a field of a battle plan"),
    gettext_noop("is required"),
    gettext_noop("is required for %(type)s"),
    gettext_noop("is not a field of %(type)s"),
    gettext_noop("must be a string"),
    gettext_noop("must be an integer"),
    gettext_noop("must not be negative"),
    gettext_noop("%(key)s must be an integer %(rng)s"),
    gettext_noop("%(key)s is a faction of the game"),
    gettext_noop("table %(number)s seats are numbered %(join_names)s, not 1 to %(len)s"),
    gettext_noop("table size %(table_size)s is not between 2 and %(FULL_TABLE)s"),
    gettext_noop("seat %(seat)s is not between 1 and %(table_size)s"),
    gettext_noop("unknown small_tables option %(small_tables)s for %(count)s players; options are %(tuple)s"),
    gettext_noop("player ids are integers, got %(p)s"),
    gettext_noop("seed must be an integer, got %(seed)s"),
    gettext_noop("%(name)s has no called clock and its default action"),
    gettext_noop("%(message)s; the Bene Gesserit may go in to coexist there: record their coexistence in %(place_name)s first (%(rule)s)"),
    gettext_noop("%(ability)s sends forces to reserves, not to the %(to)s"),
    gettext_noop("there is no %(ability)s in %(name)s: only the Guild sends forces from the board to reserves"),
    gettext_noop("%(ability)s is %(faction_name)s's, and %(faction_name2)s is not in this game"),
    gettext_noop("%(ability)s sends another faction's forces home, not %(faction_name)s's"),
    gettext_noop("%(ability)s is played in the %(phase_name)s phase"),
    gettext_noop("%(ability)s sends %(most)s force home"),
    gettext_noop("Bene Gesserit tokens have no advisor side under %(name)s: they coexist by territory"),
    gettext_noop("Bene Gesserit tokens have no advisor side under %(name)s: record coexistence_declared instead"),
    gettext_noop("Terror tokens go only into the five strongholds, not %(place_name)s"),
    gettext_noop("Ambassadors go only into the five strongholds, not %(place_name)s"),
    gettext_noop("the rules removed only %(had)s %(who)s forces from %(place)s: %(want)s cannot be put back"),
    gettext_noop("the rules removed only %(had)s %(who)s special forces from %(place)s: %(want)s cannot be put back"),
    gettext_noop("the rules removed only %(had)s %(who)s advisors from %(place)s: %(want)s cannot be put back"),
    gettext_noop("a worm appears in the territory of the No-Field token in %(where)s: record its reveal (no_field_revealed with the forces it stands for) first"),
    gettext_noop("the storm reaches the No-Field token in %(where)s: record its reveal (no_field_revealed with the forces it stands for) first"),
    gettext_noop("%(faction_name)s cannot hold its own leader as a ghola"),
    gettext_noop("%(faction_name)s cannot capture its own leader"),
    gettext_noop("%(name)s is not dead (%(leader_status_words)s): a ghola comes from the tanks"),
    gettext_noop("%(name)s is not an active leader (%(leader_status_words)s) and cannot be captured"),
    gettext_noop("%(name)s is in the Tleilaxu Tanks: only an active leader is taken"),
    gettext_noop("%(name)s is not an active leader: only an active leader is taken"),
    gettext_noop("%(name)s is held captive by %(faction_name)s, not an active leader of %(faction_name2)s"),
    gettext_noop("%(name)s is a ghola of %(faction_name)s, not an active leader of %(faction_name2)s"),
    gettext_noop("%(name)s is in the Tleilaxu Tanks, not an active leader of %(faction_name)s"),
    gettext_noop("%(name)s is %(leader_status_words)s, not an active leader of %(faction_name)s"),
    gettext_noop("there is no %(replace)s card in this game's deck"),
    gettext_noop("the Voice commands the opponent, %(opponent)s"),
    gettext_noop("the Prescience asks the opponent, %(opponent)s"),
    gettext_noop("%(card)s is played with a force movement, not %(via)s"),
    gettext_noop("%(key)s has no %(via)s moves"),
    gettext_noop("a shipment costs 0 spice or more, not %(cost)s"),
    gettext_noop("a revival costs 0 spice or more, not %(cost)s"),
    gettext_noop("an Ambassador costs 0 spice or more, not %(cost)s"),
    gettext_noop("this shipment costs %(price)s spice, not %(cost)s"),
    gettext_noop("this revival costs %(price)s spice, not %(cost)s"),
    gettext_noop("this Ambassador costs %(price)s spice, not %(cost)s"),
    gettext_noop("%(who)s has only %(spice)s spice and cannot pay %(cost)s for this shipment"),
    gettext_noop("%(who)s has only %(spice)s spice and cannot pay %(cost)s for this revival"),
    gettext_noop("%(who)s has only %(spice)s spice and cannot pay %(cost)s for this Ambassador"),
    gettext_noop("%(who)s has already made its one shipment of the turn (to %(place_name)s)"),
    gettext_noop("%(who)s has already made its one shipment of the turn (from %(place_name)s to %(place_name2)s)"),
    gettext_noop("%(who)s has already made its one shipment of the turn (from %(place_name)s back to reserves)"),
    gettext_noop("%(where)s has no Spice Blow: no spice lands there"),
    gettext_noop("%(where)s has no Spice Blow: there is no spice to collect"),
    gettext_noop("%(where)s has no Spice Blow: spice lies only in Spice Blow territories"),
    gettext_noop("the Guild makes one of its three kinds of shipment a turn: it made a %(shipment_kind_words)s shipment, not also a %(shipment_kind_words2)s one"),
    gettext_noop("CHOAM Charity this turn is %(_words)s, not %(_words2)s"),
    gettext_noop("the strongholds' income this turn is %(_words)s, not %(_words2)s"),
    gettext_noop("there is no %(piece_alone)s in %(name)s"),
    gettext_noop("%(piece)s needs the %(faction_name)s in the game"),
    gettext_noop("the Hidden Mobile Stronghold points at a sector of a territory that is no stronghold, not %(place_name)s sector %(sector)s"),
    gettext_noop("the Hidden Mobile Stronghold is deployed after the first storm"),
    gettext_noop("the No-Field token counts as a Richese force: %(place_name)s would hold %(factions_text)s and the Richese, at most two factions (1.06.02.05)"),
    gettext_noop("Terror tokens stand only in the five strongholds, not in %(join_names)s"),
    gettext_noop("the Moritani have %(TERROR_TOKENS)s Terror tokens: %(len)s on the board and %(terror_spent)s out of the game are too many"),
    gettext_noop("after the Atomics %(faction_name)s holds at most %(limit)s treachery cards, not %(cards)s"),
    gettext_noop("Ambassadors stand only in strongholds, not in %(place_name)s"),
    gettext_noop("there is no %(faction_name)s Ambassador"),
    gettext_noop("each Ambassador exists once: %(join_names)s stands twice"),
    gettext_noop("each Ambassador exists once: the %(faction_name)s Ambassador is in %(seen)s and %(key)s"),
    gettext_noop("the Ambassador supply holds at most %(FULL_AMBASSADOR_SUPPLY)s, not %(len)s"),
    gettext_noop("the Ecaz Ambassador goes back to the supply when triggered"),
    gettext_noop("only the Bene Gesserit Ambassador leaves the game"),
    gettext_noop("%(RANDOM_AMBASSADORS)s random Ambassadors are in play at a time, not %(len)s"),
    gettext_noop("the Richese have %(len)s No-Field tokens: %(len2)s face up and one on the board are too many"),
    gettext_noop("Duke Vidal leads for a faction only with the Ecaz or the Moritani at the table (2.11.16), not for %(faction_name)s"),
    gettext_noop("a table playing %(turn_limit)s turns plays the final, which allows no three-faction alliances"),
    gettext_noop("%(name)s has no %(pieces)s"),
    gettext_noop("%(key)s is %(meaning)s"),
    gettext_noop("forces[%(i)s]: only the Bene Gesserit has advisors"),
    gettext_noop("forces[%(i)s]: %(faction_name)s in %(place_name)s sector %(s)s listed twice"),
    gettext_noop("%(faction_name)s dropped out: its forces left the board"),
    gettext_noop("%(faction_name)s dropped out: it is in no alliance"),
    gettext_noop("%(key)s must be true or false"),
    gettext_noop("'seats' must list the factions of 'factions'"),
    gettext_noop("%(faction_name)s: the player marker stands on one of the dots %(list)s"),
    gettext_noop("'edition' must be one of %(list)s"),
    gettext_noop("%(faction_name)s: special forces in reserve and tanks do not add up"),
    gettext_noop("%(faction_name)s has %(len)s leaders, not %(n)s"),
    gettext_noop("%(faction_name)s 'pp_total' must be a decimal number: %(exc)s"),
    gettext_noop("%(faction_name)s is in two alliances"),
    gettext_noop("an alliance has 2..%(value)s factions"),
    gettext_noop("%(place_name)s holds forces of %(len)s factions; at most two"),
    gettext_noop("Bene Gesserit fighters and advisors never share %(place_name)s"),
    gettext_noop("every Harkonnen leader of its own is dead, so its captives (%(names)s) have gone home"),
    gettext_noop("'losses' must be a list"),
    gettext_noop("losses[%(i)s] names a faction of the game, a territory and a rule"),
    gettext_noop("losses[%(i)s]: sector %(s)s is not part of the territory"),
    gettext_noop("spice losses[%(i)s] name a Spice Blow territory and a rule"),
    gettext_noop("losses[%(i)s] names an Ambassador's faction symbol, a territory and a rule"),
    gettext_noop("%(faction_name)s owns only %(special_forces)s special forces, %(on_s)s are on the board"),
    gettext_noop("%(faction_name)s owns %(forces)s forces, %(value)s are on the board"),
    gettext_noop("%(faction_name)s owns %(forces)s forces: %(value)s on the board + %(reserves)s in reserve + %(tanks)s in the tanks do not add up"),
    gettext_noop("%(key)s is [territory, sector]"),
    gettext_noop("%(key)s points at a sector"),
    gettext_noop("'time_up' is one of %(list)s or null"),
    gettext_noop("coexistence needs the Bene Gesserit in the game"),
    gettext_noop("moves[%(i)s]: unknown kind %(via)s"),
    gettext_noop("'flyers' lists factions of the game"),
    gettext_noop("'shipments' maps factions of the game to where they shipped"),
    gettext_noop("'order_cards' maps first, last, guild_in_order or aggressor@<territory> to factions of the game"),
    gettext_noop("there is no Juice of Sappho in %(name)s"),
    gettext_noop("'ambassadors' maps strongholds to faction symbols"),
    gettext_noop("'spice_on_board': %(where)s is not a Spice Blow territory"),
    gettext_noop("'spice_on_board': %(where)s holds a positive whole amount of spice"),
    gettext_noop("'fought' rows are [turn, faction, leader, territory]"),
    gettext_noop("'leaders_revived' is a list of [faction, leader]"),
    gettext_noop("'revived' maps factions to [turn, forces, starred forces]"),
    gettext_noop("'shipped' is [turn, faction, territory, sector]"),
    gettext_noop("'guild_shipment' is [turn, one of %(join)s]"),
    gettext_noop("'opened' is [turn, a faction of the game]"),
    gettext_noop("'inflation' is [one of %(join)s, the turn placed]"),
    gettext_noop("'declared_apart' maps territories to the factions there"),
    gettext_noop("'vacated' must be true or false"),
    gettext_noop("the BG predicts another faction of the game"),
    gettext_noop("the predicted turn is past the last turn %(turn_limit)s"),
    gettext_noop("this engine knows the editions %(list)s"),
    gettext_noop("needs exactly the keys 'faction', 'territory' and 'amount'"),
    gettext_noop("is {faction, territory, amount}"),
    gettext_noop("needs exactly the keys 'faction' and 'turn'"),
    gettext_noop("is not a field of the Voice"),
    gettext_noop("is not a field of the Prescience"),
    gettext_noop("is not a field of a capture"),
    gettext_noop("a %(type)s cannot be inserted earlier in the log"),
    gettext_noop("expected %(type)s"),
    gettext_noop("unsupported schema version (this engine reads %(SCHEMA_VERSION)s)"),
    gettext_noop("table %(table)s: player %(player)s has no faction in the filed report"),
    gettext_noop("table %(table)s has two filed reports"),
    gettext_noop("format_version %(version)s is not one this installation reads (it reads %(known)s); update the platform to import it"),
    gettext_noop("the file has no content object"),
    gettext_noop("the file has no sha256 checksum"),
    gettext_noop("the checksum does not match the content: the file was changed or damaged after it was written (stated %(stated)s…, content gives %(actual)s…)"),
    gettext_noop("the file is not a JSON document (%(exc)s)"),
    gettext_noop("the file is not an exported tournament (no JSON object)"),
    gettext_noop("the file has no format_version: it is not an exported tournament"),
    gettext_noop("unknown award measure %(key)s; known: %(join)s"),
    gettext_noop("a %(_LEADER_WORDS)s default alliance victory in the final needs the %(_LEADER_WORDS2)s among the winners (who places 1st)"),
    gettext_noop("not a result kind"),
    gettext_noop("game %(key)s lists %(join)s twice"),
    gettext_noop("unknown faction %(faction)s; expected one of %(FACTIONS)s"),
    gettext_noop("unknown keep-apart kind %(kind)s; expected one of %(KEEP_APART_KINDS)s"),
    gettext_noop("a trade needs both players' consent; %(players)s has not consented"),
    gettext_noop("a trade needs both players' consent; %(players)s have not consented"),
    gettext_noop("taking an undrawn faction needs every player at table %(table)s to consent; %(players)s has not consented"),
    gettext_noop("taking an undrawn faction needs every player at table %(table)s to consent; %(players)s have not consented"),
    gettext_noop("the final has %(size)s seats but only %(len)s finalists and alternates are present: %(players_text)s"),
    gettext_noop("the final has %(size)s seats but no finalist or alternate is present"),
    gettext_noop("%(who)s's reserves are unknown in this position"),
    gettext_noop("%(who)s's tanks are unknown in this position"),
    gettext_noop("%(who)s has only %(pool)s normal and %(pool2)s special forces in its reserves"),
    gettext_noop("%(who)s has only %(pool)s normal and %(pool2)s special forces in its tanks"),
    gettext_noop("%(faction_name)s has already cross-shipped this turn (%(came)s to %(went)s sector %(to_sector)s)"),
    gettext_noop("%(faction_name)s has made its force movement this turn (%(came)s to %(went)s sector %(to_sector)s); a group moves from one territory to one sector of one other territory"),
    gettext_noop("%(faction_name)s has made its force movement this turn (%(came)s to %(went)s sector %(to_sector)s); a group moves from one sector piece to one sector of one other territory"),
    gettext_noop("%(faction_name)s revives at most %(limit)s forces a turn, not %(value)s (%(before)s already this turn)"),
    gettext_noop("%(faction_name)s revives at most %(limit)s forces a turn, not %(value)s"),
    gettext_noop("%(who)s has already had its turn to ship and move this phase; only the Guild may go out of turn"),
    gettext_noop("%(who)s ships and moves before %(join_names)s in storm order, and %(join_names2)s has begun: %(who2)s's turn is over; only the Guild may go out of turn"),
    gettext_noop("%(who)s ships and moves before %(join_names)s in storm order, and %(join_names2)s have begun: %(who2)s's turn is over; only the Guild may go out of turn"),
    gettext_noop("the recorded game says %(factions_text)s won with %(kind_name)s; %(faction_name)s did not win"),
    gettext_noop("an insert needs a reason"),
    gettext_noop("an event is inserted before one of events 2 to %(len)s (after the game's setup), not before event %(before)s"),
    gettext_noop("turns must be a whole number from 1 to %(limit)s (a %(name)s final lasts at most %(limit2)s turns), got %(turns)s"),
    gettext_noop("turns must be a whole number from 1 to %(limit)s (a %(name)s heat lasts at most %(limit2)s turns), got %(turns)s"),
    gettext_noop("three-faction alliances may not form in a final"),
    gettext_noop("three-faction alliances may not form in a heat"),
    gettext_noop("three-faction alliances form only at 6-player tables"),
    gettext_noop("%(who)s is in two alliances; a faction belongs to one alliance at a time"),
    gettext_noop("%(players)s cannot be one alliance: %(why)s"),
    gettext_noop("the Bene Gesserit predicts another player's victory, not %(who)s's"),
    gettext_noop("no row won; every game has a winning side (adjudication picks one when time runs out)"),
    gettext_noop("every seat dropped out"),
    gettext_noop("%(who)s wins with %(kind_name)s while %(who2)s wins with %(kind_name2)s; a game has one winning side"),
    gettext_noop("%(kind_words)s cannot end a game by %(get)s (ended_by %(ended_by)s); it ends by %(allowed)s"),
    gettext_noop("%(count)s rows won %(kind_words)s; a solo win has one winner"),
    gettext_noop("%(who)s cannot win %(kind_words)s while allied with %(players)s"),
    gettext_noop("%(count)s rows share %(kind_words)s; an allied win has exactly two members (record a 3-faction alliance's win as three_alliance)"),
    gettext_noop("%(count)s rows share %(kind_words)s; an allied win has exactly two members"),
    gettext_noop("%(count)s rows share a three-faction alliance victory; it has exactly three members"),
    gettext_noop("no three-faction alliance victory here: %(why)s"),
    gettext_noop("at the end of the last turn the side of the %(factions_text)s wins by default (or the Fremen special victory), not %(players)s"),
    gettext_noop("%(len)s rows share an allied end-game victory; an alliance has two members"),
    gettext_noop("%(count)s rows share an adjudicated victory; the winner is one player or one alliance of at most %(limit)s"),
    gettext_noop("%(players)s, allied with %(who)s, must share the adjudicated win"),
    gettext_noop("%(players)s share %(kind_name)s but are not one recorded alliance"),
    gettext_noop("%(kind_words)s is won by the %(faction_name)s seat, not by %(who)s (%(faction_name2)s)"),
    gettext_noop("%(kind_words)s needs the %(faction_name)s among the winners (the winners play %(factions_text)s)"),
    gettext_noop("%(kind_words)s is only possible when the %(faction_name)s is not in the game"),
    gettext_noop("%(kind_words)s is only possible when neither the %(faction_name)s nor the %(join_names)s is in the game"),
    gettext_noop("the Fremen special victory applies only with the Guild in the game (else it is the Fremen default)"),
    gettext_noop("allies share a result: %(who)s has %(kind_name)s, %(who2)s has %(kind_name2)s"),
    gettext_noop("the Hidden Mobile Stronghold is in play only with the Ixians"),
    gettext_noop("there is no Hidden Mobile Stronghold in %(name)s"),
    gettext_noop("%(name)s players keep one of their two dealt cards; there are no trades"),
    gettext_noop("this event's %(name)s format has no faction trades: players keep the faction they drew"),
    gettext_noop("%(name_of)s already picked it"),
    gettext_noop("it is not played in the %(name)s final"),
    gettext_noop("%(winners)s wins at this Mentat Pause (rule %(rule)s): confirm the victory with the table (Confirm victory) instead of starting another turn"),
    gettext_noop("%(winners)s wins at this Mentat Pause (rule %(rule)s): confirm the victory with the table (Confirm victory) instead of ending the last turn"),
    gettext_noop("%(winners)s wins at this Mentat Pause (rule %(rule)s): confirm the victory with the table (Confirm victory) instead of an adjudication"),
    gettext_noop("%(winners)s win at this Mentat Pause (rule %(rule)s): confirm the victory with the table (Confirm victory) instead of starting another turn"),
    gettext_noop("%(winners)s win at this Mentat Pause (rule %(rule)s): confirm the victory with the table (Confirm victory) instead of ending the last turn"),
    gettext_noop("%(winners)s win at this Mentat Pause (rule %(rule)s): confirm the victory with the table (Confirm victory) instead of an adjudication"),
    gettext_noop("%(faction_name)s has no forces in %(place_name)s to have triggered it"),
    gettext_noop("%(faction_name)s has no forces in %(place_name)s to have triggered it (advisors do not)"),
    gettext_noop("%(faction_name)s has no forces on the Shield Wall or next to it with no storm between"),
    gettext_noop("%(faction_name)s has no forces on the Shield Wall or next to it with no storm between (advisors and coexisting tokens do not count)"),
    gettext_noop("%(key)s lists factions of the game"),
    gettext_noop("%(key)s lists territories"),
    gettext_noop("no No-Field token is left in the Richese supply (none face up in front of the shield; one on the board)"),
    gettext_noop("no No-Field token is left in the Richese supply (none face up in front of the shield)"),
    gettext_noop("no No-Field token is left in the Richese supply (face up in front of the shield: %(shown)s; one on the board)"),
    gettext_noop("no No-Field token is left in the Richese supply (face up in front of the shield: %(shown)s)"),
    gettext_noop("%(faction_name)s is no ally of the Richese: only their ally ships with their No-Field tokens"),
    gettext_noop("%(faction_name)s is no ally of the Richese: only their ally ships with their No-Field tokens (the Richese record no_field_placed)"),
    gettext_noop("%(weapon)s (the Mirror Weapon copies it) kills %(leader)s of %(who)s"),
    gettext_noop("%(weapon)s (the Mirror Weapon copies it) kills the Cheap Hero of %(who)s"),
    gettext_noop("%(weapon)s kills %(leader)s of %(who)s"),
    gettext_noop("%(weapon)s kills the Cheap Hero of %(who)s"),
    gettext_noop("the captive %(key)s goes to the tanks; %(faction_name)s may revive it"),
    gettext_noop("the captive %(key)s is considered not used and stays with %(faction_name)s"),
    gettext_noop("the captive %(key)s has fought once and goes home"),
    gettext_noop("the Harkonnen kill %(leader)s for %(CAPTURE_KILL_SPICE)s spice"),
    gettext_noop("the Harkonnen capture %(leader)s"),
    gettext_noop("the Kwisatz Haderach adds 2"),
    gettext_noop("%(faction_name)s wins %(decimal_str)s to %(decimal_str2)s (the aggressor wins a tie)"),
    gettext_noop("%(faction_name)s wins %(decimal_str)s to %(decimal_str2)s"),
    gettext_noop("the Stone Burner kills %(leader)s of %(faction_name)s"),
    gettext_noop("the Stone Burner kills the Cheap Hero of %(faction_name)s"),
    gettext_noop("Stone Burner: %(faction_name)s wins with %(more)s forces left undialed to %(fewer)s (the aggressor wins a tie)"),
    gettext_noop("Stone Burner: %(faction_name)s wins with %(more)s forces left undialed to %(fewer)s"),
    gettext_noop("%(faction_name)s earns %(value)s spice for the leaders killed"),
    gettext_noop("both leaders are traitors: both sides lose their forces, cards and leaders; nobody wins or earns spice"),
    gettext_noop("%(faction_name)s calls %(leader)s a traitor: it wins and loses nothing, and earns the traitor's value"),
    gettext_noop("the traitor call comes first: the lasgun and shield do not explode"),
    gettext_noop("the winner keeps the spice it dialed"),
    gettext_noop("%(key)s goes back to the leader pool of %(faction_name)s for this phase"),
    gettext_noop("a lasgun meets a shield: every force and all spice in %(place_name)s are lost, both leaders die, nobody wins"),
    gettext_noop("the Kwisatz Haderach dies in the explosion"),
    gettext_noop("%(faction_name)s discards %(join)s"),
    gettext_noop("the Atreides have lost %(kh_losses)s forces in battles: the Kwisatz Haderach awakens"),
    gettext_noop("%(key)s was revived and is killed again: face down in the tanks"),
    gettext_noop("the CHOAM receive %(share)s of the %(spice)s spice %(faction_name)s paid"),
    gettext_noop("an LoLV alliance joins two players (glossary 'Alliance'); the allocation list has no three-faction alliance victory"),
    gettext_noop("a most-strongholds end-game win needs both Guild and Fremen absent, which a WBC table of five or six of the six factions never has; the QP list has no such line"),
)
#: Why the text rules (dune.text_rules) refuse a text or a name, a tournament's or a series'
#: title and a JSON body's shape: matched as the refusals are, `character` in words below.
TEXT_PROBLEMS = (
    gettext_noop("contains %(character)s at position %(position)s"),
    gettext_noop("shows nothing: it has no letter, digit or sign a reader would see"),
    gettext_noop("begins with a combining mark, which has no letter to sit on"),
    gettext_noop("the name %(message)s"),
    gettext_noop("a tournament needs a name"),
    gettext_noop("a series needs a name"),
    gettext_noop("a tournament name has at most %(longest)s characters"),
    gettext_noop("a series name has at most %(longest)s characters"),
    gettext_noop("nested more than %(depth)s levels deep"),
    gettext_noop("has %(count)s items; at most %(limit)s are accepted"),
    gettext_noop("a key %(message)s"),
    gettext_noop("JSON nested more than %(depth)s levels deep"),
    gettext_noop("not %(encoding)s text"),
    # A number in a JSON body (config.api_parsers, dune.engine.numbers.decimal_problem).
    gettext_noop("the number %(shown)s %(message)s"),
    gettext_noop("has more than %(digits)s digits"),
    gettext_noop("is not a decimal number"),
    gettext_noop("is not a finite number"),
    gettext_noop("is too large: at most %(whole)s digits before the decimal point"),
    gettext_noop("has more than %(places)s digits after the decimal point"),
    gettext_noop("is larger than a 64-bit integer (at most %(most)s)"),
)
#: The characters no text or no name may hold, as dune.text_rules names them.
CHARACTERS = {
    "a NUL character": pgettext_lazy("a character a text may not hold", "a NUL character"),
    "an unpaired surrogate (not valid Unicode)": pgettext_lazy(
        "a character a text may not hold", "an unpaired surrogate (not valid Unicode)"),
    "a tab": pgettext_lazy("a character a text may not hold", "a tab"),
    "a line break": pgettext_lazy("a character a text may not hold", "a line break"),
    "a zero-width space": pgettext_lazy("a character a text may not hold", "a zero-width space"),
    "a zero-width non-joiner": pgettext_lazy("a character a text may not hold", "a zero-width non-joiner"),
    "a zero-width joiner": pgettext_lazy("a character a text may not hold", "a zero-width joiner"),
    "a word joiner": pgettext_lazy("a character a text may not hold", "a word joiner"),
    "a zero-width no-break space": pgettext_lazy("a character a text may not hold", "a zero-width no-break space"),
    "a soft hyphen": pgettext_lazy("a character a text may not hold", "a soft hyphen"),
    "a Mongolian vowel separator": pgettext_lazy("a character a text may not hold", "a Mongolian vowel separator"),
    "a line separator": pgettext_lazy("a character a text may not hold", "a line separator"),
    "a paragraph separator": pgettext_lazy("a character a text may not hold", "a paragraph separator"),
}
#: The characters named with their code point ("the control character U+0007").
CHARACTER_KINDS = {
    re.compile(r"the control character U\+([0-9A-F]{4,6})"): pgettext_lazy(
        "a character a text may not hold", "the control character U+%(code)s"),
    re.compile(r"a bidirectional control \(U\+([0-9A-F]{4,6})\)"): pgettext_lazy(
        "a character a text may not hold", "a bidirectional control (U+%(code)s)"),
    re.compile(r"a tag character \(U\+([0-9A-F]{4,6})\)"): pgettext_lazy(
        "a character a text may not hold", "a tag character (U+%(code)s)"),
    re.compile(r"an invisible formatting character \(U\+([0-9A-F]{4,6})\)"): pgettext_lazy(
        "a character a text may not hold", "an invisible formatting character (U+%(code)s)"),
}
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
_SECTOR = re.compile(r"^(?P<place>.+) sector (?P<sector>\d+)$")
_SECTOR_IN_BRACKETS = re.compile(r"^(?P<place>.+) \(sector (?P<sector>\d+)\)$")
#: Fields that list names joined by "and" (dune.engine.names.join_names): the "and" translated.
_LIST_FIELDS = (
    "factions_text", "factions_text2", "join_names", "_words", "_words2", "names", "_names", "players", "players_text", "winners"
)
#: The engine's words a template's field holds, by the field's name (trailing digits dropped):
#: a leader's state, a kind of the Guild's shipment, an expansion piece (with and without its
#: article) and what a snapshot's count is.
WORD_FIELDS = {
    "leader_status_words": {
        "active": pgettext_lazy("a leader's state", "active"),
        "tanks face up": pgettext_lazy("a leader's state", "tanks face up"),
        "tanks face down": pgettext_lazy("a leader's state", "tanks face down"),
        "captured": pgettext_lazy("a leader's state", "captured"),
        "held": pgettext_lazy("a leader's state", "held"),
    },
    "shipment_kind_words": {
        "normal": pgettext_lazy("a kind of the Guild's shipment", "normal"),
        "cross ship": pgettext_lazy("a kind of the Guild's shipment", "cross ship"),
        "off planet": pgettext_lazy("a kind of the Guild's shipment", "off planet"),
    },
    "piece": {
        "the Hidden Mobile Stronghold": pgettext_lazy("a game piece, with its article", "the Hidden Mobile Stronghold"),
        "a No-Field token": pgettext_lazy("a game piece, with its article", "a No-Field token"),
        "a Terror token": pgettext_lazy("a game piece, with its article", "a Terror token"),
        "the Atomics Aftermath": pgettext_lazy("a game piece, with its article", "the Atomics Aftermath"),
        "an Ambassador": pgettext_lazy("a game piece, with its article", "an Ambassador"),
        "an Ambassador supply": pgettext_lazy("a game piece, with its article", "an Ambassador supply"),
        "a No-Field token face up": pgettext_lazy("a game piece, with its article", "a No-Field token face up"),
    },
    "piece_alone": {
        "Hidden Mobile Stronghold": pgettext_lazy("a game piece, without an article", "Hidden Mobile Stronghold"),
        "No-Field token": pgettext_lazy("a game piece, without an article", "No-Field token"),
        "Terror token": pgettext_lazy("a game piece, without an article", "Terror token"),
        "Atomics Aftermath": pgettext_lazy("a game piece, without an article", "Atomics Aftermath"),
        "Ambassador": pgettext_lazy("a game piece, without an article", "Ambassador"),
        "Ambassador supply": pgettext_lazy("a game piece, without an article", "Ambassador supply"),
        "No-Field token face up": pgettext_lazy("a game piece, without an article", "No-Field token face up"),
    },
    "pieces": {
        "Hidden Mobile Stronghold": pgettext_lazy("game pieces a ruleset lacks", "Hidden Mobile Stronghold"),
        "No-Field tokens": pgettext_lazy("game pieces a ruleset lacks", "No-Field tokens"),
        "Terror tokens": pgettext_lazy("game pieces a ruleset lacks", "Terror tokens"),
        "Ambassadors": pgettext_lazy("game pieces a ruleset lacks", "Ambassadors"),
        "Duke Vidal": pgettext_lazy("game pieces a ruleset lacks", "Duke Vidal"),
    },
    "time_up": {
        "LoLV": pgettext_lazy("the time limit a table's clock ran out on", "LoLV"),
        "WBC heat": pgettext_lazy("the time limit a table's clock ran out on", "WBC heat"),
        "WBC final": pgettext_lazy("the time limit a table's clock ran out on", "WBC final"),
    },
    "meaning": {
        "[turn, uses of the Tleilaxu Ghola card]": pgettext_lazy("a snapshot value's shape", "[turn, uses of the Tleilaxu Ghola card]"),
        "[turn, count of Spice Blows]": pgettext_lazy("a snapshot value's shape", "[turn, count of Spice Blows]"),
        "[turn, count of Ambassadors placed]": pgettext_lazy("a snapshot value's shape", "[turn, count of Ambassadors placed]"),
        "a list of 4 counts": pgettext_lazy("a snapshot value's shape", "a list of 4 counts"),
        "a turn": pgettext_lazy("a snapshot value's shape", "a turn"),
    },
}


#: Fields that hold one of the cores' LABELS (a result kind, how a game ended: "a concession").
_LABEL_FIELDS = ("kind_name", "kind_words", "get")
_INSERTED = re.compile(r"^with the (?P<type>\S+) inserted before event (?P<before>\d+)$")


def _without_words(value: str) -> str:
    """What a correction's replay leaves out or adds (dune.engine.game_log), in words."""
    if value == "without the voided event":
        return pgettext("a replay of the game log", "without the voided event")
    inserted = _INSERTED.match(value)
    if inserted:
        return pgettext("a replay of the game log", "with the %(type)s inserted before event %(before)s") % inserted.groupdict()
    return value


def _endings_words(value: str) -> str:
    """How games may end ("a victory or a concession"), in the reader's language."""
    head, sep, last = value.rpartition(" or ")
    parts = [*(head.split(", ") if sep else []), last]
    if not all(p in LABELS for p in parts):
        return value
    words = [gettext(p) for p in parts]
    if len(words) == 1:
        return words[0]
    return f"{', '.join(words[:-1])} {pgettext('between phase names', 'or')} {words[-1]}"


#: The snapshot's shape refusal (dune.engine.codec.schema.check_fields): its field's shape in
#: words and what the field holds, the schema's English description with its rule.
SNAPSHOT_SHAPE = "%(name)s must be %(words)s (%(holds)s)"
_SHAPES = {
    "an integer": pgettext_lazy("a snapshot value's shape", "an integer"),
    "true or false": pgettext_lazy("a snapshot value's shape", "true or false"),
    "a string": pgettext_lazy("a snapshot value's shape", "a string"),
    "a number or decimal text": pgettext_lazy("a snapshot value's shape", "a number or decimal text"),
    "a value": pgettext_lazy("a snapshot value's shape", "a value"),
    "values": pgettext_lazy("a snapshot value's shape", "a value"),
    "value": pgettext_lazy("a snapshot value's shape", "a value"),
    "an object": pgettext_lazy("a snapshot value's shape", "an object"),
}
_PAIR = re.compile(r"a pair \[(?P<first>.+?), (?P<second>.+)\]")
_CITED = re.compile(r".*\((?P<rule>(?:LoLV|WBC|AH) [^()]+)\)")


def _shape_words(value: str) -> str:
    """A snapshot value's shape as dune.engine.codec.kinds.Shape.words writes it ("a list of a
    string or null"), in the reader's language."""
    if value.endswith(" or null"):
        return pgettext("a snapshot value's shape", "%(what)s or null") % {"what": _shape_words(value[:-8])}
    if value in _SHAPES:
        return str(_SHAPES[value])
    if value.startswith("a list of "):
        return pgettext("a snapshot value's shape", "a list (each item: %(what)s)") % {"what": _shape_words(value[10:])}
    if value.startswith("an object of "):
        return pgettext("a snapshot value's shape", "an object (each value: %(what)s)") % {
            "what": _shape_words(value[13:])}
    pair = _PAIR.fullmatch(value)
    if pair:
        return pgettext("a snapshot value's shape", "a pair [%(first)s, %(second)s]") % {
            "first": _shape_words(pair["first"]), "second": _shape_words(pair["second"])}
    return value


def _snapshot_shape(fields: dict[str, str]) -> str:
    """The snapshot's shape refusal in the reader's language: the field, its shape in words and
    the rule its description cites (the description itself is the schema's English)."""
    said = {"name": fields["name"], "words": _shape_words(fields["words"])}
    described = gettext(fields["holds"])
    if described != fields["holds"]:
        return gettext(SNAPSHOT_SHAPE) % {**said, "holds": described}
    cited = _CITED.fullmatch(fields["holds"])
    if cited:
        return pgettext("a snapshot field that does not fit its shape", "%(name)s must be %(words)s (%(rule)s)") % {
            **said, "rule": cited["rule"]}
    return pgettext("a snapshot field that does not fit its shape", "%(name)s must be %(words)s") % said


def character_words(value: str) -> str:
    """A character no text may hold, as dune.text_rules names it, in the reader's language."""
    if value in CHARACTERS:
        return str(CHARACTERS[value])
    for pattern, words in CHARACTER_KINDS.items():
        found = pattern.fullmatch(value)
        if found:
            return str(words) % {"code": found.group(1)}
    return value


def _list_words(value: str) -> str:
    """Names joined by "and" (or "nobody"), the joining words in the reader's language."""
    if value == "nobody":
        return pgettext("no name in a list of names", "nobody")
    if value == "none":
        return pgettext("no faction in a list of factions", "none")
    head, sep, last = value.rpartition(" and ")
    return f"{head} {pgettext('between the last two names of a list', 'and')} {last}" if sep else value


def _field_words(key: str, value: str) -> str:
    """A filled-in part of a refusal in the reader's language where it holds the cores' words: a
    quoted message, a phase, the engine's words of WORD_FIELDS, the "and" of a list of names, a
    territory's sector ("Arrakeen sector 9", "Arrakeen (sector 9)") or yes and no; names,
    numbers and inputs as they are."""
    if key in ("msg", "message", "why"):
        return core_refusal(value)
    if key in _PHASE_FIELDS:
        return phase_words(value)
    words = WORD_FIELDS.get(key.rstrip("0123456789"), {})
    if value in words:
        return str(words[value])
    if key.rstrip("0123456789") in _LIST_FIELDS:
        return _list_words(value)
    if key.rstrip("0123456789") in _LABEL_FIELDS and value in LABELS:
        return gettext(value)
    if key == "without":
        return _without_words(value)
    if key == "allowed":  # endings joined by "or" (dune.engine.result_check)
        return _endings_words(value)
    sector = _SECTOR.match(value)
    if sector:
        return pgettext("a territory's sector", "%(place)s sector %(sector)s") % sector.groupdict()
    sector = _SECTOR_IN_BRACKETS.match(value)
    if sector:
        return pgettext("a territory's sector, in brackets", "%(place)s (sector %(sector)s)") % sector.groupdict()
    if value in ("yes", "no"):
        return gettext(value)
    if key == "what" and value in ACTIONS:
        return str(ACTIONS[value])
    if key == "times_words":
        count = times_count(value)
        return value if count is None else times_words(count, translation)
    if key.rstrip("0123456789") in ("weapon", "defense", "card") and value in CARD_KINDS:
        return str(CARD_KINDS[value])
    if key == "character":
        return character_words(value)
    if key == "via" and value in MOVE_KINDS:
        return str(MOVE_KINDS[value])
    if key == "keep_apart" and value in KEEP_APART:
        return str(KEEP_APART[value])
    return value


def _field_regex(key: str) -> str:
    """What a field matches: one of its words where it holds the engine's words, else anything."""
    words = WORD_FIELDS.get(key.rstrip("0123456789"))
    if words is None:
        return f"(?P<{key}>.+?)"
    return f"(?P<{key}>{'|'.join(re.escape(w) for w in sorted(words, key=len, reverse=True))})"


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"(%\(\w+\)s)", template)
    regex = "".join(
        _field_regex(part[2:-2]) if re.fullmatch(r"%\(\w+\)s", part) else re.escape(part.replace("%%", "%"))
        for part in parts
    )
    return re.compile(regex + r"\Z", re.S)


def _literal_length(template: str) -> int:
    return len(re.sub(r"%\(\w+\)s", "", template))


#: The templates, the most specific first (the most words of their own): a broad one ("%(key)s
#: is %(meaning)s") never takes a message a longer one fits.
_PATTERNS = (
    # A snapshot field's shape first: its quoted field, its shape's words and its description.
    (SNAPSHOT_SHAPE, re.compile(r"(?P<name>'[^']+') must be (?P<words>(?:an? |true or false)[^()]*?) \((?P<holds>.+)\)\Z", re.S)),
    *((template, _pattern(template)) for template in sorted(REFUSALS + TEXT_PROBLEMS, key=_literal_length, reverse=True)),
)


def card_words(card: str) -> str:
    """A battle card by its id as it prints (`maula_pistol` -> "Maula Pistol"), a card recorded by
    its kind in the reader's language ("a projectile weapon")."""
    name = card_name(card)
    return str(CARD_KINDS.get(name, name))


def core_status(status: str) -> str:
    """A leader's state as the engine stores it ("tanks_face_down") in the reader's language."""
    words = status.replace("_", " ")
    return str(WORD_FIELDS["leader_status_words"].get(words, words))


def core_refusal(message: str) -> str:
    """A pure core's refusal `message` in the reader's language (as it is when no template fits)."""
    for template, pattern in _PATTERNS:
        found = pattern.match(message)
        if found:
            translated = gettext(template)
            if translated == template:
                return message
            if template == SNAPSHOT_SHAPE:
                return _snapshot_shape(found.groupdict())
            # A message quoted inside another (a field's, a replayed event's) is translated too.
            fields = {k: _field_words(k, v) for k, v in found.groupdict().items()}
            return translated % fields
    return message


def core_text(error: Exception) -> str:
    """A pure core's refusal as its text reads (`str(error)`, its rule number kept where the core
    puts it), its message in the reader's language."""
    text = str(error)
    message = getattr(error, "message", None)
    if not isinstance(message, str) or not message:
        return text
    translated = core_refusal(message)
    return text if translated == message else text.replace(message, translated, 1)
