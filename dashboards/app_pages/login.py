"""Log in: local users file (Argon2id, throttled) or, when configured, the OpenID Connect provider."""

from __future__ import annotations

import streamlit as st

from dashboards import auth, ui

cfg = ui.config()
st.title("Floorman: log in")
try:
    auth.bootstrap_admin(cfg.users_file)
except ValueError as exc:  # a too-short FLOORMAN_ADMIN_PASSWORD: say so, and still let existing users in
    st.error(str(exc))
if cfg.auth_mode == "oidc":
    st.write("Sign in with your organisation account.")
    if st.button("Sign in with SSO", key="sso"):
        st.login()
    if getattr(st.user, "is_logged_in", False) and ui.current_user() is None:
        st.error(ui.oidc_refusal() or "Your account is not on the reviewers' allow-list; ask an admin.")
else:
    with st.form("login"):
        name = st.text_input("User", key="login_user")
        password = st.text_input("Password", type="password", key="login_password")
        submitted = st.form_submit_button("Log in")
    if submitted:
        ip = st.context.ip_address  # None on localhost; behind a proxy, the proxy's (hence the higher client limit)
        client = ip if isinstance(ip, str) else None
        result = auth.login(cfg.users_file, ui.store(), name.strip(), password, client=client)
        if result.user is None:
            st.error(result.message())
        else:
            ui.begin_session(result.user)
            st.rerun()
