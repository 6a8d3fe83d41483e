"""Imports run one way (issue 38): app and pages -> ui -> psl_triage's task groups -> psl_core.

The order is written once, in :data:`LAYERS`: a module may import its own layer and the layers
below it, never one above. Beside the order, the checker refuses an import placed inside a
function (the usual way to dodge a circle), a ``_private`` name taken from another module, and
any circle between modules, in psl_core as much as in the app. The checker reads sources only
(nothing is imported), so the tests below also feed it planted violations and see each caught.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import pytest

from tests.paths import ROOT

LAYERS = (
    ("app", "pages"),
    ("ui",),
    ("psl_triage.ward",),
    ("psl_triage.judging",),
    ("psl_triage.training",),
    ("psl_triage.bedside",),
    ("psl_triage.data",),
    ("psl_triage.plots",),
    ("psl_triage.model_file",),
    ("psl_triage.words",),
    ("psl_core",),
)
"""Top first. Within psl_triage: the ward (sign-in, approval, audit) guards the pages' actions
on the store; judging reads lists trained, data prepared and the bedside's default length;
training shows a list's questions as the bedside asks them; the bedside and data phrase through
words and read the model file; words, at the bottom, imports only psl_core."""

PACKAGES = ("app.py", "pages", "ui", "psl_triage", "psl_core")
"""What the checker reads (the repository's code; tests and benchmarks may reach anywhere)."""

LANDING = "the landing page (and any page without sign-in) opens without loading the learner"
IMPORTS_INSIDE_FUNCTIONS = {
    ("app", "psl_core.warmup"): "the kernels compile in a thread: the first page need not wait",
    **{("ui", target): LANDING for target in (
        "psl_triage.bedside.session", "psl_triage.training.session", "psl_triage.model_file.store",
        "psl_triage.training.too_good", "psl_triage.words.train", "psl_triage.ward.approval")},
    **{("ui.ward", target): LANDING for target in ("psl_triage.ward.approval", "psl_triage.model_file.store")},
    ("psl_core.serialization", "psl_core.recomputed"):
        "the table readers take a model file's bounds from serialization without the compiled calibration",
}
"""(importing module, imported module) pairs allowed inside a function, and why: only optional
heavy imports the first page would otherwise pay for."""

PRIVATE_HOMES = ("psl_core.kernels", "psl_core.calibration_kernels")
"""Modules whose private names other modules of the same package may import: the compiled
numba kernels, private to psl_core and called only through its public wrappers."""


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    name: str | None
    line: int
    in_function: bool
    type_checking: bool


def module_name(relative_path: str) -> str:
    parts = relative_path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int | None:
    """Index in :data:`LAYERS` of the longest prefix that names a layer (None: outside)."""
    best, depth = None, -1
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and name.count(".") > depth:
                best, depth = index, name.count(".")
    return best


def _enclosing(node, parents):
    in_function = type_checking = False
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            in_function = True
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_checking = True
    return in_function, type_checking


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def edges_of(module: str, source: str, is_package: bool, modules: set[str]) -> list[Edge]:
    """Every import in ``source`` of a module the checker reads; ``from p import m`` of a
    submodule ``p.m`` points at ``p.m``, of a name at ``p`` with the name kept."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        where = _enclosing(node, parents) if isinstance(node, ast.Import | ast.ImportFrom) else None
        if isinstance(node, ast.Import):
            found += [Edge(module, alias.name, None, node.lineno, *where)
                      for alias in node.names if layer_of(alias.name) is not None]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, is_package, node)
            if layer_of(target) is None:
                continue
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    found.append(Edge(module, f"{target}.{alias.name}", None, node.lineno, *where))
                else:
                    found.append(Edge(module, target, alias.name, node.lineno, *where))
    return found


def circles(edges: list[Edge]) -> list[list[str]]:
    """Groups of modules that import one another in a loop (Tarjan's strongly connected
    components of more than one module, or a module importing itself)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        if not edge.type_checking:
            graph.setdefault(edge.source, set()).add(edge.target)
            graph.setdefault(edge.target, set())
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(start):
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph[node]:
                    found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def violations(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Every breach of the rules in ``sources`` (module name -> (source text, is a package)),
    one line each."""
    modules = set(sources)
    edges = [edge for module, (text, is_package) in sorted(sources.items())
             for edge in edges_of(module, text, is_package, modules)]
    found = []
    for edge in edges:
        at = f"{edge.source}:{edge.line} imports {edge.target}" + (f".{edge.name}" if edge.name else "")
        source_layer, target_layer = layer_of(edge.source), layer_of(edge.target)
        if source_layer is not None and target_layer < source_layer:
            found.append(f"{at}: against the order ({LAYERS[target_layer][0]} sits above)")
        if edge.in_function and (edge.source, edge.target) not in IMPORTS_INSIDE_FUNCTIONS:
            found.append(f"{at}: inside a function")
        if (edge.name and edge.name.startswith("_") and edge.target != edge.source
                and edge.target not in PRIVATE_HOMES):
            found.append(f"{at}: a private name of another module")
    found += [f"circle: {' <-> '.join(group)}" for group in circles(edges)]
    return found


def repository_sources() -> dict[str, tuple[str, bool]]:
    paths = []
    for name in PACKAGES:
        path = ROOT / name
        paths += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return {module_name(str(path.relative_to(ROOT))): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for path in paths}


def test_every_module_sits_in_a_layer():
    outside = [module for module in repository_sources() if layer_of(module) is None]
    assert outside == [], "add the new package to LAYERS"


def test_imports_run_one_way_without_circles():
    assert violations(repository_sources()) == []


CLEAN = {
    "psl_triage.words": ("", True),
    "psl_triage.words.common": ("from psl_core.cost_ratio import decision_threshold\n", False),
    "psl_triage.data": ("", True),
    "psl_triage.data.values": ("from psl_triage.words.common import decision_threshold\n\n\ndef value_text(v):\n"
                               "    return str(v)\n", False),
    "psl_triage.data.prepare": ("from .values import value_text\n", False),
    "psl_core": ("", True),
    "psl_core.cost_ratio": ("def decision_threshold(m):\n    return 1 / (1 + m)\n", False),
    "ui": ("import psl_triage.data.prepare\n", True),
}

PLANTED = {
    "against the order": ("psl_triage.words.common", "from psl_triage.data.values import value_text\n"),
    "inside a function": ("psl_triage.data.prepare", "def f():\n    from psl_triage.data.values import value_text\n"),
    "a private name of another module": ("psl_triage.data.prepare", "from .values import _hidden\n"),
    "circle": ("psl_triage.data.values", "import psl_triage.data.prepare\n"),
}


def test_the_checker_passes_clean_sources():
    assert violations(CLEAN) == []


@pytest.mark.parametrize("rule", sorted(PLANTED))
def test_the_checker_catches_a_planted_violation(rule):
    module, planted = PLANTED[rule]
    sources = dict(CLEAN)
    text, is_package = sources[module]
    sources[module] = (text + planted, is_package)
    assert any(rule in found for found in violations(sources)), violations(sources)


@pytest.mark.parametrize("rule", sorted(PLANTED))
def test_a_violation_planted_in_the_repository_is_caught(rule):
    """The same plants in a copy of the repository's own sources (nothing written to disk)."""
    plants = {
        "against the order": ("psl_triage.words.common", "from psl_triage.judging.card import card_html\n"),
        "inside a function": ("psl_triage.data.prepare", "def planted():\n    from psl_core import PSLError\n"),
        "a private name of another module": ("psl_triage.judging.card", "from psl_core.decision import _planted\n"),
        "circle": ("psl_core.cost_ratio", "import psl_core.evaluation\n"),
    }
    sources = repository_sources()
    before = set(violations(sources))
    module, planted = plants[rule]
    text, is_package = sources[module]
    sources[module] = (text + planted, is_package)
    assert any(rule in found for found in set(violations(sources)) - before)
