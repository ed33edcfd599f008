"""Graph stage: rings of three or more from the pair-suspicion graph, and one family's teams.

Why graphs: a team of three shows up as three suspicious pairs; reviewing them as one case (with
every member) is what an analyst needs, and a receiver fed by several dumpers is one scheme.
"""

from __future__ import annotations

import networkx as nx
import polars as pl


def rings(pairs: pl.DataFrame, min_edge: float) -> list[tuple[list[str], float]]:
    """Maximal cliques of size >= 3 among pairs scoring >= min_edge: (members, weakest edge)."""
    g = nx.Graph()
    for a, b, s in pairs.filter(pl.col("score") >= min_edge).select("a", "b", "score").iter_rows():
        g.add_edge(a, b, score=s)
    out = []
    for clique in nx.find_cliques(g):
        if len(clique) >= 3:
            members = sorted(clique)
            weakest = min(g[u][v]["score"] for i, u in enumerate(members) for v in members[i + 1 :])
            out.append((members, float(weakest)))
    return out


def family_teams(edges: pl.DataFrame, min_edge: float, max_size: int = 4) -> list[tuple[list[str], float]]:
    """Teams of 3..max_size joined by one family's suspicious pairs (a, b, score >= min_edge).

    Why: in a team of three, one pair often never acts on the other directly (two dumpers
    feeding one receiver, two squeezers who never re-raise each other), so it has no contrast of
    its own; the team is still one scheme. Score: the weakest edge of the maximum spanning tree
    (how strongly every member is tied in). Bigger components are left to the pair flags: a long
    chain is more likely two cases joined by one weak edge than one team.
    """
    g = nx.Graph()
    for a, b, s in edges.filter(pl.col("score") >= min_edge).select("a", "b", "score").iter_rows():
        if not g.has_edge(a, b) or g[a][b]["score"] < s:
            g.add_edge(a, b, score=s)
    out = []
    for comp in nx.connected_components(g):
        if 3 <= len(comp) <= max_size:
            tree = nx.maximum_spanning_tree(g.subgraph(comp), weight="score")
            out.append((sorted(comp), float(min(d["score"] for _, _, d in tree.edges(data=True)))))
    return out
