"""The board picture on a page: `{% board_of table [seq] [uid=...] as drawing %}`.

Gives the table's `gameplay.board.Drawing` after record `seq` (the latest by default), or,
when there is no board to draw, `{"refused": message}` for the page to show instead.
"""

from __future__ import annotations

from typing import Any

from django import template

from gameplay import board

register = template.Library()


@register.simple_tag
def board_of(table: Any, seq: Any = None, uid: str = "") -> Any:
    try:
        return board.drawing(table, seq or None, uid=uid)
    except board.NoBoard as refusal:
        return {"refused": refusal.message}
