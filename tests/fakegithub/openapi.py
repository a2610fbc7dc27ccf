"""Validate the fake's requests and responses against GitHub's official OpenAPI description.

The description is the trimmed subset ``openapi_subset.json`` of ``@octokit/openapi`` 23.0.2
(``generated/api.github.com.json``, OpenAPI 3.0.3), made by ``scripts/trim_openapi.py``.

OpenAPI 3.0 schemas are not JSON Schema; :func:`normalise` rewrites them for ``jsonschema``'s
Draft 2020-12 validator:

* ``nullable: true`` -> ``type: [T, "null"]`` (and ``null`` added to an ``enum``); a nullable
  schema without ``type`` (``allOf``/``$ref``) becomes ``anyOf: [schema, {type: null}]``;
* ``oneOf`` -> ``anyOf``: GitHub's description uses ``oneOf`` for overlapping alternatives (the
  422 body of ``POST /git/blobs`` is ``oneOf: [repository-rule-violation-error, validation-error]``
  and the first has no required keys, so every validation error matches both and would fail
  ``oneOf``; ``value: oneOf [nullable string, nullable integer, ...]`` fails for ``null`` likewise);
* OpenAPI-only keywords (``discriminator``, ``xml``, ``externalDocs``, ``x-*``, ``readOnly``,
  ``writeOnly``, ``deprecated``, ``example``) are dropped;
* ``#/components/...`` references are resolved by registering the whole (normalised) document as
  one resource in a ``referencing`` registry; parameter/response ``$ref`` objects (not schemas)
  are resolved here in Python.

``format`` is an annotation in Draft 2020-12 and is not asserted (GitHub's ``date-time`` and
``uri`` values are still produced in the right shape by the fake). Query parameters are strings
on the wire: they are coerced to the parameter schema's type before validation, and a query
parameter the operation does not declare is a violation.

A response status the operation does not document is allowed only for the generic failures that
GitHub returns on any endpoint (401, 403, 404, 429, 500, 502, 503, 504); its body must then be a
``basic-error``. :data:`UNDOCUMENTED_REAL` lists the few operation-specific statuses GitHub
returns but the description omits (each with its reason).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SUBSET = Path(__file__).with_name("openapi_subset.json")
BASE_URI = "urn:github-openapi"
GENERIC_FAILURES = {401, 403, 404, 429, 500, 502, 503, 504}
# Statuses GitHub really returns that the description omits, per operation (each with its reason).
UNDOCUMENTED_REAL = {
    # "Workflow does not have 'workflow_dispatch' trigger" / "No ref found for: x" (GitHub answers 422).
    ("POST", "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches"): {422},
}
_DROP = {"discriminator", "xml", "externalDocs", "readOnly", "writeOnly", "deprecated", "example"}
# Path parameters whose values contain slashes on GitHub (refs like heads/feature/x).
_GREEDY = {"ref", "path"}


def normalise(node: Any) -> Any:
    """An OpenAPI 3.0 schema (or any JSON around it) rewritten as Draft 2020-12; see the module docs."""
    if isinstance(node, list):
        return [normalise(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: normalise(v) for k, v in node.items() if k not in _DROP and not k.startswith("x-")}
    if "oneOf" in out:
        out["anyOf"] = out.pop("oneOf")
    if out.pop("nullable", False) is True:
        if "type" in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = [*types, "null"] if "null" not in types else types
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    pointer: str  # JSON pointer of the operation object


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


class OpenApi:
    """The loaded, normalised subset with a router and validators."""

    def __init__(self, path: Path = SUBSET) -> None:
        self.raw = json.loads(path.read_text(encoding="utf-8"))
        self.doc = normalise(self.raw)
        resource = Resource.from_contents(self.doc, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(BASE_URI, resource)
        self.operations: list[Operation] = []
        for template, item in self.doc["paths"].items():
            regex = re.sub(
                r"\{(\w+)\}",
                lambda m: f"(?P<{m.group(1)}>{'.+' if m.group(1) in _GREEDY else '[^/]+'})",
                template,
            )
            for method in item:
                pointer = f"/paths/{_escape(template)}/{method}"
                self.operations.append(Operation(method.upper(), template, re.compile(f"^{regex}$"), pointer))
        # Literal segments beat parameters: /issues/comments/{id} before /issues/{issue_number}.
        self.operations.sort(key=lambda o: (o.template.count("{"), -len(o.template)))

    def route(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation serving ``method path`` and its path parameters, else None."""
        for op in self.operations:
            match = op.pattern.match(path)
            if op.method == method and match:
                return op, match.groupdict()
        return None

    def _at(self, pointer: str) -> Any:
        node: Any = self.doc
        for part in pointer.strip("/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def _deref(self, node: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in node:
            node = self._at(node["$ref"].lstrip("#"))
        return node

    def _validate(self, instance: Any, pointer: str) -> list[str]:
        validator = jsonschema.Draft202012Validator({"$ref": f"{BASE_URI}#{pointer}"}, registry=self.registry)
        return [
            f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
            for e in sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        ][:5]

    def _parameters(self, op: Operation) -> list[dict[str, Any]]:
        return [self._deref(p) for p in self._at(op.pointer).get("parameters", [])]

    @cached_property
    def _coercers(self) -> dict[str, Any]:
        return {"integer": int, "number": float, "boolean": lambda v: {"true": True, "false": False}[v]}

    def check_request(
        self, op: Operation, params: dict[str, str], query: dict[str, str], body: Any
    ) -> list[str]:
        """Violations of the request: path/query parameters and JSON body."""
        problems: list[str] = []
        declared = {p["name"]: p for p in self._parameters(op)}
        for name, value in [*params.items(), *query.items()]:
            spec = declared.get(name)
            if spec is None:
                problems.append(f"query parameter {name!r} is not declared")
                continue
            schema = spec.get("schema", {})
            try:
                typed = self._coercers.get(schema.get("type"), str)(value)
            except (KeyError, ValueError):
                problems.append(f"parameter {name}={value!r} is not a {schema.get('type')}")
                continue
            problems += [
                f"parameter {name}: {e.message}"
                for e in jsonschema.Draft202012Validator(schema).iter_errors(typed)
            ]
        for name, spec in declared.items():
            if spec.get("required") and name not in params and name not in query:
                problems.append(f"required parameter {name!r} missing")
        body_spec = self._at(op.pointer).get("requestBody")
        if body_spec is not None:
            body_spec = self._deref(body_spec)
            if body is None:
                if body_spec.get("required"):
                    problems.append("request body required")
            elif "application/json" in body_spec.get("content", {}):
                pointer = f"{op.pointer}/requestBody/content/application~1json/schema"
                problems += [f"request body {p}" for p in self._validate(body, pointer)]
        elif body is not None:
            problems.append("request body not accepted by this operation")
        return problems

    def check_response(self, op: Operation, status: int, body: Any) -> list[str]:
        """Violations of the response: documented status and body schema."""
        responses = self._at(op.pointer)["responses"]
        spec = responses.get(str(status))
        if spec is None:
            if status in GENERIC_FAILURES or status in UNDOCUMENTED_REAL.get((op.method, op.template), ()):
                return [f"response body {p}" for p in self._validate(body, "/components/schemas/basic-error")]
            return [f"status {status} is not documented for {op.method} {op.template}"]
        pointer = f"{op.pointer}/responses/{status}"
        if "$ref" in spec:
            pointer = spec["$ref"].lstrip("#")
            spec = self._deref(spec)
        content = spec.get("content")
        if not content:
            return [] if body is None else [f"status {status} has no body in the description"]
        if body is None:
            return [f"status {status} needs a body"]
        media = "application/json" if "application/json" in content else next(iter(content))
        return [
            f"response body {p}" for p in self._validate(body, f"{pointer}/content/{_escape(media)}/schema")
        ]
