"""Settings shared by every test."""

from hypothesis import settings

# The machine is shared: a property test may wait for a core. Correctness, not timing.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")
