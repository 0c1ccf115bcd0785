"""The import graph of the `companion` package, read from its source (imports inside functions
and under TYPE_CHECKING count too): what the structure tests of rules/ and ui/ check
(tests/rules/test_structure.py, tests/ui/test_rooms.py) and tools/ui_structure.py prints, for
this checkout or another one."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import companion


class ImportGraph:
    """The modules of one copy of the `companion` package (name -> file) and which of them each
    module imports."""

    def __init__(self, package: Path) -> None:
        self.package = package
        self.modules = {self.module_name(path): path for path in sorted(package.rglob("*.py"))}
        self.graph = {name: set().union(*(self.imported(name, node)
                                          for node, _inside in self.imports(name)))
                      for name in self.modules}

    def module_name(self, path: Path) -> str:
        """`companion.rules.game` for companion/rules/game.py (a package by its __init__.py)."""
        parts = path.relative_to(self.package.parent).with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def imported(self, name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
        """The `companion` modules one import statement of module `name` loads."""
        modules = self.modules
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            package = name if modules[name].name == "__init__.py" else name.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = ".".join(p for p in (package if node.level else "", node.module or "") if p)
            # `from package import module` loads the module; `from module import name` the module.
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        return {target for target in targets if target in modules and target != name}

    @functools.cache  # noqa: B019 - one graph per copy of the package, kept for the run
    def imports(self, name: str) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
        """Every import statement of module `name`, and whether it sits inside a function."""
        tree = ast.parse(self.modules[name].read_text(encoding="utf-8"))
        inside = {id(node) for function in ast.walk(tree)
                  if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
                  for node in ast.walk(function)}
        return [(node, id(node) in inside) for node in ast.walk(tree)
                if isinstance(node, ast.Import | ast.ImportFrom)]


THIS = ImportGraph(Path(companion.__file__).parent)  # the checkout the tests run
MODULES, GRAPH, imports = THIS.modules, THIS.graph, THIS.imports


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
