/* Python's random module for compiled code: random.random(), randint() and
 * randrange() drawn from the Mersenne Twister state of random._inst itself
 * (the _random.Random the module's functions are bound to), with CPython's
 * algorithms: random() is two 32-bit outputs made into 53 bits, randrange's
 * _randbelow draws getrandbits(n.bit_length()) until the value is below n.
 * So a seeded sequence is Python's, and Python's own draws before, between
 * and after compiled ones continue the same stream.
 *
 * The state is read only while the module is as the standard library makes
 * it: random.random and random.getrandbits are the C methods of one
 * _random.Random whose C layout is the one below, randint and randrange its
 * methods from the random.Random class.  That is checked again whenever the
 * module's dict or the class changes (their version tags); otherwise, and for
 * ranges CPython rejects or int64 cannot hold, the draw calls the module's
 * function in Python.  Compiled code that draws holds the GIL, as Python's
 * own draws rely on.
 * Part of transpile._runtime: runtime.c includes it into one translation unit. */

typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[TR_MT_N];
} PyRandomLayout; /* _random.Random's object (Modules/_randommodule.c); checked against tp_basicsize */

static struct {
    PyObject *module;      /* the random module (a reference) */
    uint64_t dict_version; /* its dict's version when checked */
    unsigned int class_version;
    PyRandomLayout *inst;  /* random._inst when its state may be drawn from here, else NULL */
    int checked;
} pyrandom;

static uint32_t pyrandom_next(PyRandomLayout *r) { return tr_mt_next(&r->index, r->state); }

/* getrandbits(k), 1 <= k <= 64: 32-bit words, the first the least significant, the last shifted. */
static uint64_t pyrandom_bits(PyRandomLayout *r, int k) {
    if (k <= 32) return pyrandom_next(r) >> (32 - k);
    uint64_t low = pyrandom_next(r);
    uint64_t high = pyrandom_next(r) >> (64 - k);
    return low | (high << 32);
}

/* _randbelow_with_getrandbits(n), n >= 1. */
static uint64_t pyrandom_below(PyRandomLayout *r, uint64_t n) {
    int k = 64 - __builtin_clzll(n);
    uint64_t v = pyrandom_bits(r, k);
    while (v >= n) v = pyrandom_bits(r, k);
    return v;
}

static PyCFunction pyrandom_c_method(PyTypeObject *tp, const char *name) {
    PyObject *d = tp->tp_dict ? PyDict_GetItemString(tp->tp_dict, name) : NULL;
    return d && Py_IS_TYPE(d, &PyMethodDescr_Type) ? ((PyMethodDescrObject *)d)->d_method->ml_meth : NULL;
}

/* method `name` of module attribute bound to inst is the class's own function */
static int pyrandom_bound_to(PyObject *dict, const char *name, PyObject *inst, PyObject *cls) {
    PyObject *m = PyDict_GetItemString(dict, name);
    PyObject *f = PyObject_GetAttrString(cls, name);
    int ok = m && f && PyMethod_Check(m) && PyMethod_GET_SELF(m) == inst && PyMethod_GET_FUNCTION(m) == f;
    Py_XDECREF(f);
    PyErr_Clear();
    return ok;
}

/* random._inst when compiled draws may use its state (the checks above), else NULL; NULL with an
 * exception set when the random module cannot be imported. */
static PyRandomLayout *pyrandom_state(int *failed) {
    *failed = 0;
    if (!pyrandom.module && !(pyrandom.module = PyImport_ImportModule("random"))) {
        *failed = 1;
        return NULL;
    }
    PyObject *dict = PyModule_GetDict(pyrandom.module);
    if (pyrandom.checked && ((PyDictObject *)dict)->ma_version_tag == pyrandom.dict_version &&
        (!pyrandom.inst || Py_TYPE(pyrandom.inst)->tp_version_tag == pyrandom.class_version))
        return pyrandom.inst;
    pyrandom.inst = NULL;
    pyrandom.checked = 1;
    pyrandom.dict_version = ((PyDictObject *)dict)->ma_version_tag;
    PyObject *c_module = PyImport_ImportModule("_random");
    PyObject *c_class = c_module ? PyObject_GetAttrString(c_module, "Random") : NULL;
    Py_XDECREF(c_module);
    PyObject *rnd = PyDict_GetItemString(dict, "random"), *bits = PyDict_GetItemString(dict, "getrandbits");
    PyObject *cls = PyDict_GetItemString(dict, "Random");
    if (c_class && PyType_Check(c_class) && rnd && bits && cls && PyCFunction_Check(rnd) && PyCFunction_Check(bits)) {
        PyObject *inst = PyCFunction_GET_SELF(rnd);
        PyTypeObject *ct = (PyTypeObject *)c_class;
        if (inst && PyCFunction_GET_SELF(bits) == inst && (PyObject *)Py_TYPE(inst) == cls &&
            PyObject_TypeCheck(inst, ct) && ct->tp_basicsize == (Py_ssize_t)sizeof(PyRandomLayout) &&
            PyCFunction_GET_FUNCTION(rnd) == pyrandom_c_method(ct, "random") &&
            PyCFunction_GET_FUNCTION(bits) == pyrandom_c_method(ct, "getrandbits") &&
            pyrandom_bound_to(dict, "randint", inst, cls) && pyrandom_bound_to(dict, "randrange", inst, cls) &&
            PyType_HasFeature(Py_TYPE(inst), Py_TPFLAGS_VALID_VERSION_TAG)) {
            pyrandom.inst = (PyRandomLayout *)inst;
            pyrandom.class_version = Py_TYPE(inst)->tp_version_tag;
        }
    }
    Py_XDECREF(c_class);
    PyErr_Clear();
    return pyrandom.inst;
}

/* The module's own function, called in Python: its result must be a float (op 0) or an int. */
static int pyrandom_in_python(int32_t op, int64_t a, int64_t b, double *d, int64_t *i) {
    static const char *const names[4] = {"random", "randint", "randrange", "randrange"};
    PyObject *res = op == 0 ? PyObject_CallMethod(pyrandom.module, names[op], NULL)
                  : op == 3 ? PyObject_CallMethod(pyrandom.module, names[op], "L", (long long)a)
                  : PyObject_CallMethod(pyrandom.module, names[op], "LL", (long long)a, (long long)b);
    if (!res) return TR_ERR_PYTHON;
    int ok = op == 0 ? PyFloat_CheckExact(res) : PyLong_CheckExact(res);
    if (ok && op == 0) *d = PyFloat_AS_DOUBLE(res);
    if (ok && op != 0 && (*i = PyLong_AsLongLong(res)) == -1 && PyErr_Occurred()) ok = -1;
    if (!ok)
        PyErr_Format(PyExc_TypeError, "random.%s() returned a value of type '%.100s', not the %s compiled code "
                     "was built for", names[op], Py_TYPE(res)->tp_name, op == 0 ? "float" : "int");
    Py_DECREF(res);
    return ok == 1 ? TR_OK : TR_ERR_PYTHON;
}

/* op 0: random.random() into *d; op 1: random.randint(a, b), op 2: random.randrange(a, b), op 3:
 * random.randrange(a), into *i. */
static int host_python_random(int32_t op, int64_t a, int64_t b, double *d, int64_t *i, tr_error *err) {
    (void)err;
    int failed;
    PyRandomLayout *r = pyrandom_state(&failed);
    if (failed) return TR_ERR_PYTHON;
    if (op < 0 || op > 3) {
        PyErr_SetString(PyExc_SystemError, "bad random draw from compiled code");
        return TR_ERR_PYTHON;
    }
    if (r && op == 0) {
        *d = tr_mt_random(&r->index, r->state);
        return TR_OK;
    }
    if (r) {
        __int128 start = op == 3 ? 0 : a, stop = op == 1 ? (__int128)b + 1 : op == 3 ? a : b;
        __int128 width = stop - start;
        if (width > 0 && width <= (__int128)UINT64_MAX) {  /* else CPython's ValueError, from Python */
            *i = (int64_t)(start + (__int128)pyrandom_below(r, (uint64_t)width));
            return TR_OK;
        }
    }
    return pyrandom_in_python(op, a, b, d, i);
}

/* Where compiled code may draw random.random() itself (python_random.hpp):
 * the state of random._inst and the version tags that must still hold, or
 * state NULL where only the calls above may draw. */
static int host_python_random_state(tr_pyrandom *out) {
    int failed;
    PyRandomLayout *r = pyrandom_state(&failed);
    memset(out, 0, sizeof *out);
    if (failed) return TR_ERR_PYTHON;
    if (!r) return TR_OK;
    out->index = &r->index;
    out->state = r->state;
    out->dict_version = &((PyDictObject *)PyModule_GetDict(pyrandom.module))->ma_version_tag;
    out->dict_expected = pyrandom.dict_version;
    out->class_version = &Py_TYPE(r)->tp_version_tag;
    out->class_expected = pyrandom.class_version;
    return TR_OK;
}
