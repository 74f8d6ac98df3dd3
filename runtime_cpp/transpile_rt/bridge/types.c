/* Type descriptors as trees of nodes, argument slots, the NumPy dtype tables,
 * and a Dispatcher's record.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */


/* Leaf and node kinds of a type descriptor (keep in step with
 * transpile/hir/descriptors.py). */
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

#define MAX_LEAVES TR_RESULT_SLOTS_MAX
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
    int res_number; /* the result is one Python bool, int or float (its kind), else 0: boxed inline */
    int numbers;    /* arguments and result are Python numbers (or None): call_numbers */
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
