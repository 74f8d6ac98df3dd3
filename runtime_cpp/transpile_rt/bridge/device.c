/* Device arrays: reading __cuda_array_interface__.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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
