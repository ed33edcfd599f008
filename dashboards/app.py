"""Floorman review dashboard: the entry point and router.

Run: ``floorman serve --root PUBLISHED`` (or ``streamlit run dashboards/app.py`` with
FLOORMAN_PUBLISHED / FLOORMAN_DB set). Anonymous sessions only ever get the login page; the
page list is built from the user's role, and every page checks the role again itself.

Why the anonymous router knows every page's address: a link such as ``/case?case=ID`` opened in a
fresh browser must show the login form at that address (not Streamlit's "Page not found"), so
that after login the same address, query string included, runs the case page.
"""

from __future__ import annotations

import time
from pathlib import Path

import streamlit as st

from dashboards import ui

HERE = Path(__file__).resolve().parent
LOGIN = HERE / "app_pages" / "login.py"
START = time.perf_counter()
st.set_page_config(page_title="Floorman", layout="wide")
ui.start_timing()
ui.warm_up()  # rule engine and rulebooks loaded once per server process, not inside a reviewer's first replay



def _to_queue() -> None:
    st.switch_page(HERE / "app_pages" / "queue.py")


user = ui.current_user()
if user is None:
    ui.sync_cookie()  # deletes a stale or revoked cookie
    # every page's address leads to the login form; the login's rerun then lands on the page
    slugs = ["login", *(slug for entries in ui.page_specs("admin").values() for slug, _ in entries)]
    hidden = [st.Page(LOGIN, title="Log in", url_path=slug, visibility="hidden") for slug in slugs]
    # the default page lives at the root; its own url_path only has to differ from the others
    nav = st.navigation([st.Page(LOGIN, title="Log in", url_path="signin", default=True), *hidden],
                        position="hidden")
else:
    pages = {
        section: [
            st.Page(HERE / "app_pages" / f"{slug}.py", title=title, url_path=slug, default=slug == "queue")
            for slug, title in entries
        ]
        for section, entries in ui.page_specs(user.role).items()
    }
    with st.sidebar:
        ui.sync_cookie()
        st.write(f"**{user.name}** ({user.role})")
        if st.button("Log out", key="logout"):
            ui.end_session()
            if ui.config().auth_mode == "oidc" and getattr(st.user, "is_logged_in", False):
                st.logout()
            st.rerun()
    # a logged-in session opening the login address (a bookmark, a link copied while logged out)
    pages.setdefault("", []).append(st.Page(_to_queue, title="Log in", url_path="login", visibility="hidden"))
    nav = st.navigation(pages)
try:
    nav.run()
finally:  # also when the page stops or reruns (Streamlit's control-flow exceptions pass through here)
    ui.record_timing(nav.title, user, time.perf_counter() - START)
