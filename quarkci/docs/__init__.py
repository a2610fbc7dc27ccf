"""quarkci.docs: README sections generated from this repository's own files.

* :mod:`~quarkci.docs.interfaces`     every composite action's and workflow's inputs, outputs and secrets;
* :mod:`~quarkci.docs.permissions`    what each workflow job's token needs, and a calling job's union;
* :mod:`~quarkci.docs.actions_tables` the README blocks (tables and examples) and
  ``python -m quarkci.docs.actions_tables --check|--write``.

YAML is read through :func:`quarkci.core.documents.parse_document` (``fmt="workflow"``) and rendered
through :mod:`quarkci.core.templates`.
"""
