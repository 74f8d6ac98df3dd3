/* The Python exception type of each error code of generated code (abi.h's
 * TR_ERR_*), shared by the bridge (bridge/errors.c) and the glue of
 * standalone modules (standalone/pybind.hpp), so both raise what CPython
 * would.  Codes whose exception needs more than a type (AxisError from NumPy,
 * KeyError(key), a Python exception already set, Ctrl-C) give NULL: each
 * caller handles those itself.  Include <Python.h> and abi.h first. */
#pragma once

static inline PyObject *tr_exception_type(int code) {
    switch (code) {
    case TR_ERR_INDEX: return PyExc_IndexError;
    case TR_ERR_ZERODIV: return PyExc_ZeroDivisionError;
    case TR_ERR_VALUE: return PyExc_ValueError;
    case TR_ERR_TYPE: return PyExc_TypeError;
    case TR_ERR_ASSERTION: return PyExc_AssertionError;
    case TR_ERR_OVERFLOW: return PyExc_OverflowError;
    case TR_ERR_MEMORY: return PyExc_MemoryError;
    case TR_ERR_NOTIMPL: return PyExc_NotImplementedError;
    case TR_ERR_ATTRIBUTE: return PyExc_AttributeError;
    case TR_ERR_UNBOUND: return PyExc_UnboundLocalError;
    case TR_ERR_RECURSION: return PyExc_RecursionError;
    case TR_ERR_RUNTIME: return PyExc_RuntimeError;
    default: return NULL;
    }
}
