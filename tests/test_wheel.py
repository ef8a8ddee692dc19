"""rules/ must load from a built wheel in a fresh venv, not only from the checkout."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_carries_the_rule_registry(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist), str(ROOT)], check=True, capture_output=True)
    (wheel,) = dist.glob("provscore-*.whl")
    env_dir = tmp_path / "venv"
    # The dependencies come from the interpreter running the tests, wherever it keeps
    # them (a venv's site-packages is not the base interpreter's, so system_site_packages
    # would not see them); the wheel itself goes into the new venv, ahead of them.
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], check=True, capture_output=True,
                          text=True).stdout.strip()
    deps = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    Path(site, "outer-deps.pth").write_text("\n".join(dict.fromkeys(deps)) + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    probe = ("import provscore, provscore.registry as r, provscore.session as s; "
             "print(provscore.__file__); print(r.rules_dir()); "
             "print(len(s.Session.load().registry.rules))")
    out = subprocess.run([str(py), "-I", "-c", probe], cwd=work, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert out[0].startswith(str(env_dir)), out
    assert out[1].endswith("provscore/_rules") and out[1].startswith(str(env_dir))
    assert int(out[2]) >= 25
    explain = subprocess.run([str(py), "-I", "-m", "provscore", "explain", "PS101"], cwd=work,
                             capture_output=True, text=True, check=False)
    assert explain.returncode == 0, explain.stderr
    assert explain.stdout.startswith("PS101 assertion-removed")
