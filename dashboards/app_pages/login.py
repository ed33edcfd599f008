"""Log in: local users file (scrypt) or, when configured, the OpenID Connect provider."""

from __future__ import annotations

import streamlit as st

from dashboards import auth, ui

cfg = ui.config()
st.title("Floorman: log in")
auth.bootstrap_admin(cfg.users_file)
if cfg.auth_mode == "oidc":
    st.write("Sign in with your organisation account.")
    if st.button("Sign in with SSO", key="sso"):
        st.login()
    if getattr(st.user, "is_logged_in", False) and ui.current_user() is None:
        st.error("Your account is not on the reviewers' allow-list; ask an admin.")
else:
    with st.form("login"):
        name = st.text_input("User", key="login_user")
        password = st.text_input("Password", type="password", key="login_password")
        submitted = st.form_submit_button("Log in")
    if submitted:
        user = auth.authenticate(cfg.users_file, name.strip(), password)
        if user is None:
            st.error("Unknown user or wrong password.")
        else:
            st.session_state["user"] = user
            ui.store().log_event(user.name, "login", user.name)
            st.rerun()
