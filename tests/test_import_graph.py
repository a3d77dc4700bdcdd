"""The package's import graph: no cycle, no runtime module imports the ``testing`` subpackage, and
the model families stay independent (only ``fusion``, a meta-model over the others' site evidence,
imports another family, and only through that family package's public names).

Imports inside functions count: such an import still ties two modules together, it only moves the
failure from import time to the first call.  The ``TYPE_CHECKING`` imports count too for the circles
and for who imports the learner: a circle that only the type checker sees is still a circle of
concerns.  The graph is read from the source with ``ast``, so nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scrapy_boilerplate

PACKAGE_DIR = Path(scrapy_boilerplate.__file__).parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(tree: ast.Module, module: str, is_package: bool, type_checking: bool = False) -> set[str]:
    """Every module named by an import anywhere in ``tree`` (``from P import n`` names P, and P.n too);
    those under ``if TYPE_CHECKING:`` only with ``type_checking``."""
    found: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and is_type_checking(child.test) and not type_checking:
                pending.extend(child.orelse)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = module.split(".") if is_package else module.split(".")[:-1]
                    base = base[: len(base) - child.level + 1]
                    source = ".".join([*base, *([child.module] if child.module else [])])
                else:
                    source = child.module or ""
                found.add(source)
                found.update(f"{source}.{alias.name}" for alias in child.names)
            pending.append(child)
    return found


def import_graph(type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (with ``type_checking``, for the type checker too)."""
    paths = {module_name(path): path for path in PACKAGE_DIR.rglob("*.py")}
    return {
        module: imported_names(
            ast.parse(path.read_text(encoding="utf-8")), module, path.name == "__init__.py", type_checking
        )
        & set(paths)
        for module, path in paths.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a closed path of modules, or None (an iterative depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        state[start] = 1
        iterators = [iter(sorted(graph[start]))]
        while iterators:
            target = next(iterators[-1], None)
            if target is None:
                state[path.pop()] = 2
                iterators.pop()
            elif state.get(target) == 1:
                return [*path[path.index(target) :], target]
            elif target not in state:
                state[target] = 1
                path.append(target)
                iterators.append(iter(sorted(graph[target])))
    return None


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert "scrapy_boilerplate.models.base" in graph and graph["scrapy_boilerplate.models.base"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def reachable(graph: dict[str, set[str]], start: str) -> dict[str, set[str]]:
    """The part of ``graph`` that ``start`` imports, directly or not, with ``start`` itself."""
    seen, pending = {start}, [start]
    while pending:
        for target in graph[pending.pop()] - seen:
            seen.add(target)
            pending.append(target)
    return {module: graph[module] for module in seen}


def test_the_models_have_no_import_cycle_counting_type_checking_imports():
    graph = import_graph(type_checking=True)
    assert "scrapy_boilerplate.models.base" in graph["scrapy_boilerplate.models.registry"]
    assert not graph["scrapy_boilerplate.models.base"] & {
        "scrapy_boilerplate.models.registry",
        "scrapy_boilerplate.models.serialization",
    }
    cycle = find_cycle(reachable(graph, "scrapy_boilerplate.models"))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each group of modules that import one another, directly or
    through each other (a strongly connected component of two or more modules), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                on_stack.add(target)
                work.append((target, iter(sorted(graph.get(target, ())))))
            elif target in on_stack:
                low[module] = min(low[module], index[target])
    return sorted(found)


def test_the_package_has_no_import_circle_even_through_type_checking_imports():
    graph = import_graph(type_checking=True)
    assert "scrapy_boilerplate.crawl.learner" in graph["scrapy_boilerplate.crawl.components"]
    found = circles(graph)
    assert found == [], "import circles: " + "; ".join(" <-> ".join(group) for group in found)


LEARNER = "scrapy_boilerplate.crawl.learner"
# The add-on's wiring finds the learner on the crawler; every part receives what it uses instead.  (The
# testing subpackage builds whole learners, as tests do.)
LEARNER_WIRING = {"scrapy_boilerplate.crawl", "scrapy_boilerplate.crawl.addon", "scrapy_boilerplate.crawl.components"}


def test_no_part_of_the_crawl_imports_the_learner_even_for_type_checking():
    graph = import_graph(type_checking=True)
    assert LEARNER in graph and LEARNER in graph["scrapy_boilerplate.crawl.components"]
    importers = {
        module
        for module, targets in graph.items()
        if LEARNER in targets and not module.startswith("scrapy_boilerplate.testing.")
    }
    assert sorted(importers - LEARNER_WIRING) == []


def test_circles_are_counted_and_a_type_checking_import_closes_one():
    sources = {
        "scrapy_boilerplate.a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scrapy_boilerplate import b\n",
        "scrapy_boilerplate.b": "from . import c\n",
        "scrapy_boilerplate.c": "from . import a\n",
        "scrapy_boilerplate.d": "from . import e\n",
        "scrapy_boilerplate.e": "from . import d\n",
    }

    def graph(type_checking: bool) -> dict[str, set[str]]:
        return {
            module: imported_names(ast.parse(source), module, False, type_checking) & set(sources)
            for module, source in sources.items()
        }

    abc = ["scrapy_boilerplate.a", "scrapy_boilerplate.b", "scrapy_boilerplate.c"]
    de = ["scrapy_boilerplate.d", "scrapy_boilerplate.e"]
    assert circles(graph(type_checking=True)) == [abc, de]
    assert circles(graph(type_checking=False)) == [de]


def test_nothing_outside_the_testing_subpackage_imports_it():
    graph = import_graph()
    testing = "scrapy_boilerplate.testing"
    assert any(module.startswith(testing + ".") for module in graph)
    importers = {
        module: sorted(target for target in targets if target == testing or target.startswith(testing + "."))
        for module, targets in graph.items()
        if module != testing and not module.startswith(testing + ".")
    }
    assert {module: targets for module, targets in importers.items() if targets} == {}


MODELS = "scrapy_boilerplate.models"
FAMILIES = ("style_tree", "ngram", "blocks", "pvalue", "fusion")
META_FAMILY = "fusion"


def family_of(module: str) -> str | None:
    """The model family ``module`` belongs to (``models.<family>`` or below), or None."""
    parts = module.split(".")
    if module.startswith(MODELS + ".") and len(parts) > 2 and parts[2] in FAMILIES:
        return parts[2]
    return None


def cross_family_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from one model family into another that break independence, as (importer, imported).

    The meta-family may import another family's package (its ``__init__``: the public names), nothing
    deeper; no other family may import another at all.
    """
    found = []
    for module, targets in sorted(graph.items()):
        family = family_of(module)
        for target in sorted(targets):
            other = family_of(target)
            if family is None or other is None or other == family:
                continue
            if family == META_FAMILY and target == f"{MODELS}.{other}":
                continue
            found.append((module, target))
    return found


def test_model_families_import_no_other_family_except_fusion_through_public_names():
    graph = import_graph()
    assert {family_of(module) for module in graph} >= set(FAMILIES)
    assert cross_family_imports(graph) == []
    fusion_uses = {
        target for module, targets in graph.items() if family_of(module) == META_FAMILY for target in targets
    }
    assert {f"{MODELS}.style_tree", f"{MODELS}.blocks"} <= fusion_uses


def test_a_family_importing_another_or_fusion_reaching_past_the_public_names_is_named():
    graph = {
        f"{MODELS}.style_tree.refine": {f"{MODELS}.pvalue.score", f"{MODELS}.style_tree.build"},
        f"{MODELS}.pvalue.model": {f"{MODELS}.blocks"},
        f"{MODELS}.fusion.site_features": {f"{MODELS}.blocks", f"{MODELS}.style_tree.compact", f"{MODELS}.base"},
    }
    assert cross_family_imports(graph) == [
        (f"{MODELS}.fusion.site_features", f"{MODELS}.style_tree.compact"),
        (f"{MODELS}.pvalue.model", f"{MODELS}.blocks"),
        (f"{MODELS}.style_tree.refine", f"{MODELS}.pvalue.score"),
    ]


def small_graph(a_source: str, type_checking: bool = False) -> dict[str, set[str]]:
    """Two modules: ``scrapy_boilerplate.a`` from ``a_source``, and ``scrapy_boilerplate.b``, which imports a."""
    sources = {"scrapy_boilerplate.a": a_source, "scrapy_boilerplate.b": "from . import a\n"}
    return {
        module: imported_names(ast.parse(source), module, False, type_checking) & set(sources)
        for module, source in sources.items()
    }


def test_an_import_inside_a_function_makes_a_cycle_and_is_named():
    graph = small_graph("def later():\n    from scrapy_boilerplate.b import x\n")
    assert find_cycle(graph) == ["scrapy_boilerplate.a", "scrapy_boilerplate.b", "scrapy_boilerplate.a"]


def test_an_import_for_type_checking_only_makes_a_cycle_only_when_counted():
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scrapy_boilerplate.b import x\n"
    assert find_cycle(small_graph(source)) is None
    assert find_cycle(small_graph(source, type_checking=True)) == [
        "scrapy_boilerplate.a",
        "scrapy_boilerplate.b",
        "scrapy_boilerplate.a",
    ]
