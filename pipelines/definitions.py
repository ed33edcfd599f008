"""The Dagster code location: ``dg dev`` / ``dagster dev -m pipelines.definitions``."""

from __future__ import annotations

import dagster as dg

from pipelines.defs.audit import night_assets, partition_assets
from pipelines.defs.automation import landing_sensor, night_after_partition, night_job, nightly_schedule, partition_job
from pipelines.resources import AuditResource

defs = dg.Definitions(
    assets=[*partition_assets, *night_assets],
    jobs=[partition_job, night_job],
    schedules=[nightly_schedule],
    sensors=[landing_sensor, night_after_partition],
    resources={"audit": AuditResource()},
    executor=dg.multiprocess_executor.configured({"max_concurrent": 2}),
)
