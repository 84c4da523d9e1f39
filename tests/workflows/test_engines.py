"""Engines: built once from the settings, and safe to use from several threads at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from relatex.config.settings import load_settings
from relatex.workflows.engines import Engines


def test_judge_and_an_index_run_do_not_deadlock(tmp_path: Path) -> None:
    """An index run holds ``kb_lock`` while it resets the engines; a background check asking for
    the judge at that moment must wait for the knowledge base without holding the engines' own
    lock (the lock-order inversion that once hung "Build knowledge base" in Neovim)."""
    settings, _ = load_settings({"knowledgeBase": {"dataDir": str(tmp_path), "embeddingModel": "hashing-64"},
                                 "judge": {"kind": "features"}}, env={})
    engines = Engines(settings)
    holding = threading.Event()
    done: list[str] = []

    def index_run() -> None:
        with engines.kb_lock:
            holding.set()
            time.sleep(0.3)  # the judge is asked for meanwhile
            engines.reset_knowledge_base()
        done.append("index")

    def background_check() -> None:
        holding.wait(5)
        engines.judge()
        done.append("judge")

    threads = [threading.Thread(target=index_run, daemon=True), threading.Thread(target=background_check, daemon=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    assert sorted(done) == ["index", "judge"], "the judge and the index run deadlocked"
    assert engines.judge() is engines.judge()  # built once
    engines.close()
