"""Whether evaluating an expression can be seen to change state: the test of a check or
an output call that is more than it looks (fixture meaning, a helper that gains asserts)."""

from __future__ import annotations

import ast

# Calls that change state: a builtin that rebinds, and the methods that mutate their object
# (a dict's, a list's, a set's, a file's, a random generator's, ``set_*``/``reset*``). An
# ``assert`` or ``print`` that makes one is no mere check or output.
_STATE_BUILTINS = frozenset({"setattr", "delattr", "exec", "eval", "__import__", "globals",
                             "locals", "next", "compile"})
_MUTATORS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "append", "extend",
                       "insert", "remove", "discard", "add", "sort", "reverse", "write",
                       "writelines", "truncate", "seed", "send", "throw", "close", "fill",
                       "resize", "put", "push", "__setitem__", "__delitem__", "__setattr__",
                       "__delattr__", "__init__", "mkdir", "unlink", "rmdir", "rename",
                       "touch", "chdir", "putenv", "unsetenv", "delenv", "setenv",
                       "setitem", "setattr", "delitem", "delattr", "syspath_prepend"})


def only_looks(node: ast.AST) -> bool:
    """Whether evaluating ``node`` changes no state it can be seen to change: no ``:=``,
    ``await``/``yield`` or lambda, no call of a builtin that rebinds (``setattr``) and no
    call of a method that mutates its object (``cfg.pop("x")``, ``app.config.update(...)``,
    ``random.seed(0)``, ``obj.set_mode(...)``); reading calls (``len``, ``np.allclose``,
    ``os.path.exists``) only look."""
    for n in ast.walk(node):
        if isinstance(n, ast.NamedExpr | ast.Await | ast.Yield | ast.YieldFrom | ast.Lambda):
            return False
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        if isinstance(f, ast.Name) and f.id in _STATE_BUILTINS:
            return False
        if isinstance(f, ast.Attribute) and (
                f.attr in _MUTATORS or f.attr.startswith(("set_", "reset", "clear_", "pop_",
                                                          "update_", "del_", "delete"))):
            return False
    return True
