"""Dagster resources: where a night's files land, where it works, where it publishes."""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg


class AuditResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """Folders of the nightly audit (see ``pipelines.steps`` for the layout).

    ``files`` overrides the landing folder for one run (used by ``floorman audit PATH...``).
    """

    landing: str = os.environ.get("FLOORMAN_LANDING", "var/landing")
    work: str = os.environ.get("FLOORMAN_WORK", "var/audit")
    rulebook: str = ""
    files: list[str] = []  # noqa: RUF012 - pydantic copies field defaults
    db: str = ""  # combined warehouse path; default work/warehouse.duckdb

    @property
    def work_dir(self) -> Path:
        return Path(self.work)

    @property
    def landing_dir(self) -> Path:
        return Path(self.landing)

    @property
    def build_db(self) -> Path:
        return Path(self.db) if self.db else self.work_dir / "warehouse.duckdb"

    @property
    def serve_root(self) -> Path:
        return self.build_db.parent / "published"
