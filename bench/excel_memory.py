"""Peak memory of reading inflated Excel uploads (issue 15): one file per run, in a fresh process.

    python bench/excel_memory.py MB {blank,cell,cells}

builds a workbook whose first sheet's XML carries MB megabytes of blank space between rows
("blank"), one cell of MB megabytes of text ("cell"), or MB megabytes of one-digit cells in
rows of 30 ("cells"), reads it with psl_triage.data.load_table and prints the process's peak
resident memory before and after (ru_maxrss). Results: bench/README.md.
"""

import io
import resource
import sys
import time
import zipfile
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from psl_triage.data import load_table  # noqa: E402


def inflated_xlsx(n_bytes, kind):
    buffer = io.BytesIO()
    pd.DataFrame({"age": [50, 60, 70] * 10, "sick": [0, 1, 1] * 10}).to_excel(buffer, index=False)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename != "xl/worksheets/sheet1.xml":
                target.writestr(info, content)
                continue
            head, tail = content.split(b"</sheetData>")
            with target.open(info.filename, "w") as stream:
                stream.write(head)
                if kind == "cells":
                    row = b"<row>" + b"<c><v>1</v></c>" * 30 + b"</row>"
                    for _ in range(n_bytes // len(row)):
                        stream.write(row)
                else:
                    if kind == "cell":
                        stream.write(b'<row r="40"><c r="A40" t="inlineStr"><is><t>')
                    for start in range(0, n_bytes, 2**20):
                        stream.write((b"x" if kind == "cell" else b" ") * min(2**20, n_bytes - start))
                    if kind == "cell":
                        stream.write(b"</t></is></c></row>")
                stream.write(b"</sheetData>" + tail)
    return out.getvalue()


def main():
    megabytes, kind = int(sys.argv[1]), sys.argv[2]
    data = inflated_xlsx(megabytes * 2**20, kind)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    start = time.perf_counter()
    try:
        result = f"{len(load_table(data, 'inflated.xlsx').frame)} rows"
    except Exception as exc:  # noqa: BLE001 - the benchmark reports any outcome
        result = f"{type(exc).__name__}: {str(exc)[:80]}"
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{megabytes} MB {kind}, file {len(data) / 2**20:.2f} MB: {result}; peak RSS "
          f"{before:.0f} -> {after:.0f} MB, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
