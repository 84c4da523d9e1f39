"""`relatex related`: not available yet."""

from __future__ import annotations

import argparse
import sys

from relatex.server.config import RelatexSettings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("args", nargs="*", help=argparse.SUPPRESS)


def run(args: argparse.Namespace, settings: RelatexSettings) -> int:
    print("relatex related: not available yet in this version", file=sys.stderr)
    return 2
