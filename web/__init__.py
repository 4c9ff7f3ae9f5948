"""The top layer: every page, API view, URL module, admin registration, template tag and
management command of the platform, in one package above the Django apps.

It may call any app's services and the pure cores; nothing below imports it (the layers
contract in pyproject.toml). Grouped by the app whose data each page shows: `web.tournament`,
`web.gameplay`, `web.scoring`, `web.clocks`, `web.insights`, `web.ratings`; `web.live` answers
every self-updating fragment.
"""
