"""Long-running loops for tests/errors/test_interrupt.py."""


def spin(n):
    s = 0
    i = 0
    while i < n:
        s = (s * 31 + i) % 1000003
        i += 1
    return s


def nested(n):
    s = 0.0
    for i in range(n):
        for j in range(1000):
            s += (i ^ j) * 0.5
    return s


def while_in_for(n):
    """The `while` may never end, and no loop outside it looks for Ctrl-C while it runs."""
    s = 0
    for k in range(2):
        i = 0
        while i < n:
            s = (s * 31 + i + k) % 1000003
            i += 1
    return s
