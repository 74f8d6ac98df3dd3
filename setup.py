"""Build script: the package, its data (templates, C++ runtime) and the one
prebuilt bridge module, transpile._runtime.  Everything else is declared in
pyproject.toml."""
import glob
import importlib.util
import os

import numpy
from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py


def _fingerprint_module():
    """transpile/fingerprint.py, loaded by path: the package cannot be imported
    before its bridge is built."""
    spec = importlib.util.spec_from_file_location("_transpile_fingerprint", "transpile/fingerprint.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithFingerprint(build_py):
    """Writes the hash of the installed code, templates and C++ runtime into the
    package, so that each process reads one file instead of statting ~170 to
    key its cache.  Editable installs get none: their files change in place."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        fp = _fingerprint_module()
        package = os.path.join(self.build_lib, "transpile")
        with open(os.path.join(package, fp.STAMP), "w") as f:
            f.write(fp.content_digest([package]) + "\n")


bridge = Extension(
    "transpile._runtime",
    sources=["runtime_cpp/transpile_rt/bridge/runtime.c"],
    depends=sorted(glob.glob("runtime_cpp/transpile_rt/bridge/*.c")),  # the parts runtime.c includes
    include_dirs=[numpy.get_include(), "runtime_cpp/transpile_rt"],
    # -g0: Python's CFLAGS ask for debug info, which costs ~15% of the bridge's compile in every install
    extra_compile_args=["-O2", "-g0", "-std=c11"],
    libraries=["dl"],
)

def _data_packages(root: str, name: str) -> list[str]:
    """A data tree's folders as packages: setuptools warns about each folder
    it could import but was not told about (a screenful per install)."""
    return [name + dirpath[len(root):].replace(os.sep, ".") for dirpath, _, _ in os.walk(root)]


RUNTIME_DATA = ["*.h", "*.hpp", "*.cuh", "*.c"]
runtime_packages = _data_packages("runtime_cpp", "transpile.runtime_cpp")

setup(
    # every subpackage of transpile/ (a new room needs no edit here), plus the data trees
    packages=find_packages(include=["transpile", "transpile.*"]) + ["transpile.templates"] + runtime_packages,
    package_dir={"transpile.templates": "templates", "transpile.runtime_cpp": "runtime_cpp"},
    package_data={"transpile.templates": ["*.j2"], **{package: RUNTIME_DATA for package in runtime_packages}},
    ext_modules=[bridge],
    cmdclass={"build_py": BuildPyWithFingerprint},
)
