"""Every text the games mark with ``N_`` has a Russian translation in games/locale that
takes the same named parameters, with the same conversions: filling a translation in can
never fail where the English text does not."""

from __future__ import annotations

import ast
import gettext
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CATALOGUE = ROOT / "games" / "locale" / "ru" / "LC_MESSAGES" / "django.po"
#: A named parameter and its conversion: ``%(number)d`` -> ("number", "d").
PARAMETER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?([a-zA-Z])")


#: The markers the games use: ``N_`` in the pure cores, gettext in the app's own config.
MARKERS = {"N_", "_", "gettext", "gettext_lazy"}


def marked_texts() -> dict[str, str]:
    """Every marked literal (``N_("...")``) under games/, with where it is."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "games").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in MARKERS):
                text = node.args[0].value if len(node.args) == 1 and isinstance(
                    node.args[0], ast.Constant) else None
                assert isinstance(text, str), f"{path}:{node.lineno}: mark one literal text"
                found.setdefault(text, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def _unquote(lines: list[str]) -> str:
    return "".join(ast.literal_eval(line) for line in lines)


def catalogue() -> tuple[dict[str, str], set[str]]:
    """The catalogue's translations by message id, and the ids marked fuzzy."""
    translations: dict[str, str] = {}
    fuzzy: set[str] = set()
    for block in CATALOGUE.read_text(encoding="utf-8").split("\n\n"):
        lines = block.strip().splitlines()
        flags = " ".join(line for line in lines if line.startswith("#,"))
        msgid: list[str] = []
        msgstr: list[str] = []
        target: list[str] | None = None
        for line in lines:
            if line.startswith("msgid "):
                target = msgid
                line = line[len("msgid "):]
            elif line.startswith("msgstr "):
                target = msgstr
                line = line[len("msgstr "):]
            elif not line.startswith('"'):
                continue
            assert target is not None
            target.append(line)
        key = _unquote(msgid)
        if key:
            translations[key] = _unquote(msgstr)
            if "fuzzy" in flags:
                fuzzy.add(key)
    return translations, fuzzy


def parameters(text: str) -> set[tuple[str, str]]:
    return set(PARAMETER.findall(text))


MARKED = marked_texts()
TRANSLATIONS, FUZZY = catalogue()


def test_the_games_mark_their_texts() -> None:
    assert len(MARKED) > 250
    assert "move %(number)d, %(move)s: %(rule)s" in MARKED


@pytest.mark.parametrize("text", sorted(MARKED), ids=lambda text: text[:60])
def test_every_marked_text_has_a_russian_translation(text: str) -> None:
    where = MARKED[text]
    assert text in TRANSLATIONS, f"{where}: {text!r} is not in {CATALOGUE.name} (make messages)"
    russian = TRANSLATIONS[text]
    assert russian.strip(), f"{where}: {text!r} has no Russian translation"
    assert text not in FUZZY, f"{where}: {text!r} is fuzzy"
    assert parameters(russian) == parameters(text), (
        f"{where}: the Russian text of {text!r} takes other parameters")
    if "%" in text and parameters(text):
        values = {name: 1 for name, _ in parameters(text)}
        assert russian % values  # fills in without error


def test_the_catalogue_holds_no_stale_or_empty_entries() -> None:
    assert set(TRANSLATIONS) == set(MARKED), (
        sorted(set(TRANSLATIONS) ^ set(MARKED))[:5])


def test_the_catalogue_compiles_cleanly() -> None:
    checked = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null",
                              str(CATALOGUE)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "untranslated" not in checked.stderr and "fuzzy" not in checked.stderr, checked.stderr


def test_the_compiled_catalogue_matches_the_catalogue() -> None:
    with CATALOGUE.with_suffix(".mo").open("rb") as compiled:
        shown = gettext.GNUTranslations(compiled)
    stale = [text for text, russian in TRANSLATIONS.items() if shown.gettext(text) != russian]
    assert not stale, f"run make messages: django.mo differs from django.po ({stale[:3]})"
