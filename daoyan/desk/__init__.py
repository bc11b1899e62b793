"""The review desk (`daoyan serve`): a local web page over one game's store and game file.

It shows what the commands print — the same `analyze_day`, the same flags, the same reports — and
records the director's decisions in the same store, so the desk and the CLI never disagree.
"""
from .app import create_app
from .server import DeskServer

__all__ = ["create_app", "DeskServer"]
