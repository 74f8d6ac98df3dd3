/* Result boxing: typed result slots to Python objects (arrays keep their owner).
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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
    PyArray_Descr *d = descr_of_num(node->typenum);
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
        int t = PyArray_DESCR(base)->type_num;
        if (same_view(base, o, node->ndim) &&
            (is_record_num(node->typenum) ? record_array_matches(base, node->typenum)
                                          : t >= 0 && t < NPY_NTYPES_LEGACY && canonical_typenum[t] == node->typenum)) {
            Py_INCREF(base);
            return (PyObject *)base;
        }
        Py_INCREF(d);
        /* A view typed read-only is one NumPy hands out read-only (np.diag of a 2-d array). */
        int flags = node->readonly ? 0 : PyArray_FLAGS(base) & NPY_ARRAY_WRITEABLE;
        PyTypeObject *sub = is_record_num(node->typenum) && records[node->typenum - RECORD_BASE].recarray
                                ? (PyTypeObject *)recarray_type : &PyArray_Type; /* a view of an np.recarray is one */
        PyObject *arr = PyArray_NewFromDescr(sub, d, node->ndim, shape, strides, o->data, flags, NULL);
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

/* A Python float, int or bool result (try_overloads boxes a lone one directly). */
static inline PyObject *box_number(int kind, const void *slot) {
    if (kind == K_PYFLOAT) return PyFloat_FromDouble(*(const double *)slot);
    if (kind == K_PYINT) return PyLong_FromLongLong(*(const int64_t *)slot);
    return PyBool_FromLong(*(const uint8_t *)slot);
}

static PyObject *box(const Node *nodes, int *ni, void *const *slots, int *si) {
    const Node *node = &nodes[(*ni)++];
    switch (node->kind) {
    case K_NONE:
        Py_RETURN_NONE;
    case K_PYBOOL:
    case K_PYINT:
    case K_PYFLOAT:
        return box_number(node->kind, slots[(*si)++]);
    case K_PYCOMPLEX: {
        double *c = (double *)slots[(*si)++];
        return PyComplex_FromDoubles(c[0], c[1]);
    }
    case K_NPSCALAR:
        return PyArray_Scalar(slots[(*si)++], descr_of[node->typenum], NULL);
    case K_ARRAY:
        return box_array(node, (tr_array_out *)slots[(*si)++]);
    case K_RECORD:
        return box_record(node, (tr_array_out *)slots[(*si)++]);
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
