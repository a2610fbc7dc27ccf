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
  audited release (``python-keyword-unknown``).

Blocks over 256 KiB are not parsed (a skill's example is never that long; parsing is bounded).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from quarkci.skills.claims.unit import Found, Unit
from quarkci.skills.claims.walk import Code, heading_path

_LANGUAGES = frozenset({"python", "py", "python3", "ipython", "pycon"})
MAX_BLOCK_BYTES = 256 * 1024


def extract(unit: Unit) -> Iterator[Found]:
    """``python_name`` and ``python_keyword`` claims of ``unit``'s Python blocks (see the module doc)."""
    for code in unit.codes():
        if code.info not in _LANGUAGES and not (code.info == "" and "import quark" in code.text):
            continue
        if len(code.text) > MAX_BLOCK_BYTES:
            continue
        try:
            tree = ast.parse(code.text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        yield from _Reader(code).read(tree)


class _Reader:
    """One block's walk: ``bound`` maps a local name to the dotted Quark name it stands for, ``instances``
    a local name to the dotted class it holds an instance of."""

    def __init__(self, code: Code) -> None:
        self.code = code
        self.section = heading_path(code.headings)
        self.bound: dict[str, str] = {}
        self.modules: set[str] = set()  # the local names bound by ``import`` (modules, not imported names)
        self.instances: dict[str, str] = {}

    def read(self, tree: ast.Module) -> Iterator[Found]:
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
                callee = self.dotted(node.value.func)
                for target in node.targets:
                    if isinstance(target, ast.Name) and callee is not None and _looks_like_class(callee):
                        self.instances[target.id] = callee
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
            ):
                yield self.found("python_name", dotted, node, {"form": "dotted"})

    def call(self, node: ast.Call) -> Iterator[Found]:
        callee = self.dotted(node.func)
        if callee is None:
            return
        for keyword in node.keywords:
            if keyword.arg is None:
                continue  # **kwargs passes names we cannot see
            yield self.found(
                "python_keyword",
                f"{callee}({keyword.arg}=)",
                node,
                {"callable": callee, "keyword": keyword.arg},
            )

    def dotted(self, node: ast.expr) -> str | None:
        """The Quark dotted name an expression stands for (``q.X``, ``X``, ``inst.method``), else None."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
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


def _looks_like_class(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last[:1].isupper()


def _root(node: ast.Attribute) -> str | None:
    """The name an attribute chain starts from (``q`` of ``q.a.b``), None when it is no plain name."""
    base: ast.expr = node
    while isinstance(base, ast.Attribute):
        base = base.value
    return base.id if isinstance(base, ast.Name) else None
