"""The call graph of the tree at base (and after the patch) and what is looked up in it.

``summary`` reads one file with the stdlib ``ast`` into a compact, path-independent
summary; ``cache`` keeps summaries (and built graphs) in SQLite by blob hash; ``resolve``
and ``graph`` turn every summary of a tree into the networkx graph; ``touched`` maps changed
lines to symbols and finds the tests and properties that reach them; ``corpus`` enumerates
the base tests; ``analysis`` is the pipeline's entry point; ``export`` writes the graph.
``helpers`` holds the cross-module lookups the evidence stage uses: helper oracles in
other modules and skipping conftest fixtures.
"""
