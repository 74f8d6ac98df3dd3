"""Property setters of @jit_class instances called from compiled code
(`obj.value = v` runs the compiled setter), against the same class run by
CPython; a property without a setter raises CPython's AttributeError."""
from __future__ import annotations

import numpy as np
import pytest

from transpile import jit, jit_class


def make_class(decorate):
    @decorate
    class Thermo:
        def __init__(self, celsius):
            self._c = celsius
            self.log = np.zeros(3)

        @property
        def celsius(self):
            return self._c

        @celsius.setter
        def celsius(self, value):
            if value < -273.15:
                raise ValueError("below absolute zero")
            self._c = value
            self.log[0] += 1.0

        @property
        def fahrenheit(self):
            return self._c * 9.0 / 5.0 + 32.0

        @fahrenheit.setter
        def fahrenheit(self, value):
            self.celsius = (value - 32.0) * 5.0 / 9.0  # a setter calling a setter

        @property
        def kelvin(self):  # no setter
            return self._c + 273.15

    return Thermo


def make_functions(decorate_fn):
    @decorate_fn
    def warm(t, steps):
        for i in range(steps):
            t.celsius = t.celsius + 1.5
        t.fahrenheit = t.fahrenheit + 9.0
        return t.celsius, t.kelvin, t.log[0]

    @decorate_fn
    def freeze(t):
        t.celsius = -300.0
        return t.celsius

    @decorate_fn
    def set_kelvin(t):
        t.kelvin = 3.0
        return t.celsius

    return warm, freeze, set_kelvin


JThermo, PThermo = make_class(jit_class), make_class(lambda c: c)
J = (JThermo, *make_functions(jit(fullgraph=True)))
JFALL = (JThermo, *make_functions(jit))
P = (PThermo, *make_functions(lambda f: f))


def test_setter_runs_compiled():
    got, expected = J[1](J[0](20.0), 4), P[1](P[0](20.0), 4)
    assert got == pytest.approx(expected, rel=1e-15) and type(got[0]) is type(expected[0])


def test_setter_exception():
    with pytest.raises(ValueError, match="absolute zero"):
        J[2](J[0](1.0))
    with pytest.raises(ValueError):
        P[2](P[0](1.0))


def test_property_without_setter_raises_attribute_error():
    with pytest.raises(AttributeError):
        P[3](P[0](1.0))
    with pytest.warns(Warning):  # the statement runs as Python, which raises CPython's error
        with pytest.raises(AttributeError):
            JFALL[3](JFALL[0](1.0))
