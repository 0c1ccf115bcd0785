"""The shape of companion/ui/: its areas import only downward (the shell above the areas, the
areas above the kit, no area importing another), no screen imports a screen, the .kv files
import as their modules may, the models are plain Python (tested without Kivy), and every command
goes through the session's one door, made by a builder (docs/ui.md, "One door: commands")."""

from __future__ import annotations

import ast
import functools
import re

from import_graph import GRAPH, MODULES, imports

from companion.ui.shell.routes import ROUTES

UI = "companion.ui"
AREAS = ("play", "setup", "games", "calculator", "settings")
# area -> the areas it may import (its own modules always)
BELOW = {"shell": {"kit"}, "kit": set(), **{area: {"kit"} for area in AREAS}}
SCREENS = {route.module for route in ROUTES.values()}
KV_IMPORT = re.compile(r"^#:import\s+\S+\s+(companion\.[\w.]+)", re.MULTILINE)


def area(module: str) -> str | None:
    """The area of a UI module (`companion.ui.play.table` -> "play"), None outside ui/."""
    return module.split(".")[2] if module.startswith(UI + ".") else None


def module_of(target: str) -> str:
    """The module a kv `#:import` names: `companion.ui.kit.widgets.ACCENT` -> its module."""
    while target not in MODULES and "." in target:
        target = target.rpartition(".")[0]
    return target


@functools.cache
def kv_imports() -> dict[str, set[str]]:
    """Each UI module's .kv file (beside it, same name) -> the modules it imports."""
    found = {}
    for name, path in MODULES.items():
        layout = path.with_suffix(".kv")
        if area(name) and layout.exists():
            found[name] = {module_of(t) for t in KV_IMPORT.findall(layout.read_text())}
    return found


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a UI module that leaves its area for one not below it."""
    return [f"{name} -> {target}" for name, targets in sorted(graph.items()) if area(name)
            for target in sorted(targets)
            if area(target) and area(target) != area(name)
            and area(target) not in BELOW[area(name)]]


def test_every_ui_module_is_in_an_area():
    loose = [name for name in MODULES if name.count(".") == 2 and area(name)
             and MODULES[name].name != "__init__.py"]
    assert not loose, f"modules of companion/ui/ outside its areas: {loose}"
    assert {area(name) for name in MODULES if area(name)} == set(BELOW)


def test_an_upward_import_is_found():
    assert upward({"companion.ui.kit.widgets": {"companion.ui.play.station_model"},
                   "companion.ui.play.table": {"companion.ui.kit.widgets"},
                   "companion.ui.play.income": {"companion.ui.play.action"}}) == [
        "companion.ui.kit.widgets -> companion.ui.play.station_model"]


def test_areas_import_only_downward():
    found = upward(GRAPH)
    assert not found, "imports across or up the areas of ui/: " + ", ".join(found)


def test_kv_files_import_only_downward():
    found = upward(kv_imports())
    assert not found, ".kv imports across or up the areas of ui/: " + ", ".join(found)
    assert "companion.ui.kit.widgets" in kv_imports()["companion.ui.play.table"]


def test_no_screen_imports_a_screen():
    layouts = kv_imports()
    found = [f"{name} -> {target}" for name, targets in GRAPH.items()
             for target in (targets | layouts.get(name, set())) & SCREENS if name != target]
    assert not found, "a screen is opened through the shell (App.open), never imported: " + (
        ", ".join(found))


def test_every_route_has_its_screen_and_layout():
    for name, route in ROUTES.items():
        assert route.module in MODULES, name
        assert MODULES[route.module].with_suffix(".kv").exists(), name
        assert f"class {route.screen}(" in MODULES[route.module].read_text(), name


def test_models_are_plain_python():
    found = [f"{name}:{node.lineno}" for name in MODULES
             if area(name) and name.endswith("_model")
             for node, _inside in imports(name)
             if any(alias.name.startswith("kivy") for alias in node.names)
             or (getattr(node, "module", None) and node.module.startswith("kivy"))]
    assert not found, "a model imports Kivy (models are tested without it): " + ", ".join(found)


# -- one door for commands -----------------------------------------------------------------------

DOOR = "companion.ui.shell.session"  # GameSession.send: the one door
PREVIEWS = {("companion.ui.play.income_model", "dry_run")}  # on a scratch copy: nothing stored


def doors(source: str) -> list[tuple[int, str, str]]:
    """Where a module's source runs a command on a game other than through the session's door:
    (line, the function it is in, what): `.execute` used at all, `attempt(...)` called, a
    command written out as a dict (`{"cmd": ...}`, `dict(cmd=...)`) instead of made by a builder
    of companion.rules.commands."""
    found = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.Attribute) and node.attr == "execute":
            found.append((node.lineno, function, ".execute"))
        elif isinstance(node, ast.Call) and (getattr(node.func, "id", None) == "attempt"
                                             or getattr(node.func, "attr", None) == "attempt"):
            found.append((node.lineno, function, "attempt()"))
        elif isinstance(node, ast.Dict) and any(
                isinstance(key, ast.Constant) and key.value == "cmd" for key in node.keys):
            found.append((node.lineno, function, '{"cmd": ...}'))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict" and any(
                keyword.arg == "cmd" for keyword in node.keywords):
            found.append((node.lineno, function, "dict(cmd=...)"))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), "")
    return found


def test_a_door_beside_the_session_is_found():
    source = '''
def confirm(session, game):
    session.send({"cmd": "end_turn"})
    game.execute(commands.undo())
    attempt(game, dict(cmd="undo"))
    run = game.execute
'''
    assert [(line, what) for line, _function, what in doors(source)] == [
        (3, '{"cmd": ...}'), (4, ".execute"), (5, "attempt()"), (5, "dict(cmd=...)"),
        (6, ".execute")]
    assert doors("session.send(commands.end_turn())\noutcome.command['cmd']\n") == []


def test_every_command_goes_through_the_session():
    """No screen or model of companion/ui runs a command on a game but through
    GameSession.send, or writes a command out instead of using a builder (a preview on a
    scratch copy of the game, income's dry run, may attempt one: nothing is stored)."""
    found = [f"{name}:{line} ({function}) {what}" for name, path in MODULES.items()
             if area(name) and name != DOOR
             for line, function, what in doors(path.read_text(encoding="utf-8"))
             if not (what == "attempt()" and (name, function) in PREVIEWS)]
    assert not found, "commands sent beside the session's door (GameSession.send) or written " \
        "out (use companion.rules.commands' builders): " + ", ".join(found)
    assert any(what == ".execute" for _line, _function, what in doors(
        MODULES[DOOR].read_text(encoding="utf-8")))  # the door itself is read
