"""Build script: the package, its data (templates, C++ runtime) and the one
prebuilt bridge module, transpile._runtime.  Everything else is declared in
pyproject.toml."""
import numpy
from setuptools import Extension, find_packages, setup

bridge = Extension(
    "transpile._runtime",
    sources=["runtime_cpp/transpile_rt/bridge/runtime.c"],
    include_dirs=[numpy.get_include(), "runtime_cpp/transpile_rt"],
    extra_compile_args=["-O2", "-std=c11"],
    libraries=["dl"],
)

setup(
    # every subpackage of transpile/ (a new room needs no edit here), plus the data trees
    packages=find_packages(include=["transpile", "transpile.*"]) + ["transpile.templates", "transpile.runtime_cpp"],
    package_dir={"transpile.templates": "templates", "transpile.runtime_cpp": "runtime_cpp"},
    package_data={
        "transpile.templates": ["*.j2"],
        "transpile.runtime_cpp": ["transpile_rt/*.h", "transpile_rt/*.hpp", "transpile_rt/*/*.hpp",
                                   "transpile_rt/*/*.cuh", "transpile_rt/*/*.c", "transpile_rt/*/*.h"],
    },
    ext_modules=[bridge],
)
