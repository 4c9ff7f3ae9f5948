"""The table of result kinds: what each kind of victory (or loss) means, in one place.

The engine's victory checks pick kinds from this table (`kind_for`), and report validation
for games played on paper reads the same rows to check a report (`RESULTS[kind]`). Which
format awards how many points for a kind is the scoring systems' business, not this table's.

Each row says how the victory is won (`way`), how many seats share it (`size`), which faction
must be among the winners and which must be absent from the game, and how the game may end
with it. Rule citations name the 1979 rules (AH) and the LoLV rulebook side by side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType

from dune.engine.factions import BENE_GESSERIT, FREMEN, GUILD
from dune.engine.ids import ResultKind

R = ResultKind


class Way(StrEnum):
    """How a kind of result comes about."""

    STRONGHOLD = "stronghold"  # enough strongholds at the Mentat Pause (or a concession to it)
    PREDICTION = "prediction"  # the Bene Gesserit prediction comes true
    FREMEN_SPECIAL = "fremen_special"  # end of the last turn, the Fremen hold their sietches
    GUILD_DEFAULT = "guild_default"  # end of the last turn, the Guild wins by default
    FREMEN_DEFAULT = "fremen_default"  # end of the last turn, the Fremen win with no Guild
    END_GAME = "end_game"  # end of the last turn, most strongholds, neither Guild nor Fremen
    ADJUDICATED = "adjudicated"  # time ran out; the adjudication criteria decide
    LOSS = "loss"
    DROPOUT = "dropout"


#: Ways decided at the end of the last turn (AH IV.B-C; LoLV 1.09.05, 2.04.09, 2.06.08).
END_OF_PLAY_WAYS: frozenset[Way] = frozenset(
    {Way.FREMEN_SPECIAL, Way.GUILD_DEFAULT, Way.FREMEN_DEFAULT, Way.END_GAME}
)

#: How a game may end (a game report's `ended_by`), in words.
ENDING_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "victory": "a victory",
        "turn_limit": "the turn limit",
        "time_limit": "the time limit",
        "concession": "a concession",
    }
)
ENDED_BY: tuple[str, ...] = tuple(ENDING_WORDS)


@dataclass(frozen=True, slots=True)
class KindRule:
    """One row of the table.

    `size` is how many seats share the win: 1 (solo), 2 (an alliance of two), 3 (of three),
    None when it varies (an adjudicated side) and 0 for a loss or a dropout. `winner` is the
    faction that must be among the winners (for a solo kind: the winner itself); `absent` the
    factions that must not be in the game. `endings` are the game endings the kind allows.
    """

    kind: ResultKind
    way: Way
    size: int | None
    rule: str
    endings: frozenset[str]
    winner: str | None = None
    absent: frozenset[str] = frozenset()
    #: The kind in words, with its article, as messages name it.
    name: str = ""

    @property
    def won(self) -> bool:
        return self.size != 0

    @property
    def solo(self) -> bool:
        return self.size == 1

    @property
    def allied(self) -> bool:
        """Shared by exactly two allies."""
        return self.size == 2

    @property
    def stronghold(self) -> bool:
        """Won by holding strongholds (or conceded as such a win)."""
        return self.way is Way.STRONGHOLD

    @property
    def end_of_play(self) -> bool:
        """Decided when the last turn ends without a stronghold winner."""
        return self.way in END_OF_PLAY_WAYS

    @property
    def prediction(self) -> bool:
        return self.way is Way.PREDICTION


_STRONGHOLD_ENDS = frozenset({"victory", "concession"})
_LAST_TURN = frozenset({"turn_limit"})
_FS, _GD, _FD, _EG = (
    "AH IV.B; LoLV 2.04.09",
    "AH IV.C; LoLV 2.06.08",
    "AH IV.C.1; LoLV 1.09.05",
    "AH IV.C.1; LoLV 1.09.05",
)
_NEITHER = frozenset({GUILD, FREMEN})

_ROWS: tuple[KindRule, ...] = (
    KindRule(R.SOLO_STRONGHOLD, Way.STRONGHOLD, 1, "AH IV; LoLV 1.09.02.01", _STRONGHOLD_ENDS),
    KindRule(R.ALLIED_STRONGHOLD, Way.STRONGHOLD, 2, "AH XII.E.1; LoLV 1.09.02.02", _STRONGHOLD_ENDS),
    # By strongholds, or by default at the end of the last turn (WBC QP lists both).
    KindRule(R.THREE_ALLIANCE, Way.STRONGHOLD, 3, "WBC House Rules", _STRONGHOLD_ENDS | _LAST_TURN),
    KindRule(
        R.BG_PREDICTION, Way.PREDICTION, 1, "AH IV.A; LoLV 2.02.03", frozenset({"victory"}), BENE_GESSERIT
    ),
    KindRule(R.FREMEN_SPECIAL_SOLO, Way.FREMEN_SPECIAL, 1, _FS, _LAST_TURN, FREMEN),
    KindRule(R.FREMEN_SPECIAL_ALLIED, Way.FREMEN_SPECIAL, 2, "AH IV.B; LoLV 2.04.12", _LAST_TURN, FREMEN),
    KindRule(R.GUILD_DEFAULT_SOLO, Way.GUILD_DEFAULT, 1, _GD, _LAST_TURN, GUILD),
    KindRule(R.GUILD_DEFAULT_ALLIED, Way.GUILD_DEFAULT, 2, "AH IV.C; LoLV 2.06.11", _LAST_TURN, GUILD),
    KindRule(R.FREMEN_DEFAULT_SOLO, Way.FREMEN_DEFAULT, 1, _FD, _LAST_TURN, FREMEN, frozenset({GUILD})),
    KindRule(R.FREMEN_DEFAULT_ALLIED, Way.FREMEN_DEFAULT, 2, _FD, _LAST_TURN, FREMEN, frozenset({GUILD})),
    KindRule(R.END_GAME_SOLO, Way.END_GAME, 1, _EG, _LAST_TURN, None, _NEITHER),
    KindRule(R.END_GAME_ALLIED, Way.END_GAME, 2, _EG, _LAST_TURN, None, _NEITHER),
    KindRule(
        R.ADJUDICATED,
        Way.ADJUDICATED,
        None,
        "WBC Adjudication; LoLV 4.01.09.10",
        frozenset({"time_limit", "turn_limit"}),
    ),
    KindRule(R.LOSS, Way.LOSS, 0, "AH IV", frozenset(ENDED_BY)),
    KindRule(R.DROPOUT, Way.DROPOUT, 0, "WBC Dropouts", frozenset(ENDED_BY)),
)

_NAMES: Mapping[ResultKind, str] = {
    R.SOLO_STRONGHOLD: "a solo stronghold victory",
    R.ALLIED_STRONGHOLD: "an allied stronghold victory",
    R.THREE_ALLIANCE: "a three-faction alliance victory",
    R.BG_PREDICTION: "a Bene Gesserit prediction victory",
    R.FREMEN_SPECIAL_SOLO: "a solo Fremen special victory",
    R.FREMEN_SPECIAL_ALLIED: "an allied Fremen special victory",
    R.GUILD_DEFAULT_SOLO: "a solo Guild default victory",
    R.GUILD_DEFAULT_ALLIED: "an allied Guild default victory",
    R.FREMEN_DEFAULT_SOLO: "a solo Fremen default victory",
    R.FREMEN_DEFAULT_ALLIED: "an allied Fremen default victory",
    R.END_GAME_SOLO: "a solo end-game victory",
    R.END_GAME_ALLIED: "an allied end-game victory",
    R.ADJUDICATED: "an adjudicated victory",
    R.LOSS: "a loss",
    R.DROPOUT: "a dropout",
}

#: Every result kind's row.
RESULTS: Mapping[ResultKind, KindRule] = MappingProxyType(
    {row.kind: replace(row, name=_NAMES[row.kind]) for row in _ROWS}
)

_BY_WAY: Mapping[tuple[Way, int], ResultKind] = MappingProxyType(
    {(row.way, row.size): row.kind for row in _ROWS if row.size}
)


def kind_for(way: Way, side: tuple[str, ...]) -> ResultKind:
    """The kind a side of this many members wins by `way`: `kind_for(Way.STRONGHOLD,
    ("atreides", "fremen"))` is an allied stronghold victory; any victory of three allies is a
    three-faction alliance victory. Raises KeyError when the way has no kind for a side of
    that size (a prediction is won alone)."""
    if way is Way.ADJUDICATED:
        return R.ADJUDICATED
    size = len(side)
    if size == 3 and way is not Way.PREDICTION:
        # WBC QP: a 3-faction alliance's victory, by strongholds or by default, is one kind.
        return R.THREE_ALLIANCE
    if size > 3:
        size = 2  # AH XII.C.2 sets no alliance size: a larger alliance wins an allied victory (XII.E.1)
    return _BY_WAY[(way, size)]


def kind_words(kind: object) -> str:
    """A result kind's one name without its article, as a list or a column shows it:
    `fremen_special_solo` -> "solo Fremen special victory"."""
    name = kind_name(kind)
    for article in ("a ", "an "):
        if name.startswith(article):
            return name[len(article):]
    return name


def kind_name(kind: object) -> str:
    """A result kind in words with its article: `allied_stronghold` -> "an allied stronghold
    victory"; text that is no kind is shown as it was given."""
    try:
        return RESULTS[ResultKind(str(kind))].name
    except ValueError:
        return f'"{kind}"'


def _check_table() -> None:
    """Every kind has exactly one row (a missing kind would be silently unscorable)."""
    missing = set(ResultKind) - set(RESULTS)
    if missing or len(_ROWS) != len(RESULTS):
        raise ValueError(f"result kinds without exactly one row: {sorted(missing)}")


_check_table()
