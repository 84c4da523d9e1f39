"""The four packages form a layered architecture with no import cycles.

config <- analysis <- retrieval <- writing <- workflows <- server. Only server/ may import pygls or lsprotocol.
"""

from __future__ import annotations

import ast
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
