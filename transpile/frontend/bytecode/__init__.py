"""capture_mode="bytecode": a function's source text recovered from its code
object (source.py), for functions whose file cannot be read."""
