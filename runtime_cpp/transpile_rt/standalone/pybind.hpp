// The Python side of a standalone module (`transpile build --standalone`):
// pybind11 in place of transpile's bridge.  It matches arguments against the
// descriptors of each exported signature (transpile/hir/descriptors.py), as
// the bridge does, fills the entry's slots (abi.h), calls it without the GIL
// and boxes the result slots; an entry's error becomes the Python exception
// the bridge would raise.  Only what crosses without the bridge's host table
// is accepted here (scalars, arrays, tuples, None): transpile/standalone.py
// refuses the rest before generating a module.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string.h>

#include <exception>
#include <string>
#include <vector>

#include "../abi.h"
#include "../exceptions.h"

namespace tr::standalone {

namespace py = pybind11;

// Descriptor kinds (hir/descriptors.py): only those standalone.py lets through.
enum Kind { K_NONE = 0, K_PYBOOL, K_PYINT, K_PYFLOAT, K_PYCOMPLEX, K_NPSCALAR, K_ARRAY, K_TUPLE,
            K_OPTIONAL = 14, K_MAYBE_WEAK = 15 };
enum Layout { LAYOUT_C = 0, LAYOUT_F = 1, LAYOUT_A = 2 };

struct Overload {
    tr_entry_fn entry;
    std::vector<int> args;    // the descriptors of the arguments, one tree each
    std::vector<int> result;  // the result's tree
    const char *signature;    // "scale(float64[:], float64)"
};

struct Export {
    const char *name;
    const char *file;  // the Python file, for the note on errors
    std::vector<const char *> params;
    std::vector<Overload> overloads;
    std::string doc = {};   // the compiled signatures, one a line (define())
    PyMethodDef def = {};   // the function object's definition, kept as long as the module
};

union ArgSlot {
    unsigned char raw[16];
    int64_t i;
    double d;
    uint8_t b;
    double c[2];
    tr_array_in a;
};

union ResultSlot {
    unsigned char raw[16];
    tr_array_out a;
};

// NumPy's C API table (what import_array() loads), for the three scalar
// functions pybind11 does not wrap: making a NumPy scalar through a 0-d array
// cost more than the rest of a call.  The indices are NumPy's stable ABI.
inline void **numpy_api() {
    static void **api = [] {
        py::module_ m;
        try {
            m = py::module_::import("numpy._core._multiarray_umath");
        } catch (py::error_already_set &) {
            m = py::module_::import("numpy.core._multiarray_umath");  // NumPy 1.x
        }
        void **table = (void **)PyCapsule_GetPointer(m.attr("_ARRAY_API").ptr(), nullptr);
        if (!table) throw py::error_already_set();
        return table;
    }();
    return api;
}

inline py::object scalar_from(void *data, const py::dtype &dt) {  // PyArray_Scalar
    PyObject *r = ((PyObject * (*)(void *, PyObject *, PyObject *)) numpy_api()[60])(data, dt.ptr(), nullptr);
    if (!r) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(r);
}

inline py::dtype scalar_dtype(py::handle obj) {  // PyArray_DescrFromScalar
    PyObject *d = ((PyObject * (*)(PyObject *)) numpy_api()[57])(obj.ptr());
    if (!d) throw py::error_already_set();
    return py::reinterpret_steal<py::dtype>(d);
}

inline void scalar_value(py::handle obj, void *out) {  // PyArray_ScalarAsCtype
    ((void (*)(PyObject *, void *))numpy_api()[62])(obj.ptr(), out);
}

inline const char *layout_name(int layout) { return layout == LAYOUT_C ? "C" : layout == LAYOUT_F ? "F" : "A"; }

inline int array_layout(const py::array &a) {
    if (a.flags() & py::array::c_style) return LAYOUT_C;
    if (a.flags() & py::array::f_style) return LAYOUT_F;
    return LAYOUT_A;
}

// The length of the tree at d[i] in descriptor entries.
inline int tree_size(const std::vector<int> &d, int i) {
    switch (d[i]) {
    case K_NPSCALAR: return 2;
    case K_ARRAY: return 5;
    case K_TUPLE: {
        int n = d[i + 1], j = i + 2;
        for (int k = 0; k < n; ++k) j += tree_size(d, j);
        return j - i;
    }
    case K_OPTIONAL: case K_MAYBE_WEAK: return 1 + tree_size(d, i + 1);
    default: return 1;
    }
}

// Slots a tree takes (None none, a tuple its items', an optional a flag and its value's).
inline int tree_slots(const std::vector<int> &d, int i) {
    switch (d[i]) {
    case K_NONE: return 0;
    case K_TUPLE: {
        int n = d[i + 1], j = i + 2, s = 0;
        for (int k = 0; k < n; ++k) {
            s += tree_slots(d, j);
            j += tree_size(d, j);
        }
        return s;
    }
    case K_OPTIONAL: case K_MAYBE_WEAK: return 1 + tree_slots(d, i + 1);
    default: return 1;
    }
}

// Slots of all the trees of `d` (the arguments: one tree each).
inline int total_slots(const std::vector<int> &d) {
    int s = 0;
    for (int i = 0; i < (int)d.size(); i += tree_size(d, i)) s += tree_slots(d, i);
    return s;
}

// Matches `obj` against the tree at d[*i], filling slots; false when it does
// not match (`why` says how, for the TypeError when no signature does).
inline bool unpack(py::handle obj, const std::vector<int> &d, int *i, ArgSlot *slots, int *s, std::string *why) {
    int kind = d[(*i)++];
    PyObject *o = obj.ptr();
    switch (kind) {
    case K_NONE: return obj.is_none();
    case K_PYBOOL:
        if (!PyBool_Check(o)) return false;
        slots[(*s)++].b = o == Py_True;
        return true;
    case K_PYFLOAT:
        if (!PyFloat_CheckExact(o)) return false;
        slots[(*s)++].d = PyFloat_AS_DOUBLE(o);
        return true;
    case K_PYCOMPLEX:
        if (!PyComplex_CheckExact(o)) return false;
        slots[*s].c[0] = PyComplex_RealAsDouble(o);
        slots[(*s)++].c[1] = PyComplex_ImagAsDouble(o);
        return true;
    case K_PYINT: {
        if (!PyLong_CheckExact(o)) return false;
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to int64 (compiled code uses 64-bit integers)");
            throw py::error_already_set();
        }
        slots[(*s)++].i = v;
        return true;
    }
    case K_NPSCALAR: {
        py::dtype want(d[(*i)++]);
        static py::object generic = py::module_::import("numpy").attr("generic");
        if (!py::isinstance(obj, generic)) return false;
        py::dtype have = scalar_dtype(obj);
        if (!have.equal(want) || have.kind() != want.kind()) return false;
        scalar_value(obj, slots[(*s)++].raw);
        return true;
    }
    case K_ARRAY: {
        py::dtype want(d[*i]);
        int ndim = d[*i + 1], layout = d[*i + 2], readonly = d[*i + 3];
        *i += 4;
        if (!py::isinstance<py::array>(obj)) return false;
        auto a = py::reinterpret_borrow<py::array>(obj);
        if (!a.dtype().equal(want) || a.dtype().kind() != want.kind() || a.ndim() != ndim) return false;
        if (!(a.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_)) {
            *why = "its data is not aligned (pass a copy)";
            return false;
        }
        if (!readonly && !a.writeable()) {
            *why = "it is read-only and the compiled signature takes a writable array";
            return false;
        }
        if (layout != LAYOUT_A && array_layout(a) != layout) {
            *why = std::string("the compiled signature takes a ") + (layout == LAYOUT_C ? "C" : "Fortran") +
                   "-contiguous array (pass np." + (layout == LAYOUT_C ? "ascontiguousarray" : "asfortranarray") +
                   "(...))";
            return false;
        }
        for (int k = 0; k < ndim; ++k)
            if (a.strides()[k] % a.itemsize()) {
                *why = "its strides are not multiples of its item size (pass a copy)";
                return false;
            }
        tr_array_in *in = &slots[(*s)++].a;
        in->data = (char *)a.data();
        in->shape = (const int64_t *)a.shape();
        in->strides = (const int64_t *)a.strides();
        in->owner = o;
        return true;
    }
    case K_TUPLE: {
        int n = d[(*i)++];
        if (!PyTuple_CheckExact(o) || PyTuple_GET_SIZE(o) != n) return false;
        for (int k = 0; k < n; ++k)
            if (!unpack(PyTuple_GET_ITEM(o, k), d, i, slots, s, why)) return false;
        return true;
    }
    }
    return false;
}

inline void release_buffer(tr_buffer *b) {
    if (b && __atomic_sub_fetch(&b->refcount, 1, __ATOMIC_ACQ_REL) == 0) b->release(b);
}

inline py::object box_array(const py::dtype &dt, int ndim, tr_array_out *o) {
    std::vector<py::ssize_t> shape(o->shape, o->shape + ndim), strides(o->strides, o->strides + ndim);
    if (o->buffer) {  // heap memory of the generated code: the array owns one reference to it
        tr_buffer *b = o->buffer;
        o->buffer = nullptr;
        py::capsule owner(b, [](void *p) { release_buffer(static_cast<tr_buffer *>(p)); });
        return py::array(dt, shape, strides, o->data, owner);
    }
    if (o->owner) {  // an argument, or a view of one: `return u` returns the caller's array itself
        auto base = py::reinterpret_borrow<py::array>((PyObject *)o->owner);
        bool same = base.data() == o->data && base.ndim() == ndim && base.dtype().equal(dt);
        for (int k = 0; same && k < ndim; ++k)
            same = base.shape()[k] == o->shape[k] && (o->shape[k] <= 1 || base.strides()[k] == o->strides[k]);
        if (same) return base;
        return py::array(dt, shape, strides, o->data, base);  // writable as its base is
    }
    if (!o->data) return py::array(dt, shape);
    return py::array(dt, shape, strides, o->data);  // constant data of the module: a copy the caller owns
}

inline py::object box(const std::vector<int> &d, int *i, ResultSlot *slots, int *s) {
    int kind = d[(*i)++];
    switch (kind) {
    case K_NONE: return py::none();
    case K_PYBOOL: return py::bool_(slots[(*s)++].raw[0] != 0);
    case K_PYINT: return py::int_(*(int64_t *)slots[(*s)++].raw);
    case K_PYFLOAT: return py::float_(*(double *)slots[(*s)++].raw);
    case K_PYCOMPLEX: {
        double *c = (double *)slots[(*s)++].raw;
        return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(c[0], c[1]));
    }
    case K_NPSCALAR: {
        py::dtype dt(d[(*i)++]);
        return scalar_from(slots[(*s)++].raw, dt);
    }
    case K_ARRAY: {
        py::dtype dt(d[*i]);
        int ndim = d[*i + 1];
        *i += 4;
        return box_array(dt, ndim, &slots[(*s)++].a);
    }
    case K_MAYBE_WEAK: {  // CPython gave a Python number on this path
        bool weak = slots[(*s)++].raw[0] != 0;
        if (!weak || d[*i] != K_NPSCALAR) return box(d, i, slots, s);
        py::object np = box(d, i, slots, s);
        switch (py::dtype(d[*i - 1]).kind()) {
        case 'b': return py::bool_(PyObject_IsTrue(np.ptr()) == 1);
        case 'i': case 'u': return py::int_(np);
        case 'f': return py::float_(np);
        default: return py::reinterpret_steal<py::object>(PyComplex_FromCComplex(PyComplex_AsCComplex(np.ptr())));
        }
    }
    case K_OPTIONAL: {
        if (slots[(*s)++].raw[0]) return box(d, i, slots, s);
        *s += tree_slots(d, *i);  // None: the value's slots were not filled
        *i += tree_size(d, *i);
        return py::none();
    }
    case K_TUPLE: {
        int n = d[(*i)++];
        py::tuple t(n);
        for (int k = 0; k < n; ++k) t[k] = box(d, i, slots, s);
        return t;
    }
    }
    throw std::runtime_error("bad result descriptor");
}

// Array results that will not be boxed (the entry failed): their buffers released.
inline void drop_results(const std::vector<int> &d, ResultSlot *slots, int count) {
    int s = 0;
    for (size_t i = 0; i < d.size() && s < count; i += d[i] == K_NPSCALAR || d[i] == K_TUPLE ? 2 : d[i] == K_ARRAY ? 5 : 1) {
        if (d[i] == K_NONE || d[i] == K_TUPLE) continue;  // nodes in order: every other one is a slot
        if (d[i] == K_ARRAY) {
            release_buffer(slots[s].a.buffer);
            slots[s].a.buffer = nullptr;
        }
        ++s;
    }
}

// The exception the bridge raises for an entry's error (bridge/errors.c).
[[noreturn]] inline void raise_error(const Export &f, const tr_error &err) {
    PyObject *type = tr_exception_type(err.code);
    if (!type) switch (err.code) {
    case TR_ERR_INTERRUPT:
        if (PyErr_CheckSignals() < 0) throw py::error_already_set();
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        throw py::error_already_set();
    case TR_ERR_KEY: type = PyExc_KeyError; break;
    case TR_ERR_AXIS: {
        static py::object axis = []() -> py::object {
            try {
                return py::module_::import("numpy.exceptions").attr("AxisError");
            } catch (py::error_already_set &) {
                return py::reinterpret_borrow<py::object>(PyExc_ValueError);
            }
        }();
        type = axis.ptr();
        break;
    }
    default: type = PyExc_RuntimeError; break;
    }
    py::object exc;
    if (err.code == TR_ERR_KEY) {  // KeyError(key): the message is the key's repr, read back
        py::object key;
        try {
            key = py::module_::import("ast").attr("literal_eval")(err.message);
        } catch (py::error_already_set &) {
            key = py::str(err.message);
        }
        exc = py::handle(type)(key);
    } else if (err.code == TR_ERR_ASSERTION && err.message[0] == 0) {
        exc = py::handle(type)();
    } else {
        exc = py::handle(type)(py::str(err.message));
    }
    if (err.line > 0 && py::hasattr(exc, "add_note"))
        exc.attr("add_note")(py::str("raised in compiled code at {}:{}").format(f.file, err.line));
    PyErr_SetObject(type, exc.ptr());
    throw py::error_already_set();
}

inline std::string describe(py::handle obj) {
    if (py::isinstance<py::array>(obj)) {
        auto a = py::reinterpret_borrow<py::array>(obj);
        std::string dims;  // float64[:, :] as in signatures
        for (py::ssize_t k = 0; k < a.ndim(); ++k) dims += k ? ", :" : "[:";
        if (a.ndim()) dims += "]";
        return py::str(a.dtype()).cast<std::string>() + dims + " array (layout " + layout_name(array_layout(a)) +
               (a.writeable() ? "" : ", read-only") + ")";
    }
    if (PyTuple_Check(obj.ptr())) {
        std::string t = "(";
        for (size_t k = 0; k < py::len(obj); ++k) t += (k ? ", " : "") + describe(obj[py::int_(k)]);
        return t + (py::len(obj) == 1 ? ",)" : ")");
    }
    py::handle type = (PyObject *)Py_TYPE(obj.ptr());
    std::string module = py::str(type.attr("__module__")).cast<std::string>();
    std::string name = py::str(type.attr("__qualname__")).cast<std::string>();
    return module == "builtins" ? name : module + "." + name;
}

// Storage of one call: on the stack for the usual few slots (a call of a
// small function costs little more than the bridge's), else on the heap.
template <class T, int N> struct Slots {
    T small[N];
    std::vector<T> big;
    T *data;
    explicit Slots(int n) : data(n <= N ? small : (big.resize(n), big.data())) {
        memset((void *)data, 0, sizeof(T) * (n ? n : 1));
    }
};

// Binds positional and keyword arguments (vectorcall's form) to the parameters as CPython does.
inline void bind(const Export &f, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **out) {
    size_t n = f.params.size();
    if ((size_t)nargs > n)
        throw py::type_error(std::string(f.name) + "() takes " + std::to_string(n) + " positional argument" +
                             (n == 1 ? "" : "s") + " but " + std::to_string(nargs) + (nargs == 1 ? " was" : " were") +
                             " given");
    for (size_t k = 0; k < n; ++k) out[k] = k < (size_t)nargs ? args[k] : nullptr;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t j = 0; j < nkw; ++j) {
        const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, j));
        if (!key) throw py::error_already_set();
        size_t k = 0;
        while (k < n && strcmp(key, f.params[k]) != 0) ++k;
        if (k == n) throw py::type_error(std::string(f.name) + "() got an unexpected keyword argument '" + key + "'");
        if (out[k]) throw py::type_error(std::string(f.name) + "() got multiple values for argument '" + key + "'");
        out[k] = args[nargs + j];
    }
    std::vector<std::string> missing;  // CPython's message: 'a', 'b' and 'c'
    for (size_t k = 0; k < n; ++k)
        if (!out[k]) missing.push_back("'" + std::string(f.params[k]) + "'");
    if (!missing.empty()) {
        std::string names;
        for (size_t k = 0; k < missing.size(); ++k)
            names += (k == 0 ? "" : k + 1 < missing.size() ? ", " : missing.size() > 2 ? ", and " : " and ") + missing[k];
        throw py::type_error(std::string(f.name) + "() missing " + std::to_string(missing.size()) +
                             " required positional argument" + (missing.size() == 1 ? "" : "s") + ": " + names);
    }
}

inline py::object call(const Export &f, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Slots<PyObject *, 8> bound((int)f.params.size());
    bind(f, args, nargs, kwnames, bound.data);
    std::string why;
    for (const Overload &ov : f.overloads) {
        Slots<ArgSlot, 8> slots(total_slots(ov.args));
        int i = 0, s = 0;
        bool ok = true;
        for (size_t k = 0; ok && k < f.params.size(); ++k) {
            std::string problem;
            ok = unpack(bound.data[k], ov.args, &i, slots.data, &s, &problem);
            if (!ok && !problem.empty() && why.empty())
                why = "argument '" + std::string(f.params[k]) + "': " + problem;
        }
        if (!ok) continue;
        Slots<void *, 8> arg_ptrs(s);
        for (int k = 0; k < s; ++k) arg_ptrs.data[k] = &slots.data[k];
        int nres = tree_slots(ov.result, 0);
        Slots<ResultSlot, 2> results(nres);
        Slots<void *, 8> res_ptrs(nres);
        for (int k = 0; k < nres; ++k) res_ptrs.data[k] = &results.data[k];
        tr_error err;
        err.code = 0;
        err.line = 0;
        err.message[0] = 0;
        int rc;
        Py_BEGIN_ALLOW_THREADS  // the code touches no Python object (standalone.py checks)
        rc = ov.entry(arg_ptrs.data, res_ptrs.data, &err);
        Py_END_ALLOW_THREADS
        if (rc != TR_OK) {
            drop_results(ov.result, results.data, nres);
            raise_error(f, err);
        }
        int ri = 0, rs = 0;
        return box(ov.result, &ri, results.data, &rs);
    }
    std::string given;
    for (size_t k = 0; k < f.params.size(); ++k) given += (k ? ", " : "") + describe(bound.data[k]);
    std::string compiled;
    for (const Overload &ov : f.overloads) compiled += std::string("\n    ") + ov.signature;
    throw py::type_error(std::string(f.name) + "(): no compiled signature matches the arguments (" + given + ")" +
                         (why.empty() ? "" : ": " + why) + "; compiled:" + compiled);
}

// The function objects are plain METH_FASTCALL builtins (self: a capsule of
// their Export): pybind11's own functions would build an argument tuple and
// dict at every call.
inline PyObject *fastcall(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    const Export &f = *static_cast<const Export *>(PyCapsule_GetPointer(self, nullptr));
    try {
        return call(f, args, nargs, kwnames).release().ptr();
    } catch (py::error_already_set &e) {
        e.restore();
    } catch (py::builtin_exception &e) {
        e.set_error();
    } catch (const std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}

inline void define(py::module_ &m, Export &e) {
    for (const Overload &o : e.overloads) e.doc += std::string(o.signature) + "\n";
    e.def = {e.name, (PyCFunction)(void (*)(void))fastcall, METH_FASTCALL | METH_KEYWORDS, e.doc.c_str()};
    auto self = py::reinterpret_steal<py::object>(PyCapsule_New(&e, nullptr, nullptr));
    if (!self) throw py::error_already_set();
    PyObject *fn = PyCFunction_NewEx(&e.def, self.ptr(), m.attr("__name__").ptr());
    if (!fn) throw py::error_already_set();
    m.add_object(e.name, py::reinterpret_steal<py::object>(fn));
}

}  // namespace tr::standalone
