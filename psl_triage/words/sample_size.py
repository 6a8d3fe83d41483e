"""The words of Riley's sample-size criteria (:func:`psl_triage.judging.evidence.counted_adequacy` on
the Train page, :func:`psl_triage.judging.evidence.validation_adequacy` on Validate): the criteria, the
tables' headings and the sentences under them. Markdown; nothing here comes from a file.
"""

from psl_core.metrics import MEASURE_LABELS
from psl_core.sample_size import DEFAULT_NAGELKERKE
from psl_triage.words.common import noun, share

DEVELOPMENT_WORDS = {
    "shrinkage": "Little overfitting: expected shrinkage of at most 10 %",
    "optimism": "Small optimism: apparent and adjusted Nagelkerke R² within 0.05",
    "overall risk": "Overall risk estimated within ±0.05",
}
"""Riley's development criteria, per code of :class:`psl_core.sample_size.DevelopmentSampleSize`."""
VALIDATION_WORDS = {
    "observed_expected": "O/E",
    "slope": MEASURE_LABELS["slope"],
    "c_statistic": "C-statistic (AUC)",
}
"""The measures Riley's validation criteria make precise, per code."""

CRITERION = "Criterion"
MEASURE = "Measure"
ROWS_NEEDED = "Rows needed"
EVENTS_NEEDED = "Events needed"
ROWS_HERE = "Rows here"
MET = "Met"
TARGET_WIDTH = "Target 95 % interval width"
WIDTH_HERE = "Width on this table"
VALIDATION_NEEDS_BOTH = (
    "The sample size for validation needs patients with and without the outcome and "
    "risks that differ; this table cannot say."
)


def met_word(met):
    """A criterion met or not, in the tables: "yes" / "no"."""
    return "yes" if met else "no"


def development_sentences(n, events, prevalence, counted, max_feature_uses, c_statistic, size):
    """What the development criteria counted, what they ask and whether the table meets them.

    ``counted`` is :func:`psl_triage.judging.evidence.candidate_parameters`' (total, counts); ``size``
    the :class:`~psl_core.sample_size.DevelopmentSampleSize`.
    """
    parameters, counts = counted
    kinds = ", ".join(f"{columns} {kind} {noun(columns, 'column')} ({spent})"
                      for kind, (columns, spent) in counts.items())
    anticipated = (f"an anticipated C-statistic of {c_statistic:.2f}" if c_statistic is not None
                   else f"the conservative Nagelkerke R² of {DEFAULT_NAGELKERKE:.2f} (Riley et al. 2020)")
    sentences = [
        f"**{parameters} candidate parameters**: {kinds}. A binary column counts 1, a categorical "
        f"one 1 per category but one, a numeric one 2 per use the search allows (its cut point is "
        f"searched on the data: {max_feature_uses} {noun(max_feature_uses, 'use')}). Stages are "
        "not counted apart: each question the list asks is one of these candidates.",
        f"With {n} rows, {events} events (prevalence {prevalence:.1%}) and {anticipated} "
        f"(Cox–Snell R² {size.cox_snell:.3f}), Riley's criteria ask for at least **{size.minimum} rows** "
        f"({size.events:.0f} events, {size.events_per_parameter:.1f} events per candidate parameter).",
    ]
    met = size.met(n)
    if all(met.values()):
        sentences.append(f"The table meets every criterion ({n} ≥ {size.minimum} rows).")
    else:
        missing = [DEVELOPMENT_WORDS[c].split(":")[0].lower() for c, ok in met.items() if not ok]
        sentences.append(
            f"**The table is smaller than the criteria ask** ({n} of {size.minimum} rows; not met: "
            f"{', '.join(missing)}): expect the list to be over-fitted and its risks too extreme on new "
            "patients. It may still be trained; judge it on held-out patients (Evaluation) and "
            "prefer a short list."
        )
    return sentences


def validation_sentence(n, size, measured, used):
    """Whether a site's table is large enough for a precise validation (``size``: the
    :class:`~psl_core.sample_size.ValidationSampleSize`), and the C-statistic the criteria
    used (``used``) when it is not the one measured."""
    met = size.met(n)
    if all(met.values()):
        sentence = f"The table is large enough for precise validation ({n} ≥ {size.minimum} rows, Riley et al. 2021)."
    else:
        short = ", ".join(VALIDATION_WORDS[c] for c, ok in met.items() if not ok)
        sentence = (
            f"**This table is smaller than a precise validation needs** ({n} of {size.minimum} rows, "
            f"Riley et al. 2021): the intervals of {short} are wider than the targets; read them, "
            "not the point estimates."
        )
    if measured != used:
        sentence += (
            f" The list's C-statistic on this table is {measured:.2f}"
            + (", below 0.5: it ranks these patients worse than chance" if measured < 0.5 else "")
            + f"; the criteria are computed at {used:.2f}, the nearest value they take."
        )
    return sentence


def report_justification(size, uses, n_rows):
    """The model report's sample-size justification (TRIPOD 8), plain text: the candidate
    parameters, Riley's criteria with the rows each asks for, and whether the training table
    (``n_rows``) met them. ``size``: the :class:`~psl_core.sample_size.DevelopmentSampleSize`."""
    criteria = "; ".join(f"{DEVELOPMENT_WORDS[c]}: {rows} rows" for c, rows in size.criteria.items())
    verdict = ("The table met every criterion." if size.minimum <= n_rows else
               f"The table ({n_rows} rows) is smaller than the criteria ask: expect over-fitting; see the "
               "held-out and external performance.")
    return (f"{size.parameters} candidate parameters (binary columns 1, categorical ones a category less than "
            f"they have, numeric ones 2 per use, and a column may be used "
            f"{'once' if uses == 1 else f'up to {uses} times'} in the list), prevalence {share(size.prevalence, 1)}, "
            f"anticipated Nagelkerke R² 0.15 (Riley et al. 2020). Riley's criteria: {criteria}; minimum "
            f"{size.minimum} rows ({size.events:.0f} events). {verdict}")
