"""A module of the user's project whose attributes compiled code reads live."""
scale = 2.0
