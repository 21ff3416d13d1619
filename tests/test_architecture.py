"""The house's arrows, read from the source: which package may import which.

Every import statement (module level or inside a function) is read with ``ast``, so a lazy
import counts like any other. The rules:

* ``rules`` imports nothing of the project's other packages and no third-party package;
* ``vision``'s stages import only the stages before them (sources, detect, read, track, draw;
  render and train beside the pipeline), and never ``service`` or ``cli``;
* ``service`` never imports ``cli``; nothing but ``cli`` imports ``cli``;
* the inference path (``vision`` but ``vision.train.trainer``) never imports torch;
* no two project modules import each other, directly or round a longer circle.
"""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "vision", "service", "cli")

# the order of vision's stages: each may import only those at or before its own place
VISION_ORDER = {
    "vision": 0,
    "vision.sources": 0,
    "vision.detect": 1,
    "vision.read": 2,
    "vision.track": 3,
    "vision.draw": 4,
    "vision.render": 5,
    "vision.train": 6,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def project_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            found[module_name(path)] = path
    return found


def imports_of(path: Path, name: str, modules: frozenset[str] = frozenset()) -> set[str]:
    """Every module ``path`` names in an import statement, resolved to absolute names.

    ``from package import module`` counts as an import of the module alone (of ``modules``, the
    project's): Python runs the package's ``__init__`` first for every submodule import, so
    that edge would say nothing."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            named = {f"{module}.{alias.name}" for alias in node.names}
            # ``from vision.read import classify`` imports the module vision.read.classify
            out.update(named)
            if not named <= modules:
                out.add(module)
    return out


@functools.cache
def graph() -> dict[str, set[str]]:
    modules = project_modules()
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for imported in imports_of(path, name, frozenset(modules)):
            if imported in modules and imported != name:
                targets.add(imported)
        edges[name] = targets
    return edges


def third_party(path: Path, name: str) -> set[str]:
    std = set(sys.stdlib_module_names) | {"__future__"}
    return {
        m.split(".")[0]
        for m in imports_of(path, name)
        if m and m.split(".")[0] not in std and m.split(".")[0] not in PACKAGES
    }


def stage(name: str) -> int:
    best = max((k for k in VISION_ORDER if name == k or name.startswith(k + ".")), key=len)
    return VISION_ORDER[best]


def test_rules_import_only_rules_and_the_standard_library() -> None:
    for name, path in project_modules().items():
        if name.split(".")[0] != "rules":
            continue
        assert not third_party(path, name), f"{name} imports {third_party(path, name)}"
        bad = {m for m in graph()[name] if m.split(".")[0] != "rules"}
        assert not bad, f"{name} imports {bad}"


def test_vision_stages_import_only_the_stages_before_them() -> None:
    edges = graph()
    wrong = []
    for name, targets in edges.items():
        if name.split(".")[0] != "vision":
            continue
        for target in targets:
            top = target.split(".")[0]
            if top in ("service", "cli") or top == "vision" and stage(target) > stage(name):
                wrong.append(f"{name} -> {target}")
    assert not wrong, "; ".join(sorted(wrong))


def test_only_the_command_line_imports_the_command_line() -> None:
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph().items()
        for target in targets
        if target.split(".")[0] == "cli" and name.split(".")[0] != "cli"
    ]
    assert not wrong, "; ".join(sorted(wrong))


def test_inference_never_imports_torch() -> None:
    for name, path in project_modules().items():
        if name.split(".")[0] in ("vision", "service") and not name.startswith("vision.train"):
            assert "torch" not in third_party(path, name), name


def test_no_import_circles() -> None:
    edges = graph()
    # packages import their own modules to re-export them: an __init__ -> child edge is not
    # a circle of the design, so a child importing its package's sibling is counted plainly
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert not cycles, "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("package", ["vision"])
def test_vision_keeps_a_handful_of_files_at_its_top_level(package: str) -> None:
    top = sorted(p.name for p in (ROOT / package).glob("*.py"))
    assert len(top) <= 4, top


def test_test_modules_have_names_of_their_own() -> None:
    """pytest imports test files by their base name (the test folders are not packages): two
    ``test_x.py`` in different folders stop the whole run at collection."""
    names: dict[str, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert not {k: v for k, v in names.items() if len(v) > 1}
