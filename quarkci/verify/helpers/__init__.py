"""Helper scripts copied verbatim into a generated skill's ``helpers/`` (stand-alone: torch only)."""
