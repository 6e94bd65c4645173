"""The version of tavlakit, in one place (the build reads it from here too)."""

__version__ = "0.3.1"
