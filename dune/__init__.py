"""The pure cores of the platform: the rules engine, the seating planner, the points systems,
the clock limits, the format registry, the one base refusal, the event report's figures and
charts, and the rating computation.

Plain Python with no Django, DRF, Celery or app imports (an import contract checks it). The
Django apps sit above this package, load data, call it and save what it answers.
"""
