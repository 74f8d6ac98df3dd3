"""What the corpus tests found, per function, for the summary in conftest.py:
name -> {"status": "ok" | "wrong", "fallbacks": [text, ...], "error": text}."""
RESULTS: dict[str, dict] = {}
