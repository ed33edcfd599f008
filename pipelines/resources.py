"""Dagster resources: where a night's files land, where it works, where it publishes.

Why fields with plain defaults and no environment lookups here: the code location binds
``dg.EnvVar("FLOORMAN_LANDING")`` / ``dg.EnvVar("FLOORMAN_WORK")`` in ``pipelines.definitions``,
so the values are read when a run starts (and shown as env vars in the UI), not when this module
is imported; tests and ``floorman audit`` pass explicit values.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg

from detectors.queue import DEFAULT_CAP_PER_1000_PLAYERS


class AuditResource(dg.ConfigurableResource):  # type: ignore[type-arg]
    """Folders of the nightly audit (see ``pipelines.steps`` for the layout).

    ``files`` overrides the landing folder for one run (used by ``floorman audit PATH...``);
    ``shards`` is how many slices each landed day is split into (1: the whole day is shard 0).
    ``flag_cap_per_1000_players`` caps the night's review queue (default 400 per 1,000 active
    players; 0: no cap, the queue is then 1% of the scored pairs, which at ten million hands is
    over 12,000 flags): size it to the team.
    """

    landing: str = "var/landing"
    work: str = "var/audit"
    rulebook: str = ""
    files: list[str] = []  # noqa: RUF012 - pydantic copies field defaults
    db: str = ""  # combined warehouse path; default work/warehouse.duckdb
    shards: int = 1
    flag_cap_per_1000_players: float = DEFAULT_CAP_PER_1000_PLAYERS

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
