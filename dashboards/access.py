"""Evidence export and case views behind the role check, each written to the access log.

Why a module of its own: the case page hides the export button from roles that may not export,
but a hidden button is not a control. The function the page calls checks the role again, so a
session that reaches it any other way is refused too, and the refusal is logged.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from dashboards import auth
from dashboards.review_store import PermissionDenied, ReviewStore, User

#: session key holding the case whose view was logged last (a rerun of the same case is not a new view)
VIEWED = "access_viewed_case"


def may_export(user: User, roles: tuple[str, ...] = auth.EXPORT_ROLES) -> bool:
    return auth.can(user.role, "export", roles)


def export_case(
    user: User,
    db: str | Path,
    case_id: str,
    store: ReviewStore,
    source_root: Path | None = None,
    roles: tuple[str, ...] = auth.EXPORT_ROLES,
) -> bytes:
    """The evidence zip for ``case_id`` if ``user``'s role may export; logged either way."""
    if not may_export(user, roles):
        store.log_access(user.name, "export.refused", case_id, {"role": user.role})
        raise PermissionDenied(f"{user.name} ({user.role}) may not export evidence; allowed: {', '.join(roles)}")
    from dashboards import evidence  # the bundle writer's imports are only paid by those who export

    blob = evidence.build_bundle(db, case_id, store, source_root)
    store.log_access(user.name, "export", case_id, {"sha256": hashlib.sha256(blob).hexdigest()})
    return blob


def log_view(store: ReviewStore, user: User, case_id: str, session: MutableMapping[Any, Any]) -> bool:
    """Log that ``user`` opened ``case_id``, once per arrival (Streamlit reruns the page on every
    click; those reruns are not new views). True when a view was logged."""
    if session.get(VIEWED) == case_id:
        return False
    store.log_access(user.name, "view", case_id)
    session[VIEWED] = case_id
    return True
