"""The Celery app of the cluster's workers: ``celery -A pipelines.cluster.worker worker --pool solo``.

Built the way dagster-celery's executor builds its own app (same broker, backend, queue, routes
and ``config_source``), so the tasks the run worker sends are the tasks these workers know.
``--pool solo`` runs the step in the worker process itself: one process is one worker, and a
killed worker is a killed step, which late acknowledgement then hands to another worker.
"""

from __future__ import annotations

from dagster_celery.executor import CeleryExecutor
from dagster_celery.make_app import make_app
from dagster_celery.tasks import create_task

from pipelines.cluster import settings

_executor = CeleryExecutor.for_cli(  # type: ignore[no-untyped-call]  # dagster-celery has no hints
    broker=settings.broker_url(), backend=settings.backend_url(), config_source=settings.celery_config()
)
app = make_app(_executor.app_args())  # type: ignore[no-untyped-call]
execute_plan = create_task(app)  # type: ignore[no-untyped-call]
