"""The test suite as a package, so ``tests.paths`` and ``tests.tables`` are this repository's
even where an installed distribution ships a top-level ``tests`` of its own (issue 38, item 5).

The folders below (core/, logic/, app/, browser/) stay rootdir-relative: pytest imports their
files by base name, which tests/core/test_architecture.py keeps unique."""
