"""The ``relatex`` command line: one subcommand per capability, each in server/commands/."""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
            module = importlib.import_module(f"relatex.server.commands.{name}")
            module.add_arguments(sp)
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
    module = importlib.import_module(f"relatex.server.commands.{args.command}")
    try:
        return int(module.run(args, engines))
    except KeyboardInterrupt:
        print("relatex: interrupted", file=sys.stderr)
        return 130
    finally:
        engines.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
