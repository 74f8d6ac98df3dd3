"""The exceptions compiled code raises, and their error codes in the runtime (runtime_cpp/transpile_rt/errors)"""
from __future__ import annotations



RAISE_CODES = {ValueError: "TR_ERR_VALUE", IndexError: "TR_ERR_INDEX", ZeroDivisionError: "TR_ERR_ZERODIV",
               TypeError: "TR_ERR_TYPE", AssertionError: "TR_ERR_ASSERTION", OverflowError: "TR_ERR_OVERFLOW",
               MemoryError: "TR_ERR_MEMORY", RuntimeError: "TR_ERR_RUNTIME", NotImplementedError: "TR_ERR_NOTIMPL"}
