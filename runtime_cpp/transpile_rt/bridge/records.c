/* Structured dtypes: record arrays and single records (np.void, np.record).
 * A descriptor names a structured dtype by a number of this process's table,
 * RECORD_BASE + n, in the typenum of a K_ARRAY node or of a K_RECORD node.
 * An entry is the dtype (fields, offsets and itemsize compared by NumPy's
 * equality, its aligned-struct flag and scalar type too), whether the value
 * is an np.recarray, and whether its data is aligned
 * for the fields that can be strided arrays of their own (compiled code views
 * a field as one only then).
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

enum { K_RECORD = 18 }; /* a single record: slot tr_array_in (argument) / tr_array_out (result) */
#define RECORD_BASE 1024
#define MAX_RECORDS 512

typedef struct {
    PyArray_Descr *descr; /* a reference held for the life of the process */
    int recarray;         /* an np.recarray (records are np.record) rather than an ndarray */
    int aligned;          /* data and strides multiples of align */
    int align;            /* the largest alignment of a field that can be viewed as an array */
} RecordEntry;

static RecordEntry records[MAX_RECORDS];
static int n_records;
static PyObject *recarray_type; /* numpy.recarray, looked up once */

static int is_record_num(int t) { return t >= RECORD_BASE && t < RECORD_BASE + n_records; }

static PyArray_Descr *descr_of_num(int t) {
    if (is_record_num(t)) return records[t - RECORD_BASE].descr;
    return t >= 0 && t < NPY_NTYPES_LEGACY ? descr_of[t] : NULL;
}

/* Why the fields of d cannot be compiled, or NULL; *align gets the largest
 * alignment of those that can be viewed as arrays of their own type. */
static const char *record_problem(PyArray_Descr *d, int *align) {
    PyObject *names = PyDataType_NAMES(d), *fields = PyDataType_FIELDS(d);
    if (!PyArray_ISNBO(d->byteorder)) return "its byte order is not the machine's";
    *align = 1;
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (n == 0) return "it has no fields";
    if (PyDict_Size(fields) != n) return "its fields have titles";
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject *info = PyDict_GetItem(fields, PyTuple_GET_ITEM(names, i));
        if (!info || PyTuple_GET_SIZE(info) != 2) return "its fields have titles";
        PyArray_Descr *f = (PyArray_Descr *)PyTuple_GET_ITEM(info, 0);
        int sub = PyDataType_HASSUBARRAY(f);
        if (sub) f = PyDataType_SUBARRAY(f)->base; /* ('v', 'f8', (3,)): its elements' type */
        if (PyDataType_HASFIELDS(f)) { /* a nested structure: read record by record (no alignment needed) */
            int inner = 1;
            if (sub) return "a field is a subarray of structures, which compiled code does not support";
            const char *why = record_problem(f, &inner);
            if (why) return why;
            continue;
        }
        if (PyDataType_HASSUBARRAY(f)) return "a field is a subarray of subarrays";
        int t = f->type_num;
        if (t < 0 || t >= NPY_NTYPES_LEGACY || canonical_typenum[t] < 0 || t == NPY_CLONGDOUBLE)
            return "a field's dtype is not a supported number type";
        if (!PyArray_ISNBO(f->byteorder))
            return "a field's byte order is not the machine's (use .astype(arr.dtype.newbyteorder('=')))";
        /* only fields that can be strided arrays of their own (RecordDtype.viewable) need aligned data */
        long offset = PyLong_AsLong(PyTuple_GET_ITEM(info, 1));
        int viewable = PyDataType_ELSIZE(d) % PyDataType_ELSIZE(f) == 0 && offset % PyDataType_ALIGNMENT(f) == 0;
        if (viewable && PyDataType_ALIGNMENT(f) > *align) *align = (int)PyDataType_ALIGNMENT(f);
    }
    return NULL;
}

static int record_matches(const RecordEntry *e, PyArray_Descr *d, int recarray, int aligned) {
    if (e->recarray != recarray || e->aligned != aligned) return 0;
    if (e->descr == d) return 1;
    if (e->descr->typeobj != d->typeobj || PyDataType_ELSIZE(e->descr) != PyDataType_ELSIZE(d) ||
        (PyDataType_FLAGS(e->descr) & NPY_ALIGNED_STRUCT) != (PyDataType_FLAGS(d) & NPY_ALIGNED_STRUCT))
        return 0;
    return PyObject_RichCompareBool((PyObject *)e->descr, (PyObject *)d, Py_EQ) == 1;
}

/* The typenum (RECORD_BASE + n) of records of dtype d at `data`, registered
 * on first sight; -1 with an exception set when they cannot be compiled. */
static int record_num(PyArray_Descr *d, int recarray, const char *data, const npy_intp *strides, int ndim) {
    int align = 1;
    const char *why = record_problem(d, &align);
    if (why) {
        PyErr_Format(PyExc_TypeError, "cannot pass records of dtype %S to compiled code: %s", (PyObject *)d, why);
        return -1;
    }
    int aligned = ((uintptr_t)data % (uintptr_t)align) == 0;
    for (int k = 0; k < ndim; ++k) aligned &= strides[k] % align == 0;
    for (int i = 0; i < n_records; ++i)
        if (record_matches(&records[i], d, recarray, aligned)) return RECORD_BASE + i;
    if (n_records == MAX_RECORDS) {
        PyErr_SetString(PyExc_TypeError, "too many structured dtypes for compiled code in this process");
        return -1;
    }
    Py_INCREF(d);
    records[n_records] = (RecordEntry){d, recarray, aligned, align};
    return RECORD_BASE + n_records++;
}

static int is_recarray(PyObject *obj) {
    if (!recarray_type) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np) return -1;
        recarray_type = PyObject_GetAttrString(np, "recarray");
        Py_DECREF(np);
        if (!recarray_type) return -1;
    }
    return Py_TYPE(obj) == (PyTypeObject *)recarray_type;
}

/* The record typenum of an array or record object, 0 when obj holds no
 * records, -1 with an exception set when it cannot be passed. */
static int record_num_of(PyObject *obj) {
    if (PyArray_Check(obj)) {
        PyArrayObject *a = (PyArrayObject *)obj;
        if (!PyDataType_HASFIELDS(PyArray_DESCR(a))) return 0;
        int rec = is_recarray(obj);
        if (rec < 0) return -1;
        if (!rec && Py_TYPE(obj) != &PyArray_Type) {
            PyErr_Format(PyExc_TypeError, "arrays of type '%.100s' with a structured dtype are not supported",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        if (PyArray_NDIM(a) > TR_MAX_NDIM) {
            PyErr_SetString(PyExc_TypeError, "cannot pass this array to compiled code: it has more than 32 dimensions");
            return -1;
        }
        npy_intp item = PyArray_ITEMSIZE(a);
        for (int k = 0; k < PyArray_NDIM(a); ++k)
            if (PyArray_STRIDES(a)[k] % item) {
                PyErr_SetString(PyExc_TypeError, "cannot pass this record array to compiled code: its strides are "
                                                 "not multiples of its item size (pass a copy)");
                return -1;
            }
        return record_num(PyArray_DESCR(a), rec, PyArray_BYTES(a), PyArray_STRIDES(a), PyArray_NDIM(a));
    }
    if (PyArray_IsScalar(obj, Void)) {
        PyVoidScalarObject *v = (PyVoidScalarObject *)obj;
        if (!PyDataType_HASFIELDS(v->descr)) return 0;
        if (!(v->flags & NPY_ARRAY_WRITEABLE)) {
            PyErr_SetString(PyExc_TypeError, "cannot pass a read-only record (of a read-only array) to compiled code");
            return -1;
        }
        return record_num(v->descr, Py_TYPE(obj) != &PyVoidArrType_Type, v->obval, NULL, 0);
    }
    return 0;
}

/* Whether obj is an array of the records n names (any layout: the caller checks). */
static int record_array_matches(PyArrayObject *a, int num) {
    const RecordEntry *e = &records[num - RECORD_BASE];
    PyArray_Descr *d = PyArray_DESCR(a);
    if (e->descr != d && !PyDataType_HASFIELDS(d)) return 0;
    int rec = e->recarray ? is_recarray((PyObject *)a) == 1 : Py_TYPE(a) == &PyArray_Type;
    if (!rec) return 0;
    int aligned = ((uintptr_t)PyArray_BYTES(a) % (uintptr_t)e->align) == 0;
    npy_intp item = PyArray_ITEMSIZE(a);
    for (int k = 0; k < PyArray_NDIM(a); ++k) {
        if (PyArray_STRIDES(a)[k] % item) return 0;
        aligned &= PyArray_STRIDES(a)[k] % e->align == 0;
    }
    return record_matches(e, d, e->recarray, aligned);
}

static int record_scalar_matches(PyObject *obj, int num) {
    const RecordEntry *e = &records[num - RECORD_BASE];
    if (!PyArray_IsScalar(obj, Void)) return 0;
    PyVoidScalarObject *v = (PyVoidScalarObject *)obj;
    if ((Py_TYPE(obj) != &PyVoidArrType_Type) != e->recarray || !(v->flags & NPY_ARRAY_WRITEABLE)) return 0;
    int aligned = ((uintptr_t)v->obval % (uintptr_t)e->align) == 0;
    return record_matches(e, v->descr, e->recarray, aligned);
}

/* A record result: the np.void (np.record) viewing the array it lies in, or
 * the record argument itself. */
static PyObject *box_record(const Node *node, tr_array_out *o) {
    PyArray_Descr *d = descr_of_num(node->typenum);
    if (!o->owner || !d) {
        PyErr_SetString(PyExc_SystemError, "compiled code returned a record without the array it lies in");
        return NULL;
    }
    PyObject *owner = (PyObject *)o->owner;
    if (PyArray_IsScalar(owner, Void)) {
        if (((PyVoidScalarObject *)owner)->obval == o->data) return Py_NewRef(owner);
        PyErr_SetString(PyExc_SystemError, "compiled code returned a record inside a record");
        return NULL;
    }
    return PyArray_Scalar(o->data, d, owner);
}

/* record_dtype(num) -> (dtype, recarray, aligned): what a record typenum names. */
static PyObject *record_info(PyObject *mod, PyObject *arg) {
    long num = PyLong_AsLong(arg);
    if (num == -1 && PyErr_Occurred()) return NULL;
    if (!is_record_num((int)num)) {
        PyErr_SetString(PyExc_ValueError, "no such record type number");
        return NULL;
    }
    const RecordEntry *e = &records[num - RECORD_BASE];
    return Py_BuildValue("Oii", (PyObject *)e->descr, e->recarray, e->aligned);
}

/* register_record(dtype, recarray, aligned) -> num: the number of these records (cache entries name dtypes by value). */
static PyObject *register_record(PyObject *mod, PyObject *args) {
    PyObject *dt;
    int recarray, aligned;
    if (!PyArg_ParseTuple(args, "Opp:register_record", &dt, &recarray, &aligned)) return NULL;
    PyArray_Descr *d = NULL;
    if (!PyArray_DescrConverter(dt, &d)) return NULL;
    int align = 1;
    const char *why = PyDataType_HASFIELDS(d) ? record_problem(d, &align) : "it is not a structured dtype";
    if (why) {
        PyErr_Format(PyExc_TypeError, "cannot compile records of dtype %S: %s", (PyObject *)d, why);
        Py_DECREF(d);
        return NULL;
    }
    for (int i = 0; i < n_records; ++i)
        if (record_matches(&records[i], d, recarray, aligned)) {
            Py_DECREF(d);
            return PyLong_FromLong(RECORD_BASE + i);
        }
    if (n_records == MAX_RECORDS) {
        Py_DECREF(d);
        PyErr_SetString(PyExc_TypeError, "too many structured dtypes for compiled code in this process");
        return NULL;
    }
    records[n_records] = (RecordEntry){d, recarray, aligned, align};
    return PyLong_FromLong(RECORD_BASE + n_records++);
}
