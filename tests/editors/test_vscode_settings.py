"""The VS Code extension's contributes.configuration mirrors every server setting."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from relatex.config.settings import Settings, load_settings

PACKAGE = Path(__file__).resolve().parents[2] / "editors" / "vscode" / "package.json"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.capitalize() for word in rest)


def _settings(obj: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for field in dataclasses.fields(obj):
        value = getattr(obj, field.name)
        if dataclasses.is_dataclass(value):
            yield from _settings(value, f"{prefix}{_camel(field.name)}.")
        else:
            yield f"{prefix}{_camel(field.name)}", value


def test_every_server_setting_is_contributed_with_its_default() -> None:
    properties = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    for name, default in _settings(Settings()):
        key = f"relatex.{name}"
        assert key in properties, f"{key} is missing from editors/vscode/package.json"
        expected = list(default) if isinstance(default, tuple) else default
        assert properties[key]["default"] == expected, key
        assert properties[key].get("description"), key


def test_contributed_settings_are_understood_by_the_server() -> None:
    properties = json.loads(PACKAGE.read_text(encoding="utf-8"))["contributes"]["configuration"]["properties"]
    nested: dict[str, Any] = {}
    for key, spec in properties.items():
        parts = key.split(".")[1:]
        node = nested
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = spec["default"]
    _, warnings = load_settings({"relatex": nested}, env={})
    assert warnings == []
