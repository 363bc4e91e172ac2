#!/usr/bin/env python3
"""Fail when a user-facing text is not marked for translation or the Russian catalogues lag.

Three checks, each finding printed as ``path:line: [kind] text``:

* templates (``templates/`` and ``<app>/templates/``): human-readable text or a readable
  attribute (title, alt, placeholder, aria-label, ...) outside ``{% translate %}`` and
  ``{% blocktranslate %}``;
* Python (outside tests, bench, migrations and scripts): a plain string literal with letters
  where people read it (error messages, admin messages, verbose names, help texts, labels,
  admin display descriptions, management command output) not wrapped in ``_()``,
  ``gettext()``, ``gettext_lazy()``, ``ngettext()``, ``pgettext()`` or ``N_()``;
* catalogues (``locale/`` and ``<app>/locale/``, Russian): untranslated, fuzzy or obsolete
  entries, marked texts missing from the catalogue or no longer in the sources
  (``makemessages`` run on a temporary copy of the tree), and ``msgfmt --check`` failures.

Exemptions: ``# i18n: not for people`` on a Python line, or the allowlist file
(``--allowlist``; default scripts/i18n_allowlist.txt under the root, else beside this
script): one entry a line, ``TEXT`` (a word or phrase allowed anywhere: proper nouns,
symbols), ``GLOB::TEXT`` (allowed in matching files only) or ``GLOB::*`` (the files are
not checked). Standard library only; the catalogue check runs ``manage.py
makemessages`` with the interpreter running this script and needs GNU gettext.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

EXEMPT_COMMENT = "# i18n: not for people"
LANGUAGE = "ru"
SKIPPED_DIRS = {
    ".git", ".venv", "venv", "node_modules", "var", "tests", "bench", "migrations", "scripts",
    "examples", "docs", "deploy", "__pycache__", ".mypy_cache", ".ruff_cache", "static",
}


def has_letter(text: str) -> bool:
    """Whether ``text`` has a letter (digits, ``½``, symbols and punctuation are none)."""
    return any(character.isalpha() for character in text)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    kind: str
    text: str
    related: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = " ".join(self.text.split())
        if len(text) > 100:
            text = text[:97] + "..."
        return f"{self.path}:{self.line}: [{self.kind}] {text}"


@dataclass
class Allowlist:
    everywhere: set[str] = field(default_factory=set)
    per_file: list[tuple[str, str]] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None) -> Allowlist:
        allow = cls()
        if path is None or not path.is_file():
            return allow
        for raw in path.read_text(encoding="utf-8").splitlines():
            entry = raw.strip()
            if not entry or entry.startswith("#"):
                continue
            if "::" in entry:
                pattern, text = entry.split("::", 1)
                allow.per_file.append((pattern.strip(), text.strip()))
            else:
                allow.everywhere.add(entry)
        return allow

    def skips_file(self, path: str) -> bool:
        return any(text == "*" and fnmatch.fnmatch(path, pattern)
                   for pattern, text in self.per_file)

    def terms_for(self, path: str) -> set[str]:
        terms = set(self.everywhere)
        terms.update(text for pattern, text in self.per_file
                     if text != "*" and fnmatch.fnmatch(path, pattern))
        return terms

    def readable(self, text: str, path: str) -> bool:
        """Whether ``text`` still has letters once allowlisted terms are taken out."""
        if not has_letter(text):
            return False
        stripped = " ".join(text.split())
        terms = self.terms_for(path)
        if stripped in terms:
            return False
        for term in sorted(terms, key=len, reverse=True):
            stripped = re.sub(rf"(?<!\w){re.escape(term)}(?!\w)", " ", stripped)
        return has_letter(stripped)


# --- templates ------------------------------------------------------------------------------

READABLE_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-roledescription",
                       "aria-description", "aria-valuetext", "label", "summary"}
BLANKED = [
    re.compile(r"\{%\s*comment\b.*?%\}.*?\{%\s*endcomment\s*%\}", re.S),
    re.compile(r"\{%\s*(?:blocktranslate|blocktrans)\b.*?%\}.*?"
               r"\{%\s*(?:endblocktranslate|endblocktrans)\s*%\}", re.S),
    re.compile(r"\{#.*?#\}", re.S),
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.S | re.I),
    re.compile(r"\{\{.*?\}\}", re.S),
    re.compile(r"\{%.*?%\}", re.S),
]
TAG = re.compile(r"<(/?)([a-zA-Z][\w:-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>|<!doctype[^>]*>", re.I)
ATTRIBUTE = re.compile(r"([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'>]+)")
ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|\w+);")


def _blank(text: str, pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def template_findings(path: Path, shown: str, allow: Allowlist) -> Iterator[Finding]:
    source = path.read_text(encoding="utf-8")
    blanked = source
    for pattern in BLANKED:
        blanked = _blank(blanked, pattern)

    def line_of(offset: int) -> int:
        return source.count("\n", 0, offset) + 1

    def readable(text: str) -> bool:
        return allow.readable(ENTITY.sub(" ", text), shown)

    position = 0
    for tag in TAG.finditer(blanked):
        yield from _text_findings(blanked, position, tag.start(), line_of, readable, shown)
        position = tag.end()
        attributes = tag.group(3) or ""
        names = {name.lower(): value for name, value in ATTRIBUTE.findall(attributes)}
        tag_name = (tag.group(2) or "").lower()
        for name, value in ATTRIBUTE.findall(attributes):
            lowered = name.lower()
            checked = lowered in READABLE_ATTRIBUTES
            if lowered == "content" and tag_name == "meta":
                checked = names.get("name", "").strip("\"'").lower() in {
                    "description", "keywords", "application-name"}
            if lowered == "value" and tag_name in {"input", "button"}:
                checked = names.get("type", "").strip("\"'").lower() in {
                    "submit", "button", "reset"}
            value = value.strip("\"'")
            if checked and readable(value):
                offset = tag.start() + 1 + len(tag.group(1) or "") + len(tag_name)
                offset += attributes.find(f"{name}")
                yield Finding(shown, line_of(offset), "template attribute", f"{name}={value}")
    yield from _text_findings(blanked, position, len(blanked), line_of, readable, shown)


def _text_findings(blanked: str, start: int, end: int, line_of, readable, shown: str
                   ) -> Iterator[Finding]:
    chunk = blanked[start:end]
    for match in re.finditer(r"[^\n]*\S[^\n]*", chunk):
        text = match.group(0).strip()
        if readable(text):
            yield Finding(shown, line_of(start + match.start()), "template text", text)


# --- Python ---------------------------------------------------------------------------------

TRANSLATORS = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
               "pgettext_lazy", "npgettext", "npgettext_lazy", "N_", "N_plural", "_lazy",
               "format_lazy"}
MESSAGE_ERRORS = {"ApplicationError", "ConflictError", "ValidationError", "CommandError",
                  "PermissionDenied", "NotFound", "ParseError"}
TEXT_KEYWORDS = {"verbose_name", "verbose_name_plural", "help_text", "label"}
TEXT_ATTRIBUTES = {"short_description", "verbose_name", "verbose_name_plural"}
MESSAGE_LEVELS = {"debug", "info", "success", "warning", "error"}


def error_classes(root: Path) -> set[str]:
    """The exception classes whose first argument people read."""
    names = set(MESSAGE_ERRORS)
    for relative in ("games/engines/errors.py", "core/errors.py"):
        module = root / relative
        if module.is_file():
            tree = ast.parse(module.read_text(encoding="utf-8"))
            names.update(node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef))
    return names


def _call_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return ""


def plain_text(node: ast.expr | None) -> str | None:
    """The literal text of an untranslated expression with letters, or None."""
    if node is None:
        return None
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str) and has_letter(node.value):
            return node.value
        return None
    if isinstance(node, ast.JoinedStr):
        parts = [value.value for value in node.values
                 if isinstance(value, ast.Constant) and isinstance(value.value, str)]
        joined = "{…}".join(parts)
        return joined if has_letter("".join(parts)) else None
    if isinstance(node, ast.BinOp):
        return plain_text(node.left) or plain_text(node.right)
    if isinstance(node, ast.Call):
        name = _call_name(node.func)
        if name in TRANSLATORS:
            return None
        if isinstance(node.func, ast.Attribute) and name in {"format", "join"}:
            return plain_text(node.func.value)
        if _dotted(node.func).startswith("self.style."):
            return plain_text(node.args[0]) if node.args else None
        return None
    if isinstance(node, ast.IfExp):
        return plain_text(node.body) or plain_text(node.orelse)
    return None


class _Visitor(ast.NodeVisitor):
    def __init__(self, errors: set[str], command: bool) -> None:
        self.errors = errors
        self.command = command
        self.hits: list[tuple[ast.AST, ast.AST, str, str]] = []

    def _check(self, owner: ast.AST, node: ast.expr | None, kind: str) -> None:
        text = plain_text(node)
        if text is not None and node is not None:
            self.hits.append((owner, node, kind, text))

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node.func)
        dotted = _dotted(node.func)
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        if name in self.errors:
            self._check(node, node.args[0] if node.args else None, f"{name} message")
            for key in ("message", "detail"):
                self._check(node, keywords.get(key), f"{name} {key}")
        elif name == "message_user":
            self._check(node, node.args[1] if len(node.args) > 1 else keywords.get("message"),
                        "message_user")
        elif dotted.startswith("messages.") and name in MESSAGE_LEVELS:
            self._check(node, node.args[1] if len(node.args) > 1 else keywords.get("message"),
                        f"messages.{name}")
        elif dotted.startswith("messages.") and name == "add_message":
            self._check(node, node.args[2] if len(node.args) > 2 else keywords.get("message"),
                        "messages.add_message")
        elif self.command and dotted in {"self.stdout.write", "self.stderr.write"}:
            self._check(node, node.args[0] if node.args else None, dotted)
        if name in {"display", "action"}:
            self._check(node, keywords.get("description"), f"{name} description")
        for key in TEXT_KEYWORDS:
            self._check(node, keywords.get(key), f"{key}=")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            name = target.attr if isinstance(target, ast.Attribute) else (
                target.id if isinstance(target, ast.Name) else "")
            if name in TEXT_ATTRIBUTES:
                self._check(node, node.value, name)
        self.generic_visit(node)


def python_findings(path: Path, shown: str, errors: set[str], allow: Allowlist
                    ) -> Iterator[Finding]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    lines = source.splitlines()
    visitor = _Visitor(errors, command="/management/commands/" in f"/{shown}")
    visitor.visit(tree)
    for owner, node, kind, text in visitor.hits:
        first = getattr(owner, "lineno", 1)
        last = max(getattr(owner, "end_lineno", first) or first,
                   getattr(node, "end_lineno", first) or first)
        if any(EXEMPT_COMMENT in lines[number - 1] for number in range(first, last + 1)
               if number - 1 < len(lines)):
            continue
        if not allow.readable(text, shown):
            continue
        yield Finding(shown, getattr(node, "lineno", first), f"python {kind}", text)


# --- catalogues -----------------------------------------------------------------------------

@dataclass
class Entry:
    msgid: str
    context: str | None
    translations: list[str]
    line: int
    fuzzy: bool
    obsolete: bool
    references: tuple[str, ...]

    @property
    def key(self) -> tuple[str | None, str]:
        return self.context, self.msgid


def _unquote(token: str) -> str:
    """A quoted catalogue string's text (a malformed one as it stands: msgfmt reports it)."""
    try:
        value = ast.literal_eval(token) if token.startswith('"') else ""
    except (SyntaxError, ValueError):
        return token
    return value if isinstance(value, str) else token


@dataclass
class _Pending:
    line: int = 0
    fuzzy: bool = False
    obsolete: bool = False
    references: list[str] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    current: str = ""

    def has_translation(self) -> bool:
        return any(key.startswith("msgstr") for key in self.fields)


def parse_po(path: Path) -> list[Entry]:
    """A small reader for gettext catalogues as makemessages writes them."""
    entries: list[Entry] = []
    pending = _Pending()

    def flush() -> None:
        nonlocal pending
        if "msgid" in pending.fields:
            translations = [value for key, value in sorted(pending.fields.items())
                            if key.startswith("msgstr")]
            entries.append(Entry(
                msgid=pending.fields["msgid"], context=pending.fields.get("msgctxt"),
                translations=translations, line=pending.line, fuzzy=pending.fuzzy,
                obsolete=pending.obsolete, references=tuple(pending.references),
            ))
        pending = _Pending()

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if pending.has_translation():
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                pending.fuzzy = True
            if line.startswith("#:"):
                pending.references.extend(line[2:].split())
            continue
        keyword = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if keyword:
            name, token = keyword.groups()
            if name in {"msgid", "msgctxt"} and pending.has_translation():
                flush()
            if name == "msgid" and not pending.line:
                pending.line = number
            if obsolete:
                pending.obsolete = True
            pending.fields[name] = _unquote(token)
            pending.current = name
        elif line.startswith('"') and pending.current:
            pending.fields[pending.current] += _unquote(line)
    flush()
    return entries


def plural_count(entries: Sequence[Entry]) -> int:
    header = next((entry for entry in entries if entry.msgid == "" and entry.context is None),
                  None)
    if header and header.translations:
        found = re.search(r"nplurals\s*=\s*(\d+)", header.translations[0])
        if found:
            return int(found.group(1))
    return 3 if LANGUAGE == "ru" else 2


def catalogue_paths(root: Path) -> list[Path]:
    found = sorted(root.glob(f"locale/{LANGUAGE}/LC_MESSAGES/*.po"))
    found += sorted(root.glob(f"*/locale/{LANGUAGE}/LC_MESSAGES/*.po"))
    return [path for path in found if path.relative_to(root).parts[0] not in SKIPPED_DIRS]


def catalogue_findings(path: Path, shown: str) -> Iterator[Finding]:
    entries = parse_po(path)
    plurals = plural_count(entries)
    for entry in entries:
        if entry.msgid == "" and entry.context is None:
            continue
        if entry.obsolete:
            yield Finding(shown, entry.line, "obsolete entry", entry.msgid, entry.references)
            continue
        if entry.fuzzy:
            yield Finding(shown, entry.line, "fuzzy entry", entry.msgid, entry.references)
        expected = plurals if len(entry.translations) > 1 else 1
        if len(entry.translations) < expected or not all(entry.translations):
            yield Finding(shown, entry.line, "untranslated", entry.msgid, entry.references)
    result = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(path)],
                            capture_output=True, text=True)
    if result.returncode:
        problems = [message for message in result.stderr.splitlines()
                    if message.strip() and "warning:" not in message]
        for message in (problems or ["msgfmt failed"])[:20]:
            yield Finding(shown, 0, "msgfmt", message)


COPIED_OUT = {".git", ".venv", "venv", "node_modules", "var", "tests", "bench", "docs",
              "deploy", "examples", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def catalogue_apps(root: Path) -> list[str]:
    """The apps with their own catalogue: the Makefile's ``I18N_APPS`` (what ``make
    messages`` gives a locale folder), else those that have one."""
    makefile = root / "Makefile"
    if makefile.is_file():
        found = re.search(r"^I18N_APPS\s*:?=\s*(.+)$", makefile.read_text(encoding="utf-8"),
                          re.M)
        if found:
            return found.group(1).split()
    return sorted(path.parent.name for path in root.glob("*/locale") if path.is_dir())


def fresh_catalogues(root: Path) -> tuple[dict[str, list[Entry]], list[Finding]]:
    """Run makemessages on a temporary copy of the tree; its catalogues by relative path."""
    if not (root / "manage.py").is_file():
        return {}, []
    if shutil.which("xgettext") is None:
        return {}, [Finding("locale", 0, "makemessages", "GNU gettext (xgettext) not found")]
    with tempfile.TemporaryDirectory(prefix="check_i18n_") as temporary:
        copy = Path(temporary) / "tree"
        shutil.copytree(root, copy, symlinks=True, ignore=lambda _directory, names: [
            name for name in names
            if name in COPIED_OUT or name == "__pycache__" or name.endswith((".mo", ".pyc"))
        ])
        for app in catalogue_apps(root):
            (copy / app / "locale").mkdir(exist_ok=True)
        (copy / "locale").mkdir(exist_ok=True)
        environment = {**os.environ, "DEBUG": "true", "PYTHONDONTWRITEBYTECODE": "1"}
        ignores = [f"--ignore={pattern}" for pattern in (
            "tests/*", "bench/*", "var/*", "examples/*", "deploy/*", "docs/*",
            "*/migrations/*", "scripts/*")]
        command = [sys.executable, "manage.py", "makemessages", "-l", LANGUAGE,
                   "--no-obsolete", "-v", "0", *ignores]
        result = subprocess.run(command, cwd=copy, env=environment, capture_output=True,
                                text=True)
        if result.returncode:
            return {}, [Finding("locale", 0, "makemessages", result.stderr.strip()[-2000:])]
        fresh = {str(path.relative_to(copy)): parse_po(path) for path in catalogue_paths(copy)}
    return fresh, []


def coverage_findings(root: Path, fresh: dict[str, list[Entry]]) -> Iterator[Finding]:
    for relative, entries in sorted(fresh.items()):
        current_path = root / relative
        current = parse_po(current_path) if current_path.is_file() else []
        known = {entry.key for entry in current if not entry.obsolete}
        marked = {entry.key for entry in entries if not entry.obsolete}
        for entry in entries:
            if entry.key not in known and entry.msgid:
                where = entry.references[0] if entry.references else relative
                yield Finding(relative, 0, "missing from catalogue",
                              f"{entry.msgid}  (marked at {where})", entry.references)
        for entry in current:
            if entry.key not in marked and entry.msgid and not entry.obsolete:
                yield Finding(relative, entry.line, "no longer in the sources", entry.msgid,
                              entry.references)
    for path in catalogue_paths(root):
        relative = str(path.relative_to(root))
        if relative not in fresh and path.name == "django.po" and fresh:
            for entry in parse_po(path):
                if entry.msgid and not entry.obsolete:
                    yield Finding(relative, entry.line, "no longer in the sources", entry.msgid,
                                  entry.references)


# --- driver ---------------------------------------------------------------------------------

def _walk(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    for directory, names, files in os.walk(root):
        names[:] = sorted(name for name in names if name not in SKIPPED_DIRS
                          and not name.startswith("."))
        for name in sorted(files):
            if name.endswith(suffixes):
                yield Path(directory) / name


def template_files(root: Path) -> Iterator[Path]:
    for path in _walk(root, (".html", ".txt")):
        parts = path.relative_to(root).parts
        if "templates" in parts[:2]:
            yield path


def python_files(root: Path) -> Iterator[Path]:
    yield from _walk(root, (".py",))


def _selected(path: str, only: Sequence[str], related: Iterable[str] = ()) -> bool:
    if not only:
        return True
    candidates = [path, *(reference.split(":")[0] for reference in related)]
    return any(candidate == prefix or candidate.startswith(prefix.rstrip("/") + "/")
               for candidate in candidates for prefix in only)


def run_checks(root: Path, only: Sequence[str], allow: Allowlist, catalogues: bool,
               makemessages: bool) -> list[Finding]:
    findings: list[Finding] = []
    for path in template_files(root):
        shown = str(path.relative_to(root))
        if _selected(shown, only) and not allow.skips_file(shown):
            findings.extend(template_findings(path, shown, allow))
    errors = error_classes(root)
    for path in python_files(root):
        shown = str(path.relative_to(root))
        if _selected(shown, only) and not allow.skips_file(shown):
            findings.extend(python_findings(path, shown, errors, allow))
    if catalogues:
        for path in catalogue_paths(root):
            shown = str(path.relative_to(root))
            findings.extend(finding for finding in catalogue_findings(path, shown)
                            if _selected(shown, only, finding.related))
        if makemessages:
            fresh, failures = fresh_catalogues(root)
            findings.extend(failures)
            findings.extend(finding for finding in coverage_findings(root, fresh)
                            if _selected(finding.path, only, finding.related))
    return findings


def summary(findings: Sequence[Finding]) -> str:
    counts = Counter(finding.path.split("/")[0] if "/" in finding.path else finding.path
                     for finding in findings)
    return ", ".join(f"{directory}: {count}" for directory, count in sorted(counts.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the project's root (default: the current folder)")
    parser.add_argument("--only", nargs="+", default=[], metavar="DIR",
                        help="report only files under these folders (relative to the root)")
    parser.add_argument("--allowlist", type=Path, default=None,
                        help="allowlist file (default: <root>/scripts/i18n_allowlist.txt)")
    parser.add_argument("--no-catalogues", action="store_true",
                        help="skip the catalogue checks")
    parser.add_argument("--no-makemessages", action="store_true",
                        help="skip the comparison with a fresh makemessages run")
    options = parser.parse_args(argv)
    root = options.root.resolve()
    allowlist = options.allowlist or root / "scripts" / "i18n_allowlist.txt"
    if not allowlist.is_file():
        allowlist = Path(__file__).resolve().parent / "i18n_allowlist.txt"
    only = [str(Path(directory)).rstrip("/") for directory in options.only]
    findings = run_checks(root, only, Allowlist.load(allowlist), not options.no_catalogues,
                          not options.no_makemessages)
    for finding in findings:
        print(finding)
    if findings:
        print(f"check_i18n: {len(findings)} problem(s) ({summary(findings)})", file=sys.stderr)
        return 1
    print("check_i18n: all user-facing texts are marked and the catalogues are complete",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
