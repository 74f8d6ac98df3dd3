/* transpile._runtime: the one prebuilt module that talks to Python.
 *
 * Generated modules are plain C++ behind the ABI of abi.h.  This module
 * loads them, keeps the compiled specializations of each @jit function, and
 * on every call matches the Python arguments against those specializations,
 * unpacks them into typed slots, calls the entry point and boxes the result.
 * The hot path uses the raw C API (vectorcall, exact type checks) because a
 * call must cost about as much as calling a plain C function from Python.
 * Anything it does not recognise goes to the Python side (`impl._slow_call`),
 * which types the arguments, compiles and registers a new specialization.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <signal.h>
#include <stddef.h>
#include <structmember.h>
#include <string.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/arrayscalars.h>
#include <numpy/ufuncobject.h> /* PyUFuncObject's fields only (no UFunc API calls) */

#include "../abi.h"
#include "../exceptions.h"
#include "../mt19937.h"

/* One translation unit (the parts share static functions and tables, and
 * setup.py compiles only this file), split by job: */
#include "types.c"      /* descriptor trees, slots, dtype tables, the Dispatcher record */
#include "device.c"     /* __cuda_array_interface__ */
#include "objects.c"    /* @jit_class objects, function values, Field */
#include "records.c"    /* structured dtypes: record arrays, np.void records */
#include "describe.c"   /* describe(obj), parsing descriptors */
#include "unpack.c"     /* matching and unpacking arguments */
#include "box.c"        /* boxing results */
#include "errors.c"     /* entry errors as Python exceptions, Ctrl-C */
#include "dispatcher.c" /* the Dispatcher type and its fast path */
#include "random.c"     /* np.random: NumPy's bit generator state for compiled draws */
#include "pyrandom.c"   /* Python's random module: random._inst's state for compiled draws */
#include "host.c"       /* loading modules, host services for compiled code */

static PyMethodDef module_methods[] = {
    {"init_module", init_module, METH_VARARGS, "init_module(handle, regions_tuple) -> bool (module has regions)"},
    {"register_layout", register_layout, METH_VARARGS,
     "register_layout(cls, key) -> number: a field layout of @jit_class cls"},
    {"register_function", register_function, METH_VARARGS,
     "register_function(fn, code, globals[, closure]) -> the number of a function value in descriptors (code and "
     "globals: also match functions of that code without defaults, with a closure or not as `closure` says; else "
     "None, None)"},
    {"record_info", record_info, METH_O, "record_info(num) -> (dtype, recarray, aligned): the records a descriptor names"},
    {"register_record", register_record, METH_VARARGS,
     "register_record(dtype, recarray, aligned) -> num: the descriptor number of these records"},
    {"describe", describe, METH_O, "describe(value) -> type descriptor tuple; TypeError if unsupported"},
    {"load_library", load_library, METH_O, "load_library(path) -> handle"},
    {"symbol", lookup_symbol, METH_VARARGS, "symbol(handle, name) -> address"},
    {"random_support", random_support, METH_NOARGS,
     "random_support() -> (legacy draws, legacy Gaussians): which np.random draws compiled code may make"},
    {"interrupt_flag", interrupt_flag, METH_NOARGS, "interrupt_flag() -> address of the flag SIGINT sets"},
    {NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_runtime",
                                       "transpile's bridge between Python and generated modules.", -1,
                                       module_methods};

PyMODINIT_FUNC PyInit__runtime(void) {
    import_array();
    if (init_tables() < 0) return NULL;
    if (PyType_Ready(&DispatcherType) < 0 || PyType_Ready(&JitObjectType) < 0 || PyType_Ready(&FieldType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&DispatcherType);
    if (PyModule_AddObject(m, "Dispatcher", (PyObject *)&DispatcherType) < 0) return NULL;
    Py_INCREF(&JitObjectType);
    if (PyModule_AddObject(m, "JitObject", (PyObject *)&JitObjectType) < 0) return NULL;
    Py_INCREF(&FieldType);
    if (PyModule_AddObject(m, "Field", (PyObject *)&FieldType) < 0) return NULL;
    PyModule_AddIntConstant(m, "ABI_VERSION", TR_ABI_VERSION);
    PyModule_AddIntConstant(m, "MAX_NDIM", TR_MAX_NDIM);
    return m;
}
