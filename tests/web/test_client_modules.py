"""The browser client's modules read as text: every helper is defined in one module and
shared by import, and no module leaves anything on the global object."""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass

from server.api import pages

JS_DIR = pages.STATIC_DIR / "js"
NAME = r"[A-Za-z_$][\w$]*"
# After one of these (or at the start) a "/" starts a regular expression, not a division.
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
# ... and after these words (``return /x/``).
REGEX_KEYWORDS = {
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
}
DECLARATION = re.compile(
    rf"(?<![\w$.])(?:(?:async\s+)?function\s*\*?\s*(?P<fn>{NAME})\s*\("
    rf"|class\s+(?P<cls>{NAME})\b"
    rf"|(?:const|let|var)\s+(?P<var>{NAME})\s*=\s*"
    rf"(?=(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|{NAME}\s*=>)))"
)
HEAD = re.compile(rf"^(?:async )?(?:function ?\*? ?(?:{NAME} ?)?)?\(")
IMPORT = re.compile(
    r"import\s+(?:\*\s+as\s+(?P<ns>[\w$]+)|\{(?P<names>[^}]*)\})\s+from\s+"
    r'"(?P<path>\.\.?/[\w/.]+)\.js"'
)
GLOBAL_WRITE = re.compile(r"(?<![\w$.])(?:window|globalThis)\s*(?:\.\s*[\w$]+|\[[^\]]*\])\s*=(?!=)")

# Names that mean a different thing in each module that has them (each is private to its
# module or read through a namespace import: ``panel.draw``, ``push.place``), listed with
# exactly those modules, so that a third definition still fails.
DIFFERENT_THINGS = {
    "draw": {"notify", "push", "summary", "table_draw"},  # each draws its own card or page
    "has": {"i18n", "patch"},  # a dictionary key; an object's own member
    "init": {"lobby", "table"},  # each page's start
    "locate": {
        "games/norenberc/norenberc_parts",
        "patch",
    },  # a tile on the board; a JSON pointer's target
    "mark": {"follow", "pieces"},  # mark changed places; a seat's shape
    "place": {"push", "sheet"},  # put the push control in a card; the prompt on a phone
    "status": {
        "mine",
        "games/norenberc/norenberc",
        "games/strasbourg/strasbourg",
    },  # a table in the lobby; a game's status line
    "tick": {"clock_chips", "mine"},  # each one's own countdowns
}


def code_of(source: str) -> str:
    """``source`` with comments and the insides of strings, template strings and regular
    expressions blanked out (same length, same lines), so only code is left to read."""
    out = list(source)
    i, n = 0, len(source)
    last = ""  # the last significant code character, to tell a regex from a division
    word = ""  # the word of code that ends at ``last``

    def blank(start: int, end: int) -> None:
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif source.startswith("/*", i):
            end = source.index("*/", i + 2) + 2
            blank(i, end)
            i = end
        elif c in "\"'`" or (
            c == "/" and (not last or last in REGEX_AFTER or word in REGEX_KEYWORDS)
        ):
            j, in_class = i + 1, False
            while source[j] != c or in_class:
                if source[j] == "\\":
                    j += 1
                elif c == "/" and source[j] in "[]":
                    in_class = source[j] == "["
                assert source[j] != "\n" or c == "`", f"unterminated {c} at offset {i}"
                j += 1
            blank(i + 1, j)
            i = j + 1
            last, word = "x", ""  # a literal is a value, as a name is
        else:
            if not c.isspace():
                word = (
                    word + c
                    if (c.isalnum() or c in "_$") and (last.isalnum() or last in "_$")
                    else c
                )
                last = c
            i += 1
    return "".join(out)


def closing(code: str, start: int) -> int:
    """The offset just past the bracket that closes the one at ``start``."""
    depth = 0
    for k in range(start, len(code)):
        if code[k] in "{([":
            depth += 1
        elif code[k] in "})]":
            depth -= 1
            if depth == 0:
                return k + 1
    raise AssertionError(f"no bracket closes offset {start}")


@dataclass(frozen=True)
class Definition:
    module: str
    name: str
    line: int
    text: str  # parameters and body without comments, white space collapsed

    def __str__(self) -> str:
        return f"{self.module}.js:{self.line} {self.name}"


def definitions(module: str, source: str) -> list[Definition]:
    """The functions and classes ``module`` defines at its top level: declarations and
    ``const|let|var name = function … | (…) => …``."""
    code = code_of(source)
    depth, depths = 0, []
    for c in code:
        depth -= c in "})]"
        depths.append(depth)
        depth += c in "{(["
    found = []
    for match in DECLARATION.finditer(code):
        if depths[match.start()] != 0:
            continue
        arrow = code.find("=>", match.end())
        if match.group("var") and arrow >= 0 and not code[arrow + 2 :].lstrip().startswith("{"):
            end = code.index(";", arrow)  # an arrow with an expression body ends at its ";"
        else:
            end = closing(code, code.index("{", match.end()))
        name = match.group("fn") or match.group("cls") or match.group("var")
        # From the first parameter on, so that a declaration and ``var x = function`` compare.
        text = HEAD.sub("", " ".join(code[match.end() : end].split()), count=1)
        found.append(Definition(module, name, code.count("\n", 0, match.start()) + 1, text))
    return found


def import_target(module: str, m: re.Match[str]) -> str:
    """The module an import names, as ``client_sources`` names it (its path under
    web/static/js without ``.js``), resolved from the importing ``module``'s folder."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(module), m["path"]))


def calls_shared(d: Definition, source: str, defined_in: set[str]) -> bool:
    """Whether ``d`` builds on a definition of the same name it imports from one of
    ``defined_in`` (a game's ``confirmRow`` filling in the shared one): that is using it."""
    for m in IMPORT.finditer(source):
        if import_target(d.module, m) not in defined_in:
            continue
        if m["ns"] and re.search(rf"(?<![\w$]){re.escape(m['ns'])}\.{re.escape(d.name)}\(", d.text):
            return True
        for entry in (m["names"] or "").split(","):
            imported, _, local = entry.strip().partition(" as ")
            if (
                imported == d.name
                and local
                and re.search(rf"(?<![\w$.]){re.escape(local)}\(", d.text)
            ):
                return True
    return False


def game_of(module: str, games: set[str]) -> str | None:
    return next((g for g in games if module == g or module.startswith(g + "_")), None)


def duplicates(sources: dict[str, str]) -> list[str]:
    """Each helper defined in more than one module, by name or by the same parameters and
    body under any name. Not counted: each game's own version of a piece every game has
    (``guildName``, ``status``, in norenberc*.js and strasbourg*.js, one per game), a
    definition that calls the shared one of its name, and DIFFERENT_THINGS."""
    games = {m for m, s in sources.items() if "export default {" in s}
    by_name: dict[str, list[Definition]] = defaultdict(list)
    by_text: dict[str, list[Definition]] = defaultdict(list)
    for module, source in sorted(sources.items()):
        for d in definitions(module, source):
            by_name[d.name].append(d)
            by_text[d.text].append(d)
    found = []
    for name, defs in sorted(by_name.items()):
        modules = {d.module for d in defs}
        own = [d for d in defs if not calls_shared(d, sources[d.module], modules - {d.module})]
        owners = [game_of(d.module, games) for d in own]
        if len(own) < 2 or (None not in owners and len(set(owners)) == len(owners)):
            continue
        if len(modules) > 1 and DIFFERENT_THINGS.get(name) != modules:
            found.append("same name: " + ", ".join(map(str, defs)))
    for defs in by_text.values():
        if len({d.module for d in defs}) > 1:
            found.append("same body: " + ", ".join(map(str, defs)))
    return found


def client_sources() -> dict[str, str]:
    """Every module under web/static/js (a game's under games/<game>/), by its path there
    without ``.js``: ``table_draw``, ``games/norenberc/norenberc_parts``."""
    files = sorted(JS_DIR.rglob("*.js"))
    assert len(files) > 10
    return {f.relative_to(JS_DIR).with_suffix("").as_posix(): f.read_text("utf-8") for f in files}


def test_no_helper_is_defined_in_two_client_modules() -> None:
    assert duplicates(client_sources()) == []


def exports(source: str) -> set[str]:
    names = set(
        re.findall(
            rf"^export (?:async )?(?:function\*?|class|const|let|var) ({NAME})", source, re.M
        )
    )
    return names | ({"default"} if re.search(r"^export default\b", source, re.M) else set())


def test_every_imported_name_is_exported_by_its_module() -> None:
    # A module that imports a name its module does not export fails to load in the
    # browser as a whole (a helper moved, an import left behind).
    sources = client_sources()
    for module, source in sources.items():
        for m in IMPORT.finditer(source):
            target = import_target(module, m)
            assert target in sources, (module, target)
            wanted = {e.strip().partition(" as ")[0] for e in (m["names"] or "").split(",")} - {""}
            missing = wanted - exports(sources[target])
            assert not missing, (
                f"{module}.js imports {sorted(missing)} from {target}.js, which lacks them"
            )


def test_no_client_module_writes_to_the_global_object() -> None:
    for module, source in client_sources().items():
        code = code_of(source)
        writes = [code.count("\n", 0, m.start()) + 1 for m in GLOBAL_WRITE.finditer(code)]
        assert not writes, f"{module}.js writes a global on line(s) {writes}"
    # The page's one global is the dictionary, left by the strings script (a classic script
    # the server makes, not a module) and read by i18n.js.
    assert pages.strings_script("en", pages.SITE_SCOPE).body.startswith(b"globalThis.ghStrings={")
    assert "globalThis.ghStrings" in code_of(client_sources()["i18n"])


def test_the_checks_read_code_only_and_find_copies_under_any_name() -> None:
    sources = {
        "a": '// function inComment() {}\nvar s = "function inString() {}";\n'
        "var re = /[/]function inRegex(/g;\nfunction one(a) { return a / 2; }\n"
        "export const three = (b) => b + 1;\nfunction outer() { function inner() {} }\n",
        "b": "export function one(a) { return a; }\nvar $ = function (id) { return id; };\n",
        "c": 'import * as b from "./b.js";\nfunction one(x) { return b.one(x) + 1; }\n'
        "function dollar(id) { return id; }\nwindow.x = 1; globalThis['y'] = 2;\n"
        "if (window.z === 3) { var w = window.innerWidth; }\n",
        "g": "function two(b) { return b - 1; }\nexport default { two: two };\n",
        "h_parts": "export function two(b) { return b - 2; }\n",
        "h": 'import { two } from "./h_parts.js";\nexport default { two: two };\n',
    }
    assert [(d.name, d.line) for d in definitions("a", sources["a"])] == [
        ("one", 4),
        ("three", 5),
        ("outer", 6),
    ]
    # c's one builds on b's, and each game (g, h) has its own two: only a's one and the
    # copied body under another name are copies.
    assert duplicates(sources) == [
        "same name: a.js:4 one, b.js:1 one, c.js:2 one",
        "same body: b.js:2 $, c.js:3 dollar",
    ]
    assert duplicates({k: sources[k] for k in ("b", "c")}) == ["same body: b.js:2 $, c.js:3 dollar"]
    assert len(GLOBAL_WRITE.findall(code_of(sources["c"]))) == 2


MAX_MODULE_LINES = 400


def test_every_client_module_stays_under_400_lines() -> None:
    # A module past this size is doing more than one job: split it by job, as table.js was.
    sizes = {
        path.relative_to(JS_DIR).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in JS_DIR.rglob("*.js")
    }
    assert len(sizes) > 20
    assert {name: n for name, n in sizes.items() if n >= MAX_MODULE_LINES} == {}
