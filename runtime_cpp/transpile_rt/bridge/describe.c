/* describe(obj), the descriptor of a Python value, and parsing the descriptors
 * Python hands over.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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
    int rec = record_num_of(obj);
    if (rec < 0) return -1;
    if (rec && PyArray_Check(obj)) {
        PyArrayObject *a = (PyArrayObject *)obj;
        PUSH(K_ARRAY);
        PUSH(rec);
        PUSH(PyArray_NDIM(a));
        PUSH(array_layout(a));
        PUSH(!(PyArray_FLAGS(a) & NPY_ARRAY_WRITEABLE));
        return 0;
    }
    if (rec) { PUSH(K_RECORD); PUSH(rec); return 0; }
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
        if (!descr_of_num(node->typenum)) goto bad;
        return 0;
    case K_RECORD:
        NEXT(node->typenum);
        if (!is_record_num(node->typenum)) goto bad;
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
