"""The Dagster code location: ``dagster dev -m pipelines.definitions`` (``make dagster-ui``).

Folders come from ``FLOORMAN_LANDING`` and ``FLOORMAN_WORK`` through ``dg.EnvVar``: read when a
run starts, not when this module is imported.
"""

from __future__ import annotations

import dagster as dg

from pipelines.defs.audit import freshness_checks, night_assets, partition_assets
from pipelines.defs.automation import (
    freshness_sensor,
    landing_sensor,
    night_automation,
    night_job,
    nightly_schedule,
    partition_job,
    run_failure_alert,
)
from pipelines.resources import AuditResource

defs = dg.Definitions(
    assets=[*partition_assets, *night_assets],
    asset_checks=freshness_checks,
    jobs=[partition_job, night_job],
    schedules=[nightly_schedule],
    sensors=[landing_sensor, night_automation, freshness_sensor, run_failure_alert],
    resources={"audit": AuditResource(landing=dg.EnvVar("FLOORMAN_LANDING"), work=dg.EnvVar("FLOORMAN_WORK"))},
    executor=dg.multiprocess_executor.configured({"max_concurrent": 2}),
)
