"""Structured outputs: a forced tool call with a JSON schema, validated, with one repair retry.

The agents never parse free text: they ask the model to call one tool whose ``input_schema``
is the answer's schema, check the input against that schema here (a small validator for the
subset of JSON Schema the prompts use), and on failure send the errors back once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from relatex.writing.llm import LLM, LLMError, LLMResponse

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def validate(value: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Errors of ``value`` against ``schema`` (type, enum, required, properties, items, bounds)."""
    errors: list[str] = []
    expected = schema.get("type")
    if expected is not None:
        names = expected if isinstance(expected, list) else [expected]
        ok = any(
            isinstance(value, _TYPES.get(name, (object,)))
            and not (name in {"integer", "number"} and isinstance(value, bool))
            for name in names
        )
        if not ok:
            return [f"{path}: expected {' or '.join(names)}, got {type(value).__name__}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {list(schema['enum'])}")
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                errors.append(f"{path}: missing required property '{name}'")
        props = schema.get("properties", {})
        for name, sub in value.items():
            if name in props:
                errors.extend(validate(sub, props[name], f"{path}.{name}"))
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: unexpected property '{name}'")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                errors.extend(validate(item, schema["items"], f"{path}[{i}]"))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} is below {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} is above {schema['maximum']}")
    if isinstance(value, str) and "maxLength" in schema and len(value) > schema["maxLength"]:
        errors.append(f"{path}: longer than {schema['maxLength']} characters")
    return errors


def _parse(response: LLMResponse) -> tuple[dict[str, Any] | None, str]:
    """The tool input, or JSON found in the text (for servers without tool support)."""
    if response.tool_input is not None:
        return response.tool_input, json.dumps(response.tool_input)
    text = response.text.strip()
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        try:
            value = json.loads(text[start:end + 1])
        except ValueError:
            return None, text
        if isinstance(value, dict):
            return value, text
    return None, text


def complete_json(
    llm: LLM,
    system: str,
    prompt: str,
    schema: Mapping[str, Any],
    *,
    tool_name: str = "answer",
    tool_description: str = "Record the answer.",
    max_tokens: int | None = None,
    temperature: float | None = 0.0,
    cache_prefix: str | None = None,
    responses: list[LLMResponse] | None = None,
) -> dict[str, Any]:
    """Ask for one JSON object matching ``schema``; one repair round; :class:`LLMError` if still invalid.

    ``responses``, when given, receives every raw response (for usage accounting).
    """
    tools = [{"name": tool_name, "description": tool_description, "input_schema": dict(schema)}]
    choice = {"type": "tool", "name": tool_name}
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    errors: list[str] = []
    for attempt in range(2):
        response = llm.complete(
            system, messages, max_tokens=max_tokens, temperature=temperature,
            tools=tools, tool_choice=choice, cache_prefix=cache_prefix,
        )
        if responses is not None:
            responses.append(response)
        value, raw = _parse(response)
        errors = ["the answer is not a JSON object"] if value is None else validate(value, schema)
        if not errors and value is not None:
            return value
        if attempt == 0:
            messages = [
                {"role": "user", "content": prompt},
                {"role": "assistant", "content": raw or "(empty)"},
                {"role": "user", "content": (
                    f"That answer is invalid: {'; '.join(errors[:10])}. Call the tool '{tool_name}' "
                    "again with input that matches its schema exactly."
                )},
            ]
    raise LLMError(f"the model gave invalid structured output twice: {'; '.join(errors[:5])}",
                   kind="invalid_output")
