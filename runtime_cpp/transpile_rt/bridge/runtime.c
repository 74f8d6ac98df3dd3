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

#include "../abi.h"

/* Leaf and node kinds of a type descriptor (keep in step with
 * transpile/hir/types.py). */
enum {
    K_NONE = 0,
    K_PYBOOL = 1,
    K_PYINT = 2,
    K_PYFLOAT = 3,
    K_PYCOMPLEX = 4,
    K_NPSCALAR = 5,
    K_ARRAY = 6,
    K_TUPLE = 7,
    K_OBJECT = 8,
    K_INSTANCE = 10 /* typenum holds the layout number (register_layout) */
};
enum { K_LIST = 9 }; /* a Python list of one element type (Node.elem); n: 1 when returned as a tuple */
enum { K_STR = 13 }; /* a str: slot tr_str (argument: borrowed UTF-8; result: text handed over) */
enum { K_MAYBE_WEAK = 15 }; /* results only: a flag slot (uint8: box as a Python number), then a NumPy scalar (n = 1) */
enum { K_OPTIONAL = 14 }; /* results only: None or a value; a flag slot (uint8), then the value's tree (n = 1) */
enum { K_FUNCTION = 17 }; /* a function value, matched by identity (register_function); slot: the object,
                             borrowed for the call (compiled code calls its own specialization of it) */
enum { K_DEVICE_ARRAY = 16 }; /* an object with __cuda_array_interface__: argument slot tr_device_in; result
                                 slot: the argument object (borrowed), returned as it is */
enum { LAYOUT_C = 0, LAYOUT_F = 1, LAYOUT_A = 2 };

#define MAX_LEAVES 64
#define MAX_NODES 256

typedef struct Node_ {
    int kind;
    int typenum; /* K_NPSCALAR, K_ARRAY */
    int ndim;    /* K_ARRAY */
    int layout;  /* K_ARRAY */
    int readonly;/* K_ARRAY */
    int n;       /* K_TUPLE: number of children */
    struct Node_ *elem; /* K_LIST: the element's tree (its own node array) */
} Node;

typedef struct {
    Node *args; /* prefix order, one tree per positional argument */
    int nargs;
    Node *res;
    int res_nodes;  /* size of the result tree, and how many of its leaves are arrays: */
    int res_arrays; /* computed once in add_overload, not on every call */
    tr_entry_fn fn;
    PyObject *guards; /* NULL, or the module-level values the code depends on (guards_hold) */
    PyObject *guard_dict;   /* the one module dict when every guard is a name's identity in it, else NULL */
    uint64_t guard_version; /* its version when the guards last held */
    int nogil;        /* the entry touches no Python object: called with the GIL released */
} Overload;

typedef union {
    int64_t i;
    uint64_t u;
    double d;
    float f;
    double c[2];
    uint8_t b;
    void *p;
    tr_array_in a;
    tr_device_in dev;
    tr_list_slot l;
} Slot;

static int canonical_typenum[NPY_NTYPES_LEGACY];
static PyTypeObject *scalar_type_of[NPY_NTYPES_LEGACY];
static PyArray_Descr *descr_of[NPY_NTYPES_LEGACY];

static int supported_typenum(int t) {
    switch (t) {
    case NPY_BOOL: case NPY_BYTE: case NPY_UBYTE: case NPY_SHORT: case NPY_USHORT:
    case NPY_INT: case NPY_UINT: case NPY_LONG: case NPY_ULONG: case NPY_LONGLONG:
    case NPY_ULONGLONG: case NPY_FLOAT: case NPY_DOUBLE: case NPY_CFLOAT: case NPY_CDOUBLE:
        return 1;
    default:
        return 0;
    }
}

static int init_tables(void) {
    for (int t = 0; t < NPY_NTYPES_LEGACY; ++t) {
        canonical_typenum[t] = -1;
        scalar_type_of[t] = NULL;
        descr_of[t] = NULL;
    }
    for (int t = 0; t < NPY_NTYPES_LEGACY; ++t) {
        if (!supported_typenum(t)) continue;
        PyArray_Descr *d = PyArray_DescrFromType(t);
        if (!d) return -1;
        int canon = t;
        /* int64/uint64 have two typenums on LP64 (long, long long). */
        if (t == NPY_LONGLONG && sizeof(long) == 8) canon = NPY_LONG;
        if (t == NPY_ULONGLONG && sizeof(long) == 8) canon = NPY_ULONG;
        canonical_typenum[t] = canon;
        scalar_type_of[t] = d->typeobj;
        descr_of[t] = d; /* kept for the life of the process */
    }
    return 0;
}

static int scalar_typenum(PyObject *obj) {
    PyTypeObject *tp = Py_TYPE(obj);
    for (int t = 0; t < NPY_NTYPES_LEGACY; ++t)
        if (scalar_type_of[t] == tp) return canonical_typenum[t];
    return -1;
}

static int array_layout(PyArrayObject *a) {
    int f = PyArray_FLAGS(a);
    if (f & NPY_ARRAY_C_CONTIGUOUS) return LAYOUT_C;
    if (f & NPY_ARRAY_F_CONTIGUOUS) return LAYOUT_F;
    return LAYOUT_A;
}

/* Why an array cannot be passed as it is, or NULL. */
static const char *array_problem(PyArrayObject *a) {
    PyArray_Descr *d = PyArray_DESCR(a);
    int t = d->type_num;
    if (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] < 0) return "its dtype is not supported";
    if (!PyArray_ISNBO(d->byteorder)) return "its byte order is not the machine's (use .astype(arr.dtype.newbyteorder('=')))";
    if (!(PyArray_FLAGS(a) & NPY_ARRAY_ALIGNED)) return "its data is not aligned (pass a copy)";
    if (PyArray_NDIM(a) > TR_MAX_NDIM) return "it has more than 32 dimensions";
    npy_intp item = PyArray_ITEMSIZE(a);
    for (int k = 0; k < PyArray_NDIM(a); ++k)
        if (PyArray_STRIDES(a)[k] % item) return "its strides are not multiples of its item size (pass a copy)";
    return NULL;
}

/* ---- __cuda_array_interface__ (CuPy, PyTorch, Numba device arrays) ------
 *
 * Version 2 and 3 of the protocol: shape, typestr, data = (pointer,
 * read-only), optional strides (None: C-contiguous), mask (must be None) and
 * stream (v3: the stream whose work on the data must finish before we use
 * it; 1 and 2 are the legacy and per-thread default streams).  Nothing here
 * touches device memory: the generated CUDA module checks the pointer and
 * synchronizes the stream (backend/cuda.cuh, tr::par::device_array_arg). */

typedef struct {
    int typenum, ndim, readonly;
    void *data;
    void *stream;
    int64_t shape[TR_MAX_NDIM];
    int64_t strides[TR_MAX_NDIM]; /* in bytes */
} DeviceView;

static PyObject *cai_dict(PyObject *obj) {
    if (PyArray_Check(obj) || PyTuple_Check(obj) || PyList_Check(obj)) return NULL;
    PyObject *d = PyObject_GetAttrString(obj, "__cuda_array_interface__");
    if (!d) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
        return NULL;
    }
    if (!PyDict_Check(d)) {
        Py_DECREF(d);
        PyErr_SetString(PyExc_TypeError, "its __cuda_array_interface__ is not a dict");
        return NULL;
    }
    return d;
}

static int cai_int(PyObject *v, int64_t *out, const char *what) {
    long long x = v ? PyLong_AsLongLong(v) : -1;
    if (!v || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__: '%s' must hold integers", what);
        return -1;
    }
    *out = x;
    return 0;
}

/* Fills `v` from the interface dict; -1 with a TypeError saying what is wrong. */
static int parse_cai(PyObject *d, DeviceView *v) {
    PyObject *shape = PyDict_GetItemString(d, "shape"), *typestr = PyDict_GetItemString(d, "typestr");
    PyObject *data = PyDict_GetItemString(d, "data"), *strides = PyDict_GetItemString(d, "strides");
    PyObject *mask = PyDict_GetItemString(d, "mask"), *stream = PyDict_GetItemString(d, "stream");
    PyObject *version = PyDict_GetItemString(d, "version");
    if (!shape || !PyTuple_Check(shape) || !typestr || !PyUnicode_Check(typestr) || !data || !PyTuple_Check(data) ||
        PyTuple_GET_SIZE(data) != 2) {
        PyErr_SetString(PyExc_TypeError, "__cuda_array_interface__ needs 'shape' (tuple), 'typestr' (str) and "
                                         "'data' ((pointer, read-only))");
        return -1;
    }
    if (version && PyLong_Check(version) && PyLong_AsLong(version) < 2) {
        PyErr_SetString(PyExc_TypeError, "__cuda_array_interface__ version 0 and 1 are not supported (2 or 3 is)");
        return -1;
    }
    if (mask && mask != Py_None) {
        PyErr_SetString(PyExc_TypeError, "masked device arrays (__cuda_array_interface__ 'mask') are not supported");
        return -1;
    }
    PyArray_Descr *descr = NULL;
    if (!PyArray_DescrConverter(typestr, &descr)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "__cuda_array_interface__: unknown typestr %R", typestr);
        return -1;
    }
    int t = descr->type_num;
    int native = PyArray_ISNBO(descr->byteorder);
    int64_t item = (int64_t)PyDataType_ELSIZE(descr);
    Py_DECREF(descr);
    if (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] < 0 || !native) {
        PyErr_Format(PyExc_TypeError, "device arrays of typestr %R are not supported (native-order bool, integer, "
                                      "float and complex are)", typestr);
        return -1;
    }
    v->typenum = canonical_typenum[t];
    Py_ssize_t n = PyTuple_GET_SIZE(shape);
    if (n > TR_MAX_NDIM) {
        PyErr_SetString(PyExc_TypeError, "device arrays of more than 32 dimensions are not supported");
        return -1;
    }
    v->ndim = (int)n;
    for (Py_ssize_t k = 0; k < n; ++k)
        if (cai_int(PyTuple_GET_ITEM(shape, k), &v->shape[k], "shape") < 0) return -1;
    if (strides && strides != Py_None) {
        if (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != n) {
            PyErr_SetString(PyExc_TypeError, "__cuda_array_interface__: 'strides' must be None or one per dimension");
            return -1;
        }
        for (Py_ssize_t k = 0; k < n; ++k) {
            if (cai_int(PyTuple_GET_ITEM(strides, k), &v->strides[k], "strides") < 0) return -1;
            if (v->strides[k] % item) {
                PyErr_SetString(PyExc_TypeError, "device arrays whose strides are not multiples of their item size "
                                                 "are not supported");
                return -1;
            }
        }
    } else {
        int64_t s = item;
        for (Py_ssize_t k = n - 1; k >= 0; --k) {
            v->strides[k] = s;
            s *= v->shape[k] > 0 ? v->shape[k] : 1;
        }
    }
    int64_t ptr;
    if (cai_int(PyTuple_GET_ITEM(data, 0), &ptr, "data") < 0) return -1;
    v->data = (void *)(intptr_t)ptr;
    int ro = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
    if (ro < 0) return -1;
    v->readonly = ro;
    int64_t handle = 0;
    if (stream && stream != Py_None) {
        if (cai_int(stream, &handle, "stream") < 0) return -1;
        if (handle == 0) {
            PyErr_SetString(PyExc_TypeError, "__cuda_array_interface__: stream 0 is not allowed (the protocol "
                                             "uses 1 for the legacy default stream)");
            return -1;
        }
    }
    v->stream = (void *)(intptr_t)handle;
    return 0;
}

/* The interface of `obj` parsed into `v`: 1, 0 when obj has none, -1 with an
 * exception. */
static int device_view(PyObject *obj, DeviceView *v) {
    PyObject *d = cai_dict(obj);
    if (!d) return PyErr_Occurred() ? -1 : 0;
    int rc = parse_cai(d, v);
    Py_DECREF(d);
    return rc < 0 ? -1 : 1;
}

/* ---- @jit_class instances ------------------------------------------------
 *
 * A JitObject is the Python face of a tr_object made by compiled code: the
 * base of every @jit_class.  Fields are read and written through Field
 * descriptors (compiled getters and setters); methods are Dispatchers,
 * which bind like functions. */

typedef struct {
    PyObject_HEAD
    tr_object *native;
    int layout;
    PyObject *weakrefs;
} JitObject;

static PyTypeObject JitObjectType;

/* Registered field layouts: number -> class; layout key -> number. */
static PyTypeObject **layout_cls = NULL;
static int n_layouts = 0;
static PyObject *layout_numbers = NULL; /* dict: key (str) -> int */

static void release_native(tr_object *o) {
    if (o && __atomic_sub_fetch(&o->refcount, 1, __ATOMIC_ACQ_REL) == 0) o->release(o);
}

/* The Python object of native object `o`, whose reference is handed over. */
static PyObject *box_instance(tr_object *o, int layout) {
    if (!o) Py_RETURN_NONE;
    if (o->box) {
        PyObject *b = Py_NewRef((PyObject *)o->box);
        release_native(o);
        return b;
    }
    if (layout < 0 || layout >= n_layouts) {
        release_native(o);
        PyErr_SetString(PyExc_SystemError, "unknown @jit_class layout");
        return NULL;
    }
    PyTypeObject *cls = layout_cls[layout];
    JitObject *b = (JitObject *)cls->tp_alloc(cls, 0);
    if (!b) {
        release_native(o);
        return NULL;
    }
    b->native = o;
    b->layout = layout;
    o->box = b;
    return (PyObject *)b;
}

/* The number of a layout named by its key, asking transpile.classes to
 * register it when this process has not met it yet. */
static int layout_number_of_key(const char *key) {
    PyObject *k = PyUnicode_FromString(key);
    if (!k) return -1;
    PyObject *n = layout_numbers ? PyDict_GetItemWithError(layout_numbers, k) : NULL;
    if (!n && !PyErr_Occurred()) {
        PyObject *m = PyImport_ImportModule("transpile.classes");
        n = m ? PyObject_CallMethod(m, "layout_id_for_key", "O", k) : NULL;
        Py_XDECREF(m);
        Py_XDECREF(n); /* the dict keeps the number alive */
    }
    Py_DECREF(k);
    return n ? (int)PyLong_AsLong(n) : -1;
}

static PyObject *register_layout(PyObject *mod, PyObject *args) {
    PyObject *cls, *key;
    if (!PyArg_ParseTuple(args, "O!U:register_layout", &PyType_Type, &cls, &key)) return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)cls, &JitObjectType)) {
        PyErr_SetString(PyExc_TypeError, "register_layout: not a @jit_class");
        return NULL;
    }
    if (!layout_numbers && !(layout_numbers = PyDict_New())) return NULL;
    PyObject *known = PyDict_GetItemWithError(layout_numbers, key);
    if (known) return Py_NewRef(known);
    if (PyErr_Occurred()) return NULL;
    PyTypeObject **grown = PyMem_Realloc(layout_cls, (n_layouts + 1) * sizeof(PyTypeObject *));
    if (!grown) return PyErr_NoMemory();
    layout_cls = grown;
    Py_INCREF(cls); /* classes with compiled layouts live as long as the process */
    layout_cls[n_layouts] = (PyTypeObject *)cls;
    PyObject *num = PyLong_FromLong(n_layouts);
    if (!num || PyDict_SetItem(layout_numbers, key, num) < 0) {
        Py_XDECREF(num);
        return NULL;
    }
    ++n_layouts;
    return num;
}

/* Function values (issue 13): number -> the function compiled code was
 * specialized for.  A number registered with a code object also matches any
 * plain function of that code and globals without closure or defaults (each
 * evaluation of a lambda makes a new object that behaves the same).  Entries
 * live as long as the process, like layouts. */
typedef struct {
    PyObject *fn, *code, *globals;
} FunctionKey;
static FunctionKey *fn_keys = NULL;
static int n_fn_keys = 0;

static PyObject *register_function(PyObject *mod, PyObject *args) {
    PyObject *fn, *code, *globals;
    if (!PyArg_ParseTuple(args, "OOO:register_function", &fn, &code, &globals)) return NULL;
    if (code != Py_None && (!PyCode_Check(code) || !PyDict_Check(globals))) {
        PyErr_SetString(PyExc_TypeError, "register_function: a code object and a globals dict, or None, None");
        return NULL;
    }
    FunctionKey *grown = PyMem_Realloc(fn_keys, (n_fn_keys + 1) * sizeof(FunctionKey));
    if (!grown) return PyErr_NoMemory();
    fn_keys = grown;
    fn_keys[n_fn_keys].fn = Py_NewRef(fn);
    fn_keys[n_fn_keys].code = code == Py_None ? NULL : Py_NewRef(code);
    fn_keys[n_fn_keys].globals = code == Py_None ? NULL : Py_NewRef(globals);
    return PyLong_FromLong(n_fn_keys++);
}

static int function_matches(PyObject *obj, int number) {
    const FunctionKey *k = &fn_keys[number];
    if (obj == k->fn) return 1;
    if (!k->code || !PyFunction_Check(obj)) return 0;
    return PyFunction_GET_CODE(obj) == k->code && PyFunction_GET_GLOBALS(obj) == k->globals &&
           !PyFunction_GET_CLOSURE(obj) && !PyFunction_GET_DEFAULTS(obj) && !PyFunction_GET_KW_DEFAULTS(obj);
}

static PyObject *jitobject_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *ctor = PyObject_GetAttrString((PyObject *)type, "__jit_construct__");
    if (!ctor) return NULL;
    PyObject *r = PyObject_Call(ctor, args, kwds);
    Py_DECREF(ctor);
    if (r && !PyObject_TypeCheck(r, type)) {
        PyErr_Format(PyExc_TypeError, "%.100s constructor made an object of another class", type->tp_name);
        Py_CLEAR(r);
    }
    return r;
}

static int jitobject_init(PyObject *self, PyObject *args, PyObject *kwds) { return 0; } /* done by __new__ */

static void jitobject_dealloc(JitObject *self) {
    if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
    if (self->native) {
        self->native->box = NULL;
        release_native(self->native);
        self->native = NULL;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *jitobject_layout(JitObject *self, void *closure) {
    if (!self->native) Py_RETURN_NONE;
    return PyLong_FromLong(self->layout);
}

static PyGetSetDef jitobject_getset[] = {
    {"__jit_layout__", (getter)jitobject_layout, NULL, "number of this object's field layout", NULL},
    {NULL}};

static PyTypeObject JitObjectType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "transpile._runtime.JitObject",
    .tp_basicsize = sizeof(JitObject),
    .tp_dealloc = (destructor)jitobject_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Base of every @jit_class: an object made and laid out by compiled code.",
    .tp_weaklistoffset = offsetof(JitObject, weakrefs),
    .tp_getset = jitobject_getset,
    .tp_init = jitobject_init,
    .tp_new = jitobject_new,
};

/* Field(name, getter, setter[, class_value]): a data descriptor whose reads
 * and writes call compiled accessors (Dispatchers, one overload per layout).
 * Python scalar fields are also read and written in place, at the offset
 * the layout's accessor module exports (add_direct): no call at all. */
typedef struct {
    int layout, kind, typenum;
    Py_ssize_t offset;
} DirectField;

typedef struct {
    PyObject_HEAD
    PyObject *name, *getter, *setter, *class_value;
    DirectField *direct;
    int n_direct;
} Field;

static const DirectField *direct_field(Field *f, PyObject *obj) {
    /* Every @jit_class inherits JitObject's tp_new: a cheaper test than a subtype walk. */
    if (!f->n_direct || Py_TYPE(obj)->tp_new != jitobject_new || !((JitObject *)obj)->native) return NULL;
    int layout = ((JitObject *)obj)->layout;
    for (int i = 0; i < f->n_direct; ++i)
        if (f->direct[i].layout == layout) return &f->direct[i];
    return NULL;
}

static PyObject *field_add_direct(Field *self, PyObject *args) {
    int layout, kind, typenum;
    unsigned long long address;
    if (!PyArg_ParseTuple(args, "iKii:add_direct", &layout, &address, &kind, &typenum)) return NULL;
    if (kind != K_PYFLOAT && kind != K_PYINT && kind != K_PYBOOL) Py_RETURN_NONE; /* others: the getter */
    DirectField *grown = PyMem_Realloc(self->direct, (self->n_direct + 1) * sizeof(DirectField));
    if (!grown) return PyErr_NoMemory();
    self->direct = grown;
    DirectField *d = &self->direct[self->n_direct++];
    d->layout = layout;
    d->kind = kind;
    d->typenum = typenum;
    d->offset = (Py_ssize_t)*(const int64_t *)(uintptr_t)address;
    Py_RETURN_NONE;
}

static int field_init(Field *self, PyObject *args, PyObject *kw) {
    PyObject *name, *getter, *setter, *class_value = NULL;
    if (!PyArg_ParseTuple(args, "UOO|O:Field", &name, &getter, &setter, &class_value)) return -1;
    Py_XSETREF(self->name, Py_NewRef(name));
    Py_XSETREF(self->getter, Py_NewRef(getter));
    Py_XSETREF(self->setter, Py_NewRef(setter));
    Py_XSETREF(self->class_value, Py_XNewRef(class_value));
    return 0;
}

static void field_dealloc(Field *self) {
    PyMem_Free(self->direct);
    Py_CLEAR(self->name);
    Py_CLEAR(self->getter);
    Py_CLEAR(self->setter);
    Py_CLEAR(self->class_value);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *field_get(PyObject *self, PyObject *obj, PyObject *type) {
    Field *f = (Field *)self;
    if (obj == NULL || obj == Py_None) return Py_NewRef(f->class_value ? f->class_value : self);
    const DirectField *d = direct_field(f, obj);
    if (d) {
        const char *p = (const char *)((JitObject *)obj)->native + d->offset;
        switch (d->kind) {
        case K_PYFLOAT: return PyFloat_FromDouble(*(const double *)p);
        case K_PYINT: return PyLong_FromLongLong(*(const int64_t *)p);
        case K_PYBOOL: return PyBool_FromLong(*(const uint8_t *)p);
        }
    }
    return PyObject_Vectorcall(f->getter, &obj, 1, NULL);
}

static int field_set(PyObject *self, PyObject *obj, PyObject *value) {
    Field *f = (Field *)self;
    if (!value) {
        PyErr_Format(PyExc_AttributeError, "cannot delete field '%U' of a @jit_class instance", f->name);
        return -1;
    }
    const DirectField *d = direct_field(f, obj);
    if (d) {
        char *p = (char *)((JitObject *)obj)->native + d->offset;
        if (d->kind == K_PYFLOAT && PyFloat_CheckExact(value)) {
            *(double *)p = PyFloat_AS_DOUBLE(value);
            return 0;
        }
        if (d->kind == K_PYBOOL && PyBool_Check(value)) {
            *(uint8_t *)p = value == Py_True;
            return 0;
        }
        if (d->kind == K_PYINT && PyLong_CheckExact(value)) {
            int overflow = 0;
            long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (!overflow && !(v == -1 && PyErr_Occurred())) {
                *(int64_t *)p = v;
                return 0;
            }
            PyErr_Clear();
        }
    }
    PyObject *args[2] = {obj, value};
    PyObject *r = PyObject_Vectorcall(f->setter, args, 2, NULL);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}

static PyMemberDef field_members[] = {
    {"name", T_OBJECT, offsetof(Field, name), READONLY, "field name"},
    {"getter", T_OBJECT, offsetof(Field, getter), READONLY, "compiled getter"},
    {"setter", T_OBJECT, offsetof(Field, setter), READONLY, "compiled setter"},
    {NULL}};

static PyMethodDef field_methods[] = {
    {"add_direct", (PyCFunction)field_add_direct, METH_VARARGS,
     "add_direct(layout, offset_address, kind, typenum): read and write this Python scalar field in place"},
    {NULL}};

static PyTypeObject FieldType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "transpile._runtime.Field",
    .tp_basicsize = sizeof(Field),
    .tp_dealloc = (destructor)field_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A field of a @jit_class, read and written by compiled accessors.",
    .tp_members = field_members,
    .tp_methods = field_methods,
    .tp_descr_get = field_get,
    .tp_descr_set = field_set,
    .tp_init = (initproc)field_init,
    .tp_new = PyType_GenericNew,
};

/* ---- describe(obj): the type descriptor of one Python value ---------- */

static int describe_list(PyObject *obj, PyObject *out, int depth);

static int describe_into(PyObject *obj, PyObject *out, int depth) {
    if (depth > 16) {
        PyErr_SetString(PyExc_TypeError, "tuples nested more than 16 deep are not supported");
        return -1;
    }
#define PUSH(v) do { PyObject *o_ = PyLong_FromLong(v); if (!o_ || PyList_Append(out, o_) < 0) { Py_XDECREF(o_); return -1; } Py_DECREF(o_); } while (0)
    if (obj == Py_None) { PUSH(K_NONE); return 0; }
    if (PyBool_Check(obj)) { PUSH(K_PYBOOL); return 0; }
    if (PyLong_CheckExact(obj)) { PUSH(K_PYINT); return 0; }
    if (PyFloat_CheckExact(obj)) { PUSH(K_PYFLOAT); return 0; }
    if (PyComplex_CheckExact(obj)) { PUSH(K_PYCOMPLEX); return 0; }
    if (PyUnicode_CheckExact(obj)) { PUSH(K_STR); return 0; }
    if (PyArray_Check(obj)) {
        PyArrayObject *a = (PyArrayObject *)obj;
        const char *why = array_problem(a);
        if (why) {
            PyErr_Format(PyExc_TypeError, "cannot pass this array (dtype %S) to compiled code: %s",
                         (PyObject *)PyArray_DESCR(a), why);
            return -1;
        }
        PUSH(K_ARRAY);
        PUSH(canonical_typenum[PyArray_DESCR(a)->type_num]);
        PUSH(PyArray_NDIM(a));
        PUSH(array_layout(a));
        PUSH(!(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE));
        return 0;
    }
    int st = scalar_typenum(obj);
    if (st >= 0) { PUSH(K_NPSCALAR); PUSH(st); return 0; }
    if (PyTuple_CheckExact(obj)) {
        Py_ssize_t n = PyTuple_GET_SIZE(obj);
        PUSH(K_TUPLE);
        PUSH((long)n);
        for (Py_ssize_t i = 0; i < n; ++i)
            if (describe_into(PyTuple_GET_ITEM(obj, i), out, depth + 1) < 0) return -1;
        return 0;
    }
    if (PyList_CheckExact(obj)) return describe_list(obj, out, depth);
    if (PyObject_TypeCheck(obj, &JitObjectType) && ((JitObject *)obj)->native) {
        PUSH(K_INSTANCE);
        PUSH(((JitObject *)obj)->layout);
        return 0;
    }
    DeviceView dv;
    int dev = device_view(obj, &dv);
    if (dev < 0) return -1;
    if (dev) {
        if (depth > 0) {
            PyErr_SetString(PyExc_TypeError, "device arrays (__cuda_array_interface__) can be passed as arguments "
                                             "of their own, not inside tuples or lists");
            return -1;
        }
        PUSH(K_DEVICE_ARRAY);
        PUSH(dv.typenum);
        PUSH(dv.ndim);
        PUSH(dv.readonly);
        return 0;
    }
#undef PUSH
    PyErr_Format(PyExc_TypeError, "values of type '%.200s' are not supported", Py_TYPE(obj)->tp_name);
    return -1;
}

/* A list: K_LIST, 0, then the tree every element matches.  Arrays in lists
 * are described with any layout (A), and read-only when any of them is. */
static int describe_list(PyObject *obj, PyObject *out, int depth) {
    Py_ssize_t n = PyList_GET_SIZE(obj);
    if (n == 0) {
        PyErr_SetString(PyExc_TypeError, "an empty list has no element type for compiled code to specialize on");
        return -1;
    }
    PyObject *first = NULL;
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject *item = PyList_New(0);
        if (!item || describe_into(PyList_GET_ITEM(obj, i), item, depth + 1) < 0) {
            Py_XDECREF(item);
            Py_XDECREF(first);
            return -1;
        }
        int is_array = PyList_GET_SIZE(item) == 5 && PyLong_AsLong(PyList_GET_ITEM(item, 0)) == K_ARRAY;
        if (is_array) PyList_SetItem(item, 3, PyLong_FromLong(LAYOUT_A));
        if (!first) {
            first = item;
            continue;
        }
        int same = PyObject_RichCompareBool(first, item, Py_EQ);
        if (same == 0 && is_array && PyList_GET_SIZE(first) == 5) {
            /* arrays differing only in writability: read-only */
            int eq = 1;
            for (int k = 0; k < 4; ++k)
                eq &= PyObject_RichCompareBool(PyList_GET_ITEM(first, k), PyList_GET_ITEM(item, k), Py_EQ) == 1;
            if (eq) {
                PyList_SetItem(first, 4, PyLong_FromLong(1));
                same = 1;
            }
        }
        Py_DECREF(item);
        if (same != 1) {
            Py_DECREF(first);
            if (same == 0)
                PyErr_SetString(PyExc_TypeError, "the elements of a list passed to compiled code must all have one "
                                                 "type (CPython keeps each element's own type)");
            return -1;
        }
    }
    PyObject *head = Py_BuildValue("[ii]", K_LIST, 0);
    Py_ssize_t end = PyList_GET_SIZE(out);
    int rc = head ? PyList_SetSlice(out, end, end, head) : -1;
    Py_XDECREF(head);
    end = PyList_GET_SIZE(out);
    if (rc == 0) rc = PyList_SetSlice(out, end, end, first);
    Py_DECREF(first);
    return rc;
}

static PyObject *describe(PyObject *mod, PyObject *obj) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    if (describe_into(obj, out, 0) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *t = PyList_AsTuple(out);
    Py_DECREF(out);
    return t;
}

/* ---- descriptors from Python tuples ---------------------------------- */

static int parse_tree(PyObject *flat, Py_ssize_t *pos, Node *nodes, int *count) {
    Py_ssize_t n = PyTuple_GET_SIZE(flat);
#define NEXT(dst) do { if (*pos >= n) goto bad; dst = (int)PyLong_AsLong(PyTuple_GET_ITEM(flat, (*pos)++)); if (dst == -1 && PyErr_Occurred()) return -1; } while (0)
    if (*count >= MAX_NODES) goto bad;
    Node *node = &nodes[(*count)++];
    memset(node, 0, sizeof *node);
    NEXT(node->kind);
    switch (node->kind) {
    case K_NONE: case K_PYBOOL: case K_PYINT: case K_PYFLOAT: case K_PYCOMPLEX: case K_OBJECT:
    case K_STR:
        return 0;
    case K_NPSCALAR:
        NEXT(node->typenum);
        if (node->typenum < 0 || node->typenum >= NPY_NTYPES_LEGACY || !descr_of[node->typenum]) goto bad;
        return 0;
    case K_ARRAY:
        NEXT(node->typenum);
        NEXT(node->ndim);
        NEXT(node->layout);
        NEXT(node->readonly);
        if (node->typenum < 0 || node->typenum >= NPY_NTYPES_LEGACY || !descr_of[node->typenum]) goto bad;
        return 0;
    case K_INSTANCE:
        NEXT(node->typenum);
        if (node->typenum < 0 || node->typenum >= n_layouts) goto bad;
        return 0;
    case K_FUNCTION:
        NEXT(node->typenum);
        if (node->typenum < 0 || node->typenum >= n_fn_keys) goto bad;
        return 0;
    case K_DEVICE_ARRAY:
        NEXT(node->typenum);
        NEXT(node->ndim);
        NEXT(node->readonly);
        if (node->typenum < 0 || node->typenum >= NPY_NTYPES_LEGACY || !descr_of[node->typenum]) goto bad;
        return 0;
    case K_TUPLE: {
        NEXT(node->n);
        for (int i = 0; i < node->n; ++i)
            if (parse_tree(flat, pos, nodes, count) < 0) return -1;
        return 0;
    }
    case K_OPTIONAL:
    case K_MAYBE_WEAK:
        node->n = 1;
        return parse_tree(flat, pos, nodes, count);
    case K_LIST: {
        NEXT(node->n);
        node->elem = PyMem_Calloc(MAX_NODES, sizeof(Node));
        if (!node->elem) {
            PyErr_NoMemory();
            return -1;
        }
        int sub = 0;
        return parse_tree(flat, pos, node->elem, &sub);
    }
    }
#undef NEXT
bad:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "malformed type descriptor");
    return -1;
}

/* ---- matching and unpacking ------------------------------------------ */

/* Whether `obj` (a list element) matches the tree at nodes[*ni]: 1, 0, or -1
 * with an exception set.  Arrays of layout A match any layout; read-only
 * ones match writable ones too. */
static int match_item(PyObject *obj, const Node *nodes, int *ni) {
    const Node *node = &nodes[(*ni)++];
    switch (node->kind) {
    case K_NONE: return obj == Py_None;
    case K_PYBOOL: return PyBool_Check(obj);
    case K_PYFLOAT: return PyFloat_CheckExact(obj);
    case K_PYCOMPLEX: return PyComplex_CheckExact(obj);
    case K_PYINT: {
        if (!PyLong_CheckExact(obj)) return 0;
        int overflow = 0;
        PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to int64 (compiled code uses 64-bit integers)");
            return -1;
        }
        return 1;
    }
    case K_NPSCALAR: return scalar_typenum(obj) == node->typenum;
    case K_FUNCTION: return function_matches(obj, node->typenum);
    case K_ARRAY: {
        if (!PyArray_Check(obj)) return 0;
        PyArrayObject *a = (PyArrayObject *)obj;
        int t = PyArray_DESCR(a)->type_num;
        if (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] != node->typenum) return 0;
        if (PyArray_NDIM(a) != node->ndim || array_problem(a)) return 0;
        if (!node->readonly && !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE)) return 0;
        if (node->layout != LAYOUT_A && array_layout(a) != node->layout) return 0;
        return 1;
    }
    case K_TUPLE: {
        if (!PyTuple_CheckExact(obj) || PyTuple_GET_SIZE(obj) != node->n) return 0;
        for (int i = 0; i < node->n; ++i) {
            int r = match_item(PyTuple_GET_ITEM(obj, i), nodes, ni);
            if (r != 1) return r;
        }
        return 1;
    }
    case K_LIST: {
        if (!PyList_CheckExact(obj)) return 0;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); ++i) {
            int ei = 0;
            int r = match_item(PyList_GET_ITEM(obj, i), node->elem, &ei);
            if (r != 1) return r;
        }
        return 1;
    }
    }
    return 0;
}

static const tr_host HOST;

/* Matches `obj` against the tree at nodes[*ni] and fills slots; returns 1
 * on a match, 0 otherwise, -1 with an exception set. */
/* Shapes and strides of the device arrays of one call (tr_array_in points at them). */
#define MAX_DEVICE_ARGS 8
typedef struct {
    int used;
    int64_t dims[MAX_DEVICE_ARGS][2 * TR_MAX_NDIM];
} DeviceDims;

static int unpack(PyObject *obj, const Node *nodes, int *ni, Slot *slots, int *si, DeviceDims *dd) {
    const Node *node = &nodes[(*ni)++];
    switch (node->kind) {
    case K_DEVICE_ARRAY: {
        DeviceView v;
        int r = device_view(obj, &v);
        if (r <= 0) return r;
        if (v.typenum != node->typenum || v.ndim != node->ndim || v.readonly != node->readonly) return 0;
        if (dd->used == MAX_DEVICE_ARGS) {
            PyErr_SetString(PyExc_TypeError, "a call takes at most 8 device arrays");
            return -1;
        }
        int64_t *dims = dd->dims[dd->used++];
        memcpy(dims, v.shape, sizeof(int64_t) * v.ndim);
        memcpy(dims + TR_MAX_NDIM, v.strides, sizeof(int64_t) * v.ndim);
        tr_device_in *in = &slots[(*si)++].dev;
        in->data = (char *)v.data;
        in->shape = dims;
        in->strides = dims + TR_MAX_NDIM;
        in->owner = obj;
        in->stream = v.stream;
        return 1;
    }
    case K_NONE:
        return obj == Py_None;
    case K_PYFLOAT:
        if (!PyFloat_CheckExact(obj)) return 0;
        slots[(*si)++].d = PyFloat_AS_DOUBLE(obj);
        return 1;
    case K_PYINT: {
        if (!PyLong_CheckExact(obj)) return 0;
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to int64 (compiled code uses 64-bit integers)");
            return -1;
        }
        slots[(*si)++].i = v;
        return 1;
    }
    case K_PYBOOL:
        if (!PyBool_Check(obj)) return 0;
        slots[(*si)++].b = obj == Py_True;
        return 1;
    case K_STR: {
        if (!PyUnicode_CheckExact(obj)) return 0;
        Py_ssize_t len;
        const char *text = PyUnicode_AsUTF8AndSize(obj, &len);
        if (!text) return -1;
        tr_str *st = (tr_str *)&slots[(*si)++];
        st->data = text;
        st->len = len;
        st->buffer = NULL;
        return 1;
    }
    case K_PYCOMPLEX:
        if (!PyComplex_CheckExact(obj)) return 0;
        slots[*si].c[0] = PyComplex_RealAsDouble(obj);
        slots[(*si)++].c[1] = PyComplex_ImagAsDouble(obj);
        return 1;
    case K_NPSCALAR: {
        PyTypeObject *tp = Py_TYPE(obj);
        if (tp != scalar_type_of[node->typenum]) {
            int st = scalar_typenum(obj);
            if (st != node->typenum) return 0;
        }
        PyArray_ScalarAsCtype(obj, &slots[(*si)++]);
        return 1;
    }
    case K_ARRAY: {
        if (!PyArray_Check(obj)) return 0;
        PyArrayObject *a = (PyArrayObject *)obj;
        PyArray_Descr *d = PyArray_DESCR(a);
        int t = d->type_num;
        if (t != node->typenum) {
            if (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] != node->typenum) return 0;
        }
        if (PyArray_NDIM(a) != node->ndim) return 0;
        int flags = PyArray_FLAGS(a);
        if (!(flags & NPY_ARRAY_ALIGNED) || !PyArray_ISNBO(d->byteorder)) return 0;
        if (node->readonly != !(flags & NPY_ARRAY_WRITEABLE)) return 0;
        if (array_layout(a) != node->layout) return 0;
        npy_intp item = PyArray_ITEMSIZE(a);
        for (int k = 0; k < node->ndim; ++k)
            if (PyArray_STRIDES(a)[k] % item) return 0;
        tr_array_in *in = &slots[(*si)++].a;
        in->data = PyArray_BYTES(a);
        in->shape = (const int64_t *)PyArray_DIMS(a);
        in->strides = (const int64_t *)PyArray_STRIDES(a);
        in->owner = obj;
        return 1;
    }
    case K_FUNCTION:
        if (!function_matches(obj, node->typenum)) return 0;
        slots[(*si)++].p = obj;
        return 1;
    case K_INSTANCE:
        if (!PyObject_TypeCheck(obj, &JitObjectType) || ((JitObject *)obj)->layout != node->typenum ||
            !((JitObject *)obj)->native)
            return 0;
        slots[(*si)++].p = ((JitObject *)obj)->native;
        return 1;
    case K_TUPLE: {
        if (!PyTuple_CheckExact(obj) || PyTuple_GET_SIZE(obj) != node->n) return 0;
        for (int i = 0; i < node->n; ++i) {
            int r = unpack(PyTuple_GET_ITEM(obj, i), nodes, ni, slots, si, dd);
            if (r != 1) return r;
        }
        return 1;
    }
    case K_LIST: {
        if (!PyList_CheckExact(obj) || node->n) return 0;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); ++i) {
            int ei = 0;
            int r = match_item(PyList_GET_ITEM(obj, i), node->elem, &ei);
            if (r != 1) return r;
        }
        slots[*si].l.object = obj;
        slots[(*si)++].l.host = &HOST;
        return 1;
    }
    }
    return 0;
}

/* ---- boxing results --------------------------------------------------- */

static void release_capsule(PyObject *cap) {
    tr_buffer *b = (tr_buffer *)PyCapsule_GetPointer(cap, "transpile.buffer");
    if (b && __atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) == 0) b->release(b);
}

static int same_view(PyArrayObject *a, const tr_array_out *o, int ndim) {
    if (PyArray_BYTES(a) != o->data || PyArray_NDIM(a) != ndim) return 0;
    for (int k = 0; k < ndim; ++k)
        if (PyArray_DIMS(a)[k] != o->shape[k] || (PyArray_DIMS(a)[k] > 1 && PyArray_STRIDES(a)[k] != o->strides[k]))
            return 0;
    return 1;
}

static PyObject *box_array(const Node *node, tr_array_out *o) {
    PyArray_Descr *d = descr_of[node->typenum];
    npy_intp *shape = (npy_intp *)o->shape;
    npy_intp *strides = (npy_intp *)o->strides;
    if (o->buffer) {
        PyObject *cap = PyCapsule_New(o->buffer, "transpile.buffer", release_capsule);
        if (!cap) {
            release_capsule(NULL);
            return NULL;
        }
        Py_INCREF(d);
        PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, d, node->ndim, shape, strides, o->data,
                                             NPY_ARRAY_WRITEABLE, NULL);
        if (!arr) {
            Py_DECREF(cap);
            return NULL;
        }
        if (PyArray_SetBaseObject((PyArrayObject *)arr, cap) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
        return arr;
    }
    if (o->owner) {
        PyArrayObject *base = (PyArrayObject *)o->owner;
        if (same_view(base, o, node->ndim) && canonical_typenum[PyArray_DESCR(base)->type_num] == node->typenum) {
            Py_INCREF(base);
            return (PyObject *)base;
        }
        Py_INCREF(d);
        int flags = PyArray_FLAGS(base) & NPY_ARRAY_WRITEABLE;
        PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, d, node->ndim, shape, strides, o->data, flags, NULL);
        if (!arr) return NULL;
        Py_INCREF(base);
        if (PyArray_SetBaseObject((PyArrayObject *)arr, (PyObject *)base) < 0) {
            Py_DECREF(arr);
            return NULL;
        }
        return arr;
    }
    /* Memory of the module itself (a frozen constant) or no memory at all:
     * hand back a copy the caller owns. */
    Py_INCREF(d);
    PyObject *fresh = PyArray_NewFromDescr(&PyArray_Type, d, node->ndim, shape, NULL, NULL, 0, NULL);
    if (!fresh || !o->data) return fresh;
    Py_INCREF(d);
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, d, node->ndim, shape, strides, o->data, 0, NULL);
    if (!view) {
        Py_DECREF(fresh);
        return NULL;
    }
    int rc = PyArray_CopyInto((PyArrayObject *)fresh, (PyArrayObject *)view);
    Py_DECREF(view);
    if (rc < 0) {
        Py_DECREF(fresh);
        return NULL;
    }
    return fresh;
}

static void release_str(tr_str *st) {
    tr_buffer *b = st->buffer;
    st->buffer = NULL;
    if (b && __atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) == 0) b->release(b);
}

static int count_leaves(const Node *nodes, int count);
static int tree_size(const Node *nodes);

static PyObject *box(const Node *nodes, int *ni, void *const *slots, int *si) {
    const Node *node = &nodes[(*ni)++];
    switch (node->kind) {
    case K_NONE:
        Py_RETURN_NONE;
    case K_PYBOOL:
        return PyBool_FromLong(*(uint8_t *)slots[(*si)++]);
    case K_PYINT:
        return PyLong_FromLongLong(*(int64_t *)slots[(*si)++]);
    case K_PYFLOAT:
        return PyFloat_FromDouble(*(double *)slots[(*si)++]);
    case K_PYCOMPLEX: {
        double *c = (double *)slots[(*si)++];
        return PyComplex_FromDoubles(c[0], c[1]);
    }
    case K_NPSCALAR:
        return PyArray_Scalar(slots[(*si)++], descr_of[node->typenum], NULL);
    case K_ARRAY:
        return box_array(node, (tr_array_out *)slots[(*si)++]);
    case K_OBJECT: {
        PyObject *o = *(PyObject **)slots[(*si)++];  /* a reference handed over */
        return o ? o : Py_NewRef(Py_None);
    }
    case K_DEVICE_ARRAY: {
        PyObject *o = *(PyObject **)slots[(*si)++];  /* borrowed: the argument returned */
        if (!o) PyErr_SetString(PyExc_SystemError, "compiled code returned no device array");
        return o ? Py_NewRef(o) : NULL;
    }
    case K_LIST: {
        tr_list_slot *l = (tr_list_slot *)slots[(*si)++];  /* a reference handed over */
        PyObject *o = (PyObject *)l->object;
        l->object = NULL;
        if (!o && !PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "compiled code returned no list");
        return o;
    }
    case K_STR: {
        tr_str *st = (tr_str *)slots[(*si)++];
        PyObject *o = PyUnicode_DecodeUTF8(st->data, (Py_ssize_t)st->len, "surrogatepass");
        release_str(st);
        return o;
    }
    case K_INSTANCE: {
        tr_object *o = *(tr_object **)slots[(*si)++];
        if (!o) {  /* a field of instance type that __init__ assigned on some paths only */
            PyErr_SetString(PyExc_AttributeError, "this @jit_class field was never assigned");
            return NULL;
        }
        return box_instance(o, node->typenum);
    }
    case K_MAYBE_WEAK: {
        /* CPython returned a Python number on this path: the value, as bool/int/float/complex */
        int weak = *(uint8_t *)slots[(*si)++];
        const Node *v = &nodes[*ni];
        if (!weak || v->kind != K_NPSCALAR) return box(nodes, ni, slots, si);
        ++*ni;
        PyObject *np = PyArray_Scalar(slots[(*si)++], descr_of[v->typenum], NULL);
        if (!np) return NULL;
        PyObject *r;
        switch (descr_of[v->typenum]->kind) {
        case 'b': r = PyBool_FromLong(PyObject_IsTrue(np)); break;
        case 'i': case 'u': r = PyNumber_Long(np); break;
        case 'f': r = PyNumber_Float(np); break;
        default: r = PyComplex_FromCComplex(PyComplex_AsCComplex(np)); break;
        }
        Py_DECREF(np);
        return r;
    }
    case K_OPTIONAL: {
        if (*(uint8_t *)slots[(*si)++]) return box(nodes, ni, slots, si);
        /* None: the value's slots were not filled; step over them */
        int size = tree_size(&nodes[*ni]);
        *si += count_leaves(&nodes[*ni], size);
        *ni += size;
        Py_RETURN_NONE;
    }
    case K_TUPLE: {
        PyObject *t = PyTuple_New(node->n);
        if (!t) return NULL;
        for (int i = 0; i < node->n; ++i) {
            PyObject *item = box(nodes, ni, slots, si);
            if (!item) {
                Py_DECREF(t);
                return NULL;
            }
            PyTuple_SET_ITEM(t, i, item);
        }
        return t;
    }
    }
    PyErr_SetString(PyExc_SystemError, "bad result descriptor");
    return NULL;
}

/* Releases array results that will not be boxed (after a failure). */
static void drop_results(const Node *nodes, int count, void *const *slots) {
    int si = 0;
    for (int i = 0; i < count; ++i) {
        const Node *n = &nodes[i];
        if (n->kind == K_NONE || n->kind == K_TUPLE) continue;
        if (n->kind == K_OBJECT) {
            PyObject **o = (PyObject **)slots[si];
            Py_CLEAR(*o);
        }
        if (n->kind == K_LIST) {
            tr_list_slot *l = (tr_list_slot *)slots[si];
            Py_CLEAR(l->object);
        }
        if (n->kind == K_STR) release_str((tr_str *)slots[si]);
        if (n->kind == K_INSTANCE) {
            tr_object **o = (tr_object **)slots[si];
            release_native(*o);
            *o = NULL;
        }
        if (n->kind == K_ARRAY) {
            tr_array_out *o = (tr_array_out *)slots[si];
            if (o->buffer && __atomic_sub_fetch(&o->buffer->refcount, 1, __ATOMIC_ACQ_REL) == 0)
                o->buffer->release(o->buffer);
            o->buffer = NULL;
        }
        ++si;
    }
}

/* ---- the Dispatcher type --------------------------------------------- */

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *dict;
    PyObject *impl;      /* Python side: _slow_call(args, kwargs), everything else */
    PyObject *defaults;  /* tuple of the trailing parameters' defaults (keyword-only ones last), or NULL */
    PyObject *filename;  /* for the note on runtime errors */
    int nparams;         /* parameters of a specialization: positional, then keyword-only */
    int max_positional;  /* more positional arguments than this: TypeError from the slow path */
    Overload *overloads;
    int n_overloads;
    int cap_overloads;
} Dispatcher;

/* numpy.exceptions.AxisError, looked up once (ValueError if NumPy lacks it). */
static PyObject *axis_error_type(void) {
    static PyObject *cls = NULL;
    if (!cls) {
        PyObject *m = PyImport_ImportModule("numpy.exceptions");
        if (m) {
            cls = PyObject_GetAttrString(m, "AxisError");
            Py_DECREF(m);
        }
        if (!cls) {
            PyErr_Clear();
            return PyExc_ValueError;
        }
    }
    return cls;
}

/* ---- Ctrl-C in compiled loops (transpile_rt/interrupt.hpp) ---------------- */

static volatile int interrupt_requested = 0;
static struct sigaction python_sigint;

static void on_sigint(int sig) {
    interrupt_requested = 1;
    if (python_sigint.sa_handler != SIG_DFL && python_sigint.sa_handler != SIG_IGN)
        python_sigint.sa_handler(sig);  /* Python's own handler: it raises KeyboardInterrupt */
}

/* Chains in front of the SIGINT handler Python installed (once per process;
 * if Python's signal.signal() replaces it later, loops just stop seeing
 * Ctrl-C until the call ends, as before). */
static void install_sigint(void) {
    struct sigaction current, mine;
    if (sigaction(SIGINT, NULL, &current) != 0 || current.sa_handler == on_sigint) return;
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL) return;
    python_sigint = current;
    mine = current;
    mine.sa_handler = on_sigint;
    sigaction(SIGINT, &mine, NULL);
}

static PyObject *interrupt_flag(PyObject *mod, PyObject *unused) {
    install_sigint();
    return PyLong_FromVoidPtr((void *)&interrupt_requested);
}

static PyObject *raise_entry_error(Dispatcher *self, const tr_error *err) {
    PyObject *type;
    if (err->code == TR_ERR_INTERRUPT) {
        interrupt_requested = 0;
        if (PyErr_CheckSignals() < 0) return NULL; /* KeyboardInterrupt, or what a custom handler raised */
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return NULL;
    }
    if (err->code == TR_ERR_PYTHON) {
        /* Fallback code raised: its exception is still set, unchanged. */
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "fallback region failed without an exception");
        return NULL;
    }
    switch (err->code) {
    case TR_ERR_INDEX: type = PyExc_IndexError; break;
    case TR_ERR_ZERODIV: type = PyExc_ZeroDivisionError; break;
    case TR_ERR_VALUE: type = PyExc_ValueError; break;
    case TR_ERR_TYPE: type = PyExc_TypeError; break;
    case TR_ERR_ASSERTION: type = PyExc_AssertionError; break;
    case TR_ERR_OVERFLOW: type = PyExc_OverflowError; break;
    case TR_ERR_MEMORY: type = PyExc_MemoryError; break;
    case TR_ERR_NOTIMPL: type = PyExc_NotImplementedError; break;
    case TR_ERR_AXIS: type = axis_error_type(); break;
    case TR_ERR_ATTRIBUTE: type = PyExc_AttributeError; break;
    case TR_ERR_UNBOUND: type = PyExc_UnboundLocalError; break;
    case TR_ERR_RECURSION: type = PyExc_RecursionError; break;
    default: type = PyExc_RuntimeError; break;
    }
    if (err->code == TR_ERR_KEY) {
        /* KeyError(key): the message is the key's repr, read back */
        PyObject *key = NULL, *ast = PyImport_ImportModule("ast");
        if (ast) key = PyObject_CallMethod(ast, "literal_eval", "s", err->message);
        Py_XDECREF(ast);
        if (!key) {
            PyErr_Clear();
            key = PyUnicode_FromString(err->message);
        }
        PyObject *exc = key ? PyObject_CallOneArg(PyExc_KeyError, key) : NULL;  /* a tuple key stays one arg */
        if (exc) {
            PyErr_SetObject(PyExc_KeyError, exc);
            Py_DECREF(exc);
        }
        Py_XDECREF(key);
    } else if (err->code == TR_ERR_ASSERTION && err->message[0] == 0)
        PyErr_SetNone(type);
    else
        PyErr_SetString(type, err->message);
    if (err->line > 0 && self->filename) {
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyErr_NormalizeException(&et, &ev, &tb);
        PyObject *note = PyUnicode_FromFormat("raised in compiled code at %U:%d", self->filename, err->line);
        if (note && ev) {
            PyObject *r = PyObject_CallMethod(ev, "add_note", "O", note);
            Py_XDECREF(r);
        }
        Py_XDECREF(note);
        PyErr_Clear();
        PyErr_Restore(et, ev, tb);
    }
    return NULL;
}

static int count_leaves(const Node *nodes, int count) {
    int n = 0;
    for (int i = 0; i < count; ++i)
        if (nodes[i].kind != K_NONE && nodes[i].kind != K_TUPLE) ++n;
    return n;
}

static int tree_size(const Node *nodes) {
    int need = 1, i = 0;
    while (need > 0) {
        --need;
        if (nodes[i].kind == K_TUPLE || nodes[i].kind == K_OPTIONAL || nodes[i].kind == K_MAYBE_WEAK)
            need += nodes[i].n;
        ++i;
    }
    return i;
}

/* Tries each specialization in order.  Returns a new reference, or NULL with
 * an exception, or NULL without one when nothing matched. */
/* Live globals (transpile/passes/live_globals.py): each guard is (module dict,
 * name, attribute names, expected, mode).  The value is the dict's entry
 * followed along the attributes; by mode it must be `expected` itself (0), of
 * type `expected` (1), or an array with expected = (dtype, ndim, writable) (2).
 * A guard that fails (or raises) sends the call to the slow path, which sets
 * the guards again or respecializes.  Functions that read no globals have no
 * guards and pay one NULL test. */
static int guard_matches(PyObject *value, PyObject *expected, long mode) {
    if (mode == 0) return value == expected;
    if (mode == 1) return (PyObject *)Py_TYPE(value) == expected;
    if (!PyArray_Check(value)) return 0;
    PyArrayObject *a = (PyArrayObject *)value;
    PyArray_Descr *want = (PyArray_Descr *)PyTuple_GET_ITEM(expected, 0);
    return PyArray_NDIM(a) == PyLong_AsLong(PyTuple_GET_ITEM(expected, 1)) &&
           (PyArray_ISWRITEABLE(a) != 0) == (PyTuple_GET_ITEM(expected, 2) == Py_True) &&
           (PyArray_DESCR(a) == want || PyArray_EquivTypes(PyArray_DESCR(a), want));
}

static int guards_hold(PyObject *guards) {
    for (Py_ssize_t i = 0, n = PyTuple_GET_SIZE(guards); i < n; ++i) {
        PyObject *g = PyTuple_GET_ITEM(guards, i);
        PyObject *value = PyDict_GetItemWithError(PyTuple_GET_ITEM(g, 0), PyTuple_GET_ITEM(g, 1));
        if (!value) {
            PyErr_Clear();
            return 0;
        }
        PyObject *attrs = PyTuple_GET_ITEM(g, 2), *expected = PyTuple_GET_ITEM(g, 3);
        Py_INCREF(value);
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(attrs); ++k) {
            PyObject *next = PyObject_GetAttr(value, PyTuple_GET_ITEM(attrs, k));
            Py_DECREF(value);
            if (!next) {
                PyErr_Clear();
                return 0;
            }
            value = next;
        }
        int ok = guard_matches(value, expected, PyLong_AsLong(PyTuple_GET_ITEM(g, 4)));
        Py_DECREF(value);
        if (!ok) return 0;
    }
    return 1;
}

/* Frozen module constants only (the common case): an unchanged version of
 * their module's dict (CPython 3.11 bumps it at every store) means unchanged
 * bindings, so one comparison replaces a lookup per constant. */
static int guards_current(Overload *ov) {
#if PY_VERSION_HEX < 0x030C0000
    if (ov->guard_dict && ((PyDictObject *)ov->guard_dict)->ma_version_tag == ov->guard_version) return 1;
    if (!guards_hold(ov->guards)) return 0;
    if (ov->guard_dict) ov->guard_version = ((PyDictObject *)ov->guard_dict)->ma_version_tag;
    return 1;
#else
    return guards_hold(ov->guards);
#endif
}

static PyObject *try_overloads(Dispatcher *self, PyObject *const *args, Py_ssize_t nargs) {
    Slot slots[MAX_LEAVES];
    void *argp[MAX_LEAVES];
    DeviceDims dd;
    for (int oi = 0; oi < self->n_overloads; ++oi) {
        Overload *ov = &self->overloads[oi];
        if (ov->nargs != nargs) continue;
        if (ov->guards && !guards_current(ov)) continue;
        int ni = 0, si = 0, ok = 1;
        dd.used = 0;
        for (Py_ssize_t i = 0; i < nargs && ok; ++i) {
            int r = unpack(args[i], ov->args, &ni, slots, &si, &dd);
            if (r < 0) return NULL;
            ok = r;
        }
        if (!ok) continue;
        for (int i = 0; i < si; ++i) argp[i] = &slots[i];

        const int res_nodes = ov->res_nodes, narr = ov->res_arrays;
        Slot rslots[MAX_LEAVES];
        tr_array_out aouts_local[2];
        tr_array_out *aouts = aouts_local;
        if (narr > 2) {
            aouts = PyMem_Calloc(narr, sizeof(tr_array_out));
            if (!aouts) return PyErr_NoMemory();
        }
        void *resp[MAX_LEAVES];
        int ai = 0, ri = 0;
        for (int i = 0; i < res_nodes; ++i) {
            int k = ov->res[i].kind;
            if (k == K_NONE || k == K_TUPLE) continue;
            if (k == K_ARRAY) {
                memset(&aouts[ai], 0, sizeof(tr_array_out));
                resp[ri++] = &aouts[ai++];
            } else {
                rslots[ri].c[0] = rslots[ri].c[1] = 0;
                if (k == K_LIST) {
                    rslots[ri].l.object = NULL;
                    rslots[ri].l.host = &HOST;
                }
                resp[ri] = &rslots[ri];
                ++ri;
            }
        }
        tr_error err;
        err.code = 0;
        err.line = 0;
        err.message[0] = 0;
        int rc;
        interrupt_requested = 0; /* a Ctrl-C before this call was Python's to handle */
        if (ov->nogil) {
            Py_BEGIN_ALLOW_THREADS
            rc = ov->fn(argp, resp, &err);
            Py_END_ALLOW_THREADS
        } else {
            rc = ov->fn(argp, resp, &err);
        }
        PyObject *result;
        if (rc != 0) {
            drop_results(ov->res, res_nodes, resp);
            result = raise_entry_error(self, &err);
            if (!result && !PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "entry failed");
        } else {
            int bi = 0, bs = 0;
            result = box(ov->res, &bi, resp, &bs);
            if (!result) drop_results(ov->res, res_nodes, resp);
        }
        if (aouts != aouts_local) PyMem_Free(aouts);
        return result;
    }
    return NULL;
}

/* An error about the user's code (an exception whose class or instance has
 * `_transpile_user_error`: TranspileError and the argument errors of
 * fullgraph=True) leaves the slow path with no traceback of its own, so the
 * traceback ends at the user's call and the file:line:col message follows it;
 * transpile's frames are noise there.  TRANSPILE_DEBUG=1 keeps them. */
static void trim_user_error(void) {
    const char *debug = getenv("TRANSPILE_DEBUG");
    if (debug && *debug && strcmp(debug, "0") != 0) return;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value && PyObject_HasAttrString(value, "_transpile_user_error")) {
        Py_CLEAR(tb);
        PyException_SetTraceback(value, Py_None);
        ((PyBaseExceptionObject *)value)->suppress_context = 1;
    }
    PyErr_Restore(type, value, tb);
}

static PyObject *slow_call(Dispatcher *self, PyObject *const *args, size_t nargs, PyObject *kwnames) {
    PyObject *tuple = PyTuple_New((Py_ssize_t)nargs);
    if (!tuple) return NULL;
    for (size_t i = 0; i < nargs; ++i) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(tuple, i, args[i]);
    }
    PyObject *kwargs = Py_None;
    Py_INCREF(kwargs);
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        Py_DECREF(kwargs);
        kwargs = PyDict_New();
        if (!kwargs) {
            Py_DECREF(tuple);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); ++i)
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                Py_DECREF(tuple);
                Py_DECREF(kwargs);
                return NULL;
            }
    }
    PyObject *r = PyObject_CallMethod(self->impl, "_slow_call", "OO", tuple, kwargs);
    Py_DECREF(tuple);
    Py_DECREF(kwargs);
    if (!r) trim_user_error();
    return r;
}

static PyObject *dispatcher_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Dispatcher *self = (Dispatcher *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if ((kwnames && PyTuple_GET_SIZE(kwnames)) || nargs > self->max_positional)
        return slow_call(self, args, nargs, kwnames);
    PyObject *full[MAX_LEAVES];
    PyObject *const *given = args;
    Py_ssize_t ngiven = nargs;
    if (nargs < self->nparams && self->defaults) {
        Py_ssize_t nd = PyTuple_GET_SIZE(self->defaults);
        if (nargs + nd >= self->nparams && self->nparams <= MAX_LEAVES) {
            for (Py_ssize_t i = 0; i < nargs; ++i) full[i] = args[i];
            for (Py_ssize_t i = nargs; i < self->nparams; ++i)
                full[i] = PyTuple_GET_ITEM(self->defaults, nd - (self->nparams - i));
            args = full;
            nargs = self->nparams;
        }
    }
    PyObject *r = try_overloads(self, args, nargs);
    if (r || PyErr_Occurred()) return r;
    return slow_call(self, given, ngiven, NULL);  /* the call as written: the slow path binds it */
}

static int dispatcher_init(Dispatcher *self, PyObject *args, PyObject *kw) {
    PyObject *impl;
    if (!PyArg_ParseTuple(args, "O:Dispatcher", &impl)) return -1;
    Py_INCREF(impl);
    Py_XSETREF(self->impl, impl);
    self->vectorcall = dispatcher_vectorcall;
    self->max_positional = INT_MAX;  /* until set_params: no limit */
    return 0;
}

/* A node array of MAX_NODES (unused ones zeroed) and its lists' element trees. */
static void free_nodes(Node *nodes) {
    if (!nodes) return;
    for (int i = 0; i < MAX_NODES; ++i)
        if (nodes[i].elem) free_nodes(nodes[i].elem);
    PyMem_Free(nodes);
}

static void free_overloads(Dispatcher *self) {
    for (int i = 0; i < self->n_overloads; ++i) {
        free_nodes(self->overloads[i].args);
        free_nodes(self->overloads[i].res);
        Py_XDECREF(self->overloads[i].guards);
    }
    PyMem_Free(self->overloads);
    self->overloads = NULL;
    self->n_overloads = self->cap_overloads = 0;
}

static int dispatcher_traverse(Dispatcher *self, visitproc visit, void *arg) {
    Py_VISIT(self->dict);
    Py_VISIT(self->impl);
    Py_VISIT(self->defaults);
    for (int i = 0; i < self->n_overloads; ++i) Py_VISIT(self->overloads[i].guards);
    return 0;
}

static int dispatcher_clear(Dispatcher *self) {
    Py_CLEAR(self->dict);
    Py_CLEAR(self->impl);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->filename);
    return 0;
}

static void dispatcher_dealloc(Dispatcher *self) {
    PyObject_GC_UnTrack(self);
    dispatcher_clear(self);
    free_overloads(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static Node *parse_desc(PyObject *flat, int *ntrees_out, int want_trees) {
    if (!PyTuple_Check(flat)) {
        PyErr_SetString(PyExc_TypeError, "descriptor must be a tuple");
        return NULL;
    }
    Node *nodes = PyMem_Calloc(MAX_NODES, sizeof(Node));
    if (!nodes) {
        PyErr_NoMemory();
        return NULL;
    }
    Py_ssize_t pos = 0;
    int count = 0, trees = 0;
    while (pos < PyTuple_GET_SIZE(flat)) {
        if (parse_tree(flat, &pos, nodes, &count) < 0) {
            free_nodes(nodes);
            return NULL;
        }
        ++trees;
    }
    if (want_trees >= 0 && trees != want_trees) {
        free_nodes(nodes);
        PyErr_SetString(PyExc_ValueError, "descriptor has the wrong number of values");
        return NULL;
    }
    if (count_leaves(nodes, count) > MAX_LEAVES) {
        free_nodes(nodes);
        PyErr_SetString(PyExc_TypeError, "more than 64 scalar or array values in one signature");
        return NULL;
    }
    *ntrees_out = trees;
    return nodes;
}

/* Whether values of these kinds cross without Python objects (numbers, arrays,
 * tuples of them): only then may an entry run with the GIL released. */
static int crosses_without_python(const Node *nodes, int n) {
    for (int i = 0; i < n; ++i) {
        int k = nodes[i].kind;
        if (!(k == K_NONE || k == K_PYBOOL || k == K_PYINT || k == K_PYFLOAT || k == K_PYCOMPLEX ||
              k == K_NPSCALAR || k == K_ARRAY || k == K_TUPLE || k == K_MAYBE_WEAK || k == K_OPTIONAL))
            return 0;
    }
    return 1;
}

static PyObject *dispatcher_add_overload(Dispatcher *self, PyObject *args) {
    PyObject *argdesc, *resdesc;
    unsigned long long address;
    int nogil = 0;
    if (!PyArg_ParseTuple(args, "OOK|p:add_overload", &argdesc, &resdesc, &address, &nogil)) return NULL;
    int nargs = 0, nres = 0;
    Node *a = parse_desc(argdesc, &nargs, -1);
    if (!a) return NULL;
    Node *r = parse_desc(resdesc, &nres, 1);
    if (!r) {
        free_nodes(a);
        return NULL;
    }
    if (self->n_overloads == self->cap_overloads) {
        int cap = self->cap_overloads ? 2 * self->cap_overloads : 4;
        Overload *grown = PyMem_Realloc(self->overloads, cap * sizeof(Overload));
        if (!grown) {
            free_nodes(a);
            free_nodes(r);
            return PyErr_NoMemory();
        }
        self->overloads = grown;
        self->cap_overloads = cap;
    }
    Overload *ov = &self->overloads[self->n_overloads++];
    ov->args = a;
    ov->nargs = nargs;
    ov->res = r;
    ov->res_nodes = tree_size(r);
    ov->res_arrays = 0;
    for (int i = 0; i < ov->res_nodes; ++i)
        if (r[i].kind == K_ARRAY) ++ov->res_arrays;
    ov->fn = (tr_entry_fn)(uintptr_t)address;
    ov->guards = ov->guard_dict = NULL;
    /* the compiler's flag, and never for a descriptor with Python objects in it */
    ov->nogil = nogil && crosses_without_python(a, tree_size(a)) && crosses_without_python(r, ov->res_nodes);
    Py_RETURN_NONE;
}

static Overload *overload_at(Dispatcher *self, unsigned long long address) {
    for (int i = 0; i < self->n_overloads; ++i)
        if ((uintptr_t)self->overloads[i].fn == (uintptr_t)address) return &self->overloads[i];
    PyErr_SetString(PyExc_KeyError, "no specialization with this entry address");
    return NULL;
}

static PyObject *dispatcher_set_guards(Dispatcher *self, PyObject *args) {
    unsigned long long address;
    PyObject *guards;
    if (!PyArg_ParseTuple(args, "KO:set_guards", &address, &guards)) return NULL;
    Overload *ov = overload_at(self, address);
    if (!ov) return NULL;
    if (guards != Py_None) {
        for (Py_ssize_t i = 0; PyTuple_Check(guards) && i < PyTuple_GET_SIZE(guards); ++i) {
            PyObject *g = PyTuple_GET_ITEM(guards, i);
            if (!PyTuple_Check(g) || PyTuple_GET_SIZE(g) != 5 || !PyDict_Check(PyTuple_GET_ITEM(g, 0)) ||
                !PyUnicode_Check(PyTuple_GET_ITEM(g, 1)) || !PyTuple_Check(PyTuple_GET_ITEM(g, 2)) ||
                !PyLong_Check(PyTuple_GET_ITEM(g, 4)) ||
                (PyLong_AsLong(PyTuple_GET_ITEM(g, 4)) == 2 &&
                 !(PyTuple_Check(PyTuple_GET_ITEM(g, 3)) && PyTuple_GET_SIZE(PyTuple_GET_ITEM(g, 3)) == 3 &&
                   PyArray_DescrCheck(PyTuple_GET_ITEM(PyTuple_GET_ITEM(g, 3), 0)))))
                guards = NULL;
        }
        if (!guards || !PyTuple_Check(guards)) {
            PyErr_SetString(PyExc_TypeError, "guards: a tuple of (dict, str, tuple, expected, mode)");
            return NULL;
        }
    }
    Py_XSETREF(ov->guards, guards == Py_None || PyTuple_GET_SIZE(guards) == 0 ? NULL : Py_NewRef(guards));
    ov->guard_dict = NULL;  /* borrowed from the guards */
    for (Py_ssize_t i = 0; ov->guards && i < PyTuple_GET_SIZE(ov->guards); ++i) {
        PyObject *g = PyTuple_GET_ITEM(ov->guards, i), *d = PyTuple_GET_ITEM(g, 0);
        int plain = PyTuple_GET_SIZE(PyTuple_GET_ITEM(g, 2)) == 0 && PyLong_AsLong(PyTuple_GET_ITEM(g, 4)) == 0;
        if (!plain || (i > 0 && d != ov->guard_dict)) {
            ov->guard_dict = NULL;
            break;
        }
        ov->guard_dict = d;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (ov->guard_dict) ov->guard_version = ((PyDictObject *)ov->guard_dict)->ma_version_tag - 1; /* checked once */
#endif
    Py_RETURN_NONE;
}

static PyObject *dispatcher_remove_overload(Dispatcher *self, PyObject *arg) {
    unsigned long long address = PyLong_AsUnsignedLongLong(arg);
    if (address == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    Overload *ov = overload_at(self, address);
    if (!ov) return NULL;
    free_nodes(ov->args);
    free_nodes(ov->res);
    Py_XDECREF(ov->guards);
    int i = (int)(ov - self->overloads);
    memmove(ov, ov + 1, (size_t)(self->n_overloads - i - 1) * sizeof(Overload));
    --self->n_overloads;
    Py_RETURN_NONE;
}

/* Points a specialization at another build of the same code (build/tiers.py
 * swaps the optimized build in): only the entry pointer changes, so a call
 * running the old entry in another thread keeps valid descriptors. */
static PyObject *dispatcher_replace_entry(Dispatcher *self, PyObject *args) {
    unsigned long long old_address, new_address;
    if (!PyArg_ParseTuple(args, "KK:replace_entry", &old_address, &new_address)) return NULL;
    Overload *ov = overload_at(self, old_address);
    if (!ov) return NULL;
    ov->fn = (tr_entry_fn)(uintptr_t)new_address;
    Py_RETURN_NONE;
}

static PyObject *dispatcher_clear_overloads(Dispatcher *self, PyObject *unused) {
    free_overloads(self);
    Py_RETURN_NONE;
}

static PyObject *dispatcher_set_params(Dispatcher *self, PyObject *args) {
    int nparams, max_positional = -1;
    PyObject *defaults, *filename;
    if (!PyArg_ParseTuple(args, "iOO|i:set_params", &nparams, &defaults, &filename, &max_positional)) return NULL;
    self->nparams = nparams;
    self->max_positional = max_positional < 0 ? nparams : max_positional;
    Py_XSETREF(self->defaults, defaults == Py_None ? NULL : Py_NewRef(defaults));
    Py_XSETREF(self->filename, filename == Py_None ? NULL : Py_NewRef(filename));
    Py_RETURN_NONE;
}

/* Calls a compiled specialization or raises; never compiles. */
static PyObject *dispatcher_call_compiled(Dispatcher *self, PyObject *args) {
    if (!PyTuple_Check(args)) {
        PyErr_SetString(PyExc_TypeError, "expected a tuple");
        return NULL;
    }
    PyObject *r = try_overloads(self, &PyTuple_GET_ITEM(args, 0), PyTuple_GET_SIZE(args));
    if (!r && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "no compiled specialization matches these arguments");
    return r;
}

static PyObject *dispatcher_getattro(PyObject *self, PyObject *name) {
    PyObject *r = PyObject_GenericGetAttr(self, name);
    if (r || !PyErr_ExceptionMatches(PyExc_AttributeError)) return r;
    PyErr_Clear();
    return PyObject_GetAttr(((Dispatcher *)self)->impl, name);
}

/* dir(f): the type's names and the public ones of the Python side
 * (JitFunction.__dir__: py_func, signatures, inspect_cxx, compile, ...),
 * which getattro reaches through impl. */
static PyObject *dispatcher_dir(PyObject *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *names = PyObject_CallMethod((PyObject *)&PyBaseObject_Type, "__dir__", "O", self);
    if (!names) return NULL;
    PyObject *more = PyObject_Dir(((Dispatcher *)self)->impl);
    Py_ssize_t n = PyList_GET_SIZE(names);
    if (!more || PyList_SetSlice(names, n, n, more) < 0) {
        Py_XDECREF(more);
        Py_DECREF(names);
        return NULL;
    }
    Py_DECREF(more);
    return names;
}

static PyObject *dispatcher_repr(Dispatcher *self) { return PyObject_Repr(self->impl); }

static PyObject *dispatcher_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
    if (obj == NULL || obj == Py_None) return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyObject *dispatcher_overload_count(Dispatcher *self, void *closure) {
    return PyLong_FromLong(self->n_overloads);
}

static PyMethodDef dispatcher_methods[] = {
    {"add_overload", (PyCFunction)dispatcher_add_overload, METH_VARARGS,
     "add_overload(arg_descriptor, result_descriptor, entry_address[, nogil])"},
    {"clear_overloads", (PyCFunction)dispatcher_clear_overloads, METH_NOARGS, "forget every specialization"},
    {"set_params", (PyCFunction)dispatcher_set_params, METH_VARARGS,
     "set_params(n_params, defaults_tuple_or_None, filename[, max_positional])"},
    {"call_compiled", (PyCFunction)dispatcher_call_compiled, METH_O, "call a compiled specialization, never compile"},
    {"set_guards", (PyCFunction)dispatcher_set_guards, METH_VARARGS,
     "set_guards(entry_address, guards_or_None): the live-global guards checked before each call"},
    {"remove_overload", (PyCFunction)dispatcher_remove_overload, METH_O, "remove_overload(entry_address)"},
    {"replace_entry", (PyCFunction)dispatcher_replace_entry, METH_VARARGS,
     "replace_entry(old_entry_address, new_entry_address)"},
    {"__dir__", (PyCFunction)dispatcher_dir, METH_NOARGS, "the dispatcher's names and its public attributes"},
    {NULL}};

static PyGetSetDef dispatcher_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"overload_count", (getter)dispatcher_overload_count, NULL, "number of loaded specializations", NULL},
    {NULL}};

static PyTypeObject DispatcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "transpile._runtime.Dispatcher",
    .tp_basicsize = sizeof(Dispatcher),
    .tp_dealloc = (destructor)dispatcher_dealloc,
    .tp_vectorcall_offset = offsetof(Dispatcher, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_repr = (reprfunc)dispatcher_repr,
    .tp_getattro = dispatcher_getattro,
    .tp_setattro = PyObject_GenericSetAttr,
    /* METHOD_DESCRIPTOR: obj.method(x) calls a Dispatcher in a class with
     * (obj, x) directly, as for Python functions, with no bound method made. */
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "A @jit function: calls its compiled specializations, compiling new ones on demand.",
    .tp_traverse = (traverseproc)dispatcher_traverse,
    .tp_clear = (inquiry)dispatcher_clear,
    .tp_methods = dispatcher_methods,
    .tp_getset = dispatcher_getset,
    .tp_descr_get = dispatcher_descr_get,
    .tp_dictoffset = offsetof(Dispatcher, dict),
    .tp_init = (initproc)dispatcher_init,
    .tp_new = PyType_GenericNew,
};

/* ---- loading generated modules ---------------------------------------- */

static PyObject *load_library(PyObject *mod, PyObject *arg) {
    PyObject *bytes;
    if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
    void *h = dlopen(PyBytes_AS_STRING(bytes), RTLD_NOW | RTLD_LOCAL);
    Py_DECREF(bytes);
    if (!h) {
        const char *e = dlerror();
        PyErr_Format(PyExc_ImportError, "cannot load compiled module: %s", e ? e : "unknown error");
        return NULL;
    }
    return PyLong_FromVoidPtr(h);
}

static PyObject *lookup_symbol(PyObject *mod, PyObject *args) {
    PyObject *handle;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os:symbol", &handle, &name)) return NULL;
    void *h = PyLong_AsVoidPtr(handle);
    if (!h && PyErr_Occurred()) return NULL;
    dlerror();
    void *p = dlsym(h, name);
    if (!p) {
        const char *e = dlerror();
        PyErr_Format(PyExc_ImportError, "compiled module has no entry '%s': %s", name, e ? e : "");
        return NULL;
    }
    return PyLong_FromVoidPtr(p);
}


/* ---- host services for fallback regions -------------------------------- */

static void host_incref(void *o) { Py_XINCREF((PyObject *)o); }
static void host_decref(void *o) { Py_XDECREF((PyObject *)o); }

static PyObject *box_value(tr_value *v) {
    switch (v->kind) {
    case TR_V_NONE: Py_RETURN_NONE;
    case TR_V_PYBOOL: return PyBool_FromLong(v->s.b);
    case TR_V_PYINT: return PyLong_FromLongLong(v->s.i);
    case TR_V_PYFLOAT: return PyFloat_FromDouble(v->s.d);
    case TR_V_PYCOMPLEX: return PyComplex_FromDoubles(v->s.c[0], v->s.c[1]);
    case TR_V_NPSCALAR:
        if (v->typenum < 0 || v->typenum >= NPY_NTYPES_LEGACY || !descr_of[v->typenum]) break;
        return PyArray_Scalar(v->s.raw, descr_of[v->typenum], NULL);
    case TR_V_ARRAY: {
        if (v->typenum < 0 || v->typenum >= NPY_NTYPES_LEGACY || !descr_of[v->typenum]) break;
        Node node = {K_ARRAY, v->typenum, v->ndim, 0, 0, 0};
        return box_array(&node, &v->array);
    }
    case TR_V_OBJECT:
        return Py_NewRef(v->object ? (PyObject *)v->object : Py_None);
    case TR_V_STR:
        return PyUnicode_DecodeUTF8(v->array.data, (Py_ssize_t)v->s.i, "surrogatepass");
    case TR_V_INSTANCE: {
        tr_object *o = (tr_object *)v->object;
        v->object = NULL;
        if (!o) Py_RETURN_NONE;
        if (o->box) {
            PyObject *b = Py_NewRef((PyObject *)o->box);
            release_native(o);
            return b;
        }
        int layout = layout_number_of_key(o->layout);
        if (layout < 0) {
            release_native(o);
            return NULL;
        }
        return box_instance(o, layout);
    }
    }
    PyErr_SetString(PyExc_SystemError, "bad value passed to fallback code");
    return NULL;
}

/* A failed scalar conversion becomes a TypeError naming the line. */
static int conversion_failed(PyObject *obj, const tr_value *v, PyObject *where) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError,
                 "%U: a value of type '%.100s' produced by fallback code cannot be converted to %S; name its type "
                 "with a '# @jit.typing: () -> T' comment", where, Py_TYPE(obj)->tp_name, (PyObject *)descr_of[v->typenum]);
    return -1;
}

/* Converts a value returned by fallback code into what compiled code
 * expects (values with a @jit.typing type were checked on the Python side;
 * `where` names the user's line in errors). */
static int unbox_value(PyObject *obj, tr_value *v, PyObject *where) {
    if (v->kind == TR_V_STR) {
        Py_ssize_t len;
        const char *text = PyUnicode_CheckExact(obj) ? PyUnicode_AsUTF8AndSize(obj, &len) : NULL;
        if (!text) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%U: compiled code expects a str here, but fallback code produced a "
                         "value of type '%.100s'", where, Py_TYPE(obj)->tp_name);
            return -1;
        }
        v->array.data = (char *)text;
        v->s.i = len;
        v->object = Py_NewRef(obj);
        return 0;
    }
    if (v->kind == TR_V_OBJECT) {
        v->object = Py_NewRef(obj);
        return 0;
    }
    if (v->kind == TR_V_INSTANCE) {
        const char *expected = (const char *)v->object;
        tr_object *o = PyObject_TypeCheck(obj, &JitObjectType) ? ((JitObject *)obj)->native : NULL;
        if (!o || !expected || strcmp(o->layout, expected) != 0) {
            PyErr_Format(PyExc_TypeError, "%U: compiled code expects a @jit_class instance with the layout %s here, "
                         "but fallback code produced a value of type '%.100s'", where, expected ? expected : "?",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        __atomic_fetch_add(&o->refcount, 1, __ATOMIC_RELAXED);
        v->object = o;
        return 0;
    }
    if (v->kind == TR_V_ARRAY) {
        if (!PyArray_Check(obj)) goto mismatch;
        PyArrayObject *a = (PyArrayObject *)obj;
        int t = PyArray_DESCR(a)->type_num;
        if (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] != v->typenum || PyArray_NDIM(a) != v->ndim ||
            array_problem(a))
            goto mismatch;
        v->array.data = PyArray_BYTES(a);
        for (int k = 0; k < v->ndim; ++k) {
            v->array.shape[k] = PyArray_DIMS(a)[k];
            v->array.strides[k] = PyArray_STRIDES(a)[k];
        }
        v->object = Py_NewRef(obj);
        return 0;
    }
    /* A scalar of the given typenum. */
    int t = v->typenum;
    if (t < 0 || t >= NPY_NTYPES_LEGACY || !descr_of[t]) goto mismatch;
    if (scalar_typenum(obj) == t) {
        PyArray_ScalarAsCtype(obj, v->s.raw);
        return 0;
    }
    switch (t) {
    case NPY_BOOL: {
        int b = PyObject_IsTrue(obj);
        if (b < 0) return conversion_failed(obj, v, where);
        v->s.b = (uint8_t)b;
        return 0;
    }
    case NPY_FLOAT: case NPY_DOUBLE: {
        double d = PyFloat_AsDouble(obj);
        if (d == -1.0 && PyErr_Occurred()) return conversion_failed(obj, v, where);
        if (t == NPY_FLOAT) v->s.f = (float)d; else v->s.d = d;
        return 0;
    }
    case NPY_CFLOAT: case NPY_CDOUBLE: {
        Py_complex c = PyComplex_AsCComplex(obj);
        if (c.real == -1.0 && PyErr_Occurred()) return conversion_failed(obj, v, where);
        if (t == NPY_CFLOAT) { float f[2] = {(float)c.real, (float)c.imag}; memcpy(v->s.raw, f, sizeof f); }
        else { v->s.c[0] = c.real; v->s.c[1] = c.imag; }
        return 0;
    }
    default: {
        PyObject *as_int = PyNumber_Index(obj);
        if (!as_int) {
            /* CPython's int(x) for floats: truncation. */
            if (PyFloat_Check(obj)) as_int = PyNumber_Long(obj);
            if (!as_int) return conversion_failed(obj, v, where);
        }
        unsigned long long u = PyLong_AsUnsignedLongLongMask(as_int);
        Py_DECREF(as_int);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        int size = (int)PyDataType_ELSIZE(descr_of[t]);
        memcpy(v->s.raw, &u, size);  /* little-endian truncation = wrapping, as NumPy casts */
        return 0;
    }
    }
mismatch:
    if (v->kind == TR_V_ARRAY && v->typenum >= 0 && v->typenum < NPY_NTYPES_LEGACY && descr_of[v->typenum])
        PyErr_Format(PyExc_TypeError, "%U: compiled code expects a %d-d %S array here, but fallback code produced "
                     "a value of type '%.100s'", where, v->ndim, (PyObject *)descr_of[v->typenum], Py_TYPE(obj)->tp_name);
    else
        PyErr_Format(PyExc_TypeError, "%U: compiled code expects another type here, but fallback code produced a "
                     "value of type '%.100s'", where, Py_TYPE(obj)->tp_name);
    return -1;
}


static int host_call_region(void *regions, int32_t region, int32_t nin, tr_value *ins, int32_t nout,
                            tr_value *outs, tr_error *err) {
    PyObject *table = (PyObject *)regions;
    if (!table || !PyTuple_Check(table) || region < 0 || region >= PyTuple_GET_SIZE(table)) {
        PyErr_SetString(PyExc_SystemError, "unknown fallback region");
        return TR_ERR_PYTHON;
    }
    PyObject *entry = PyTuple_GET_ITEM(table, region);  /* (callable, "file.py:LINE") */
    PyObject *fn = PyTuple_GET_ITEM(entry, 0), *where = PyTuple_GET_ITEM(entry, 1);
    PyObject *stack[MAX_LEAVES];
    PyObject **args = nin <= MAX_LEAVES ? stack : PyMem_Malloc(nin * sizeof(PyObject *));
    if (!args) {
        PyErr_NoMemory();
        return TR_ERR_PYTHON;
    }
    int ok = 1, made = 0;
    for (; made < nin; ++made) {
        args[made] = box_value(&ins[made]);
        if (!args[made]) { ok = 0; break; }
    }
    PyObject *res = ok ? PyObject_Vectorcall(fn, args, nin, NULL) : NULL;
    for (int i = 0; i < made; ++i) Py_DECREF(args[i]);
    if (args != stack) PyMem_Free(args);
    if (!res) return TR_ERR_PYTHON;
    if (nout > 0) {
        if (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != nout) {
            Py_DECREF(res);
            PyErr_SetString(PyExc_SystemError, "fallback region returned the wrong number of values");
            return TR_ERR_PYTHON;
        }
        for (int i = 0; i < nout; ++i) {
            if (unbox_value(PyTuple_GET_ITEM(res, i), &outs[i], where) < 0) {
                for (int j = 0; j < i; ++j)
                    if (outs[j].kind == TR_V_OBJECT || outs[j].kind == TR_V_ARRAY) Py_CLEAR(outs[j].object);
                    else if (outs[j].kind == TR_V_INSTANCE) release_native((tr_object *)outs[j].object);
                Py_DECREF(res);
                return TR_ERR_PYTHON;
            }
        }
    }
    Py_DECREF(res);
    (void)err;
    return TR_OK;
}

static int host_to_float64(void *object, double *out, const char *where, tr_error *err) {
    PyObject *obj = object ? (PyObject *)object : Py_None;
    double d = PyFloat_AsDouble(obj);
    if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s: a value of type '%.100s' produced by fallback code cannot be converted to float64; "
                     "name its type with a '# @jit.typing: () -> T' comment", where, Py_TYPE(obj)->tp_name);
        return TR_ERR_PYTHON;
    }
    *out = d;
    (void)err;
    return TR_OK;
}

static int host_truthy(void *object, int *out, tr_error *err) {
    int b = PyObject_IsTrue(object ? (PyObject *)object : Py_None);
    if (b < 0) return TR_ERR_PYTHON;
    *out = b;
    (void)err;
    return TR_OK;
}

/* ---- host services for compiled lists ---------------------------------- */

static int64_t host_seq_size(void *seq) {
    PyObject *o = (PyObject *)seq;
    return PyList_Check(o) ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
}

static void *host_seq_item(void *seq, int64_t i) {
    PyObject *o = (PyObject *)seq;
    return PyList_Check(o) ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i);
}

static int host_unbox(void *object, tr_value *v) {
    static PyObject *where = NULL;
    if (!where) where = PyUnicode_FromString("a list element");
    if (!where) return TR_ERR_PYTHON;
    return unbox_value((PyObject *)object, v, where) < 0 ? TR_ERR_PYTHON : TR_OK;
}

/* Lists are written back also while an exception from fallback code is on
 * its way out: it is kept aside meanwhile. */
static void *host_box(tr_value *v) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyObject *r = box_value(v);
    if (et) {
        if (r) PyErr_Restore(et, ev, tb);
        else { Py_XDECREF(et); Py_XDECREF(ev); Py_XDECREF(tb); }
    }
    return r;
}

static void *host_make_seq(int32_t is_list, int64_t n, void **items) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyObject *r = is_list ? PyList_New((Py_ssize_t)n) : PyTuple_New((Py_ssize_t)n);
    for (int64_t i = 0; i < n; ++i) {
        if (!r) Py_DECREF((PyObject *)items[i]);
        else if (is_list) PyList_SET_ITEM(r, i, (PyObject *)items[i]);
        else PyTuple_SET_ITEM(r, i, (PyObject *)items[i]);
    }
    if (et) {
        if (r) PyErr_Restore(et, ev, tb);
        else { Py_XDECREF(et); Py_XDECREF(ev); Py_XDECREF(tb); }
    }
    return r;
}

static int host_list_assign(void *list, void *items) {
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    int rc = PyList_SetSlice((PyObject *)list, 0, PY_SSIZE_T_MAX, (PyObject *)items);
    if (et) {
        if (rc == 0) PyErr_Restore(et, ev, tb);
        else { Py_XDECREF(et); Py_XDECREF(ev); Py_XDECREF(tb); }
    }
    return rc < 0 ? TR_ERR_PYTHON : TR_OK;
}

/* make_container: a tuple (0), dict (2), set (3) or the one item (4) of
 * boxed items. */
static void *host_make_container(int32_t kind, int64_t n, tr_value *items) {
    PyObject **objs = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof(PyObject *));
    PyObject *out = NULL;
    int64_t made = 0;
    if (!objs) {
        PyErr_NoMemory();
    } else {
        for (; made < n; ++made)
            if (!(objs[made] = box_value(&items[made]))) break;
    }
    if (objs && made == n) {
        if (kind == 4) {
            out = n == 1 ? Py_NewRef(objs[0]) : NULL;
        } else if (kind == 0) {
            out = PyTuple_New((Py_ssize_t)n);
            for (int64_t i = 0; out && i < n; ++i) PyTuple_SET_ITEM(out, i, Py_NewRef(objs[i]));
        } else {
            out = kind == 3 ? PySet_New(NULL) : PyDict_New();
            for (int64_t i = 0; out && i < n; i += kind == 3 ? 1 : 2) {
                int rc = kind == 3 ? PySet_Add(out, objs[i]) : PyDict_SetItem(out, objs[i], objs[i + 1]);
                if (rc < 0) Py_CLEAR(out);
            }
        }
    }
    /* array buffers of items never boxed are released by their capsules' absence: drop them */
    for (int64_t i = made + (objs && made < n ? 1 : 0); i < n; ++i) {
        if (items[i].kind == TR_V_ARRAY && items[i].array.buffer) {
            tr_buffer *b = items[i].array.buffer;
            if (__atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) == 0) b->release(b);
        }
    }
    for (int64_t i = 0; objs && i < made; ++i) Py_DECREF(objs[i]);
    PyMem_Free(objs);
    return out;
}

/* text_of / write_text: print() in compiled code (transpile_rt/builtins/print.hpp). */
static void *host_text_of(void *object, int32_t repr, const char **data, int64_t *len) {
    PyObject *s = repr ? PyObject_Repr((PyObject *)object) : PyObject_Str((PyObject *)object);
    if (!s) return NULL;
    Py_ssize_t n = 0;
    const char *p = PyUnicode_AsUTF8AndSize(s, &n);
    if (!p) {
        Py_DECREF(s);
        return NULL;
    }
    *data = p;
    *len = (int64_t)n;
    return s;
}

static int host_write_text(int32_t file, const char *data, int64_t len, int32_t flush) {
    PyObject *f = PySys_GetObject(file == 2 ? "stderr" : "stdout"); /* borrowed */
    if (f == NULL || f == Py_None) return TR_OK; /* print() writes nothing then */
    Py_INCREF(f);
    PyObject *text = PyUnicode_DecodeUTF8(data, (Py_ssize_t)len, "surrogatepass");
    PyObject *r = text ? PyObject_CallMethod(f, "write", "O", text) : NULL;
    Py_XDECREF(text);
    if (r && flush) {
        Py_DECREF(r);
        r = PyObject_CallMethod(f, "flush", NULL);
    }
    Py_DECREF(f);
    if (!r) return TR_ERR_PYTHON;
    Py_DECREF(r);
    return TR_OK;
}

static const tr_host HOST = {TR_ABI_VERSION, host_incref, host_decref, host_call_region, host_to_float64,
                             host_truthy,
                             /* members after this are named (helpers add theirs independently) */
                             .make_container = host_make_container,
                             .seq_size = host_seq_size, .seq_item = host_seq_item, .unbox = host_unbox,
                             .box = host_box, .make_seq = host_make_seq, .list_assign = host_list_assign,
                             .text_of = host_text_of, .write_text = host_write_text};

/* init_module(handle, regions): hands a loaded module the host table and
 * its table of region callables (the caller keeps `regions` alive). */
static PyObject *init_module(PyObject *mod, PyObject *args) {
    PyObject *handle, *regions;
    if (!PyArg_ParseTuple(args, "OO!:init_module", &handle, &PyTuple_Type, &regions)) return NULL;
    void *h = PyLong_AsVoidPtr(handle);
    if (!h && PyErr_Occurred()) return NULL;
    dlerror();
    void *p = dlsym(h, "tr_module_init");
    if (!p) Py_RETURN_FALSE;
    ((tr_module_init_fn)(uintptr_t)p)(&HOST, regions);
    Py_RETURN_TRUE;
}

static PyMethodDef module_methods[] = {
    {"init_module", init_module, METH_VARARGS, "init_module(handle, regions_tuple) -> bool (module has regions)"},
    {"register_layout", register_layout, METH_VARARGS,
     "register_layout(cls, key) -> number: a field layout of @jit_class cls"},
    {"register_function", register_function, METH_VARARGS,
     "register_function(fn, code, globals) -> the number of a function value in descriptors (code and globals: "
     "also match plain functions of that code without closure or defaults; else None, None)"},
    {"describe", describe, METH_O, "describe(value) -> type descriptor tuple; TypeError if unsupported"},
    {"load_library", load_library, METH_O, "load_library(path) -> handle"},
    {"symbol", lookup_symbol, METH_VARARGS, "symbol(handle, name) -> address"},
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
