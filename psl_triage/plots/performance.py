"""The Train page's figure: each measure by stage on the training and the test rows."""

import plotly.express as px

from psl_triage.words import figures as words
from psl_triage.words.train import MEASURES

MEASURE_SCALES = {"expected_entropy": (0.0, 1.0), "brier": (0.0, 0.25), "auc": (0.5, 1.0)}
"""The y-axis of each measure's panel: from its best or chance value to the base rate's worst
(entropy of a fair coin, Brier score of a 50 % base rate, AUC from chance to perfect), widened
to hold every value. A change of 0.0526 to 0.0509 then looks as small as it is."""


def performance_figure(long):
    """Line chart of :func:`psl_triage.training.tables.performance_long`: one panel per measure, train and test lines.

    Each panel keeps the measure's natural scale (:data:`MEASURE_SCALES`) and a dotted line at
    the base rate's value (stage 0 on the training rows, AUC 0.5), so a small gain looks small.
    """
    figure = px.line(
        long,
        x="stage",
        y="value",
        color="data",
        facet_col="measure",
        facet_col_spacing=0.07,  # room for the next panel's own tick labels (plotly: 0.03)
        markers=True,
        category_orders={"measure": list(MEASURES.values()), "data": ["train", "test"]},
        labels={"stage": words.STAGE, "value": "", "data": words.ROWS},
    )
    figure.update_yaxes(matches=None, showticklabels=True)
    figure.for_each_annotation(lambda a: a.update(text=a.text.split("=", 1)[-1]))
    shown_measures = [m for m in MEASURES.values() if m in set(long["measure"])]
    for column, (key, measure) in enumerate((k, m) for k, m in MEASURES.items() if m in shown_measures):
        values = long.loc[long["measure"] == measure, "value"]
        low, high = MEASURE_SCALES[key]
        figure.update_yaxes(range=[min(low, values.min()), max(high, values.max()) * 1.02], col=column + 1)
        stage0 = long[(long["measure"] == measure) & (long["stage"] == 0) & (long["data"] == "train")]["value"]
        base = 0.5 if key == "auc" else (float(stage0.iloc[0]) if len(stage0) else None)
        if base is not None:
            figure.add_hline(y=base, line_dash="dot", line_color="grey", col=column + 1,
                             annotation_text=words.BASE_RATE, annotation_position="bottom right")
    figure.update_layout(height=320, margin={"l": 10, "r": 10, "t": 40, "b": 10})
    return figure
