"""scripts/check_i18n.py on small fake trees: what it flags, and a clean tree it passes."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "check_i18n.py"
HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: ru\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
"(n%100<10 || n%100>=20) ? 1 : 2);\\n"
'''
needs_msgfmt = pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext")


@pytest.fixture(scope="module")
def check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_i18n", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_i18n"] = module
    spec.loader.exec_module(module)
    return module


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _run(check: ModuleType, root: Path, capsys: pytest.CaptureFixture[str],
         *extra: str) -> tuple[int, list[str]]:
    code = check.main(["--root", str(root), "--no-makemessages", *extra])
    return code, capsys.readouterr().out.splitlines()


DIRTY = {
    "templates/page.html": (
        '{% load i18n %}<h1>{% translate "Fine" %}</h1>\n'
        "<p>Plain words here</p>\n"
        '<img alt="A picture" src="x.png">\n'
        "{% blocktranslate %}Also fine {{ name }}{% endblocktranslate %}\n"
        "<script>var x = 'not text';</script><style>p { color: red; }</style>\n"
        "<p>{{ value }} &nbsp; 12 · –</p>\n"
        "<p>Kazambi</p>\n"
    ),
    "shop/templates/shop/list.html": '<input type="submit" value="Send it">\n',
    "shop/services.py": (
        "from core.errors import ApplicationError\n"
        "from django.utils.translation import gettext as _\n"
        "def sell(n):\n"
        "    if n < 0:\n"
        '        raise ApplicationError(f"Cannot sell {n} items.")\n'
        "    if n > 9:\n"
        '        raise ApplicationError(_("Too many."))\n'
        '    raise ApplicationError("debug marker")  # i18n: not for people\n'
    ),
    "shop/models.py": (
        "from django.db import models\n"
        "class Item(models.Model):\n"
        '    name = models.CharField(verbose_name="name", help_text="What it is called.")\n'
        "    class Meta:\n"
        '        verbose_name_plural = "items"\n'
    ),
    "shop/admin.py": (
        "from django.contrib import admin, messages\n"
        "class ItemAdmin(admin.ModelAdmin):\n"
        '    @admin.display(description="Price")\n'
        "    def price(self, obj): return 1\n"
        "    def act(self, request, queryset):\n"
        '        self.message_user(request, "Done.")\n'
        '        messages.error(request, "Failed %s" % 1)\n'
    ),
    "shop/management/commands/sell.py": (
        "from django.core.management.base import BaseCommand, CommandError\n"
        "class Command(BaseCommand):\n"
        "    def handle(self, *args, **options):\n"
        '        self.stdout.write(self.style.SUCCESS("Sold."))\n'
        '        raise CommandError("No stock.")\n'
    ),
    "games/engines/errors.py": "class EngineError(ValueError):\n    pass\n",
    "games/engines/rules.py": (
        "from games.engines.errors import EngineError\n"
        "from games.i18n import N_\n"
        "def play(move):\n"
        '    raise EngineError("illegal move")\n'
        "def fine(move):\n"
        '    raise EngineError(N_("move %(move)s: no such cell"))\n'
    ),
    "tests/test_shop.py": 'def test():\n    raise ValueError("tests are not checked")\n',
    "scripts/i18n_allowlist.txt": "# proper nouns\nKazambi\n",
}


def test_a_dirty_tree_is_flagged_with_file_line_and_text(
        check: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _run(check, _write(tmp_path, DIRTY), capsys, "--no-catalogues")
    assert code == 1
    found = "\n".join(lines)
    for expected in [
        "templates/page.html:2: [template text] Plain words here",
        "templates/page.html:3: [template attribute] alt=A picture",
        "shop/templates/shop/list.html:1: [template attribute] value=Send it",
        "shop/services.py:5: [python ApplicationError message] Cannot sell {…} items.",
        "shop/models.py:3: [python verbose_name=] name",
        "shop/models.py:3: [python help_text=] What it is called.",
        "shop/models.py:5: [python verbose_name_plural] items",
        "shop/admin.py:3: [python display description] Price",
        "shop/admin.py:6: [python message_user] Done.",
        "shop/admin.py:7: [python messages.error] Failed %s",
        "shop/management/commands/sell.py:4: [python self.stdout.write] Sold.",
        "shop/management/commands/sell.py:5: [python CommandError message] No stock.",
        "games/engines/rules.py:4: [python EngineError message] illegal move",
    ]:
        assert expected in found, expected
    for fine in ["Fine", "Also fine", "not text", "color", "Kazambi", "Too many",
                 "debug marker", "no such cell", "tests are not checked", "&nbsp;"]:
        assert fine not in found, fine
    assert len(lines) == 13, lines


def test_only_restricts_the_report_to_the_given_folders(
        check: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _run(check, _write(tmp_path, DIRTY), capsys, "--no-catalogues",
                       "--only", "games")
    assert code == 1
    assert lines == ["games/engines/rules.py:4: [python EngineError message] illegal move"]


def test_the_allowlist_exempts_whole_files_and_texts_in_one_file(
        check: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = dict(DIRTY)
    files["scripts/i18n_allowlist.txt"] = (
        "Kazambi\ntemplates/*.html::Plain words here\ntemplates/*.html::A picture\n"
        "shop/*::*\ngames/engines/rules.py::illegal move\n")
    code, lines = _run(check, _write(tmp_path, files), capsys, "--no-catalogues")
    assert (code, lines) == (0, [])


@needs_msgfmt
def test_untranslated_fuzzy_obsolete_and_broken_catalogue_entries_are_flagged(
        check: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalogue = HEADER + '''
#: shop/a.py:1
msgid "Hello"
msgstr "Привет"

#: shop/a.py:2
msgid "Empty"
msgstr ""

#: shop/a.py:3
#, fuzzy
msgid "Guess"
msgstr "Догадка"

#: shop/a.py:4
#, python-format
msgid "%(count)d game"
msgid_plural "%(count)d games"
msgstr[0] "%(count)d партия"
msgstr[1] "%(count)d партии"
msgstr[2] ""

#: shop/a.py:5
#, python-format
msgid "%(name)s won"
msgstr "победа: %(player)s"

#~ msgid "Gone"
#~ msgstr "Ушло"
'''
    _write(tmp_path, {"shop/locale/ru/LC_MESSAGES/django.po": catalogue})
    code, lines = _run(check, tmp_path, capsys)
    assert code == 1
    found = "\n".join(lines)
    path = "shop/locale/ru/LC_MESSAGES/django.po"
    assert f"{path}:13: [untranslated] Empty" in found
    assert f"{path}:18: [fuzzy entry] Guess" in found
    assert f"{path}:23: [untranslated] %(count)d game" in found
    assert f"{path}:34: [obsolete entry] Gone" in found
    assert "[msgfmt]" in found and "Hello" not in found
    code, lines = _run(check, tmp_path, capsys, "--only", "games")
    assert (code, lines) == (0, [])


@needs_msgfmt
def test_a_clean_tree_passes(check: ModuleType, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, {
        "templates/page.html": '{% load i18n %}<h1 title="{% translate "Hi" %}">'
                               '{% translate "Hello" %}</h1><p>{{ name }} · 5½</p>\n',
        "shop/models.py": (
            "from django.db import models\n"
            "from django.utils.translation import gettext_lazy as _\n"
            "class Item(models.Model):\n"
            '    name = models.CharField(_("name"), help_text=_("What it is called."))\n'),
        "shop/locale/ru/LC_MESSAGES/django.po": HEADER + '''
#: shop/models.py:4
msgid "name"
msgstr "название"

#: shop/models.py:4
#, python-format
msgid "%(count)d item"
msgid_plural "%(count)d items"
msgstr[0] "%(count)d вещь"
msgstr[1] "%(count)d вещи"
msgstr[2] "%(count)d вещей"
''',
    })
    code, lines = _run(check, tmp_path, capsys)
    assert (code, lines) == (0, [])


def test_catalogue_apps_follow_the_makefile(check: ModuleType, tmp_path: Path) -> None:
    _write(tmp_path, {"Makefile": "I18N_APPS := games pages\nall:\n", "shop/locale/x": ""})
    assert check.catalogue_apps(tmp_path) == ["games", "pages"]
    (tmp_path / "Makefile").unlink()
    assert check.catalogue_apps(tmp_path) == ["shop"]


def test_marked_texts_missing_from_the_catalogue_and_stale_entries_are_flagged(
        check: ModuleType, tmp_path: Path) -> None:
    _write(tmp_path, {"shop/locale/ru/LC_MESSAGES/django.po": HEADER + '''
#: shop/a.py:1
msgid "Kept"
msgstr "Оставлено"

#: shop/a.py:9
msgid "Removed from the code"
msgstr "Удалено из кода"
'''})

    def entry(msgid: str, reference: str) -> object:
        return check.Entry(msgid=msgid, context=None, translations=[""], line=0, fuzzy=False,
                           obsolete=False, references=(reference,))

    fresh = {"shop/locale/ru/LC_MESSAGES/django.po": [
        entry("Kept", "shop/a.py:1"), entry("New text", "shop/b.py:3")]}
    found = [str(finding) for finding in check.coverage_findings(tmp_path, fresh)]
    assert found == [
        "shop/locale/ru/LC_MESSAGES/django.po:0: [missing from catalogue] New text "
        "(marked at shop/b.py:3)",
        "shop/locale/ru/LC_MESSAGES/django.po:13: [no longer in the sources] "
        "Removed from the code",
    ]
