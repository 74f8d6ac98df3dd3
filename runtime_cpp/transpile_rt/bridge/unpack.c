/* Argument unpacking: matching Python arguments against a specialization's
 * descriptor and filling its typed slots.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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
    case K_STR: return PyUnicode_CheckExact(obj);
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
    case K_RECORD: return record_scalar_matches(obj, node->typenum);
    case K_ARRAY: {
        if (!PyArray_Check(obj)) return 0;
        PyArrayObject *a = (PyArrayObject *)obj;
        int t = PyArray_DESCR(a)->type_num;
        if (is_record_num(node->typenum)) {
            if (PyArray_NDIM(a) != node->ndim || !record_array_matches(a, node->typenum)) return 0;
            if (!node->readonly && !(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE)) return 0;
            return node->layout == LAYOUT_A || array_layout(a) == node->layout;
        }
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

static int is_number_kind(int kind) { return kind == K_PYFLOAT || kind == K_PYINT || kind == K_PYBOOL; }

/* A Python float, int or bool argument (exact types: a subclass may change
 * what operators do) into its slot: 1, 0 when obj is not of that kind, -1
 * with an exception (an int beyond int64).  try_overloads calls it directly
 * for these leaves, the commonest (a call of add(x, y) pays no tree walk). */
static inline int unpack_number(PyObject *obj, int kind, Slot *slot) {
    if (kind == K_PYFLOAT) {
        if (!PyFloat_CheckExact(obj)) return 0;
        slot->d = PyFloat_AS_DOUBLE(obj);
        return 1;
    }
    if (kind == K_PYINT) {
        if (!PyLong_CheckExact(obj)) return 0;
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to int64 (compiled code uses 64-bit integers)");
            return -1;
        }
        slot->i = v;
        return 1;
    }
    if (!PyBool_Check(obj)) return 0;
    slot->b = obj == Py_True;
    return 1;
}

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
    case K_PYINT:
    case K_PYBOOL: {
        int r = unpack_number(obj, node->kind, &slots[*si]);
        if (r == 1) ++*si;
        return r;
    }
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
    case K_RECORD: {
        if (!record_scalar_matches(obj, node->typenum)) return 0;
        tr_array_in *in = &slots[(*si)++].a;
        in->data = ((PyVoidScalarObject *)obj)->obval;
        in->shape = in->strides = NULL;
        in->owner = obj;
        return 1;
    }
    case K_ARRAY: {
        if (!PyArray_Check(obj)) return 0;
        PyArrayObject *a = (PyArrayObject *)obj;
        PyArray_Descr *d = PyArray_DESCR(a);
        int t = d->type_num;
        int flags = PyArray_FLAGS(a);
        if (PyArray_NDIM(a) != node->ndim) return 0;
        if (node->readonly != !(flags & NPY_ARRAY_WRITEABLE)) return 0;
        if (array_layout(a) != node->layout) return 0;
        if (is_record_num(node->typenum)) {  /* its own dtype, alignment and stride checks (records.c) */
            if (!record_array_matches(a, node->typenum)) return 0;
        } else {
            if (t != node->typenum && (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] != node->typenum))
                return 0;
            if (!(flags & NPY_ARRAY_ALIGNED) || !PyArray_ISNBO(d->byteorder)) return 0;
            npy_intp item = PyArray_ITEMSIZE(a);
            for (int k = 0; k < node->ndim; ++k)
                if (PyArray_STRIDES(a)[k] % item) return 0;
        }
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
