"""Hand replay view: per street, per action, the stacks, pot, to-call, legal range and findings.

Why structured first: the dashboard and evidence exports render the same ``ReplayView``; the text
and HTML renderers here are the plain defaults.
"""

from __future__ import annotations

import html
from typing import NamedTuple

import duckdb

from .check import check_hand
from .findings import Finding
from .profiles import load_mapping, load_profile
from .replay import ActionState
from .store import load_hands


class ActionView(NamedTuple):
    state: ActionState
    findings: list[Finding]


class ReplayView(NamedTuple):
    hand_id: str
    rulebook: str
    streets: dict[str, list[ActionView]]
    hand_findings: list[Finding]  # findings about the whole hand (pots, chips, deck...)


def render_hand(con: duckdb.DuckDBPyConnection, hand_id: str, rulebook: str | None = None) -> ReplayView:
    """Replay one stored hand (under its mapped rulebook unless given) into a ``ReplayView``."""
    hand = next(iter(load_hands(con, [hand_id])), None)
    if hand is None:
        raise KeyError(f"hand {hand_id!r} is not in the warehouse")
    prof = load_profile(rulebook or load_mapping().name_for(hand))
    hc = check_hand(hand, prof)
    by_seq: dict[int | None, list[Finding]] = {}
    for f in hc.findings:
        by_seq.setdefault(f.action_seq, []).append(f)
    streets: dict[str, list[ActionView]] = {}
    for s in hc.replay.states:
        streets.setdefault(s.street, []).append(ActionView(s, by_seq.get(s.seq, [])))
    seqs = {s.seq for s in hc.replay.states}
    other = [f for f in hc.findings if f.action_seq is None or f.action_seq not in seqs]
    return ReplayView(hand_id, prof.name, streets, other)


def _line(av: ActionView) -> str:
    s = av.state
    rng = f"{s.min_raise_to:,}-{s.max_raise_to:,}" if s.min_raise_to is not None and s.max_raise_to else "no raise"
    act = (
        f"{s.kind} {s.raise_to:,}"
        if s.raise_to is not None
        else f"{s.kind} {s.contribution:,}"
        if s.contribution
        else s.kind
    )
    return (
        f"  #{s.seq:<3} {s.position:<6} {s.player:<16} stack {s.stack_before:>10,}  pot {s.pot_before:>10,}"
        f"  to call {s.to_call:>8,}  legal {rng:<20} -> {act}"
    )


def to_text(view: ReplayView) -> str:
    """Plain-text rendering, one line per decision with its findings underneath."""
    out = [f"Hand {view.hand_id} under {view.rulebook}"]
    for street, actions in view.streets.items():
        out.append(street.upper())
        for av in actions:
            out.append(_line(av))
            out.extend(
                f"      [{f.severity}] {f.rule_id}: expected {f.expected}; actual {f.actual}" for f in av.findings
            )
    out.extend(f"HAND [{f.severity}] {f.rule_id}: {f.message}" for f in view.hand_findings)
    return "\n".join(out)


def to_html(view: ReplayView) -> str:
    """Minimal self-contained HTML table (escaped), for evidence bundles."""
    rows = []
    for street, actions in view.streets.items():
        rows.append(f"<tr><th colspan=8>{html.escape(street)}</th></tr>")
        for av in actions:
            s = av.state
            notes = "<br>".join(html.escape(f"[{f.severity}] {f.rule_id}: {f.message}") for f in av.findings)
            cells = [
                s.seq,
                s.position,
                s.player,
                s.stack_before,
                s.pot_before,
                s.to_call,
                f"{s.min_raise_to}-{s.max_raise_to}" if s.min_raise_to is not None else "no raise",
                f"{s.kind} {s.raise_to if s.raise_to is not None else s.contribution}",
            ]
            rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + f"<td>{notes}</td></tr>")
    hand_notes = "".join(f"<li>{html.escape(f.rule_id + ': ' + f.message)}</li>" for f in view.hand_findings)
    return (
        f"<h3>{html.escape(view.hand_id)} ({html.escape(view.rulebook)})</h3><table>{''.join(rows)}</table>"
        f"<ul>{hand_notes}</ul>"
    )
