"""@jit_class definitions for the differential tests.  test_classes.py also
runs this source a second time with decorators that do nothing: that copy is
the CPython reference."""
import numpy as np

try:
    jit, jit_class = REFERENCE_DECORATORS  # noqa: F821 (set by the loader of the CPython copy)
except NameError:
    from transpile import jit, jit_class


@jit_class
class Particles:
    gravity = -9.81                      # class attribute

    def __init__(self, pos, vel):
        self.pos = pos                   # field types inferred from __init__
        self.vel = vel
        self.steps = 0

    def step(self, dt):
        self.vel[:, 1] += self.gravity * dt
        self.pos += self.vel * dt
        self.steps += 1

    def __call__(self, dt, n):
        for _ in range(n):
            self.step(dt)
        return self.pos


@jit_class
class Counter:
    start = 10
    limits = (0, 100)
    weights = np.array([0.5, 1.0, 2.0, 4.0])  # an array class attribute: frozen, read-only

    def __init__(self, step):
        self.count = self.start
        self.step = step
        self.history = np.zeros(4)

    def tick(self):
        self.count += self.step
        self.history[self.count % 4] += 1.0
        return self.count

    def ticks(self, n):
        total = 0
        for _ in range(n):
            total += self.tick()
        return total

    @property
    def clipped(self):
        return min(max(self.count, self.limits[0]), self.limits[1])

    @staticmethod
    def scale(x, k):
        return x * k

    def scaled(self, k):
        return self.scale(self.count, k) + Counter.scale(1, k)

    def weighted(self):
        return (self.history * self.weights).sum() + Counter.weights[0]


@jit_class
class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return Vec(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __lt__(self, other):
        return self.norm2() < other.norm2()

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def norm2(self):
        return self.x * self.x + self.y * self.y


@jit_class
class Body:
    """A field holding another class's instance."""

    def __init__(self, mass, x, y):
        self.mass = mass
        self.at = Vec(x, y)
        self.trail = np.zeros((3, 2))

    def move(self, dx, dy):
        self.at = self.at + Vec(dx, dy)
        self.trail[0, 0] += dx
        return self.at.norm2()


@jit_class
class Shape:
    sides = 0

    def __init__(self, name_code):
        self.code = name_code
        self.scale = 1.0

    def area(self):
        return 0.0

    def describe(self):
        return self.area() * self.scale + self.sides

    def grow(self, k):
        self.scale *= k
        return self.scale


@jit_class
class Square(Shape):
    sides = 4

    def __init__(self, side):
        super().__init__(4)
        self.side = side

    def area(self):
        return self.side * self.side

    def grow(self, k):
        return super().grow(k) + 1.0


@jit_class
class Cube(Square):
    def __init__(self, side, depth):
        super().__init__(side)
        self.depth = depth

    def area(self):
        return super().area() * self.depth


@jit_class
class Accumulator:
    """Fields of several kinds, a method with a statement that falls back."""

    def __init__(self, n):
        self.values = np.zeros(n)
        self.n = n
        self.total = 0.0
        self.flag = False
        self.pair = (1, 2.5)

    def add(self, i, v):
        self.values[i] = v
        self.total += v
        self.flag = self.total > 10.0
        return self.total

    def summary(self):
        import statistics                        # runs as Python: self crosses into it
        return statistics.fmean(self.values.tolist()) + self.n


@jit
def simulate(p, dt, n):
    return p(dt, n)


@jit
def count_up(c, n):
    s = 0
    for _ in range(n):
        s += c.tick()
    return s, c.count, c.clipped


@jit
def vec_ops(ax, ay, bx, by):
    a = Vec(ax, ay)
    b = Vec(bx, by)
    c = a + b * 2.0 - a
    return c.x, c.y, a < b, a == b, c


@jit
def shapes(side, depth):
    s = Square(side)
    c = Cube(side, depth)
    return s.describe(), c.describe(), s.grow(2.0), c.grow(3.0), c


@jit
def make_body(m):
    b = Body(m, 1.0, 2.0)
    b.move(0.5, 0.5)
    return b


@jit_class
class Grid:
    """Arrays made by compiled code (heap memory) held in fields and returned."""

    def __init__(self, n, m):
        self.cells = np.zeros((n, m))
        self.shape = (n, m)
        self.label = n * 100 + m

    def fill(self, v):
        self.cells[:, :] = v
        return self.cells

    def neighbours(self, i, j):
        n, m = self.shape
        s = 0.0
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                if di != 0 or dj != 0:
                    s += self.cells[(i + di) % n, (j + dj) % m]
        return s


@jit
def grid_sum(n, m):
    g = Grid(n, m)
    g.fill(2.0)
    g.cells[0, 0] = 5.0
    return g.neighbours(1, 1), g.label, g.shape, g


@jit
def kinds(v, s, x, a):
    return isinstance(v, Vec), isinstance(s, Shape), isinstance(s, Square), isinstance(x, (int, float)), \
        isinstance(a, np.ndarray), isinstance(x, Vec)


@jit_class
class Leaf:
    def __init__(self, x):
        self.x = x


@jit_class
class Branch:
    """A field assigned on one path of __init__ only."""

    def __init__(self, v, grow):
        self.v = v
        if grow:
            self.leaf = Leaf(v * 2.0)

    def leaf_value(self):
        return self.leaf.x
