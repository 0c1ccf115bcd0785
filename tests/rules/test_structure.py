"""The shape of the code: imports between `companion` modules point one way (no cycle, counting
imports inside functions too), no module of `companion/rules/` imports inside a function, and
none reads or writes a file."""

from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent
RULES = PACKAGE / "rules"


def module_name(path: Path) -> str:
    """`companion.rules.game` for companion/rules/game.py (a package by its __init__.py)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The `companion` modules one import statement of module `name` loads."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = ".".join(p for p in (package if node.level else "", node.module or "") if p)
        # `from package import module` loads the module; `from module import name` the module.
        targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                   for alias in node.names]
    return {target for target in targets if target in MODULES and target != name}


def imports(name: str) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of module `name`, and whether it sits inside a function."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    inside = {id(node) for function in ast.walk(tree)
              if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
              for node in ast.walk(function)}
    return [(node, id(node) in inside) for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)]


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


GRAPH = {name: set().union(*(imported(name, node) for node, _ in imports(name)))
         for name in MODULES}


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of `graph` (its modules in order, the first repeated at the end), or []."""
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> list[str]:
        path.append(name)
        for target in sorted(graph[name]):
            if target in path:
                return [*path[path.index(target):], target]
            if target not in done and (found := visit(target)):
                return found
        done.add(path.pop())
        return []

    for name in sorted(graph):
        found = [] if name in done else visit(name)
        if found:
            return found
    return []


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
