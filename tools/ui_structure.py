"""The shape of the touchscreen app's code, in figures (printed, never asserted): files per
folder of companion/ui/, imports between its folders, the largest module and function, the
places that run a command against a game, and the string-key lookups of plain dicts.

    .venv/bin/python tools/ui_structure.py            # this checkout
    .venv/bin/python tools/ui_structure.py --root ../old-checkout   # another one, to compare

Issue 26 quotes these before and after; tests/ui/test_rooms.py enforces the import rules.
"""

from __future__ import annotations

import argparse
import ast
import collections
import tomllib
from pathlib import Path

from import_graph import ImportGraph

REPO = Path(__file__).resolve().parents[1]


def area(path: Path, package: Path) -> str:
    """The UI area of a file: "ui/play" for companion/ui/play/flows/ships.py ("ui" when flat)."""
    return "/".join(path.parent.relative_to(package).parts[:2])


def string_lookups(tree: ast.AST) -> int:
    """`x["key"]` and `x.get("key")` with a literal string key."""
    return sum(1 for node in ast.walk(tree)
               if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
               and isinstance(node.slice.value, str))
               or (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == "get" and node.args
               and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)))


def command_places(tree: ast.AST) -> tuple[list[str], list[str], list[str]]:
    """The functions that run a command against a game themselves (`….execute(…)`, `attempt(…)`,
    the flows' old `send(execute, …)`), those that send one through the session
    (`session.send(…)`), and those that build one as a literal {"cmd": …} dict; each counted in
    the innermost function around it."""
    run, through, literal = [], [], []
    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    inner = {id(node): f for f in functions for node in ast.walk(f)}  # innermost wins: walked last
    for function in functions:
        for node in ast.walk(function):
            if inner[id(node)] is not function:
                continue
            if isinstance(node, ast.Dict) and any(
                    isinstance(k, ast.Constant) and k.value == "cmd" for k in node.keys):
                literal.append(function.name)
            if not isinstance(node, ast.Call):
                continue
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(
                node.func, "id", "")
            on = node.func.value if isinstance(node.func, ast.Attribute) else None
            if called == "execute" or called == "attempt" or (
                    called == "send" and on is None and len(node.args) == 2):
                run.append(function.name)
            elif called == "send" and on is not None:  # session.send, or the send it gave
                through.append(function.name)
    return run, through, literal


def typed_files(root: Path) -> set[Path]:
    """The files the project's type checker reads (pyproject's [tool.mypy] `files`, which may
    be folders and glob patterns, and `packages`)."""
    config = tomllib.loads((root / "pyproject.toml").read_text()).get("tool", {}).get("mypy", {})
    found: set[Path] = set()
    for entry in [*config.get("files", []),
                  *(p.replace(".", "/") for p in config.get("packages", []))]:
        for path in root.glob(entry) if any(c in entry for c in "*?[") else [root / entry]:
            found |= set(path.rglob("*.py")) if path.is_dir() else {path}
    return {path.resolve() for path in found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=REPO, help="a checkout of the project")
    root = parser.parse_args().root.resolve()
    package = root / "companion"
    graph = ImportGraph(package)
    ui = {name: path for name, path in graph.modules.items() if name.startswith("companion.ui")}
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in ui.items()}

    files = collections.Counter(str(p.parent.relative_to(package))
                                for p in (package / "ui").rglob("*") if p.suffix in (".py", ".kv"))
    print(f"companion/ui/ in {root}")
    print("files per folder: " + ", ".join(f"{k} {v}" for k, v in sorted(files.items())))

    between = collections.Counter()
    for name in ui:
        for target in graph.graph[name]:
            if target in ui and area(ui[target], package) != area(ui[name], package):
                between[(area(ui[name], package), area(ui[target], package))] += 1
    # the app's screens: the modules its table of screens names (routes.py; app.py before it)
    tables = [n for n in ("companion.ui.shell.routes", "companion.ui.app") if n in trees]
    screens = {node.value for node in ast.walk(trees[tables[0]])
               if isinstance(node, ast.Constant) and node.value in ui}
    onto_screens = sorted(f"{name} -> {target}" for name, tree in trees.items()
                          for target in graph.graph[name] & screens if name in screens)
    print(f"screens importing screens: {len(onto_screens)}"
          + "".join(f"\n  {line}" for line in onto_screens))
    print("imports between areas: " + (", ".join(
        f"{a} -> {b} {n}" for (a, b), n in sorted(between.items())) or "none (one folder)"))

    lines = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in ui.items()}
    biggest = max(lines, key=lines.get)
    functions = [(node.end_lineno - node.lineno + 1, f"{name}.{node.name}")
                 for name, tree in trees.items() for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    longest = max(functions)
    print(f"lines: {sum(lines.values())} in {len(ui)} modules; largest module {biggest} "
          f"({lines[biggest]}); largest function {longest[1]} ({longest[0]})")

    places = {name: command_places(tree) for name, tree in trees.items()}
    for index, what in enumerate(("run a command against a game themselves",
                                  "send one through the session (the door)",
                                  "build one as a literal dict")):
        found = {name: kinds[index] for name, kinds in places.items() if kinds[index]}
        print(f"functions that {what}: {sum(map(len, found.values()))}"
              + "".join(f"\n  {name}: {', '.join(f)}" for name, f in sorted(found.items())))
    typed = typed_files(root)
    lookups = {name: string_lookups(tree) for name, tree in trees.items()}
    checked = sum(n for name, n in lookups.items() if ui[name].resolve() in typed)
    print(f"string-key lookups in companion/ui: {sum(lookups.values())}, "
          f"{checked} of them in modules the type checker reads")


if __name__ == "__main__":
    main()
