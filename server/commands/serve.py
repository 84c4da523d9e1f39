"""`relatex serve`: run the language server on stdio (default) or TCP (``--tcp HOST:PORT``)."""

from __future__ import annotations

import argparse
import faulthandler
import logging
import sys

from relatex.workflows.engines import Engines

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk LSP on stdin/stdout (the default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio")
    parser.add_argument("--log-file", metavar="FILE", help="also write the server log to FILE")


def _parse_address(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, got {value!r}")
    return host or "127.0.0.1", int(port)


def run(args: argparse.Namespace, engines: Engines) -> int:
    settings = engines.settings
    if args.log_file:
        handler = logging.FileHandler(args.log_file, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(handler)
    from relatex.server.lsp_server import create_server

    # a crash in native code (SQLite, ONNX, the vector index) leaves every thread's stack in the log
    faulthandler.enable(file=sys.stderr, all_threads=True)
    # background analysis runs in threads: switch the GIL often so requests are answered promptly
    sys.setswitchinterval(0.001)

    server = create_server(settings, engines)
    if args.tcp:
        try:
            host, port = _parse_address(args.tcp)
        except ValueError as exc:
            print(f"relatex serve: {exc}", file=sys.stderr)
            return 2
        server.start_tcp(host, port)
    else:
        server.start_io()
    return 0
