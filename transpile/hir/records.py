"""Structured dtypes in the type lattice: record arrays (ndarray or
np.recarray of a structured dtype) and single records (np.void, np.record).

A RecordDtype is the dtype's whole layout (field names, dtypes and byte
offsets, itemsize), so two layouts never share a specialization; the bridge
names one by a number of its own table (bridge/records.c), which
descriptors.py asks for.  `aligned` says the data and strides lie on
boundaries of the types of the fields that can be strided arrays of their
own (RecordDtype.viewable): only then is one (a['x'])."""
from __future__ import annotations

import numpy as np

from ..values import value_type
from .lattice import DTYPES, Scalar, Type


@value_type
class RecordDtype(Type):
    fields: tuple  # ((name, dtype name or nested RecordDtype, byte offset, subarray shape or ()), ...)
    itemsize: int
    aligned_struct: bool = False  # made with align=True (its repr, and the dtype of what is returned)
    record: bool = False  # dtype.type is np.record: records read fields as attributes too

    def spell(self) -> str:
        inner = ", ".join(f"{n}: {d if isinstance(d, str) else d.spell()}{list(shape) if shape else ''} @{o}"
                          for n, d, o, shape in self.fields)
        flags = (", align" if self.aligned_struct else "") + (", record" if self.record else "")
        return f"struct{{{inner}; {self.itemsize}{flags}}}"

    def field(self, name: str):
        """(Scalar, offset) of field `name` (of its elements for a subarray; a
        RecordDtype for a nested structure), or None."""
        for n, d, o, _ in self.fields:
            if n == name:
                return (Scalar(d) if isinstance(d, str) else d), o
        return None

    def shape(self, name: str) -> tuple:
        """The subarray shape of field `name`: () for a number."""
        return next(shape for n, _, _, shape in self.fields if n == name)

    @property
    def np_dtype(self) -> np.dtype:
        formats = [f[1] if isinstance(f[1], str) else f[1].np_dtype for f in self.fields]
        d = np.dtype({"names": [f[0] for f in self.fields], "formats": [(fmt, f[3]) if f[3] else fmt
                                                                          for fmt, f in zip(formats, self.fields)],
                      "offsets": [f[2] for f in self.fields], "itemsize": self.itemsize},
                     align=self.aligned_struct)
        return np.dtype((np.record, d)) if self.record else d

    def viewable(self, name: str) -> str | None:
        """Why field `name` cannot be a strided array of its own type, or None
        (strides are kept in elements: the itemsize must be a multiple of the
        field's size, and the offset of its alignment).  A subarray field is
        always read as an array, so it needs the same."""
        t, offset = self.field(name)
        if isinstance(t, RecordDtype):
            return f"field '{name}' is a structure"
        size = t.np_dtype.itemsize
        if self.itemsize % size or offset % t.np_dtype.alignment:
            return (f"field '{name}' ({t.dtype} at byte {offset} of {self.itemsize}-byte records) cannot be viewed "
                    "as an array of its own type")
        return None


def record_dtype(dtype: np.dtype) -> RecordDtype:
    """The RecordDtype of a structured NumPy dtype (the bridge has checked its fields)."""
    fields = []
    for name in dtype.names:
        fdt, offset = dtype.fields[name][:2]
        base, shape = fdt.subdtype or (fdt, ())
        if base.names is not None and not shape:
            fields.append((name, record_dtype(base), int(offset), ()))
            continue
        if base.name not in DTYPES:
            raise TypeError(f"field '{name}' of dtype {fdt} is not supported in compiled records")
        fields.append((name, base.name, int(offset), tuple(int(n) for n in shape)))
    return RecordDtype(tuple(fields), dtype.itemsize, bool(dtype.isalignedstruct), dtype.type is np.record)


@value_type
class RecordArray(Type):
    rec: RecordDtype
    ndim: int
    layout: str = "C"
    readonly: bool = False
    recarray: bool = False  # an np.recarray: fields read as attributes (a.x)
    aligned: bool = True

    def spell(self) -> str:
        dims = ", ".join([":"] * self.ndim)
        if self.ndim and self.layout == "C":
            dims = ", ".join([":"] * (self.ndim - 1) + ["::1"])
        flags = "".join(f" ({f})" for f, on in (("F", self.layout == "F"), ("recarray", self.recarray),
                                                 ("unaligned", not self.aligned), ("readonly", self.readonly)) if on)
        return f"{self.rec.spell()}[{dims}]{flags}"

    def with_layout(self, layout: str) -> "RecordArray":
        return RecordArray(self.rec, self.ndim, layout, self.readonly, self.recarray, self.aligned)

    @property
    def item(self) -> "Record":
        return Record(self.rec, self.readonly, self.aligned)


@value_type
class Record(Type):
    """One record: a view of its bytes in the array it lies in (np.void, or
    np.record when rec.record)."""

    rec: RecordDtype
    readonly: bool = False
    aligned: bool = True

    def spell(self) -> str:
        flags = "".join(f" ({f})" for f, on in (("unaligned", not self.aligned), ("readonly", self.readonly)) if on)
        return f"{self.rec.spell()}{flags}"


def _rec_json(rec: RecordDtype) -> list:
    return [[[n, d if isinstance(d, str) else _rec_json(d), o, list(shape)] for n, d, o, shape in rec.fields],
            rec.itemsize, rec.aligned_struct, rec.record]


def _rec_from(data) -> RecordDtype:
    fields, itemsize, aligned_struct, record = data
    return RecordDtype(tuple((n, d if isinstance(d, str) else _rec_from(d), o, tuple(shape))
                             for n, d, o, shape in fields), itemsize, aligned_struct, record)


def serialize(t) -> list:
    rec = _rec_json(t.rec)
    if isinstance(t, RecordArray):
        return ["records", rec, t.ndim, t.layout, t.readonly, t.recarray, t.aligned]
    return ["record", rec, t.readonly, t.aligned]


def deserialize(data):
    rec = _rec_from(data[1])
    if data[0] == "records":
        return RecordArray(rec, *data[2:])
    return Record(rec, *data[2:])
