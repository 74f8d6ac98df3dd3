/* Loading generated modules, and the host table: the Python services compiled
 * code calls (fallback regions, list and container conversion, print).
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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
        Node node = {K_ARRAY, v->typenum, v->ndim, 0, v->reserved == 1, 0}; /* reserved: read-only (fallback.hpp) */
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
            /* CPython's int(x) for floats: truncation (Index's TypeError dropped first, or the
             * call would return with an exception set: SystemError). */
            if (PyFloat_Check(obj)) {
                PyErr_Clear();
                as_int = PyNumber_Long(obj);
            }
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


/* fn(*ins) -- the last len(kwnames) of them by those keywords (kwnames
 * NULL: none) -- the values boxed into `args` (room for nin) and released
 * after the call: a new reference, or NULL with an exception set. */
static PyObject *call_boxed(PyObject *fn, int32_t nin, tr_value *ins, PyObject **args, PyObject *kwnames) {
    int made = 0;
    for (; made < nin; ++made) {
        args[made] = box_value(&ins[made]);
        if (!args[made]) break;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *res = made == nin ? PyObject_Vectorcall(fn, args, nin - nkw, kwnames) : NULL;
    for (int i = 0; i < made; ++i) Py_DECREF(args[i]);
    return res;
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
    PyObject *res = call_boxed(fn, nin, ins, args, NULL);
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

/* The bytes [lo, hi) an array's elements span (lo == hi when it has none). */
static void array_extent(const char *data, int ndim, const int64_t *shape, const int64_t *strides, int64_t item,
                         const char **lo, const char **hi) {
    int64_t low = 0, high = 0;
    for (int k = 0; k < ndim; ++k) {
        if (shape[k] == 0) { *lo = *hi = data; return; }
        int64_t span = (shape[k] - 1) * strides[k];
        if (span < 0) low += span; else high += span;
    }
    *lo = data + low;
    *hi = data + high + item;
}

/* Whether array `a` lies (partly) in the memory of an array argument. */
static int overlaps_an_argument(PyArrayObject *a, int32_t nin, const tr_value *ins) {
    const char *lo, *hi;
    array_extent(PyArray_BYTES(a), PyArray_NDIM(a), (const int64_t *)PyArray_DIMS(a),
                 (const int64_t *)PyArray_STRIDES(a), PyArray_ITEMSIZE(a), &lo, &hi);
    for (int32_t i = 0; i < nin; ++i) {
        if (ins[i].kind != TR_V_ARRAY || ins[i].typenum < 0 || !descr_of[ins[i].typenum]) continue;
        const char *alo, *ahi;
        array_extent(ins[i].array.data, ins[i].ndim, ins[i].array.shape, ins[i].array.strides,
                     PyDataType_ELSIZE(descr_of[ins[i].typenum]), &alo, &ahi);
        if (lo < ahi && alo < hi) return 1;
    }
    return 0;
}

/* One value a Python or NumPy function returned, as the type compiled code
 * gave it when it compiled (the function's result on sample arguments):
 * exactly that type -- a Python float, not a NumPy float64 -- or a
 * TypeError, never a conversion. */
static int unbox_exact(PyObject *obj, tr_value *v, PyObject *where, int32_t nin, const tr_value *ins) {
    int ok;
    switch (v->kind) {
    case TR_V_NONE: ok = obj == Py_None; break;
    case TR_V_PYBOOL: ok = PyBool_Check(obj); if (ok) v->s.b = obj == Py_True; break;
    case TR_V_PYINT:
        ok = PyLong_CheckExact(obj);
        if (ok && (v->s.i = PyLong_AsLongLong(obj)) == -1 && PyErr_Occurred()) return -1;
        break;
    case TR_V_PYFLOAT: ok = PyFloat_CheckExact(obj); if (ok) v->s.d = PyFloat_AS_DOUBLE(obj); break;
    case TR_V_PYCOMPLEX:
        ok = PyComplex_CheckExact(obj);
        if (ok) v->s.c[0] = PyComplex_RealAsDouble(obj), v->s.c[1] = PyComplex_ImagAsDouble(obj);
        break;
    case TR_V_NPSCALAR:
        ok = scalar_typenum(obj) == v->typenum;
        if (ok) PyArray_ScalarAsCtype(obj, v->s.raw);
        break;
    case TR_V_ARRAY: {
        ok = PyArray_CheckExact(obj);
        if (!ok) break;
        PyArrayObject *a = (PyArrayObject *)obj;
        if (!PyArray_IS_C_CONTIGUOUS(a)) {
            if (overlaps_an_argument(a, nin, ins)) {
                PyErr_Format(PyExc_TypeError, "%U is a strided view of an argument, which compiled code cannot "
                             "hold as NumPy does (it holds C-ordered arrays); take a copy where it is called",
                             where);
                return -1;
            }
            PyObject *copy = PyArray_NewCopy(a, NPY_CORDER);  /* a new array: C order changes no aliasing */
            if (!copy) return -1;
            int rc = unbox_value(copy, v, where);
            Py_DECREF(copy);
            return rc;
        }
        return unbox_value(obj, v, where);
    }
    case TR_V_STR:
        if (!PyUnicode_CheckExact(obj)) { ok = 0; break; }
        return unbox_value(obj, v, where);
    default: ok = 0;
    }
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%U is a value of type '%.100s', not the type compiled code was built for "
                     "(the function's result on arguments of these types); run this call in Python",
                     where, Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* module.name as Python's attribute lookup finds it now: the module from
 * sys.modules (imported if missing), the names interned once per pair (a
 * lookup costs a string hash and two dict probes).  The table is keyed by
 * the strings' contents: every compiled module has its own literals.
 * *where: "the result of module.name()", for errors (borrowed). */
static PyObject *python_function(const char *module, const char *name, PyObject **where) {
    enum { SLOTS = 1024 };
    static struct { PyObject *module_name, *attr, *where; } seen[SLOTS];
    static PyObject *somewhere;
    uint64_t h = 1469598103934665603ull;  /* FNV-1a over "module\0name" */
    for (const char *c = module; *c; ++c) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    h *= 1099511628211ull;
    for (const char *c = name; *c; ++c) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    PyObject *module_name = NULL, *attr = NULL;
    for (size_t probe = 0, slot = h % SLOTS; probe < SLOTS; ++probe, slot = (slot + 1) % SLOTS) {
        if (!seen[slot].module_name) {
            module_name = PyUnicode_InternFromString(module);
            attr = module_name ? PyUnicode_InternFromString(name) : NULL;
            *where = attr ? PyUnicode_FromFormat("the result of %s.%s()", module, name) : NULL;
            if (!*where) {
                Py_XDECREF(module_name);
                Py_XDECREF(attr);
                return NULL;
            }
            seen[slot].module_name = module_name, seen[slot].attr = attr, seen[slot].where = *where;  /* kept */
            break;
        }
        if (!strcmp(PyUnicode_AsUTF8(seen[slot].module_name), module) &&
            !strcmp(PyUnicode_AsUTF8(seen[slot].attr), name)) {
            module_name = seen[slot].module_name, attr = seen[slot].attr, *where = seen[slot].where;
            break;
        }
    }
    if (!attr) {  /* every slot taken (more than 1024 functions): looked up without the table */
        if (!somewhere && !(somewhere = PyUnicode_FromString("the result of a call into Python"))) return NULL;
        *where = somewhere;
        PyObject *mod = PyImport_ImportModule(module);
        PyObject *fn = mod ? PyObject_GetAttrString(mod, name) : NULL;
        Py_XDECREF(mod);
        return fn;
    }
    PyObject *mod = PyImport_GetModule(module_name);
    if (!mod && !PyErr_Occurred()) mod = PyImport_Import(module_name);
    PyObject *fn = mod ? PyObject_GetAttr(mod, attr) : NULL;
    Py_XDECREF(mod);
    return fn;
}

/* The tuple of keyword names a call passes, made once per list of names
 * (keyed by their contents, as python_function's table): borrowed. */
static PyObject *keyword_names(int32_t nkw, const char *const *kwnames) {
    enum { SLOTS = 256 };
    static PyObject *seen[SLOTS];
    uint64_t h = 1469598103934665603ull;
    for (int32_t i = 0; i < nkw; ++i, h *= 1099511628211ull)
        for (const char *c = kwnames[i]; *c; ++c) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    for (size_t probe = 0, slot = h % SLOTS; probe < SLOTS; ++probe, slot = (slot + 1) % SLOTS) {
        PyObject *t = seen[slot];
        if (!t) break;
        int same = PyTuple_GET_SIZE(t) == nkw;
        for (int32_t i = 0; same && i < nkw; ++i)
            same = !strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, i)), kwnames[i]);
        if (same) return t;
    }
    PyObject *t = PyTuple_New(nkw);
    for (int32_t i = 0; t && i < nkw; ++i) {
        PyObject *k = PyUnicode_InternFromString(kwnames[i]);
        if (!k) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, i, k);
    }
    if (!t) return NULL;
    for (size_t probe = 0, slot = h % SLOTS; probe < SLOTS; ++probe, slot = (slot + 1) % SLOTS)
        if (!seen[slot]) {
            seen[slot] = t;  /* kept for the process */
            return t;
        }
    PyErr_SetString(PyExc_SystemError, "too many keyword lists in calls from compiled code");
    Py_DECREF(t);
    return NULL;
}

/* module.name(*ins[:nin - nkw], **{kwnames[i]: ins[nin - nkw + i]}), the
 * function looked up at each call (python_function); its result (a tuple of
 * nout values when `tuple`, else one value) unboxed into outs exactly as
 * their kinds say. */
static int host_python_call(const char *module, const char *name, int32_t nin, tr_value *ins, int32_t nkw,
                            const char *const *kwnames, int32_t tuple, int32_t nout, tr_value *outs,
                            tr_error *err) {
    if (nin < 0 || nin > MAX_LEAVES || nkw < 0 || nkw > nin || nout < 1 || nout > MAX_LEAVES || (!tuple && nout != 1)) {
        PyErr_SetString(PyExc_SystemError, "bad call into Python from compiled code");
        return TR_ERR_PYTHON;
    }
    PyObject *where;
    PyObject *fn = python_function(module, name, &where);
    if (!fn) return TR_ERR_PYTHON;
    PyObject *names = nkw ? keyword_names(nkw, kwnames) : NULL;
    if (nkw && !names) {
        Py_DECREF(fn);
        return TR_ERR_PYTHON;
    }
    PyObject *args[MAX_LEAVES];
    PyObject *res = call_boxed(fn, nin, ins, args, names);
    Py_DECREF(fn);
    if (!res) return TR_ERR_PYTHON;
    int rc = 0;
    if (tuple && (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != nout)) {
        PyErr_Format(PyExc_TypeError, "%U is not a tuple of %d values, as compiled code was built for", where,
                     (int)nout);
        rc = -1;
    }
    int32_t taken = 0;
    while (!rc && taken < nout) {
        if (unbox_exact(tuple ? PyTuple_GET_ITEM(res, taken) : res, &outs[taken], where, nin, ins) < 0) rc = -1;
        else ++taken;
    }
    if (rc)  /* release the values already taken */
        for (int32_t j = 0; j < taken; ++j)
            if (outs[j].kind == TR_V_ARRAY) Py_CLEAR(outs[j].object);
    Py_DECREF(res);
    (void)err;
    return rc ? TR_ERR_PYTHON : TR_OK;
}

/* ufunc->functions[i] for the signature `types`: the loop NumPy's own call
 * runs (the CPU-dispatched one, chosen when numpy imported). */
static int host_ufunc_loop(const char *name, int32_t nargs, const int32_t *types, void **fn, void **data) {
    PyObject *module = PyImport_ImportModule("numpy");
    PyObject *obj = module ? PyObject_GetAttrString(module, name) : NULL;
    PyObject *ufunc_type = module ? PyObject_GetAttrString(module, "ufunc") : NULL;
    Py_XDECREF(module);
    if (!obj || !ufunc_type) {
        Py_XDECREF(obj);
        Py_XDECREF(ufunc_type);
        return TR_ERR_PYTHON;
    }
    int rc = TR_ERR_PYTHON;
    int is_ufunc = Py_IS_TYPE(obj, (PyTypeObject *)ufunc_type);  /* exactly numpy.ufunc: its C layout */
    Py_DECREF(ufunc_type);
    if (!is_ufunc) {
        PyErr_Format(PyExc_SystemError, "numpy.%s is not a ufunc", name);
    } else {
        PyUFuncObject *uf = (PyUFuncObject *)obj;
        if (uf->nin + uf->nout != nargs) {
            PyErr_Format(PyExc_SystemError, "numpy.%s takes %d operands, not %d", name, uf->nin + uf->nout, nargs);
        } else {
            for (int i = 0; i < uf->ntypes && rc != TR_OK; ++i) {
                int match = uf->functions[i] != NULL;
                for (int k = 0; k < nargs && match; ++k) match = uf->types[i * nargs + k] == types[k];
                if (match) {
                    *fn = (void *)uf->functions[i];
                    *data = uf->data ? uf->data[i] : NULL;
                    rc = TR_OK;
                }
            }
            if (rc != TR_OK) PyErr_Format(PyExc_SystemError, "numpy.%s has no loop for these types", name);
        }
    }
    Py_DECREF(obj);
    return rc;
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

/* Every service that may run Python code (a region, __float__, __del__, a write) first gives back the
 * BitGenerator lock compiled draws hold (random.c): Python on this thread, or a thread it waits for, may draw. */
#define TR_RNG_FREE(name, ret, params, args)                                                                  \
    static ret name##_rng params {                                                                             \
        host_random_release();                                                                                 \
        return name args;                                                                                      \
    }
TR_RNG_FREE(host_decref, void, (void *o), (o))
TR_RNG_FREE(host_call_region, int,
            (void *regions, int32_t region, int32_t nin, tr_value *ins, int32_t nout, tr_value *outs, tr_error *err),
            (regions, region, nin, ins, nout, outs, err))
TR_RNG_FREE(host_python_call, int,
            (const char *module, const char *name, int32_t nin, tr_value *ins, int32_t nkw,
             const char *const *kwnames, int32_t tuple, int32_t nout, tr_value *outs, tr_error *err),
            (module, name, nin, ins, nkw, kwnames, tuple, nout, outs, err))
TR_RNG_FREE(host_python_random, int, (int32_t op, int64_t a, int64_t b, double *d, int64_t *i, tr_error *err),
            (op, a, b, d, i, err))
TR_RNG_FREE(host_python_random_state, int, (tr_pyrandom *out), (out))
TR_RNG_FREE(host_to_float64, int, (void *object, double *out, const char *where, tr_error *err),
            (object, out, where, err))
TR_RNG_FREE(host_truthy, int, (void *object, int *out, tr_error *err), (object, out, err))
TR_RNG_FREE(host_seq_size, int64_t, (void *seq), (seq))
TR_RNG_FREE(host_seq_item, void *, (void *seq, int64_t i), (seq, i))
TR_RNG_FREE(host_unbox, int, (void *object, tr_value *v), (object, v))
TR_RNG_FREE(host_box, void *, (tr_value *v), (v))
TR_RNG_FREE(host_make_seq, void *, (int32_t is_list, int64_t n, void **items), (is_list, n, items))
TR_RNG_FREE(host_list_assign, int, (void *list, void *items), (list, items))
TR_RNG_FREE(host_make_container, void *, (int32_t kind, int64_t n, tr_value *items), (kind, n, items))
TR_RNG_FREE(host_text_of, void *, (void *object, int32_t repr, const char **data, int64_t *len),
            (object, repr, data, len))
TR_RNG_FREE(host_write_text, int, (int32_t file, const char *data, int64_t len, int32_t flush),
            (file, data, len, flush))

static const tr_host HOST = {TR_ABI_VERSION, host_incref, host_decref_rng, host_call_region_rng,
                             host_to_float64_rng, host_truthy_rng,
                             /* members after this are named (helpers add theirs independently) */
                             .make_container = host_make_container_rng,
                             .seq_size = host_seq_size_rng, .seq_item = host_seq_item_rng, .unbox = host_unbox_rng,
                             .box = host_box_rng, .make_seq = host_make_seq_rng, .list_assign = host_list_assign_rng,
                             .text_of = host_text_of_rng, .write_text = host_write_text_rng,
                             .random_hold = host_random_hold, .random_release = host_random_release,
                             .python_call = host_python_call_rng, .ufunc_loop = host_ufunc_loop,
                             .python_random = host_python_random_rng,
                             .python_random_state = host_python_random_state_rng};

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
