"""Package data works from a wheel install, not only from the checkout."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHECK = """
import tavlakit as tk
from tavlakit._data import data_dir, grammar_text
assert "site-packages" in tk.__file__, tk.__file__
samples = data_dir("samples")
assert "site-packages" in str(samples), samples
for name in ("mat", "sgf"):
    assert grammar_text(name).strip()
match = tk.read_match(samples / "tavla-t000.mat")
report = tk.validate(match)
assert report.games == 6 and not report.errors, report.errors
sgf = tk.read_match(samples / "charlot1-charlot2_7p_2025-11-08-2305.sgf")
assert len(sgf.games) == 4
from tavlakit import i18n
assert i18n.available_languages() == ["en", "tr"], i18n.available_languages()
i18n.set_language("tr")
assert i18n._("the file holds no match") == "dosyada maç yok"
print("ok", samples)
"""


def test_wheel_carries_grammars_and_samples(tmp_path: Path) -> None:
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(REPO), "-w", str(tmp_path)],
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    wheel = next(tmp_path.glob("tavlakit-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"tavlakit/grammars/mat.lark", "tavlakit/grammars/sgf.lark", "tavlakit/samples/tavla-t000.mat",
            "tavlakit/locale/tr/LC_MESSAGES/tavlakit.mo"} <= names

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
                             capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr
    # run outside the checkout so nothing can be found there
    run = subprocess.run([str(python), "-c", CHECK], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok")
