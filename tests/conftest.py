"""Shared test configuration: where the real scholarly data lives, and offline mode."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("RELATEX_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
EXAMPLE_DIR = REPO_ROOT / "examples" / "demo"

# Nothing in the suite may reach the network: model hubs are off.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The ../shared/data directory; tests using it are skipped when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


@pytest.fixture(scope="session")
def example_dir() -> Path:
    return EXAMPLE_DIR
