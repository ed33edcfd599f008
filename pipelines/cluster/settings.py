"""Celery settings shared by the executor (in the run worker) and the Celery workers.

Why these settings: dagster-celery runs a step inside the worker process that took its task, and
by default Celery acknowledges a task when a worker *receives* it. A worker that dies mid-step
(SIGKILL, OOM, lost node) then loses the task for good: the run waits on a result that never comes.
With late acknowledgement the task stays unacknowledged in Redis while it runs; when its worker
dies, another worker's periodic sweep puts it back on the queue once ``visibility_timeout`` has
passed, and the step runs again from the start (steps are idempotent: a partition is rebuilt from
scratch, the warehouse from its partitions). The price: ``visibility_timeout`` must exceed the
longest step, or a healthy long step is handed to a second worker while it still runs.
"""

from __future__ import annotations

import os
from typing import Any

#: production default: longer than any step of a night (a partition of a busy day, the detectors)
DEFAULT_VISIBILITY_TIMEOUT = 3600
#: seconds between the workers' sweeps for tasks whose worker died
RESTORE_INTERVAL = 2


def broker_url() -> str:
    """Redis broker of the Celery workers (``FLOORMAN_CELERY_BROKER``)."""
    return os.environ.get("FLOORMAN_CELERY_BROKER", "redis://127.0.0.1:6379/0")


def backend_url() -> str:
    """Where task results (the step's serialised events) are kept (``FLOORMAN_CELERY_BACKEND``)."""
    return os.environ.get("FLOORMAN_CELERY_BACKEND", "redis://127.0.0.1:6379/1")


def visibility_timeout() -> int:
    """Seconds an unacknowledged task may stay with a worker before it is handed to another."""
    return int(os.environ.get("FLOORMAN_CELERY_VISIBILITY_TIMEOUT", DEFAULT_VISIBILITY_TIMEOUT))


def celery_config() -> dict[str, Any]:
    """``config_source`` of dagster-celery's executor; the workers load the same dict."""
    transport = {
        # dagster-celery's own defaults (its config_source replaces the whole dict)
        "max_retries": 3,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.5,
        "visibility_timeout": visibility_timeout(),
        "unacked_restore_interval": RESTORE_INTERVAL,
        "unacked_restore_throttle": 1,
    }
    return {
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,  # a worker holds only the task it runs
        "broker_transport_options": transport,
        "result_backend_transport_options": {"visibility_timeout": visibility_timeout()},
        "broker_connection_retry_on_startup": True,
        "worker_hijack_root_logger": False,
    }
