"""What every figure shares: the outcomes' words, the colours, the margins."""

import numpy as np

from psl_core.decision import RULE_IN, RULE_OUT
from psl_core.decision import UNCERTAIN as UNCERTAIN_OUTCOME
from psl_core.evaluation import (
    LR_REGULARIZED,
    LR_UNREGULARIZED,
    PSL,
)
from psl_triage.words import figures as words
from psl_triage.words.decision import OUTCOME_WORDS

# The outcomes as figures and tables write them: the bedside's words (questions.OUTCOME_WORDS).
CONFIDENT_POSITIVE = OUTCOME_WORDS[RULE_IN].lower()
CONFIDENT_NEGATIVE = OUTCOME_WORDS[RULE_OUT].lower()
UNCERTAIN = OUTCOME_WORDS[UNCERTAIN_OUTCOME].lower()
NO_TRAINING_CASE = words.NO_TRAINING_CASE
# Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
POSITIVE_COLOR, NEGATIVE_COLOR, NEUTRAL_COLOR = "#D55E00", "#0072B2", "#7F7F7F"
STATUS_COLORS = {CONFIDENT_POSITIVE: POSITIVE_COLOR, CONFIDENT_NEGATIVE: NEGATIVE_COLOR, UNCERTAIN: NEUTRAL_COLOR}
METHOD_COLORS = {PSL: POSITIVE_COLOR, LR_REGULARIZED: NEGATIVE_COLOR, LR_UNREGULARIZED: "#009E73"}
THRESHOLD_NAME = words.THRESHOLD_NAME
MARGIN = {"l": 10, "r": 10, "t": 50, "b": 10}


def stage_index(model, stage):
    """The stage number, None meaning the last one (invalid stages fail in the model)."""
    return model.n_stages_ - 1 if stage is None else stage


def outcome_of(model, y):
    return (np.asarray(y) == model.classes_[1]).astype(np.int64)


def error_bars(table, estimate, color=None):
    """Plotly's ``error_y`` from the estimate column ``estimate`` to ``table``'s lower and upper."""
    bars = {"type": "data", "symmetric": False, "array": table["upper"] - table[estimate],
            "arrayminus": table[estimate] - table["lower"]}
    return bars if color is None else {**bars, "color": color}
