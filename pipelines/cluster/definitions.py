"""The cluster code location: the project's own definitions, every step on Celery workers.

``dagster code-server start -m pipelines.cluster.definitions`` serves it. Nothing is redefined
here: assets, checks, jobs, schedules, sensors and resources come from ``pipelines.definitions``
(whatever shape they have today); only the executor changes, so what runs on the cluster is what
runs on one machine. Each step becomes a Celery task on the Redis broker and runs in whichever
worker takes it; step events go to the instance's PostgreSQL, partition files to the shared
folder (``FLOORMAN_WORK``) every worker mounts.

``FLOORMAN_CLUSTER_AUTOMATION=0`` leaves the schedules and sensors out, for a test that launches
its own runs and must not race the landing sensor or the automation on the same partitions.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import dagster as dg
from dagster_celery import celery_executor
from dagster_shared.record import copy

from pipelines import definitions as base
from pipelines.cluster import settings

#: the Celery executor with the shared settings; broker and backend from the environment
CELERY_EXECUTOR = celery_executor.configured(
    {
        "broker": {"env": "FLOORMAN_CELERY_BROKER"},
        "backend": {"env": "FLOORMAN_CELERY_BACKEND"},
        "config_source": settings.celery_config(),
    },
    name="floorman_celery",
)


def base_definitions() -> dg.Definitions:
    """The single-machine definitions, whether exported as a value or built by a function."""
    found: Any = base.defs
    return found if isinstance(found, dg.Definitions) else found()


def _on_celery(job: Any) -> Any:
    """A job that names its own executor (e.g. multiprocess) gets the Celery one instead; jobs
    without one inherit the location's default executor, which is Celery."""
    if isinstance(job, dg.JobDefinition):
        return job.with_executor_def(CELERY_EXECUTOR) if job.has_specified_executor else job
    if getattr(job, "executor_def", None) is not None:
        return copy(job, executor_def=CELERY_EXECUTOR)
    return job


def automation_enabled() -> bool:
    return os.environ.get("FLOORMAN_CLUSTER_AUTOMATION", "1") not in {"0", "false", "no"}


def cluster_definitions(source: dg.Definitions, automation: bool = True) -> dg.Definitions:
    """``source`` with every job on the Celery executor."""
    jobs: Sequence[Any] = [_on_celery(j) for j in (source.jobs or [])]
    return dg.Definitions(
        assets=source.assets,
        asset_checks=source.asset_checks,
        jobs=jobs,
        schedules=source.schedules if automation else None,
        sensors=source.sensors if automation else None,
        resources=source.resources,
        loggers=source.loggers,
        executor=CELERY_EXECUTOR,
    )


defs = cluster_definitions(base_definitions(), automation_enabled())
