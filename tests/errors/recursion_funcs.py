"""Recursive functions for tests/errors/test_recursion.py."""


def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def even(n):
    if n == 0:
        return True
    return odd(n - 1)


def odd(n):
    if n == 0:
        return False
    return even(n - 1)
