"""Cross-module lookups over the tree at base: which imported names are helper oracles,
which conftest fixtures skip, which tests read a data file.

This is where the call graph (functions, calls and imports as a networkx graph, cached
per blob) will live; today's lookups are the first of its uses.
"""
