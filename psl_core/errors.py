"""Errors raised by psl_core.

Every error is a subclass of :class:`ValueError`, so callers that follow the
scikit-learn convention (``except ValueError``) keep working, while the app can
tell the kinds apart and show the right message.
"""

__all__ = ["PSLError", "DataError", "ModelFileError", "RequiredColumnError", "SmallDataWarning"]


class PSLError(ValueError):
    """Base class of every error psl_core raises on bad input."""


class DataError(PSLError):
    """The data (a table, X or y) cannot be used as given; the message says why and what to do."""


class ModelFileError(PSLError):
    """A model file (JSON) is malformed, of an unknown version or inconsistent."""


class RequiredColumnError(DataError):
    """A required column has no question the search may ask (too few rows per answer, or
    none its monotone direction allows); ``column`` names it and ``min_support`` is the
    number of training rows each answer had to hold."""

    def __init__(self, message, column, min_support):
        super().__init__(message)
        self.column = column
        self.min_support = min_support


class SmallDataWarning(UserWarning):
    """A fit went ahead with less than it was asked for because a class has too few rows: fewer
    internal folds, or no cross-validation at all (the message names the class and the setting)."""
