"""Graph stage: rings of three or more from the pair-suspicion graph, and dumping funnels.

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


def dumping_funnels(edges: pl.DataFrame, min_edge: float) -> list[tuple[list[str], float]]:
    """Weakly connected groups of >= 3 in the directed loser→winner graph of dumping suspects."""
    g = nx.DiGraph()
    for src, dst, s in edges.filter(pl.col("score") >= min_edge).select("src", "dst", "score").iter_rows():
        g.add_edge(src, dst, score=s)
    out = []
    for comp in nx.weakly_connected_components(g):
        if len(comp) >= 3:
            sub = g.subgraph(comp)
            out.append((sorted(comp), float(min(d["score"] for _, _, d in sub.edges(data=True)))))
    return out
