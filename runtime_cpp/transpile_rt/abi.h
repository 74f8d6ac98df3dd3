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

#define TR_ABI_VERSION 3
#define TR_MAX_NDIM 32
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
    TR_ERR_AXIS = 11    /* numpy.exceptions.AxisError (a ValueError and an IndexError) */
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

/* Slots: args[i] and results[i] point at one leaf each (tuples are
 * flattened in order, None takes no slot).  Scalars are stored as their C
 * type (bool as uint8_t, complex as two doubles or floats). */
typedef int (*tr_entry_fn)(void *const *args, void *const *results, tr_error *err);

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
    TR_V_OBJECT = 8
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
    int32_t reserved;
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

/* Services of the bridge that compiled code may call (it holds the GIL). */
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
} tr_host;

/* Modules that contain fallback regions export
 *   void tr_module_init(const tr_host *host, void *regions)
 * which the bridge calls once after loading them. */
typedef void (*tr_module_init_fn)(const tr_host *host, void *regions);

#ifdef __cplusplus
}
#endif
#endif
