"""Shared test configuration: where the real scholarly data lives, and offline mode."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("RELATEX_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
EXAMPLE_DIR = REPO_ROOT / "examples" / "demo"

# Nothing in the suite may reach the network: model hubs are off.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# The suite never writes into the user's cache (parsed .bib files, findings, model links): the
# servers it starts inherit a temporary cache directory, removed at exit.
_TEST_CACHE = tempfile.mkdtemp(prefix="relatex-test-cache-")
os.environ["XDG_CACHE_HOME"] = _TEST_CACHE
atexit.register(shutil.rmtree, _TEST_CACHE, True)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The ../shared/data directory; tests using it are skipped when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


@pytest.fixture(scope="session")
def example_dir() -> Path:
    return EXAMPLE_DIR
