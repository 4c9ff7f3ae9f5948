"""The rating chart's coordinates: every game is a dot, so one game is drawn, not an empty box."""

from __future__ import annotations

from dune.ratings.charts import WIDTH, line_chart


def test_one_game_is_one_dot_in_the_middle() -> None:
    chart = line_chart([4.2])
    assert chart is not None and len(chart.dots) == 1
    x, y = chart.dots[0]
    assert x == WIDTH / 2 and 0 < y < chart.height


def test_every_game_has_its_dot_on_the_line() -> None:
    chart = line_chart([1.0, 3.0, 2.0])
    assert chart is not None and len(chart.dots) == 3
    assert chart.points == " ".join(f"{x},{y}" for x, y in chart.dots)
    assert chart.dots[1][1] < chart.dots[2][1] < chart.dots[0][1]  # higher rating, higher on the chart


def test_no_games_no_chart() -> None:
    assert line_chart([]) is None
