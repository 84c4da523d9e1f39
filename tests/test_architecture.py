"""The packages form a layered architecture; modules import each other plainly, without cycles.

config <- analysis <- retrieval <- writing <- workflows <- server. Only server/ may import pygls or lsprotocol.
Between modules: no import cycle (imports at any depth count), no ``importlib`` or ``__import__``
(string imports hide dependencies from these checks and from the type checker), every module under
400 lines and every function under 80.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"config": "relatex.config", "analysis": "relatex.analysis", "retrieval": "relatex.retrieval",
            "writing": "relatex.writing", "workflows": "relatex.workflows", "server": "relatex.server"}
ALLOWED = {
    "config": set(),
    "analysis": {"config"},
    "retrieval": {"config", "analysis"},
    "writing": {"config", "analysis", "retrieval"},
    "workflows": {"config", "analysis", "retrieval", "writing"},
    "server": {"config", "analysis", "retrieval", "writing", "workflows"},
}
# Modules (paths relative to the repository root) that may load plugins by name with importlib.
# Empty: every module of the product is imported plainly.
PLUGIN_LOADERS: frozenset[str] = frozenset()
MAX_MODULE_LINES = 400  # a module has fewer lines than this
MAX_FUNCTION_LINES = 80  # a function (decorators excluded, docstring included) has fewer lines than this


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def package_graph() -> tuple[nx.DiGraph, list[str]]:
    graph: nx.DiGraph = nx.DiGraph()
    lsp_leaks: list[str] = []
    for folder in PACKAGES:
        graph.add_node(folder)
        for path in (ROOT / folder).rglob("*.py"):
            for name in _imports(path):
                if folder != "server" and name.split(".")[0] in {"pygls", "lsprotocol"}:
                    lsp_leaks.append(f"{path.relative_to(ROOT)} imports {name}")
                for other, module in PACKAGES.items():
                    if other != folder and (name == module or name.startswith(module + ".")):
                        graph.add_edge(folder, other)
    return graph, lsp_leaks


def test_no_import_cycles_between_packages() -> None:
    graph, _ = package_graph()
    cycles = list(nx.simple_cycles(graph))
    assert cycles == [], f"import cycles between packages: {cycles}"


def test_dependencies_follow_the_layers() -> None:
    graph, _ = package_graph()
    for source, target in graph.edges:
        assert target in ALLOWED[source], f"{source}/ must not import relatex.{target}"


def test_only_server_speaks_lsp() -> None:
    _, leaks = package_graph()
    assert leaks == []


def test_every_subpackage_is_declared_in_pyproject() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for folder, module in PACKAGES.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            dotted = module + ("." + ".".join(rel.parts) if rel.parts else "")
            assert f'"{dotted}"' in text, f"{dotted} is missing from [tool.setuptools] packages"


# -- modules -----------------------------------------------------------------------------------


def product_modules() -> dict[str, Path]:
    """Dotted name -> file of every module of the product (a package is its ``__init__``)."""
    modules: dict[str, Path] = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = ["relatex", *path.relative_to(ROOT).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported_names(module: str, path: Path, tree: ast.AST) -> Iterator[str]:
    """Every dotted name an import statement anywhere in the module may load (relative ones
    resolved): the module of ``from x import y`` and ``x.y``, in case ``y`` is a submodule."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def module_graph() -> nx.DiGraph:
    """Module -> the product modules it imports, counting imports inside functions and in
    ``if TYPE_CHECKING:`` blocks: a type-only import is still a dependency, and a cycle through one
    means two modules that cannot be understood (or moved) apart."""
    modules = product_modules()
    graph: nx.DiGraph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name in _imported_names(module, path, tree):
            while name and name not in modules:  # relatex.x.y.Name -> relatex.x.y
                name = name.rpartition(".")[0]
            if name and name != module:
                graph.add_edge(module, name)
    return graph


def test_no_import_cycles_between_modules() -> None:
    cycles = sorted(sorted(cycle) for cycle in nx.simple_cycles(module_graph()))
    assert cycles == [], "import cycles between modules: " + "; ".join(" <-> ".join(c) for c in cycles)


def _string_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "importlib" for a in node.names):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports importlib")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "importlib":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports from importlib")
        elif (isinstance(node, ast.Name) and node.id == "__import__") or (
                isinstance(node, ast.Attribute) and node.attr == "__import__"):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} uses __import__")
    return found


def test_no_string_imports() -> None:
    found = [line for path in product_modules().values()
             if str(path.relative_to(ROOT)) not in PLUGIN_LOADERS for line in _string_imports(path)]
    assert found == [], "string imports (import the module plainly):\n" + "\n".join(found)


def test_modules_and_functions_are_small() -> None:
    too_big: list[str] = []
    for path in product_modules().values():
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines >= MAX_MODULE_LINES:
            too_big.append(f"{path.relative_to(ROOT)}: {lines} lines")
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length >= MAX_FUNCTION_LINES:
                    too_big.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}(): {length} lines")
    assert too_big == [], (f"modules must stay under {MAX_MODULE_LINES} lines and functions under "
                           f"{MAX_FUNCTION_LINES}:\n" + "\n".join(too_big))
