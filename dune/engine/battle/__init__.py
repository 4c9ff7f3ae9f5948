"""A battle resolved from the two battle plans (LoLV 1.07.04-1.07.07, AH X.B-D, WBC X, XV).

`resolve_battle(position, event)` is pure: it checks the plans against the position and the
table's ruleset and answers a `Resolution` (the winner, the totals, the forces and spice lost,
the leaders killed, captured or sent home, the cards discarded, the spice paid and earned, each
with its rule) without changing anything, so a page can show the outcome before the judge
confirms it; `apply_battle` records it. A refused plan raises a RuleViolation naming the plan's
field (`aggressor.dial`, `defender.leader`, `capture.leader`, ...).

The outcomes, in the order the rules settle them:

- a traitor call (1.07.06.06, AH X.D): the caller wins and loses nothing, the traitorous
  leader goes to the tanks and its value to the caller; the other side loses every force in
  the battle and discards its cards. A call takes precedence over a lasgun/shield explosion
  (1.07.06.06.00, WBC X.25, AH XXI.A.1.a). A leader with the Kwisatz Haderach is never a
  traitor (2.01.12, AH X.D.1.b).
- two traitors (1.07.06.06.02, AH X.D.3, WBC X.24): both lose their forces, cards and
  leaders; nobody wins and nobody earns spice.
- a lasgun and a shield (3.01.14, AH questions A.3, WBC X.23): every force in the territory,
  third parties and Bene Gesserit advisors or coexisting tokens included, and its spice are
  lost; both leaders die (the Kwisatz Haderach with its leader, 2.01.13), no spice is paid for
  them, every card played is discarded and nobody wins.
- otherwise the higher total of the number dialed and the surviving leader's strength (+2 with
  the Kwisatz Haderach) wins, the aggressor winning a tie (1.07.06, AH X.C): the loser loses
  every force in the battle and its cards, the winner the forces it dialed.

The Kwisatz Haderach counts the Atreides forces lost in battles and awakens at seven (2.01.10,
AH X.B.2.a.i, WBC XV.1); the Harkonnen who won may kill or capture one of the loser's leaders
(2.05.10, Advanced only; AH X.B.2.a.ii; WBC X.16); a captive fights once and goes home
(2.05.10.02), or to the tanks if killed (2.05.12); when every Harkonnen leader of its own is
dead the captives go home at once (2.05.11).

One module per question the battle decides: `order` (which battle now), `side`, `forces` and
`leaders` (what a side has there), `cards`, `plan_checks` and `powers` (whether a plan may be
played), `repairs` (WBC X.12), `outcomes`, `forces_lost`, `discards` and `captives` (what the
battle does), `resolve` (the whole resolution) and `choices` (what a page offers).
"""
