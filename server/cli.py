"""The ``relatex`` command line: one subcommand per capability, each in server/commands/.

Only the chosen subcommand's module is imported (``relatex serve``, which an editor launches
and waits for, does not load the checking or writing code of the other commands).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from relatex.config.settings import Settings, load_settings
from relatex.workflows.engines import Engines

SUBCOMMANDS: dict[str, str] = {
    "check": "Check a LaTeX draft: citations, bibliography, verification and claim support.",
    "index": "Add papers from .bib, arXiv, OpenAlex or Semantic Scholar files to the knowledge base.",
    "search": "Search the knowledge base (hybrid, dense or BM25).",
    "related": "Show the papers chosen for a draft's related work, grouped by theme and layer.",
    "generate": "Write a related-work section for a draft, with verified BibTeX entries.",
    "status": "Say which knowledge base is used: its folder, size, embedding model and age.",
    "serve": "Run the language server (stdio by default).",
}


class CommandModule(Protocol):
    """A module of server/commands/."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace, engines: Engines) -> int: ...


def _check() -> CommandModule:
    from relatex.server.commands import check

    return check


def _index() -> CommandModule:
    from relatex.server.commands import index

    return index


def _search() -> CommandModule:
    from relatex.server.commands import search

    return search


def _related() -> CommandModule:
    from relatex.server.commands import related

    return related


def _generate() -> CommandModule:
    from relatex.server.commands import generate

    return generate


def _status() -> CommandModule:
    from relatex.server.commands import status

    return status


def _serve() -> CommandModule:
    from relatex.server.commands import serve

    return serve


#: subcommand -> a function importing its module (each module has ``add_arguments`` and ``run``)
COMMAND_MODULES: dict[str, Callable[[], CommandModule]] = {
    "check": _check,
    "index": _index,
    "search": _search,
    "related": _related,
    "generate": _generate,
    "status": _status,
    "serve": _serve,
}


def _settings_from_args(args: argparse.Namespace) -> Settings:
    layers: list[dict[str, Any]] = []
    if getattr(args, "config", None):
        try:
            layers.append(json.loads(Path(args.config).read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            print(f"relatex: cannot read settings file {args.config}: {exc}", file=sys.stderr)
    overrides: dict[str, Any] = {}
    if getattr(args, "data_dir", None):
        overrides.setdefault("knowledgeBase", {})["dataDir"] = str(args.data_dir)
    if getattr(args, "kb_name", None):
        overrides.setdefault("knowledgeBase", {})["name"] = args.kb_name
    if getattr(args, "online", None) is not None:
        overrides.setdefault("online", {})["enabled"] = args.online
    layers.append(overrides)
    settings, warnings = load_settings(*layers)
    for warning in warnings:
        print(warning, file=sys.stderr)
    return settings


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first word that is not an option)."""
    word = next((arg for arg in argv if not arg.startswith("-")), None)
    return word if word in SUBCOMMANDS else None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that subcommand's module is imported (a quick start for
    ``relatex serve``, which an editor launches and waits for)."""
    parser = argparse.ArgumentParser(
        prog="relatex",
        description="relatex: writes and verifies the related-work section of LaTeX drafts.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.add_argument("--config", metavar="FILE", help="JSON settings file (same keys as the editor settings)")
        sp.add_argument("--data-dir", metavar="DIR", help="knowledge base directory (default: per-user data dir)")
        sp.add_argument("--kb-name", metavar="NAME", help="knowledge base name (default: 'default')")
        online = sp.add_mutually_exclusive_group()
        online.add_argument("--online", dest="online", action="store_true", default=None,
                            help="use online sources (OpenAlex, Semantic Scholar, Crossref, arXiv, DBLP)")
        online.add_argument("--offline", dest="online", action="store_false", help="never use the network")
        if only is None or name == only:
            COMMAND_MODULES[name]().add_arguments(sp)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(chosen_command(words))
    args = parser.parse_args(words)
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.WARNING - 10 * min(args.verbose, 2),
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    engines = Engines(_settings_from_args(args))
    module = COMMAND_MODULES[args.command]()
    try:
        return int(module.run(args, engines))
    except KeyboardInterrupt:
        print("relatex: interrupted", file=sys.stderr)
        return 130
    finally:
        engines.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
