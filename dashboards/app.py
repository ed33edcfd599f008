"""Floorman review dashboard: the entry point and router.

Run: ``floorman serve --root PUBLISHED`` (or ``streamlit run dashboards/app.py`` with
FLOORMAN_PUBLISHED / FLOORMAN_DB set). Anonymous sessions only ever get the login page; the
page list is built from the user's role, and every page checks the role again itself.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboards import ui

HERE = Path(__file__).parent
st.set_page_config(page_title="Floorman", layout="wide")
ui.warm_up()  # rule engine and rulebooks loaded once per server process, not inside a reviewer's first replay

user = ui.current_user()
if user is None:
    nav = st.navigation([st.Page(HERE / "app_pages" / "login.py", title="Log in", url_path="login")])
else:
    pages = {
        section: [
            st.Page(HERE / "app_pages" / f"{slug}.py", title=title, url_path=slug, default=slug == "queue")
            for slug, title in entries
        ]
        for section, entries in ui.page_specs(user.role).items()
    }
    with st.sidebar:
        st.write(f"**{user.name}** ({user.role})")
        if st.button("Log out", key="logout"):
            st.session_state.pop("user", None)
            if ui.config().auth_mode == "oidc" and getattr(st.user, "is_logged_in", False):
                st.logout()
            st.rerun()
    nav = st.navigation(pages)
nav.run()
