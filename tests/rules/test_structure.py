"""The shape of the code: imports between `companion` modules point one way (no cycle, counting
imports inside functions too), no module of `companion/rules/` imports inside a function, and
none reads or writes a file."""

from __future__ import annotations

import ast

from import_graph import GRAPH, MODULES, cycle, imports

IO_MODULES = {"glob", "io", "os", "pathlib", "shutil", "sqlite3", "tempfile"}
IO_CALLS = {"open", "read_text", "write_text", "read_bytes", "write_bytes", "read_json",
            "read_script", "write_atomically", "write_text_atomically", "stat", "exists", "mkdir",
            "unlink", "iterdir", "glob", "rglob"}


def file_access(name: str) -> list[str]:
    """Where module `name` imports a file or OS module, or calls something that reads or
    writes files (by name)."""
    found = []
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [f"{name}:{node.lineno} imports {alias.name}" for alias in node.names
                      if alias.name.partition(".")[0] in IO_MODULES]
        elif isinstance(node, ast.ImportFrom) and not node.level and (
                (node.module or "").partition(".")[0] in IO_MODULES):
            found.append(f"{name}:{node.lineno} imports {node.module}")
        elif isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", None)
            if called in IO_CALLS:
                found.append(f"{name}:{node.lineno} calls {called}()")
    return found


def test_the_import_graph_is_read():
    assert {"companion.rules.gains", "companion.rules.station"} <= GRAPH[
        "companion.rules.abilities"]
    assert "companion.rules.abilities" in GRAPH["companion.rules.actions"]


def test_cycle_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_imports_point_one_way():
    found = cycle(GRAPH)
    assert not found, "import cycle: " + " -> ".join(found)


def test_file_access_is_found():
    found = file_access("companion.catalogue_files")
    assert any("imports pathlib" in use for use in found)
    assert any("calls stat()" in use for use in found)


def test_rules_read_and_write_no_files():
    found = [use for name in MODULES if name.startswith("companion.rules")
             for use in file_access(name)]
    assert not found, "file access in rules/ (it belongs beside companion/files.py): " + (
        ", ".join(found))


def test_rules_import_at_the_top():
    inside = [f"{name}:{node.lineno}" for name in MODULES if name.startswith("companion.rules")
              for node, in_function in imports(name) if in_function]
    assert not inside, "imports inside functions (hiding a cycle?): " + ", ".join(inside)
