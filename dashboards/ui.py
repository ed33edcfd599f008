"""Streamlit glue shared by every page: the logged-in user, access checks, cached queries.

Why one module: each page starts with ``user = ui.require("read")`` so a page opened directly
(or by a stale link) still refuses an anonymous or under-privileged session, not only the
navigation menu. Cached queries take the snapshot path as their key (see settings.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import polars as pl
import streamlit as st

from dashboards import auth, data, settings
from dashboards import cases as cases_mod
from dashboards.cases import build_cases
from dashboards.observed import split_citation
from dashboards.replay import HandReplay
from dashboards.review_store import ReviewStore, User


def config() -> settings.Settings:
    return settings.load()


def store() -> ReviewStore:
    return _store(str(config().review_db))


@st.cache_resource(show_spinner=False)
def _store(path: str) -> ReviewStore:
    """One ReviewStore per file and server process: its constructor runs the schema script (WAL,
    tables, append-only triggers), ~50 ms that every page run paid; its calls open their own
    short connections, so sharing it between sessions is safe."""
    return ReviewStore(path)


def snapshot() -> Path:
    return config().snapshot()


def current_user() -> User | None:
    """The session's user: local login (session state, else the signed session cookie a reload or
    a new tab brings back) or the OIDC identity mapped to a role (Streamlit keeps its own cookie)."""
    user = st.session_state.get("user")
    if isinstance(user, User):
        return user
    cfg = config()
    if cfg.auth_mode == "oidc":
        if not getattr(st.user, "is_logged_in", False):
            return None
        roles = dict(st.secrets.get("floorman", {}).get("roles", {}))
        oidc, why = auth.oidc_user(st.user.to_dict(), roles)
        st.session_state["oidc_refusal"] = why
        return oidc
    restored = _cookie_user(cfg)
    if restored is not None:
        st.session_state["user"] = restored
    return restored


SESSION_TOKEN = "session_token"


def _cookie() -> str | None:
    try:
        value = st.context.cookies.get(auth.SESSION_COOKIE)
    except Exception:  # no browser connection (bare script run)
        return None
    return value if isinstance(value, str) else None  # AppTest's client is a mock


@st.cache_resource(show_spinner=False)
def _sessions(folder: str) -> tuple[bytes, auth.Revocations]:
    """The signing key and revocation list of one sessions folder (read once per server process)."""
    return auth.session_secret(folder), auth.Revocations(Path(folder) / "sessions.sqlite")


def _cookie_user(cfg: settings.Settings) -> User | None:
    """The user of the browser's session cookie. A cookie that failed once is not re-checked on
    every rerun of this websocket session (its value cannot change until the next connection)."""
    value = _cookie()
    if not value or st.session_state.get("_cookie_refused") == value:
        return None
    secret, revoked = _sessions(str(cfg.sessions_folder()))
    user = auth.restore_session(cfg.users_file, secret, revoked, value)
    if user is None:
        st.session_state["_cookie_refused"] = value
        return None
    st.session_state[SESSION_TOKEN] = value
    return user


def begin_session(user: User) -> None:
    """Log ``user`` in for this tab and issue the cookie that keeps them logged in on reload."""
    cfg = config()
    secret, _ = _sessions(str(cfg.sessions_folder()))
    st.session_state["user"] = user
    st.session_state[SESSION_TOKEN] = auth.issue_session(secret, user.name, ttl=cfg.session_hours * 3600)


def end_session() -> None:
    """Log out: revoke the session's token server-side (a copied cookie dies too), forget the user."""
    cfg = config()
    secret, revoked = _sessions(str(cfg.sessions_folder()))
    for value in {st.session_state.get(SESSION_TOKEN), _cookie()}:
        token = auth.read_session(secret, value) if isinstance(value, str) else None
        if token is not None:
            revoked.revoke(token)
    for key in ("user", SESSION_TOKEN):
        st.session_state.pop(key, None)


def sync_cookie() -> None:
    """Make the browser's cookie match the session: set it while logged in, delete a stale one.

    Why on every run, not once: a script run can be cut short by a rerun before its elements reach
    the browser; an identical element on the next run is not re-executed, so repeating is free.
    The cookie is set by a script in the page (Streamlit has no server-side cookie API outside
    its own OIDC login); it is SameSite=Strict, Secure over HTTPS, but readable by page scripts.
    """
    token = st.session_state.get(SESSION_TOKEN)
    name = auth.SESSION_COOKIE
    if isinstance(token, str):
        max_age = int(config().session_hours * 3600)
        js = f'document.cookie = "{name}={token}; Path=/; Max-Age={max_age}; SameSite=Strict"'
    elif _cookie():
        js = f'document.cookie = "{name}=; Path=/; Max-Age=0; SameSite=Strict"'
    else:
        return
    js += ' + (location.protocol === "https:" ? "; Secure" : "");'
    st.html(f"<script>{js}</script>", unsafe_allow_javascript=True)


def oidc_refusal() -> str:
    """Why the signed-in OIDC identity was refused (expired token, unverified e-mail, not allowed)."""
    return str(st.session_state.get("oidc_refusal") or "")


def page_specs(role: str) -> dict[str, list[tuple[str, str]]]:
    """Navigation sections -> (page file stem, title) that ``role`` may open."""
    specs = {
        "Review": [("queue", "Queue"), ("case", "Case"), ("hand", "Hand replayer")],
        "Explore": [("player", "Player"), ("pair", "Pair"), ("violations", "Rule violations"),
                    ("runs", "Audit runs")],
    }
    if auth.can(role, "admin"):
        specs["Admin"] = [("admin", "Users & settings")]
    return specs


def require(action: str) -> User:
    """Stop the page unless the session may perform ``action``."""
    user = current_user()
    if user is None:
        st.warning("Please log in.")
        st.stop()
    if not auth.can(user.role, action):
        st.error(f"Your role ({user.role}) does not allow this page.")
        st.stop()
    return user


@st.cache_resource(show_spinner=False)
def warm_up() -> str:
    """Once per server process: first-use imports, the rule engine, every rulebook profile and the mapping.

    Why: otherwise a reviewer's first view pays them (~1 s: DuckDB imports pandas on its first
    parameterised query, Streamlit converts frames through pandas/pyarrow.compute; ~0.5 s of rule
    engine imports and YAML in the first replay). app.py calls this on every run, so only the
    server's first script run (normally a login page) pays it.
    """
    import altair  # noqa: F401  (the player page's results graph: ~0.4 s to import)
    import duckdb
    import pandas  # noqa: F401
    import pyarrow.compute  # noqa: F401

    from dashboards import drawing, evidence  # noqa: F401  (the case page's figures and export)
    from rules import view  # noqa: F401  (the import is the warm-up)
    from rules.profiles import PROFILE_NAMES, load_mapping, load_profile, seed_anchors

    with duckdb.connect() as con:
        con.execute("SELECT ? AS x", [1]).pl().to_pandas()

    load_mapping()
    seed_anchors()
    for name in PROFILE_NAMES:
        load_profile(name)
    return ", ".join(PROFILE_NAMES)


@st.cache_data(ttl=600, max_entries=64, show_spinner=False)
def queue(db: str) -> pl.DataFrame:
    return data.queue(db)


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def flag(db: str, flag_id: str) -> dict[str, Any] | None:
    return data.flag(db, flag_id)


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def hand_rows(db: str, hand_ids: tuple[str, ...], tables: tuple[str, ...] | None = None) -> dict[str, pl.DataFrame]:
    return data.hand_rows(db, hand_ids, tables)


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def replay(db: str, hand_id: str) -> HandReplay:
    return data.replay(db, hand_id)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def shared_hands(db: str, players: tuple[str, ...]) -> pl.DataFrame:
    return data.shared_hands(db, players)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def player_summary(db: str, player: str) -> dict[str, Any]:
    return data.player_summary(db, player)


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def find_players(db: str, text: str) -> list[str]:
    return data.find_players(db, text)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def player_days(db: str, player: str) -> pl.DataFrame:
    return data.player_days(db, player)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def player_line(db: str, player: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    return data.player_line(db, player)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def player_sessions(db: str, player: str) -> pl.DataFrame:
    return data.player_sessions(db, player)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def group_figures(db: str, players: tuple[str, ...]) -> tuple[dict[tuple[str, str], int], pl.DataFrame]:
    """Chip flow and sessions of a group over the hands at least two of them sat in (one read)."""
    return data.group_figures(db, players)


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def opponents(db: str, player: str) -> pl.DataFrame:
    return data.opponents(db, player)


@st.cache_data(ttl=600, max_entries=32, show_spinner=False)
def violations_summary(db: str, by: str) -> pl.DataFrame:
    return data.violations_summary(db, by)


@st.cache_data(ttl=600, max_entries=64, show_spinner=False)
def violations_list(db: str, rule_id: str | None) -> pl.DataFrame:
    return data.violations_list(db, rule_id)


@st.cache_data(ttl=600, max_entries=16, show_spinner=False)
def run_reports(db: str) -> pl.DataFrame:
    return data.run_reports(db)


@st.cache_data(ttl=600, max_entries=16, show_spinner=False)
def overview(db: str) -> dict[str, int]:
    return data.overview(db)


def paginate(df: pl.DataFrame, key: str, size: int = 200) -> pl.DataFrame:
    """At most ``size`` rows of ``df``, with a page picker when there are more.

    Why: Streamlit serialises every row of a table on every run; a queue or a pair's shared hands
    can run to thousands of rows at 1M hands, and the reviewer reads them a screen at a time.
    """
    if df.height <= size:
        return df
    pages = -(-df.height // size)
    page = int(st.number_input(f"Page (of {pages})", min_value=1, max_value=pages, value=1, step=1, key=key))
    page = min(max(page, 1), pages)
    st.caption(f"rows {(page - 1) * size + 1:,}–{min(page * size, df.height):,} of {df.height:,}")
    return df.slice((page - 1) * size, size)


def page_window(total: int, key: str, size: int = 200) -> tuple[int, int]:
    """(offset, size) of the page the reviewer picked among ``total`` rows (``paginate`` for rows
    that stay in the snapshot: the page's query reads only them)."""
    if total <= size:
        return 0, size
    pages = -(-total // size)
    page = int(st.number_input(f"Page (of {pages})", min_value=1, max_value=pages, value=1, step=1, key=key))
    page = min(max(page, 1), pages)
    st.caption(f"rows {(page - 1) * size + 1:,}–{min(page * size, total):,} of {total:,}")
    return (page - 1) * size, size


@st.cache_data(ttl=600, max_entries=128, show_spinner=False)
def pair_overview(db: str, a: str, b: str) -> pl.DataFrame:
    return data.pair_overview(db, a, b)


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def shared_page(db: str, a: str, b: str, offset: int, size: int) -> pl.DataFrame:
    return data.shared_page(db, a, b, offset, size)


def snapshot_caption(db: Path) -> None:
    st.caption(f"snapshot: {db.name}")


#: how each finding severity (rules.findings.SEVERITIES) is named and boxed: only error and warning
#: are violations; a house decision, a prescribed remedy and an export inconsistent with itself are not
FINDING_KINDS: dict[str, tuple[str, Any]] = {
    "error": ("violation, error", st.error),
    "warning": ("violation, warning", st.error),
    "review": ("house decision (floor's discretion)", st.warning),
    "info": ("remedy the rulebook prescribes", st.info),
    "data": ("data issue: the export contradicts itself", st.info),
}


def finding_box(f: dict[str, Any], where: str = "") -> None:
    """One rule finding: what happened, expected vs actual, and the rulebook passage it rests on."""
    text, seed, quote = split_citation(f.get("message"))
    house = bool(f.get("house_decision")) or f.get("severity") == "review"
    kind, box = FINDING_KINDS.get("review" if house else str(f.get("severity")),
                                  (f"violation, {f.get('severity')}", st.error))
    body = (f"**{md(where)}{md(f['rule_id'])}** ({md(f.get('rulebook'))}, {kind}): {md(text)}  \n"
            f"Expected {md(f.get('expected'))}; actual {md(f.get('actual'))}.")
    if house and f.get("allowed_outcomes"):
        body += f"  \nAllowed rulings: {md(str(f['allowed_outcomes']).replace('|', ', '))}."
    box(body)
    if quote:
        st.markdown(f"> «{md(quote)}»  \n> — rulebook seed `{seed}`")


# -- addresses: every page takes its subject from the URL ------------------------------------------

def from_url(param: str, key: str, value: str | None = None) -> None:
    """Seed widget ``key`` from the URL's ``param`` when the address changed since this session
    last wrote it (a link was followed, a bookmark opened); call before creating the widget.
    ``value`` replaces the raw parameter (e.g. the full case id a short form resolved to)."""
    raw = st.query_params.get(param)
    # the widget's state is dropped when the reviewer leaves the page: seed it again on return
    if raw is not None and (st.session_state.get(f"_url_{key}") != raw or key not in st.session_state):
        st.session_state[key] = raw if value is None else value
        st.session_state[f"_url_{key}"] = raw


def to_url(**params: str) -> None:
    """Write the page's subject into the address (shareable, survives a reload)."""
    for k, v in params.items():
        if st.query_params.get(k) != v:
            st.query_params[k] = v


def mark_url(param: str, key: str) -> None:
    """Remember the URL value this session wrote for widget ``key`` (see ``from_url``)."""
    st.session_state[f"_url_{key}"] = st.query_params.get(param)


@st.cache_data(ttl=600, max_entries=64, show_spinner=False)
def cases(db: str) -> pl.DataFrame:
    """One row per suspected group (dashboards/cases.py), ranked."""
    return build_cases(queue(db))


@st.cache_data(ttl=600, max_entries=64, show_spinner=False)
def case_of(db: str) -> dict[str, str]:
    """Every flag id -> the id of the case it belongs to."""
    return cases_mod.case_of(cases(db))


@st.cache_data(ttl=600, max_entries=64, show_spinner=False)
def case_short_ids(db: str) -> dict[str, str]:
    """A short readable form of every flag id (so of every case id: a case's id is its founding flag's)."""
    q = queue(db)
    return data.short_ids(q["flag_id"].to_list()) if not q.is_empty() else {}


def case_players(db: str, case_id: str) -> list[str]:
    """The players of a case (every member flag's), for the replayer's highlight."""
    c = cases(db).filter(pl.col("case_id") == case_id)
    return [str(p) for p in c["players"][0]] if c.height else []


def short_case(db: str, case_id: str) -> str:
    return case_short_ids(db).get(case_id, case_id)


def resolve_case(db: str, text: str | None) -> str | None:
    """The case ``text`` names: a case id, any of its flags' ids, their short forms or unique prefixes."""
    flag_id = data.resolve_case(text, list(case_short_ids(db)))
    return None if flag_id is None else case_of(db).get(flag_id, flag_id)


def case_status(db: str, case_id: str,
                records: dict[str, tuple[str, str | None, str | None]]) -> tuple[str, str | None]:
    """(status, assignee) of a case from the review store's records of its flags' ids."""
    c = cases(db).filter(pl.col("case_id") == case_id)
    flags = c["flags"][0].to_list() if c.height else [case_id]
    return cases_mod.case_status([case_id, *flags], records)


@st.cache_data(ttl=600, max_entries=256, show_spinner=False)
def find_hands(db: str, text: str) -> list[str]:
    return data.find_hands(db, text)


MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#+-.!|$<>~:"})


def md(text: object) -> str:
    """``text`` shown literally in ``st.markdown`` (no emphasis, links, or '$...$' maths)."""
    return str(text).translate(MD_SPECIAL)


def reviewers() -> list[str]:
    """Who a case can be assigned to: users whose role may decide (local users file); empty under
    OIDC, where the page takes a typed name or address instead."""
    cfg = config()
    if cfg.auth_mode == "oidc":
        return []
    return sorted(n for n, u in auth.load_users(cfg.users_file).items() if auth.can(str(u.get("role")), "decide"))


#: session key a page sets when this run does more than show the page (e.g. "export": builds a bundle)
RUN_ACTION = "_run_action"


def start_timing() -> None:
    """Note the script thread's CPU clock at the start of a run (see ``record_timing``)."""
    st.session_state["_run_cpu0"] = time.thread_time()


def record_timing(page: str, user: User | None, seconds: float) -> None:
    """Append one script run's duration to FLOORMAN_PAGE_TIMINGS (JSON lines), when set.

    Why server-side: what the reviewer waits for is this run plus the browser drawing it; on a
    shared machine the browser's share varies with the load, the run's does not (much), and the
    run is what the dashboard's code controls.
    """
    import json
    import os

    path = os.environ.get("FLOORMAN_PAGE_TIMINGS")
    if not path:
        return
    row = {"page": page or "(default)", "user": user.name if user else None, "seconds": round(seconds, 4),
           "cpu": round(time.thread_time() - float(st.session_state.get("_run_cpu0", 0.0)), 4),
           "action": st.session_state.pop(RUN_ACTION, None),
           "query": {k: st.query_params.get(k) for k in st.query_params}}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row, sort_keys=True) + "\n")
