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
