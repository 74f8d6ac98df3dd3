/* The Dispatcher type: the vectorcall fast path over a function's
 * specializations, live-global guards, and the methods the Python side uses.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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

/* Runs an entry on filled slots: its error record cleared, the GIL released
 * when the specialization may run without it.  Returns the entry's status. */
static inline int call_entry(const Overload *ov, void *const *argp, void *const *resp, tr_error *err) {
    err->code = 0;
    err->line = 0;
    err->message[0] = 0;
    interrupt_requested = 0; /* a Ctrl-C before this call was Python's to handle */
    int rc;
    if (ov->nogil) {
        Py_BEGIN_ALLOW_THREADS
        rc = ov->fn(argp, resp, err);
        Py_END_ALLOW_THREADS
    } else {
        rc = ov->fn(argp, resp, err);
    }
    return rc;
}

static PyObject *entry_failed(Dispatcher *self, const tr_error *err) {
    PyObject *result = raise_entry_error(self, err);
    if (!result && !PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "entry failed");
    return result;
}

/* A specialization of Python numbers only: each argument a float, int or
 * bool, the result one or None (add(x, y)).  Matched, called and boxed
 * here, in a frame of a few slots, with no tree walk: such calls cost less
 * than CPython's call of the undecorated function.  Returns 1 with *result
 * set (NULL with an exception), or 0 when the arguments do not match. */
#define MAX_NUMBERS 8

static inline __attribute__((always_inline)) int call_numbers(Dispatcher *self, const Overload *ov,
                                                              PyObject *const *args, Py_ssize_t nargs,
                                                              PyObject **result) {
    Slot slots[MAX_NUMBERS], res;
    void *argp[MAX_NUMBERS];
    for (Py_ssize_t i = 0; i < nargs; ++i) {
        int r = unpack_number(args[i], ov->args[i].kind, &slots[i]);
        if (r != 1) {
            *result = NULL;
            return r < 0;
        }
        argp[i] = &slots[i];
    }
    void *resp[1] = {&res};  /* written by the entry when it succeeds */
    tr_error err;
    if (call_entry(ov, argp, resp, &err) != 0)
        *result = entry_failed(self, &err);
    else
        *result = ov->res_number ? box_number(ov->res_number, &res) : Py_NewRef(Py_None);
    return 1;
}

static PyObject *try_overloads(Dispatcher *self, PyObject *const *args, Py_ssize_t nargs) {
    Slot slots[MAX_LEAVES];
    void *argp[MAX_LEAVES];
    DeviceDims dd;
    for (int oi = 0; oi < self->n_overloads; ++oi) {
        Overload *ov = &self->overloads[oi];
        if (ov->nargs != nargs) continue;
        if (ov->guards && !guards_current(ov)) continue;
        if (ov->numbers) {
            PyObject *result;
            if (call_numbers(self, ov, args, nargs, &result)) return result;
            continue;
        }
        int ni = 0, si = 0, ok = 1;
        dd.used = 0;
        for (Py_ssize_t i = 0; i < nargs && ok; ++i) {
            int kind = ov->args[ni].kind, r;
            if (is_number_kind(kind)) {  /* a leaf: no call of the tree walk */
                r = unpack_number(args[i], kind, &slots[si]);
                ++ni;
                si += r == 1;
            } else {
                r = unpack(args[i], ov->args, &ni, slots, &si, &dd);
            }
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
        if (ov->res_number) {  /* one number: its slot, without the walk below */
            rslots[0].c[0] = rslots[0].c[1] = 0;
            resp[0] = &rslots[0];
        }
        for (int i = ov->res_number ? res_nodes : 0; i < res_nodes; ++i) {
            int k = ov->res[i].kind;
            if (k == K_NONE || k == K_TUPLE) continue;
            if (k == K_ARRAY || k == K_RECORD) {
                memset(&aouts[ai], 0, sizeof(tr_array_out));
                resp[ri++] = &aouts[ai++];
            } else {
                rslots[ri].c[0] = rslots[ri].c[1] = 0;
                if (k == K_STR) {  /* all three fields: a failed call releases its buffer (drop_results) */
                    _Static_assert(sizeof(Slot) >= sizeof(tr_str), "a str result fills one slot");
                    memset(&rslots[ri], 0, sizeof(tr_str));
                }
                if (k == K_LIST) {
                    rslots[ri].l.object = NULL;
                    rslots[ri].l.host = &HOST;
                }
                resp[ri] = &rslots[ri];
                ++ri;
            }
        }
        tr_error err;
        PyObject *result;
        if (call_entry(ov, argp, resp, &err) != 0) {
            drop_results(ov->res, res_nodes, resp);
            result = entry_failed(self, &err);
        } else {
            int bi = 0, bs = 0;
            result = ov->res_number ? box_number(ov->res_number, resp[0]) : box(ov->res, &bi, resp, &bs);
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
/* Whether a traceback entry's frame runs transpile's own Python code. */
static int in_transpile(PyObject *tb, PyObject *package_dir) {
    PyObject *frame = PyObject_GetAttrString(tb, "tb_frame");
    PyObject *code = frame ? PyObject_GetAttrString(frame, "f_code") : NULL;
    PyObject *file = code ? PyObject_GetAttrString(code, "co_filename") : NULL;
    int inside = file && PyUnicode_Check(file) && PyUnicode_Tailmatch(file, package_dir, 0, PY_SSIZE_T_MAX, -1) == 1;
    Py_XDECREF(file);
    Py_XDECREF(code);
    Py_XDECREF(frame);
    PyErr_Clear();
    return inside;
}

/* An exception of the user's own code (raised by a statement run as Python,
 * by the function run in CPython, or by compiled code: then it carries the
 * "raised in compiled code at FILE:LINE" note) loses the frames of
 * transpile's call machinery between the user's call and the user's line,
 * as if the call had gone straight to the function.  An exception raised by
 * transpile's own code keeps every frame. */
static PyObject *without_transpile_frames(PyObject *value, PyObject *tb) {
    PyObject *mod = PyImport_ImportModule("transpile");
    PyObject *init = mod ? PyObject_GetAttrString(mod, "__file__") : NULL;
    Py_XDECREF(mod);
    PyObject *package_dir = NULL;
    if (init && PyUnicode_Check(init)) {
        Py_ssize_t cut = PyUnicode_FindChar(init, '/', 0, PyUnicode_GET_LENGTH(init), -1);
        if (cut > 0) package_dir = PyUnicode_Substring(init, 0, cut + 1);
    }
    Py_XDECREF(init);
    PyObject *kept = PyList_New(0), *last = NULL;
    for (PyObject *t = tb; package_dir && kept && t && t != Py_None;) {
        if (!in_transpile(t, package_dir) && PyList_Append(kept, t) < 0) Py_CLEAR(kept);
        last = t;
        PyObject *next = PyObject_GetAttrString(t, "tb_next");
        Py_XDECREF(next);  /* still referenced by t */
        t = next;
    }
    int from_user = kept && last && (!in_transpile(last, package_dir) || PyObject_HasAttrString(value, "__notes__"));
    PyObject *head = tb;
    if (from_user && PyList_GET_SIZE(kept) < 64) {
        Py_ssize_t n = PyList_GET_SIZE(kept);
        for (Py_ssize_t i = 0; i < n; ++i)
            if (PyObject_SetAttrString(PyList_GET_ITEM(kept, i), "tb_next",
                                       i + 1 < n ? PyList_GET_ITEM(kept, i + 1) : Py_None) < 0) break;
        head = n ? PyList_GET_ITEM(kept, 0) : Py_None;
    }
    Py_INCREF(head);
    Py_XDECREF(kept);
    Py_XDECREF(package_dir);
    PyErr_Clear();
    return head;
}

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
    } else if (value && tb) {
        PyObject *trimmed = without_transpile_frames(value, tb);
        Py_SETREF(tb, trimmed == Py_None ? NULL : trimmed);
        if (trimmed == Py_None) Py_DECREF(trimmed);
        PyException_SetTraceback(value, tb ? tb : Py_None);
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

/* Every call but the one-specialization number call: keywords and too many
 * arguments to the slow path, defaults filled in, the specializations tried
 * in order.  Out of the vectorcall, so that its frame (an argument array)
 * is not made for the number call. */
static __attribute__((noinline)) PyObject *dispatch(Dispatcher *self, PyObject *const *args, Py_ssize_t nargs,
                                                    PyObject *kwnames) {
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

static PyObject *dispatcher_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    Dispatcher *self = (Dispatcher *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (self->n_overloads == 1 && !kwnames) {  /* one specialization, of numbers: straight to it */
        const Overload *ov = self->overloads;
        PyObject *r;
        if (ov->numbers && ov->nargs == nargs && !ov->guards && nargs <= self->max_positional &&
            call_numbers(self, ov, args, nargs, &r))
            return r;
    }
    return dispatch(self, args, nargs, kwnames);
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
        if (r[i].kind == K_ARRAY || r[i].kind == K_RECORD) ++ov->res_arrays;
    ov->res_number = ov->res_nodes == 1 && is_number_kind(r[0].kind) ? r[0].kind : 0;
    ov->numbers = nargs <= MAX_NUMBERS && (ov->res_number || r[0].kind == K_NONE);
    for (int i = 0; i < nargs; ++i)  /* prefix order: leaves only, so node i is argument i */
        if (!is_number_kind(a[i].kind)) ov->numbers = 0;
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
