"""quarkci.contracts: JSON Schemas for the nine artifacts Quark's skills hand to each other.

* :mod:`~quarkci.core.artifacts`  artifact -> its one producer, consumers, schema, fallback;
* :mod:`~quarkci.core.documents`  load a JSON/YAML document and validate it (errors name the JSON path);
* :mod:`~quarkci.contracts.fallback`  the minimal valid failure document of each artifact;
* :mod:`~quarkci.contracts.producers` static check that only an artifact's producer writes it;
* :mod:`~quarkci.contracts.diff`      compare our schemas with the contracts shipped in a Quark release.
"""

from quarkci.core.artifacts import ARTIFACTS, Artifact, get_artifact, load_schema

__all__ = ["ARTIFACTS", "Artifact", "get_artifact", "load_schema"]
