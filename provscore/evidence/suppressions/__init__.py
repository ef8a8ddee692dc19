"""Suppressions: anything that stops evidence from running or from failing.

One collector per family: :mod:`marks` (skip/xfail marks, runtime skips, dynamic
framework access), :mod:`hooks` (collection and report hooks, overrides, rebindings,
wrapping decorators), :mod:`neutralised` (evidence in code that never runs) and
:mod:`swallowed` (evidence whose failure is caught).
"""
