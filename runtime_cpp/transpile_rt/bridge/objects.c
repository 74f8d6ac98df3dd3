/* @jit_class objects: JitObject, layouts, registered function values, and
 * Field descriptors over compiled getters and setters.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

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
 * plain function of that code and globals without defaults (each evaluation
 * of a lambda makes a new object that behaves the same), with or without a
 * closure as registered (a closure's calls run as Python, on the object
 * passed).  Entries live as long as the process, like layouts. */
typedef struct {
    PyObject *fn, *code, *globals;
    int closure;
} FunctionKey;
static FunctionKey *fn_keys = NULL;
static int n_fn_keys = 0;

static PyObject *register_function(PyObject *mod, PyObject *args) {
    PyObject *fn, *code, *globals;
    int closure = 0;
    if (!PyArg_ParseTuple(args, "OOO|p:register_function", &fn, &code, &globals, &closure)) return NULL;
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
    fn_keys[n_fn_keys].closure = closure;
    return PyLong_FromLong(n_fn_keys++);
}

static int function_matches(PyObject *obj, int number) {
    const FunctionKey *k = &fn_keys[number];
    if (obj == k->fn) return 1;
    if (!k->code || !PyFunction_Check(obj)) return 0;
    return PyFunction_GET_CODE(obj) == k->code && PyFunction_GET_GLOBALS(obj) == k->globals &&
           !PyFunction_GET_CLOSURE(obj) == !k->closure && !PyFunction_GET_DEFAULTS(obj) &&
           !PyFunction_GET_KW_DEFAULTS(obj);
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
