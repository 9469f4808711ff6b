"""The build backend: setuptools', plus the compiled engines for an editable
install.

``build_editable`` (``python3 -m pip install -e .``, the README's commands) first
compiles the modules named in ``cardtable/core/compiled.py`` with mypyc into
``cardtable/_compiled/<digest>/``, where the package finds them while their
source is unchanged. A build that cannot compile (no C compiler, no Python
headers) says so in one line and installs the pure-Python engines, which
behave the same, slower. Wheels and sdists stay pure Python: a wheel's tag
would otherwise have to name the platform.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import (  # noqa: F401  (the hooks this backend passes on as they are)
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent
# The mypy whose mypyc compiles the engines: the same pin as the checkers'.
MYPYC = "mypy==2.4.1"
# Run in a child process, so that mypyc's setup() and the compiler's output
# stay out of the build's own.
_COMPILE = """
import sys
from setuptools import setup
from mypyc.build import mypycify
sources, target, lib, temp = sys.argv[1].split(","), sys.argv[2], sys.argv[3], sys.argv[4]
setup(
    name="cardtable-compiled",
    ext_modules=mypycify(
        ["--ignore-missing-imports", *sources], target_dir=target, opt_level="3", separate=True
    ),
    script_args=["build_ext", "--build-lib", lib, "--build-temp", temp],
)
"""


def _compiled_module() -> ModuleType:
    """``cardtable/core/compiled.py``, loaded by path: the package itself
    cannot be imported before it is installed."""
    spec = importlib.util.spec_from_file_location(
        "_cardtable_compiled", ROOT / "cardtable" / "core" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_engines() -> Path | None:
    """Compile the hot modules into the build folder of today's source;
    returns that folder, or None (and one line on stderr) when it cannot."""
    compiled = _compiled_module()
    package_root = ROOT / "cardtable"
    build_dir: Path = compiled.BUILDS / compiled.source_digest(package_root)
    if compiled.current_build(package_root) == build_dir:
        return build_dir
    sources = [m.replace(".", "/") + ".py" for m in compiled.COMPILED]
    with tempfile.TemporaryDirectory() as scratch:
        lib = Path(scratch) / "lib"
        arguments = [",".join(sources), f"{scratch}/c", str(lib), f"{scratch}/t"]
        done = subprocess.run(
            [sys.executable, "-c", _COMPILE, *arguments],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            said = (done.stdout + done.stderr).strip().splitlines()
            last = next((line for line in said if "error" in line), said[-1] if said else "")
            _say_pure(f"mypyc failed: {last}")
            return None
        shutil.rmtree(compiled.BUILDS, ignore_errors=True)  # older builds never match again
        build_dir.mkdir(parents=True)
        for name in compiled.BUILT_MODULES:
            built = lib / (name.replace(".", "/") + importlib.machinery.EXTENSION_SUFFIXES[0])
            shutil.copyfile(built, compiled.build_file(build_dir, name))
    return build_dir


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    required: list[str] = build_meta.get_requires_for_build_editable(config_settings)
    return [*required, MYPYC]


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    try:
        compile_engines()
    except OSError as error:  # a read-only or full disk: the source still installs
        _say_pure(str(error))
    wheel: str = build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
    return wheel


def _say_pure(why: str) -> None:
    print(f"cardtable: the engines stay pure Python ({why})", file=sys.stderr)
