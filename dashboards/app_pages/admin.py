"""Users and settings (admin only)."""

from __future__ import annotations

import streamlit as st

from dashboards import auth, ui

user = ui.require("admin")
cfg = ui.config()
st.title("Users & settings")
users = auth.load_users(cfg.users_file)
st.dataframe([{"user": n, "role": u["role"]} for n, u in sorted(users.items())], hide_index=True)
with st.form("add_user"):
    name = st.text_input("User name", key="new_user")
    role = st.selectbox("Role", auth.ROLES, key="new_role")
    password = st.text_input("Password", type="password", key="new_password")
    submitted = st.form_submit_button("Save user")
if submitted:
    try:
        auth.check_new_password(password)
        auth.ensure_user(cfg.users_file, name.strip(), password, str(role))
    except ValueError as exc:
        st.error(str(exc))
    else:
        ui.store().log_event(user.name, "user.set", name.strip(), {"role": str(role)})
        st.success(f"Saved {name.strip()} ({role})")
        st.rerun()
st.subheader("Settings")
try:
    snap = str(cfg.snapshot())
except FileNotFoundError as exc:
    snap = f"unavailable: {exc}"
st.json({"snapshot": snap, "published": str(cfg.published), "review_db": str(cfg.review_db),
         "users_file": str(cfg.users_file), "auth_mode": cfg.auth_mode,
         "source_root": str(cfg.source_root)})
