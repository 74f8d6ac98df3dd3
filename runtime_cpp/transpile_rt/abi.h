/* The C ABI between generated modules and the bridge (transpile._runtime).
 *
 * Generated modules know nothing of Python: the bridge unpacks Python
 * arguments into typed slots, calls an entry point through this ABI and turns
 * the slots it gets back into Python objects.  Bump TR_ABI_VERSION on any
 * change; the version is part of every cache key.
 */
#ifndef TRANSPILE_RT_ABI_H
#define TRANSPILE_RT_ABI_H

#include <stdint.h>

#define TR_ABI_VERSION 12
#define TR_MAX_NDIM 32
#define TR_RESULT_SLOTS_MAX 64 /* the most slots of one call's arguments or results */
#define TR_MSG_SIZE 488

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes an entry point returns; the bridge maps each to a Python
 * exception class. */
enum tr_errcode {
    TR_OK = 0,
    TR_ERR_INDEX = 1,
    TR_ERR_ZERODIV = 2,
    TR_ERR_VALUE = 3,
    TR_ERR_TYPE = 4,
    TR_ERR_ASSERTION = 5,
    TR_ERR_OVERFLOW = 6,
    TR_ERR_MEMORY = 7,
    TR_ERR_RUNTIME = 8,
    TR_ERR_NOTIMPL = 9,
    TR_ERR_PYTHON = 10, /* a Python exception is set (fallback code raised): re-raised unchanged */
    TR_ERR_AXIS = 11,   /* numpy.exceptions.AxisError (a ValueError and an IndexError) */
    TR_ERR_KEY = 12,    /* KeyError; the message is the key's repr (the bridge raises KeyError(key)) */
    TR_ERR_ATTRIBUTE = 13, /* AttributeError (a @jit_class field never assigned) */
    TR_ERR_UNBOUND = 14,   /* UnboundLocalError (a local read on a path that did not assign it) */
    TR_ERR_RECURSION = 15, /* RecursionError (compiled recursion deeper than Python's limit or the stack) */
    TR_ERR_INTERRUPT = 16  /* SIGINT arrived: the bridge runs Python's signal handlers (KeyboardInterrupt) */
};

typedef struct tr_error {
    int32_t code;
    int32_t line;               /* Python source line, 0 when unknown */
    char message[TR_MSG_SIZE];
} tr_error;

/* Heap memory made by generated code.  The data follows this header; the
 * release function frees both (it lives in the module that allocated). */
typedef struct tr_buffer {
    int64_t refcount;
    void (*release)(struct tr_buffer *);
    void *data;
} tr_buffer;

/* An array argument, borrowed for the duration of the call. */
typedef struct tr_array_in {
    char *data;
    const int64_t *shape;
    const int64_t *strides;     /* in bytes, as NumPy keeps them */
    void *owner;                /* opaque: the object the array came from */
} tr_array_in;

/* A device array argument (an object with __cuda_array_interface__,
 * backend="cuda" only): data is a device pointer.  Returned, a device array
 * is its `owner` again (the result slot holds that borrowed pointer and the
 * bridge returns the argument object itself). */
typedef struct tr_device_in {
    char *data;
    const int64_t *shape;
    const int64_t *strides;     /* in bytes */
    void *owner;                /* opaque: the object the array came from */
    void *stream;               /* cudaStream_t its producer ordered work on; NULL: nothing to wait for */
} tr_device_in;

/* An array result.  Exactly one of buffer/owner is set: buffer hands one
 * reference to heap memory to the bridge, owner names an argument object the
 * data lives in (the result is that object or a view of it). */
typedef struct tr_array_out {
    char *data;
    int64_t shape[TR_MAX_NDIM];
    int64_t strides[TR_MAX_NDIM]; /* in bytes */
    tr_buffer *buffer;
    void *owner;
} tr_array_out;

/* A @jit_class instance: the header of every object compiled code makes
 * (the fields follow it).  Counted references are held by compiled code and
 * by the Python object that shows it (`box`, borrowed back, so one object
 * keeps one Python identity); `release` runs the destructor of the module
 * that made it; `layout` names the field layout (class and field types). */
typedef struct tr_object {
    int64_t refcount;
    void (*release)(struct tr_object *);
    void *box;
    const char *layout;
} tr_object;

/* Slots: args[i] and results[i] point at one leaf each (tuples are
 * flattened in order, None takes no slot; an instance is a tr_object *,
 * borrowed in arguments, one reference handed over in results).  Scalars are stored as their C
 * type (bool as uint8_t, complex as two doubles or floats). */
typedef int (*tr_entry_fn)(void *const *args, void *const *results, tr_error *err);

/* A str argument (UTF-8 text borrowed from the str object for the call;
 * buffer NULL) or result (`buffer`, when set, holds the text: one reference
 * is handed to the bridge). */
typedef struct tr_str {
    const char *data;
    int64_t len;
    tr_buffer *buffer;
} tr_str;

/* ---- JIT Fallback: values crossing between compiled code and Python ---- */

/* Kinds, shared with the type descriptors (transpile/hir/types.py). */
enum tr_value_kind {
    TR_V_NONE = 0,
    TR_V_PYBOOL = 1,
    TR_V_PYINT = 2,
    TR_V_PYFLOAT = 3,
    TR_V_PYCOMPLEX = 4,
    TR_V_NPSCALAR = 5,
    TR_V_ARRAY = 6,
    TR_V_OBJECT = 8,
    TR_V_INSTANCE = 10 /* object: a tr_object * (inputs: a reference handed over; outputs: the bridge
                          reads the expected layout key from `object` and replaces it) */,
    TR_V_STR = 13 /* a str: UTF-8 text in array.data, length in s.i (outputs: `object` holds the str) */
};

/* One value passed to or returned from a fallback region.  For inputs the
 * compiled side fills kind/typenum and the value (an array's buffer
 * reference, if any, is handed over); for outputs it fills kind, typenum and
 * ndim with what it expects and the bridge fills the value (an array's or
 * object's reference is handed over in `object`). */
typedef struct tr_value {
    int32_t kind;
    int32_t typenum;
    int32_t ndim;
    int32_t reserved;           /* TR_V_ARRAY: 1 for a view Python gets read-only (fallback.hpp box) */
    union {
        int64_t i;
        uint64_t u;
        double d;
        float f;
        double c[2];
        uint8_t b;
        unsigned char raw[16];
    } s;
    void *object;
    tr_array_out array;
} tr_value;

/* np.random draws (transpile_rt/numpy/random.hpp): the bitgen_t (numpy/random/bitgen.h)
 * NumPy's own draws use, the legacy RandomState's cached second Gaussian
 * (NULL where unavailable), and the BitGenerator's lock (a Python object,
 * the bridge's). */
typedef struct tr_random {
    void *bitgen;
    int *has_gauss;
    double *gauss;
    void *lock;
} tr_random;

/* Services of the bridge that compiled code may call (it holds the GIL). */
/* Python's random._inst, drawn from by compiled code (tr_host.python_random_state). */
typedef struct tr_pyrandom {
    int *index;
    uint32_t *state;
    const uint64_t *dict_version;
    uint64_t dict_expected;
    const unsigned int *class_version;
    unsigned int class_expected;
} tr_pyrandom;

typedef struct tr_host {
    int32_t abi_version;
    void (*incref)(void *object);
    void (*decref)(void *object);
    /* Runs region `region` of the module's region table `regions`. */
    int (*call_region)(void *regions, int32_t region, int32_t nin, tr_value *ins, int32_t nout, tr_value *outs,
                       tr_error *err);
    /* float(object); `where` ("file.py:12") names the line in the error. */
    int (*to_float64)(void *object, double *out, const char *where, tr_error *err);
    int (*truthy)(void *object, int *out, tr_error *err);
    /* Lists and tuples (compiled lists, descriptor kind 9).  seq_item returns
     * a borrowed reference; unbox converts an object to the value `v`
     * expects (TR_OK, or TR_ERR_PYTHON with an exception set); box and
     * make_seq return new references (NULL with an exception set); make_seq
     * steals `items` (is_list 0: a tuple); list_assign does list[:] = items. */
    int64_t (*seq_size)(void *seq);
    void *(*seq_item)(void *seq, int64_t i);
    int (*unbox)(void *object, tr_value *v);
    void *(*box)(tr_value *v);
    void *(*make_seq)(int32_t is_list, int64_t n, void **items);
    int (*list_assign)(void *list, void *items);
    /* A new Python object made of `n` boxed items (as fallback inputs are
     * boxed: arrays' buffer references are handed over, objects borrowed):
     * kind 0 a tuple, 2 a dict (items key, value, key, value, ...), 3 a set,
     * 4 the one item itself.  A new reference, or NULL with an exception set. */
    void *(*make_container)(int32_t kind, int64_t n, tr_value *items);
    /* print(): str(object) as UTF-8 (repr when `repr`): returns the new str
     * object that owns *data (the caller releases it with decref), or NULL
     * with an exception set. */
    void *(*text_of)(void *object, int32_t repr, const char **data, int64_t *len);
    /* print(): writes UTF-8 text to sys.stdout (file 1) or sys.stderr (2),
     * looked up at each call as CPython's print does (a file that is None
     * writes nothing), then calls its flush() when `flush`.  TR_OK, or
     * TR_ERR_PYTHON with an exception set. */
    int (*write_text)(int32_t file, const char *data, int64_t len, int32_t flush);
    /* np.random (ABI 9): random_hold(NULL) is the global RandomState
     * (np.random.mtrand._rand) with its BitGenerator's lock taken by this
     * thread (NULL with an exception set).  The lock stays held until
     * random_release, which the entry calls when it returns; every other
     * member of this table releases it first, since it may run Python. */
    tr_random *(*random_hold)(void *generator);
    void (*random_release)(void);
    /* A Python function (ABI 12): module.name, looked up at each call, called
     * with the `nin` boxed values `ins`, of which the last `nkw` are passed
     * by the keywords `kwnames`.  Its result (a tuple of `nout` values when
     * `tuple`, else one value) is unboxed into `outs` exactly as their kinds, typenums and
     * ndims say -- a Python float for TR_V_PYFLOAT, a NumPy scalar of the
     * typenum for TR_V_NPSCALAR, an array of that dtype and ndim (copied to C
     * order when NumPy made it otherwise) -- or it is a TypeError.  Compiled
     * code calls it where NumPy's or Python's own result is the only one with
     * their bits (BLAS products, LAPACK, pairwise sums, Python's random).
     * TR_OK, or TR_ERR_PYTHON with the function's exception set. */
    int (*python_call)(const char *module, const char *name, int32_t nin, tr_value *ins, int32_t nkw,
                       const char *const *kwnames, int32_t tuple, int32_t nout, tr_value *outs, tr_error *err);
    /* (ABI 11) NumPy's own inner loop of ufunc `name` for the `nargs` type numbers
     * `types` (inputs then outputs): its PyUFuncGenericFunction and data,
     * which a module calls as NumPy does, with no Python object involved
     * (numpy/numpy_loops.hpp).  TR_OK, or TR_ERR_PYTHON with an exception set. */
    int (*ufunc_loop)(const char *name, int32_t nargs, const int32_t *types, void **fn, void **data);
    /* Python's random module (ABI 12), drawn from random._inst's own state
     * where the module is the standard library's (bridge/pyrandom.c), else
     * by calling its function: op 0 random.random() into *d; op 1
     * random.randint(a, b), op 2 random.randrange(a, b), op 3
     * random.randrange(a), into *i.  TR_OK, or TR_ERR_PYTHON with Python's
     * exception set (an empty range's ValueError). */
    int (*python_random)(int32_t op, int64_t a, int64_t b, double *d, int64_t *i, tr_error *err);
    /* (ABI 12) Where compiled code may itself draw random.random() from
     * random._inst's state (mt19937.h): the state, and the version tags of
     * the random module's dict and of _inst's class that must still equal
     * their expected values for it to (a rebound random.random or a new
     * _inst changes them); state NULL where it may not.  TR_OK, or
     * TR_ERR_PYTHON with an exception set (random cannot be imported). */
    int (*python_random_state)(struct tr_pyrandom *out);
} tr_host;

/* The slot of a list argument or result (descriptor kind 9): the Python
 * list (borrowed for an argument; for a result compiled code stores a new
 * reference) and the host table that converts it. */
typedef struct tr_list_slot {
    void *object;
    const tr_host *host;
} tr_list_slot;

/* Modules that contain fallback regions export
 *   void tr_module_init(const tr_host *host, void *regions)
 * which the bridge calls once after loading them. */
typedef void (*tr_module_init_fn)(const tr_host *host, void *regions);

#ifdef __cplusplus
}
#endif
#endif
