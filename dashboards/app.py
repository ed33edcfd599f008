"""Floorman review dashboard: the entry point and router.

Run: ``floorman serve --root PUBLISHED`` (or ``streamlit run dashboards/app.py`` with
FLOORMAN_PUBLISHED / FLOORMAN_DB set). Anonymous sessions only ever get the login page; the
page list is built from the user's role, and every page checks the role again itself.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboards import auth, ui

HERE = Path(__file__).parent
st.set_page_config(page_title="Floorman", layout="wide")

user = ui.current_user()
if user is None:
    nav = st.navigation([st.Page(HERE / "app_pages" / "login.py", title="Log in", url_path="login")])
else:
    pages = {
        "Review": [
            st.Page(HERE / "app_pages" / "queue.py", title="Queue", default=True, url_path="queue"),
            st.Page(HERE / "app_pages" / "case.py", title="Case", url_path="case"),
            st.Page(HERE / "app_pages" / "hand.py", title="Hand replayer", url_path="hand"),
        ],
        "Explore": [
            st.Page(HERE / "app_pages" / "player.py", title="Player", url_path="player"),
            st.Page(HERE / "app_pages" / "pair.py", title="Pair", url_path="pair"),
            st.Page(HERE / "app_pages" / "violations.py", title="Rule violations", url_path="violations"),
            st.Page(HERE / "app_pages" / "runs.py", title="Audit runs", url_path="runs"),
        ],
    }
    if auth.can(user.role, "admin"):
        pages["Admin"] = [st.Page(HERE / "app_pages" / "admin.py", title="Users & settings", url_path="admin")]
    with st.sidebar:
        st.write(f"**{user.name}** ({user.role})")
        if st.button("Log out", key="logout"):
            st.session_state.pop("user", None)
            if ui.config().auth_mode == "oidc" and getattr(st.user, "is_logged_in", False):
                st.logout()
            st.rerun()
    nav = st.navigation(pages)
nav.run()
