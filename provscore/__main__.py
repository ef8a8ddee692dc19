"""``python -m provscore`` is the ``provscore`` command, made safe to run inside a checkout.

``python -m`` puts the current directory first on ``sys.path``. Run inside a checkout of
the patch being scored, it would import that tree's ``unidiff/``, ``tabulate.py`` or even
``provscore/``: code the patch wrote, run by the tool that judges it. The console script
``provscore`` (and ``python -P -m provscore``) does not put the current directory on the
path; it is the only safe form in a checkout (docs/hostile-input.md). Here, before
anything else is imported:

* the current directory is taken off ``sys.path``, so no dependency can come from it;
* if provscore itself was imported from the current directory and that directory lies in
  the repository being scored, it refuses to run (exit 3): the code running may be the
  patch's own.
"""

import os
import sys
from pathlib import Path


def _cwd() -> Path | None:
    try:
        return Path.cwd().resolve()
    except OSError:
        return None


def _repo_arg(argv: list[str]) -> str | None:
    """The ``--repo`` of a command that reads a repository (default ``.``), else None."""
    if not argv or argv[0] not in ("score", "lock") or "-h" in argv or "--help" in argv:
        return None
    for i, arg in enumerate(argv):
        if arg == "--repo" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--repo="):
            return arg.split("=", 1)[1]
    return "."


def _work_tree(path: Path) -> Path:
    """The top of the git work tree holding ``path`` (where ``.git`` is), else ``path``."""
    for candidate in (path, *path.parents):
        if (candidate / ".git").exists():
            return candidate
    return path


def _refusal(cwd: Path | None, argv: list[str]) -> str | None:
    if cwd is None or sys.flags.safe_path or not sys.path:
        return None
    first = Path(sys.path[0] or ".").resolve()
    package_home = Path(__file__).resolve().parent.parent
    repo = _repo_arg(argv)
    if first != cwd or package_home != cwd or repo is None:
        return None
    top = _work_tree(Path(repo).resolve())
    if cwd == top or cwd.is_relative_to(top):
        return (f"provscore: error: refusing to run: `python -m provscore` imported provscore "
                f"from the current directory {cwd}, which is inside the repository being "
                "scored, so a patch could have replaced it. Run the `provscore` console "
                "script, or `python -P -m provscore`.")
    return None


def _main() -> None:
    cwd = _cwd()
    message = _refusal(cwd, sys.argv[1:])
    if message is not None:
        print(message, file=sys.stderr)
        sys.exit(3)
    if cwd is not None:  # dependencies must never come from the working directory
        sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != cwd]
    from provscore.cli import entry

    entry()


_main()
