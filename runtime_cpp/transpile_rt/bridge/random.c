/* np.random in compiled code: the bit generator state NumPy's own draws use.
 *
 * Compiled draws of the legacy global functions (np.random.random(),
 * randint(), normal(), ...) must advance the very MT19937 state that
 * np.random.mtrand._rand advances, and randn()/normal() must share its
 * cached second Gaussian, so that a seeded sequence is NumPy's whichever
 * side draws.  That cache (aug_bitgen_t: has_gauss, gauss) and the copy of
 * bitgen_t the RandomState draws through are private Cython fields with no
 * API, so their offsets are found once by a probe that NumPy's public
 * behaviour then confirms (set_state/get_state on a scratch RandomState);
 * if anything disagrees, the probe reports failure and the typer keeps
 * those draws as Python (library/random_lib.py).
 *
 * Locking: a BitGenerator's draws are serialised by its `lock` (an RLock in
 * NumPy 2), which another thread may hold while it fills an array without
 * the GIL.  Compiled code takes it at its first draw (random_hold; a
 * blocking acquire waits without the GIL) and keeps it until Python code
 * could run: the call returns (random_release, from the entry's scope in
 * random.hpp) or calls the bridge for anything else (host.c releases it
 * first), so a Python draw on this thread, or a thread the code waits for,
 * never finds it held.  Taking it per draw cost ~160 ns a draw (the lock's
 * method calls), more than the draws.  Part of transpile._runtime (runtime.c
 * includes it). */
#include <numpy/random/bitgen.h>

typedef struct { /* legacy-distributions.h's aug_bitgen_t */
    bitgen_t *bit_generator;
    int has_gauss;
    double gauss;
} legacy_aug;

static struct {
    int probed, ok, gauss_ok;
    Py_ssize_t off_bitgen, off_aug, off_lock;
    PyObject *rs;            /* np.random.mtrand._rand (strong) */
    PyTypeObject *lock_types[2];       /* _thread.lock, _thread.RLock */
    PyMethodDef *lock_methods[2][2];   /* their release, acquire */
    PyObject *no_args;
    tr_random legacy;
} RNG;

/* The offset in `obj` of a pointer-sized field holding `value`, or -1 (also when two fields do). */
static Py_ssize_t find_pointer(PyObject *obj, const void *value) {
    Py_ssize_t found = -1, size = Py_TYPE(obj)->tp_basicsize;
    for (Py_ssize_t off = sizeof(PyObject); off + (Py_ssize_t)sizeof(void *) <= size; off += sizeof(void *)) {
        if (*(void **)((char *)obj + off) == value) {
            if (found >= 0) return -1;
            found = off;
        }
    }
    return found;
}

static bitgen_t *capsule_bitgen(PyObject *bit_generator) {
    PyObject *cap = PyObject_GetAttrString(bit_generator, "capsule");
    if (!cap) return NULL;
    bitgen_t *bg = PyCapsule_GetPointer(cap, "BitGenerator");
    Py_DECREF(cap);
    return bg;
}

/* Finds the RandomState's bitgen_t copy, its aug_bitgen_t and its lock field in `rs`. */
static int probe_layout(PyObject *rs) {
    PyObject *bitgen_obj = PyObject_GetAttrString(rs, "_bit_generator");
    PyObject *lock = bitgen_obj ? PyObject_GetAttrString(bitgen_obj, "lock") : NULL;
    bitgen_t *bg = bitgen_obj ? capsule_bitgen(bitgen_obj) : NULL;
    int ok = 0;
    if (bg && lock) {
        Py_ssize_t size = Py_TYPE(rs)->tp_basicsize;
        for (Py_ssize_t off = sizeof(PyObject); off + (Py_ssize_t)(sizeof(bitgen_t) + sizeof(legacy_aug)) <= size;
             off += sizeof(void *)) {
            legacy_aug *aug = (legacy_aug *)((char *)rs + off + sizeof(bitgen_t));
            if (memcmp((char *)rs + off, bg, sizeof(bitgen_t)) == 0 &&
                aug->bit_generator == (bitgen_t *)((char *)rs + off)) {
                RNG.off_bitgen = off;
                RNG.off_aug = off + sizeof(bitgen_t);
                RNG.off_lock = find_pointer(rs, lock);
                ok = RNG.off_lock >= 0;
                break;
            }
        }
    }
    Py_XDECREF(lock);
    Py_XDECREF(bitgen_obj);
    return ok;
}

/* NumPy's get_state/set_state agree with what the probe found: the cached Gaussian is where it says. */
static int confirm_gauss(PyObject *mtrand) {
    PyObject *scratch = PyObject_CallMethod(mtrand, "RandomState", "i", 12345);
    PyObject *st = scratch ? PyObject_CallMethod(scratch, "get_state", NULL) : NULL;
    int ok = 0;
    if (st && PyTuple_Check(st) && PyTuple_GET_SIZE(st) == 5 && probe_layout(scratch)) {
        legacy_aug *aug = (legacy_aug *)((char *)scratch + RNG.off_aug);
        PyObject *set = Py_BuildValue("(OOOid)", PyTuple_GET_ITEM(st, 0), PyTuple_GET_ITEM(st, 1),
                                      PyTuple_GET_ITEM(st, 2), 1, 0.625);
        PyObject *r = set ? PyObject_CallMethod(scratch, "set_state", "(O)", set) : NULL;
        ok = r && aug->has_gauss == 1 && aug->gauss == 0.625;
        Py_XDECREF(r);
        Py_XDECREF(set);
        if (ok) { /* and NumPy reads what compiled code writes */
            aug->gauss = -0.375;
            PyObject *back = PyObject_CallMethod(scratch, "get_state", NULL);
            ok = back && PyTuple_Check(back) && PyTuple_GET_SIZE(back) == 5 &&
                 PyLong_AsLong(PyTuple_GET_ITEM(back, 3)) == 1 &&
                 PyFloat_AsDouble(PyTuple_GET_ITEM(back, 4)) == -0.375;
            Py_XDECREF(back);
            aug->has_gauss = 0;
        }
    }
    Py_XDECREF(st);
    Py_XDECREF(scratch);
    PyErr_Clear();
    return ok;
}

static void probe_random(void) {
    if (RNG.probed) return;
    RNG.probed = 1;
    PyObject *thread = PyImport_ImportModule("_thread");
    RNG.no_args = PyTuple_New(0);
    const char *types[2] = {"LockType", "RLock"}, *names[2] = {"release", "acquire"};
    for (int i = 0; thread && RNG.no_args && i < 2; ++i) {
        PyObject *t = PyObject_GetAttrString(thread, types[i]);
        int found = t && PyType_Check(t);
        for (int k = 0; found && k < 2; ++k) {
            PyObject *d = PyObject_GetAttrString(t, names[k]);
            found = d && Py_IS_TYPE(d, &PyMethodDescr_Type);
            if (found) RNG.lock_methods[i][k] = ((PyMethodDescrObject *)d)->d_method;
            Py_XDECREF(d); /* the type keeps its descriptors */
        }
        if (found) RNG.lock_types[i] = (PyTypeObject *)t; /* a static type of _thread */
        Py_XDECREF(t);
    }
    Py_XDECREF(thread);
    PyErr_Clear();
    PyObject *mtrand = PyImport_ImportModule("numpy.random.mtrand");
    /* the RandomState np.random.random_sample and the others are bound to (mtrand._rand when NumPy loaded) */
    PyObject *bound = mtrand ? PyObject_GetAttrString(mtrand, "random_sample") : NULL;
    PyObject *rs = bound ? PyObject_GetAttrString(bound, "__self__") : NULL;
    Py_XDECREF(bound);
    PyObject *cls = mtrand ? PyObject_GetAttrString(mtrand, "RandomState") : NULL;
    if (rs && cls && Py_TYPE(rs) == (PyTypeObject *)cls) {
        RNG.gauss_ok = confirm_gauss(mtrand);
        if (probe_layout(rs)) { /* the global one's own offsets (the same class: the same layout) */
            RNG.ok = 1;
            RNG.rs = Py_NewRef(rs);
            RNG.legacy.bitgen = (char *)rs + RNG.off_bitgen;
            legacy_aug *aug = (legacy_aug *)((char *)rs + RNG.off_aug);
            RNG.legacy.has_gauss = RNG.gauss_ok ? &aug->has_gauss : NULL;
            RNG.legacy.gauss = RNG.gauss_ok ? &aug->gauss : NULL;
        }
    }
    if (!RNG.ok) RNG.gauss_ok = 0;
    Py_XDECREF(cls);
    Py_XDECREF(rs);
    Py_XDECREF(mtrand);
    PyErr_Clear();
}

/* Calls acquire (acquire=1) or release of the lock through the C function of the method when the lock is
 * a _thread.lock or _thread.RLock (NumPy's BitGenerator lock): no bound method, no call machinery. */
static PyObject *lock_call(PyObject *lock, int acquire) {
    for (int i = 0; i < 2; ++i) {
        if (Py_TYPE(lock) == RNG.lock_types[i]) {
            PyMethodDef *m = RNG.lock_methods[i][acquire];
            if (m->ml_flags & METH_KEYWORDS) /* acquire(): called with no arguments */
                return ((PyCFunctionWithKeywords)(void (*)(void))m->ml_meth)(lock, RNG.no_args, NULL);
            return m->ml_meth(lock, NULL);
        }
    }
    return PyObject_CallMethod(lock, acquire ? "acquire" : "release", NULL);
}

/* The state compiled code holds the lock of (one at a time), and the thread holding it. */
static tr_random *rng_held;
static unsigned long rng_holder;

static void host_random_release(void) {
    if (!rng_held || rng_holder != PyThread_get_thread_ident()) return;
    PyObject *lock = (PyObject *)rng_held->lock;
    rng_held = NULL;
    PyObject *type, *value, *tb; /* an error being raised stays the one raised */
    PyErr_Fetch(&type, &value, &tb);
    PyObject *ok = lock_call(lock, 0);
    if (ok) Py_DECREF(ok);
    else PyErr_WriteUnraisable(lock);
    Py_DECREF(lock);
    PyErr_Restore(type, value, tb);
}

/* random_hold(NULL): the global RandomState's draws, its lock held by this thread until random_release;
 * NULL with an exception set (RuntimeError when the probe failed). */
static tr_random *host_random_hold(void *generator) {
    probe_random();
    if (generator != NULL || !RNG.ok) {
        PyErr_SetString(PyExc_RuntimeError, "transpile: NumPy's random state is not reachable from compiled code");
        return NULL;
    }
    tr_random *r = &RNG.legacy;
    unsigned long me = PyThread_get_thread_ident();
    if (rng_held == r && rng_holder == me) return r;
    host_random_release();
    /* read live: __setstate__ may replace it */
    PyObject *lock = Py_NewRef(*(PyObject **)((char *)RNG.rs + RNG.off_lock));
    PyObject *ok = lock_call(lock, 1);
    if (!ok) {
        Py_DECREF(lock);
        return NULL;
    }
    Py_DECREF(ok);
    r->lock = lock;
    rng_held = r;
    rng_holder = me;
    return r;
}

/* random_support() -> (legacy draws, legacy Gaussians): what the typer may compile. */
static PyObject *random_support(PyObject *mod, PyObject *unused) {
    probe_random();
    return Py_BuildValue("(OO)", RNG.ok ? Py_True : Py_False, RNG.gauss_ok ? Py_True : Py_False);
}
