"""`relatex status`: which knowledge base is used, its size, model and age."""

from __future__ import annotations

import argparse
import json

from relatex.workflows.engines import Engines
from relatex.workflows.kb_status import describe, knowledge_base_status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format (stdout)")


def run(args: argparse.Namespace, engines: Engines) -> int:
    """Exit 0 when the knowledge base exists and is readable, 1 otherwise."""
    status = knowledge_base_status(engines.settings)
    if args.format == "json":
        print(json.dumps(status.as_dict(), indent=2))
    else:
        print(describe(status))
        if status.exists and status.sources:
            print("sources: " + ", ".join(status.sources))
    return 0 if status.exists and not status.error else 1
