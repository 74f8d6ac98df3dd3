"""`python -m transpile ...`: the transpile command."""
import sys

from .cli import main

sys.exit(main())
