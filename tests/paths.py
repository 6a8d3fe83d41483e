"""Where the repository's files are, for tests in every folder (imported as ``tests.paths``)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root (where app.py, pages/ and datasets/ live)."""
