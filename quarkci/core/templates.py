"""The one way quarkci renders multi-line text: Jinja2 templates kept as files in a package's ``templates/``.

Every environment has the same settings (strict undefined, no autoescape: the output is Markdown, not
HTML, so untrusted text is escaped explicitly) and the same filters, all from :mod:`quarkci.core.escape`:
``md`` (inline Markdown), ``code`` (inline code span), ``plain`` (text with markup neutralised),
``cell`` (a table cell) and ``block`` (a fenced code block). See docs/architecture.md, "Rendering".
"""

from __future__ import annotations

from functools import cache

import jinja2

from quarkci.core.escape import cell, code, code_block, md, plain


@cache
def environment(package: str) -> jinja2.Environment:
    """The Jinja2 environment over ``<package>/templates`` (e.g. ``"quarkci.report"``); one per package, cached.

    Raises ``ValueError`` (from Jinja2's PackageLoader) when the package has no ``templates`` directory.
    """
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(md=md, code=code, plain=plain, cell=cell, block=code_block)
    return env


def template(package: str, name: str) -> jinja2.Template:
    """The template file ``name`` of ``package``; raises ``jinja2.TemplateNotFound`` when it does not exist."""
    return environment(package).get_template(name)
