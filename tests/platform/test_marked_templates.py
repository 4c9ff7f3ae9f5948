"""Every word a person reads in a template is marked for translation.

The check reads a template's source, drops what Django writes (tags, variables, comments,
`{% translate %}` and `{% blocktranslate %}` blocks) and what the browser never shows as text
(scripts, styles), and fails on any letter left in a text node or in an attribute a person
reads (title, placeholder, aria-label, alt, and the data-label and data-outbox the page's script
and styles show). It covers every template under templates/.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

#: Every page and fragment the platform renders (the service worker is a script, not a page).
ALL_TEMPLATES = sorted(str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html"))

READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "aria-description", "data-label", "data-outbox"}
BLOCKS = re.compile(
    r"{%\s*(blocktranslate|blocktrans|comment)\b.*?{%\s*end(blocktranslate|blocktrans|comment)\s*%}", re.S
)
#: A child template's class names for <body> are not words a person reads.
CLASS_BLOCK = re.compile(r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}", re.S)
TAGS = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)
LETTER = re.compile(r"[^\W\d_]")


class _Literals(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and LETTER.search(value):
                self.found.append(f'{tag}[{name}="{value.strip()}"]')

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and LETTER.search(data):
            self.found.append(data.strip())


#: A literal a variable falls back to in the text (`{{ caption|default:"Faction" }}`) is read like
#: any other (one inside a tag, such as an anchor's `#err-...-form`, is not).
DEFAULT_WORDS = re.compile(r"""{{[^}]*\|default:(["'])([^"']*[^\W\d_][^"']*)\1""")


def unmarked_literals(source: str) -> list[str]:
    """The words of `source` a person would read that no translation tag covers."""
    text = TAGS.sub(" ", BLOCKS.sub(" ", CLASS_BLOCK.sub(" ", source)))
    parser = _Literals()
    parser.feed(text)
    parser.close()
    outside_tags = re.sub(r"<[^<>]*>", " ", source)
    return parser.found + [m.group(2) for m in DEFAULT_WORDS.finditer(outside_tags)]


def test_the_check_finds_an_unmarked_word_and_passes_marked_ones() -> None:
    assert unmarked_literals('<p title="Your seat">Table {{ n }}</p>') == ['p[title="Your seat"]', "Table"]
    assert unmarked_literals('<label>{{ caption|default:"Faction" }}</label>{{ n|default:"—" }}') == ["Faction"]
    marked = (
        '{% load i18n %}<p title="{% translate \'Your seat\' %}">{% translate "Table" %} {{ n }}</p>'
        "{% blocktranslate count n=k %}{{ n }} point{% plural %}{{ n }} points{% endblocktranslate %}"
        "<script>let x = 'words';</script>"
    )
    assert unmarked_literals(marked) == []


def test_every_template_is_checked() -> None:
    assert len(ALL_TEMPLATES) > 100
    assert {"base.html", "gameplay/table.html", "tournament/detail.html"} <= set(ALL_TEMPLATES)


@pytest.mark.parametrize("name", ALL_TEMPLATES)
def test_a_marked_template_has_no_unmarked_literal(name: str) -> None:
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    if name.endswith("_attrs.html"):  # the attributes of an element the including template opens
        source = f"<div {source}>"
    assert unmarked_literals(source) == []


@pytest.mark.parametrize("name", ALL_TEMPLATES)
def test_a_template_compiles_with_its_translation_tags_loaded(name: str) -> None:
    from django.template.loader import get_template

    get_template(name)


def test_points_follow_the_locale_decimal_mark() -> None:
    from django.utils import translation

    from web.templatetags.locale_numbers import points

    with translation.override("es"):
        assert (points("1.5"), points("3"), points("0.125")) == ("1,5", "3", "0,125")
    with translation.override("en"):
        assert points("1.5") == "1.5"
    assert points("—") == "—"
