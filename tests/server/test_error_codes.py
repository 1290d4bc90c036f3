"""docs/protocol.md lists every error code the server can send, once, by kind of fault."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"[a-z][a-z_]*[a-z]")
# Calls that refuse with a code: the error classes, and the helpers that send one.
REFUSERS = {"ServiceError", "RuleError", "ClockError", "_error", "Error", "unknown_table"}
# Raised and caught inside the server, never sent: a clock's cover bot finding no command.
INTERNAL = {"no_legal"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _code(node: ast.expr | None) -> str | None:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and CODE.fullmatch(node.value)
    ):
        return node.value
    return None


def codes_in_server() -> set[str]:
    """Every code a refusal in ``server/`` is made with."""
    found: set[str] = set()
    for path in (ROOT / "server").rglob("*.py"):
        if "load" in path.parts or path.name == "bench.py":
            continue  # the load generator and benchmarks refuse nothing a client sees
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in REFUSERS:
                # The code is the first argument, after the status for ``_error(status, …)``.
                found |= {c for c in [next(filter(None, map(_code, node.args[:2])), None)] if c}
                found |= {c for kw in node.keywords if kw.arg == "code" if (c := _code(kw.value))}
            # ``code = "…"`` before a refusal, and the frame checks' ``return "code", "why"``.
            if isinstance(node, ast.Assign) and any(_name(t) == "code" for t in node.targets):
                found |= {c for c in [_code(node.value)] if c}
                if isinstance(node.value, ast.Call):  # {status: code}.get(…, default)
                    for part in ast.walk(node.value):
                        found |= (
                            {c for c in [_code(part)] if c}
                            if isinstance(part, ast.Constant)
                            else set()
                        )
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                elts = node.value.elts
                if len(elts) == 2 and (c := _code(elts[0])) and "realtime" in path.parts:
                    found.add(c)
    return found - INTERNAL


def documented() -> list[str]:
    """The codes in the first column of docs/protocol.md's "Error codes" tables."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("\n## Error codes\n", 1)[1].split("\n## ", 1)[0]
    codes = []
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            codes += re.findall(r"`([a-z_]+)`", first)
    return codes


def test_every_code_is_listed_once() -> None:
    counts = Counter(documented())
    assert [code for code, n in counts.items() if n > 1] == []


def test_the_list_has_every_code_the_server_sends_and_no_other() -> None:
    listed, sent = set(documented()), codes_in_server()
    assert sent - listed == set(), "codes the server sends that docs/protocol.md lacks"
    assert listed - sent == set(), "codes docs/protocol.md lists that nothing sends"


def test_the_rest_of_the_protocol_doc_lists_no_code_table_of_its_own() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    before, after = text.split("\n## Error codes\n", 1)
    assert "| code |" not in before + after.split("\n## ", 1)[1]
