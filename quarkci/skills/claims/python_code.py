"""Python code blocks parsed with :mod:`ast`, with real scoping: the Quark names a block uses and the keyword
arguments it passes to them.

A fenced block tagged ``python``/``py`` (or untagged, when it parses and imports ``quark``) is parsed; a block
that does not parse is left to the line readers of :mod:`.python_api`. Bindings are followed in order:
``import quark.a.b as q``, ``import quark.a``, ``from quark.a import X as Y``, and ``v = <Quark class>(...)``
(an instance, whose method calls resolve to ``Class.method``). From them:

* ``python_name`` (``form`` ``dotted``): every attribute chain rooted at an imported Quark module
  (``qcfg.QuantizationConfig`` -> ``quark.torch.quantization.config.config.QuantizationConfig``), so an
  alias hides no name from the audit (a chain on an imported name adds nothing to its import's claim);
* ``python_keyword``: each keyword argument of a call to a Quark callable, value ``"<dotted>(<keyword>=)"``
  with ``context["callable"]`` and ``context["keyword"]``, checked against that callable's signature in the
  audited release (``python-keyword-unknown``);
* ``python_name`` (``form`` ``member``): a method called on an instance of a Quark class or on an imported
  class itself (``q = ModelQuantizer(cfg); q.quantize_model(...)``:
  ``quark.torch.ModelQuantizer.quantize_model``; ``LLMTemplate.get_supported_schemes()``), with
  ``context["class"]`` and ``context["member"]``); the result of a class's own method
  (``LLMTemplate.get("llama")``) is taken as an instance of that class (a factory), assigned or chained;
* ``python_name`` (``form`` ``unbound``): a CamelCase name called but bound nowhere in the block (not
  imported, assigned or defined; ``ModelQuantiser(...)``): checked against the names releases define;
* ``python_argument``: each string literal passed to a Quark callable, value the literal, with
  ``context["callable"]`` and ``context["keyword"]`` or ``context["position"]`` (0-based, ``self`` not
  counted): the rules pair it with the parameter of the release's signature, whose name gives its role
  (``scheme``, ``model_type``).

Inline code spans of prose, tables and lists that are one call (``ModelQuantizer.freeze(model,
runtime_options=opts)``, ``export_safetensors(model, out, weight_format="real_quantized")``) are parsed the
same way, with no import in sight: a name some release exports (the vocabulary's ``export`` kind) stands
for itself, and the rules resolve it through the audited release's framework packages
(:meth:`quarkci.facts.public_api.ApiIndex.signature`). Only their ``python_keyword`` and
``python_argument`` claims are taken, and a method called on the exported class itself
(``LLMTemplate.list_available()``: ``python_name``, form ``member``); the span's name is the bare
``python_name`` claim of :mod:`.python_api`.

Blocks over 256 KiB are not parsed (a skill's example is never that long; parsing is bounded).
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Code, heading_path
from quarkci.skills.model import Claim

_LANGUAGES = frozenset({"python", "py", "python3", "ipython", "pycon"})
MAX_BLOCK_BYTES = 256 * 1024


def extract(unit: Unit) -> Iterator[Found]:
    """``python_name`` and ``python_keyword`` claims of ``unit``'s Python blocks and call spans, then the
    values listed for a keyword they pass (see the module doc)."""
    instances: dict[str, str] = {}
    found = [*_blocks(unit, instances), *_spans(unit, instances)]
    yield from found
    yield from _listed_values(unit, found)


def _blocks(unit: Unit, instances: dict[str, str]) -> Iterator[Found]:
    """The claims of the file's Python blocks, read as one session; ``instances`` is filled with the
    instances the file makes (a name bound to two classes is left out), for the spans of its prose."""
    carried = _Carried({}, set(), set(), {})
    for code in unit.codes():
        if code.info not in _LANGUAGES and not (code.info == "" and "import quark" in code.text):
            continue
        if len(code.text) > MAX_BLOCK_BYTES:
            continue
        try:
            tree = ast.parse(code.text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        reader = _Reader(code, carried)
        yield from reader.read(tree)
        conflicting = {
            k for k, v in reader.bound.items() if carried.bound.get(k, v) != v
        } | carried.conflicting
        carried = _Carried(
            {k: v for k, v in reader.bound.items() if k not in conflicting},
            set(reader.modules),
            conflicting,
            {k: v for k, v in reader.instances.items() if k not in conflicting},
        )
    instances.update(carried.instances)


# "- `custom_mode`: `"quark"`, `"awq"` or `"fp8"`", "`weight_format` accepts `"real_quantized"` or
# `"fake_quantized"`": a keyword's name, then the string values it takes, each a quoted literal span
_VALUES_OF = re.compile(
    r"^\W*`([a-z_][a-z0-9_]*)`\s*(?::|accepts\b|takes\b|is one of\b|can be\b|must be\b|[-–—])", re.IGNORECASE
)
_QUOTED_SPAN = re.compile(r"`\s*(?:\"([^\"`\n]+)\"|'([^'`\n]+)')\s*`")
_SENTENCE_END = re.compile(r"[.;!?]\s+(?=[A-Z`(])")


def _listed_values(unit: Unit, found: list[Found]) -> Iterator[Found]:
    """``python_argument`` claims of a paragraph or list item that lists the string values of a keyword
    (:data:`_VALUES_OF`) the file passes to a Quark callable in an earlier line: each value is checked as if
    passed to the last such callable (``export_safetensors(..., custom_mode="awq")`` above, then
    "- `custom_mode`: `"quark"`, `"awq"`, `"fp8"` or `"hf_format"`"). A keyword no earlier call passes is
    left alone (whose values they are is not known)."""
    for block in unit.texts():
        if block.kind != "paragraph" or (match := _VALUES_OF.match(block.text)) is None:
            continue
        keyword = match.group(1)
        callee = last_callee_passing(found, None, keyword, block.line)
        if callee is None:
            continue
        stop = _SENTENCE_END.search(block.text, match.end())  # the list is the first sentence
        for value in _QUOTED_SPAN.finditer(
            block.text, match.end(), stop.start() if stop else len(block.text)
        ):
            literal = value.group(1) or value.group(2)
            yield Found(
                "python_argument",
                literal,
                block.line_at(value.start()),
                {
                    "callable": callee,
                    "keyword": keyword,
                    "where": "listed",
                    "section": heading_path(block.headings),
                },
            )


@dataclass(frozen=True)
class _Carried:
    """The Quark imports of the file's earlier Python blocks: a skill's blocks run as one session, so a
    later block may use ``qt`` or ``LLMTemplate`` imported above."""

    bound: dict[str, str]
    modules: set[str]
    # names the file binds to different Quark names in different blocks (`ModelQuantizer` from quark.onnx,
    # then from quark.torch): a later block that uses one without importing it is not read as either
    conflicting: set[str] = field(default_factory=set)
    # the instances they made (``template = LLMTemplate(...)`` above, ``template.get_config(...)`` below)
    instances: dict[str, str] = field(default_factory=dict)


# An inline span that is one call of a (dotted) name: ``X.m(a, k=v)``; spans over 2 KiB are not parsed.
_CALL_SPAN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\(.*\)$", re.DOTALL)
MAX_SPAN_BYTES = 2048


def _spans(unit: Unit, instances: dict[str, str] | None = None) -> Iterator[Found]:
    """``python_keyword``/``python_argument`` claims of the inline spans that are one call of a name some
    release exports (see the module doc), or of a method of an instance the file's blocks make
    (``exporter = ModelExporter(...)`` above, then "call `exporter.export_safetensors_model(model)`": a
    ``python_name`` member claim too)."""
    instances = instances or {}
    exported = unit.lexicon.names("export") if unit.lexicon is not None else frozenset()
    for block in unit.texts():
        if block.kind == "heading":
            continue
        for span, line in block.code_spans():
            text = span.strip()
            if len(text) > MAX_SPAN_BYTES or not _CALL_SPAN.match(text):
                continue
            head = text.split(".", 1)[0].split("(", 1)[0]
            of_instance = head in instances and "." in text.split("(", 1)[0]
            if not of_instance and head not in exported:
                continue
            call = parse_call(text)
            if call is None:
                continue
            reader = _Reader(Code("python", text, line, block.headings))
            if of_instance:  # `exporter.export_safetensors_model(model)`: a method of what a block made
                reader.instances = dict(instances)
                reader.local = set(_BUILTINS) | set(instances)
                for found in reader.call(call):
                    if found.kind in ("python_name", "python_keyword", "python_argument"):
                        yield Found(found.kind, found.value, line, {**found.context, "where": "inline"})
                continue
            reader.bound[head] = head  # a bare exported name: the rules resolve it in the release
            reader.local = {*_BUILTINS, head}
            func = call.func
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == head
                and head[:1].isupper()
            ):  # `LLMTemplate.list_available()`: a method of the exported class, checked like an instance's
                context: dict[str, object] = {"form": "member", "class": head, "member": func.attr}
                context["where"] = "inline"
                context["section"] = heading_path(block.headings)
                yield Found("python_name", f"{head}.{func.attr}", line, context)
            calls = [n for n in ast.walk(call) if isinstance(n, ast.Call)]
            for found in (f for call in calls for f in reader.call(call)):
                if found.kind in ("python_keyword", "python_argument"):
                    yield Found(found.kind, found.value, line, {**found.context, "where": "inline"})


def parse_call(text: str) -> ast.Call | None:
    """``text`` (an inline span, at most :data:`MAX_SPAN_BYTES`) parsed as one Python call expression, else
    None (too long, not Python, or not a call)."""
    if len(text) > MAX_SPAN_BYTES:
        return None
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return tree.body if isinstance(tree.body, ast.Call) else None


def last_callee_passing(
    items: Iterable[Found | Claim], file: str | None, keyword: str, line: int
) -> str | None:
    """The callable of the last ``python_keyword`` of ``items`` that passes ``keyword`` above ``line`` (in
    ``file``, when given): whose parameter a later sentence speaks of when it names no callable
    ("export_safetensors(..., custom_mode="awq")" above, then "- `custom_mode`: `"quark"`, ..."); None when
    no call above passes it."""
    passing = [
        i
        for i in items
        if i.kind == "python_keyword"
        and i.line < line
        and i.context.get("keyword") == keyword
        and isinstance(i.context.get("callable"), str)
        and (file is None or getattr(i, "file", None) == file)
    ]
    return str(max(passing, key=lambda i: i.line).context["callable"]) if passing else None


class _Reader:
    """One block's walk: ``bound`` maps a local name to the dotted Quark name it stands for, ``instances``
    a local name to the dotted class it holds an instance of."""

    def __init__(self, code: Code, carried: _Carried | None = None) -> None:
        self.code = code
        self.section = heading_path(code.headings)
        self.bound: dict[str, str] = dict(carried.bound) if carried else {}
        # the local names bound by ``import`` (modules, not imported names)
        self.modules: set[str] = set(carried.modules) if carried else set()
        self.instances: dict[str, str] = dict(carried.instances) if carried else {}
        self.local: set[str] = set()  # every name the block binds in any way (unbound calls are claims)
        self.whole = False  # a whole block read (not an inline span): its calls pass every argument

    def read(self, tree: ast.Module) -> Iterator[Found]:
        self.local = _bound_names(tree) | set(self.bound)
        self.whole = True
        for node in _in_order(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if _is_quark(alias.name):
                        local = alias.asname or "quark"
                        self.bound[local] = alias.name if alias.asname else "quark"
                        self.modules.add(local)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_quark(node.module or ""):
                for alias in node.names:
                    if alias.name != "*":
                        self.bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                        self.modules.discard(alias.asname or alias.name)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                made = self.instance_of(node.value)
                for target in node.targets:
                    if isinstance(target, ast.Name) and made is not None:
                        self.instances[target.id] = made
                    elif isinstance(target, ast.Name):
                        self.instances.pop(target.id, None)
            elif isinstance(node, ast.Call):
                yield from self.call(node)
            elif (
                # a chain rooted at an imported module (``qcfg.X``): the name a line reader cannot see; a
                # chain on an imported name (``LLMTemplate.get_config``) adds nothing to its import's claim
                isinstance(node, ast.Attribute)
                and not isinstance(getattr(node, "_parent", None), ast.Attribute)
                and _root(node) in self.modules
                and (dotted := self.dotted(node)) is not None
                # `quark.__version__`: a module's dunder is no public name (prose references skip them too)
                and not any(p.startswith("__") for p in dotted.split("."))
            ):
                yield self.found("python_name", dotted, node, {"form": "dotted"})
            elif (
                # an enum member or constant read off an imported class (``dtype=Dtype.fp8_e4m3``), not
                # called (a call is :meth:`call`'s): a member the class must have
                isinstance(node, ast.Attribute)
                and not isinstance(parent := getattr(node, "_parent", None), ast.Attribute)
                and not (isinstance(parent, ast.Call) and parent.func is node)
                and isinstance(node.value, ast.Name)
                and node.value.id in self.bound
                and _looks_like_class(owner := self._class_named(node.value))
                and (dotted := self.dotted(node)) is not None
            ):
                context = {"form": "member", "class": owner, "member": node.attr, "attribute": True}
                yield self.found("python_name", dotted, node, context)

    def call(self, node: ast.Call) -> Iterator[Found]:
        func = node.func
        if isinstance(func, ast.Name) and func.id not in self.local and _looks_like_class(func.id):
            yield self.found("python_name", func.id, node, {"form": "unbound", "name": func.id})
            return
        callee = self.dotted(func)
        if callee is None:
            return
        if (
            isinstance(func, ast.Attribute)
            and (owner := self.instance_of(func.value)) is not None
            and not (isinstance(func.value, ast.Name) and func.value.id in self.bound)
        ):
            yield self.found(
                "python_name", callee, node, {"form": "member", "class": owner, "member": func.attr}
            )
        elif isinstance(func, ast.Attribute) and _looks_like_class(owner := self._class_named(func.value)):
            # `LLMTemplate.get_supported_schemes()`, `tmpl.LLMTemplate.list_available()`: a method called on
            # an imported class itself
            yield self.found(
                "python_name", callee, node, {"form": "member", "class": owner, "member": func.attr}
            )
        if self.whole:  # an inline span leaves arguments out on purpose: only a block's calls are whole
            spread = any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords
            )
            elided = any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in node.args) or any(
                isinstance(k.value, ast.Constant) and k.value.value is Ellipsis for k in node.keywords
            )
            if not spread and not elided:
                yield self.found(
                    "python_call",
                    callee,
                    node,
                    {
                        "callable": callee,
                        "positional": len(node.args),
                        "keywords": sorted(k.arg for k in node.keywords if k.arg is not None),
                        # each keyword's own line (a call spread over lines)
                        "keyword_lines": {
                            k.arg: self.code.first_line + k.lineno - 1 for k in node.keywords if k.arg
                        },
                    },
                )
        for keyword in node.keywords:
            if keyword.arg is None:
                continue  # **kwargs passes names we cannot see
            yield self.found(
                "python_keyword",
                f"{callee}({keyword.arg}=)",
                keyword,  # the keyword's own line: a call spread over lines names it where it is passed
                {"callable": callee, "keyword": keyword.arg},
            )
            if (literal := _literal(keyword.value)) is not None:
                yield self.found(
                    "python_argument", literal, keyword.value, {"callable": callee, "keyword": keyword.arg}
                )
        for position, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                break  # *args: the positions after it are unknown
            if (literal := _literal(arg)) is not None:
                yield self.found("python_argument", literal, arg, {"callable": callee, "position": position})

    def _class_named(self, node: ast.expr) -> str:
        """The dotted Quark class ``node`` names (an imported class, or a chain on an imported module ending
        in a CamelCase name), else ``""``."""
        if isinstance(node, ast.Name):
            return self.bound.get(node.id, "") if node.id not in self.modules else ""
        if isinstance(node, ast.Attribute) and _root(node) in self.modules:
            dotted = self.dotted(node)
            return dotted if dotted is not None and _looks_like_class(dotted) else ""
        return ""

    def instance_of(self, node: ast.expr) -> str | None:
        """The dotted Quark class an expression yields an instance of: a class called (``X(...)``), a
        class's own method called (``X.get(...)``, a factory), or a name holding an instance."""
        if isinstance(node, ast.Name):
            return self.instances.get(node.id)
        if not isinstance(node, ast.Call):
            return None
        callee = self.dotted(node.func)
        if callee is None:
            return None
        if _looks_like_class(callee):
            return callee
        owner = callee.rsplit(".", 1)[0]
        if "." in callee and _looks_like_class(owner) and not isinstance(node.func, ast.Name):
            return owner  # `LLMTemplate.get(...)`: the class's factory
        return None

    def dotted(self, node: ast.expr) -> str | None:
        """The Quark dotted name an expression stands for (``q.X``, ``X``, ``inst.method``,
        ``X.get(...).method``), else None."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Call) and len(parts) == 1:
            made = self.instance_of(node)  # a method of what a call made: `LLMTemplate.get("x").get_config`
            return f"{made}.{parts[0]}" if made is not None else None
        if not isinstance(node, ast.Name):
            return None
        if node.id in self.bound:
            base = self.bound[node.id]
        elif node.id in self.instances and len(parts) == 1:
            base = self.instances[node.id]
        else:
            return None
        return ".".join([base, *reversed(parts)])

    def found(self, kind: str, value: str, node: ast.AST, extra: dict[str, object]) -> Found:
        line = self.code.first_line + getattr(node, "lineno", 1) - 1
        context = {"where": "code", "section": self.section, "parsed": True, **extra}
        return Found(kind, value, line, context)


def _in_order(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node in source order (statements before the expressions in them), each Attribute marked with
    its parent so only the outermost chain of ``a.b.c`` is read."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        children = list(ast.iter_child_nodes(node))
        for child in children:
            child._parent = node  # type: ignore[attr-defined]
        stack.extend(reversed(children))


def _is_quark(module: str) -> bool:
    return module == "quark" or module.startswith("quark.")


_PLACEHOLDER = re.compile(r"^<[^<>]*>$|^\{[^{}]*\}$|\$|\.\.\.|…")


def _literal(node: ast.expr) -> str | None:
    """The string a literal argument passes, None for another expression or a placeholder
    (``"<model_type>"``, ``"{scheme}"``, ``"$MODEL"``, ``"..."``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and not _PLACEHOLDER.search(node.value):
        return node.value
    return None


_BUILTINS = frozenset(dir(builtins))


def _bound_names(tree: ast.Module) -> set[str]:
    """Every name ``tree`` binds anywhere (imports, assignments, loop and ``with`` targets, defs, classes,
    parameters, comprehension variables) and every builtin: a called name outside it is unbound."""
    out = set(_BUILTINS)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            out.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
    return out


def _looks_like_class(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last[:1].isupper()


def _root(node: ast.Attribute) -> str | None:
    """The name an attribute chain starts from (``q`` of ``q.a.b``), None when it is no plain name."""
    base: ast.expr = node
    while isinstance(base, ast.Attribute):
        base = base.value
    return base.id if isinstance(base, ast.Name) else None
