"""Reference values from the published packages, for the tests of psl_core's evidence measures.

The packages (``dcurves`` 1.1.7, ``pmvalsampsize`` 0.2.1) pin pandas below 3, so they cannot
live in the project's environment; run this in a separate one and commit its output:

    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install dcurves==1.1.7 pmvalsampsize==0.2.1
    /tmp/ref/bin/python bench/crosscheck_references.py > tests/core/data/evidence_references.json

``tests/core/test_evidence.py`` checks psl_core's net benefit (to 1e-9) and validation
sample sizes against these numbers. ``pmsampsize`` (Python) needs Python 3.12; its four
documented binary examples (the R package's tests) are written into that test directly.
"""

import json

import numpy as np
import pandas as pd
from dcurves import dca
from pmvalsampsize.pmvalsampsize import pmvalsampsize

rng = np.random.default_rng(7)
n = 300
p = rng.beta(2, 5, n)
y = rng.binomial(1, np.clip(p * 1.2, 0, 1))
thresholds = np.round(np.arange(0.01, 1.0, 0.01), 2)
curves = dca(data=pd.DataFrame({"y": y, "p": p}), outcome="y", modelnames=["p"], thresholds=thresholds)
net_benefit = {
    model: curves.loc[curves["model"] == model, "net_benefit"].astype(float).tolist()
    for model in ("p", "all", "none")
}
validation = []
for prevalence, c, lp, oe_width in ((0.018, 0.8, (-5, 2.5), 1.0), (0.1, 0.75, (-2.5, 1.0), 0.2),
                                    (0.3, 0.85, (-1.2, 1.8), 0.2)):
    out = pmvalsampsize(type="b", prevalence=prevalence, cstatistic=c, lpnormal=lp, oeciwidth=oe_width, noprint=True)
    validation.append({
        "prevalence": prevalence, "c_statistic": c, "lp_mean": lp[0], "lp_sd": lp[1], "oe_width": oe_width,
        "observed_expected": int(out["results_table"][0][1]),
        "slope": int(out["results_table"][1][1]),
        "c_statistic_rows": int(out["results_table"][2][1]),
    })
print(json.dumps({
    "dcurves": {"y": y.tolist(), "p": p.tolist(), "thresholds": thresholds.tolist(), "net_benefit": net_benefit},
    "pmvalsampsize": validation,
}))
