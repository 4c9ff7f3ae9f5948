"""What a head judge does to a tournament: register, check in, seat, publish, change seats.

Pages, the API and the demo loader call these functions. Each one validates everything first
and writes inside one transaction, so a refusal (:class:`Refused`) leaves the database as it
was. One module per thing managed: tournaments and judges, players, rounds, the seating of a
heat, the final.
"""

from foundation.commands import Refused
from tournament.services.editing import (
    Edited,
    delete_round,
    edit_round,
    edit_tournament,
    join_series,
    remove_table_judge,
)
from tournament.services.final import pick_final_faction, seat_final_round
from tournament.services.formats import change_format, frozen_because, replace_format, reset_format
from tournament.services.heats import (
    add_latecomer,
    keep_card,
    seat_round,
    swap,
    take_undrawn,
    trade,
)
from tournament.services.judges import (
    accept_invitation,
    decline_invitation,
    invite_table_judge,
    made_for,
    make_table_judge_account,
    withdraw_invitation,
)
from tournament.services.no_shows import clear_no_show, mark_no_show, no_show_ids, short_table_words
from tournament.services.players import (
    add_player,
    check_in,
    check_in_all,
    checked_in_ids,
    fill_places,
    import_players,
    name_twins,
    preview_import,
    probable_duplicate_groups,
    set_status,
    twin_warning,
    undo_check_in,
)
from tournament.services.rounds import (
    Presence,
    create_round,
    finish_round,
    presence,
    publish_round,
    rounds_with_presence,
)
from tournament.services.tournaments import (
    assign_table_judge,
    create_tournament,
    keep_clubs_apart,
)

__all__ = [
    "fill_places",
    "probable_duplicate_groups",
    "Presence",
    "presence",
    "clear_no_show",
    "mark_no_show",
    "no_show_ids",
    "short_table_words",
    "Refused",
    "Edited",
    "delete_round",
    "edit_round",
    "edit_tournament",
    "join_series",
    "remove_table_judge",
    "change_format",
    "frozen_because",
    "replace_format",
    "reset_format",
    "add_latecomer",
    "add_player",
    "accept_invitation",
    "decline_invitation",
    "invite_table_judge",
    "made_for",
    "make_table_judge_account",
    "withdraw_invitation",
    "assign_table_judge",
    "check_in",
    "check_in_all",
    "checked_in_ids",
    "create_round",
    "create_tournament",
    "keep_clubs_apart",
    "finish_round",
    "rounds_with_presence",
    "import_players",
    "keep_card",
    "name_twins",
    "pick_final_faction",
    "preview_import",
    "publish_round",
    "seat_final_round",
    "seat_round",
    "set_status",
    "swap",
    "take_undrawn",
    "trade",
    "twin_warning",
    "undo_check_in",
]
