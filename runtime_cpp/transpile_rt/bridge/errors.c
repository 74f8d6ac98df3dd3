/* Errors: a compiled entry's error code and message as the Python exception,
 * and Ctrl-C in compiled loops.
 * Part of transpile._runtime: runtime.c includes it into one translation unit
 * (the parts share their static functions and tables). */

/* numpy.exceptions.AxisError, looked up once (ValueError if NumPy lacks it). */
static PyObject *axis_error_type(void) {
    static PyObject *cls = NULL;
    if (!cls) {
        PyObject *m = PyImport_ImportModule("numpy.exceptions");
        if (m) {
            cls = PyObject_GetAttrString(m, "AxisError");
            Py_DECREF(m);
        }
        if (!cls) {
            PyErr_Clear();
            return PyExc_ValueError;
        }
    }
    return cls;
}

/* ---- Ctrl-C in compiled loops (transpile_rt/interrupt.hpp) ---------------- */

static volatile int interrupt_requested = 0;
static struct sigaction python_sigint;

static void on_sigint(int sig) {
    interrupt_requested = 1;
    if (python_sigint.sa_handler != SIG_DFL && python_sigint.sa_handler != SIG_IGN)
        python_sigint.sa_handler(sig);  /* Python's own handler: it raises KeyboardInterrupt */
}

/* Chains in front of the SIGINT handler Python installed (once per process;
 * if Python's signal.signal() replaces it later, loops just stop seeing
 * Ctrl-C until the call ends, as before). */
static void install_sigint(void) {
    struct sigaction current, mine;
    if (sigaction(SIGINT, NULL, &current) != 0 || current.sa_handler == on_sigint) return;
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL) return;
    python_sigint = current;
    mine = current;
    mine.sa_handler = on_sigint;
    sigaction(SIGINT, &mine, NULL);
}

static PyObject *interrupt_flag(PyObject *mod, PyObject *unused) {
    install_sigint();
    return PyLong_FromVoidPtr((void *)&interrupt_requested);
}

static PyObject *raise_entry_error(Dispatcher *self, const tr_error *err) {
    PyObject *type;
    if (err->code == TR_ERR_INTERRUPT) {
        interrupt_requested = 0;
        if (PyErr_CheckSignals() < 0) return NULL; /* KeyboardInterrupt, or what a custom handler raised */
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return NULL;
    }
    if (err->code == TR_ERR_PYTHON) {
        /* Fallback code raised: its exception is still set, unchanged. */
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_SystemError, "fallback region failed without an exception");
        return NULL;
    }
    type = err->code == TR_ERR_AXIS ? axis_error_type() : tr_exception_type(err->code);
    if (!type) type = PyExc_RuntimeError; /* TR_ERR_KEY: replaced by KeyError(key) below */
    if (err->code == TR_ERR_KEY) {
        /* KeyError(key): the message is the key's repr, read back */
        PyObject *key = NULL, *ast = PyImport_ImportModule("ast");
        if (ast) key = PyObject_CallMethod(ast, "literal_eval", "s", err->message);
        Py_XDECREF(ast);
        if (!key) {
            PyErr_Clear();
            key = PyUnicode_FromString(err->message);
        }
        PyObject *exc = key ? PyObject_CallOneArg(PyExc_KeyError, key) : NULL;  /* a tuple key stays one arg */
        if (exc) {
            PyErr_SetObject(PyExc_KeyError, exc);
            Py_DECREF(exc);
        }
        Py_XDECREF(key);
    } else if (err->code == TR_ERR_ASSERTION && err->message[0] == 0)
        PyErr_SetNone(type);
    else
        PyErr_SetString(type, err->message);
    if (err->line > 0 && self->filename) {
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyErr_NormalizeException(&et, &ev, &tb);
        PyObject *note = PyUnicode_FromFormat("raised in compiled code at %U:%d", self->filename, err->line);
        if (note && ev) {
            PyObject *r = PyObject_CallMethod(ev, "add_note", "O", note);
            Py_XDECREF(r);
        }
        Py_XDECREF(note);
        PyErr_Clear();
        PyErr_Restore(et, ev, tb);
    }
    return NULL;
}
