"""Train: learn a probabilistic scoring list from the prepared data, read it, save or load one.

The page reads widgets, calls :mod:`psl_triage.training` and renders. Training runs only when
the Train button is pressed; the result stays in the session until the next training or load.

Session state read (set by the landing page, ``pages/0_Data.py``):

``"prepared"``          psl_triage.data.PreparedData | None: the training data.
``"prepare_error"``     str | None: why "prepared" is None.
``"data_name"``         str: the dataset's name.

Session state written, the contract with the later pages (Triage, ...):

``"trained_model"``     psl_core.model.ProbabilisticScoringList: the current list, the one just
                        trained or loaded from a file. Absent until then.
``"trained_metadata"``  dict: its model-file metadata (psl_triage.modelcard.model_metadata: dataset,
                        readable "columns", "performance" per stage, "decision" (the M it was
                        saved with; absent in files from before), "training_options", "source";
                        a loaded or saved list also has "name", "version", "created").

Internal to this page: ``"train_origin"`` (one sentence: where the current list comes from),
``"train_saved"`` (the last save's message for the current list, or None),
``"train_load_message"`` (the last upload's outcome: dict with "kind" and "text"),
``"train_directions"`` / ``"train_asks"`` (the knowledge table's choices per column, see
psl_triage.knowledge) and the widget keys ``"w_train_*"``, which keep their values across page switches
(``"w_train_open_choice"``: a saved list to open from the model store).
"""

from __future__ import annotations

import time

import streamlit as st

from psl_core.cost_ratio import (
    COST_RATIO_LABEL,
    COST_RATIO_RANGE,
    DEFAULT_COST_RATIO,
    decision_text,
    saved_cost_ratio,
)
from psl_core.errors import DataError, PSLError
from psl_triage.costs import (
    COLUMN,
    COST,
    COST_WEIGHTS,
    GROUP,
    MAX_UNIT_CHARS,
    check_unit,
    cost_rows,
    costs_from_rows,
)
from psl_triage.data import prepare_training_data
from psl_triage.evidence import development_adequacy
from psl_triage.knowledge import ASKED, ASKS, DIRECTION, DIRECTIONS, knowledge_from_rows, knowledge_rows
from psl_triage.plots import performance_figure
from psl_triage.roles import ROLES, Role, roles_record
from psl_triage.store import list_models, load_model, model_dir, save_model
from psl_triage.too_good import recorded_warning
from psl_triage.trade_off import m_range_text
from psl_triage.training import (
    DEFAULT_CONFIDENCE,
    DEFAULT_SETUP,
    SCORE_SET_PRESETS,
    SETUPS,
    TrainingOptions,
    default_model_name,
    download_file_name,
    list_table,
    parse_score_set,
    performance_long,
    performance_table,
    read_model_upload,
    readable_columns,
    train_list,
)
from psl_triage.words import md
from psl_triage.words.train import list_end_text, no_gain_note, score_set_label, shrinkage_text, small_gain_text
from ui import csv_download, link, logger, shown_errors

PAPER = " (paper default)"
RECOMMENDED = " (recommended)"
SETUP_LABELS = {
    "recommended": "Recommended: the setup with the best measured probabilities",
    "paper": "The paper's setup (Hanselle et al.)",
}
SCORE_SET_LABELS = {
    "paper": f"Paper: {score_set_label(SCORE_SET_PRESETS['paper'])}{PAPER}",
    "positive": f"Positive only: {score_set_label(SCORE_SET_PRESETS['positive'])}",
    "custom": "Custom (type it below)",
}
CALIBRATION_LABELS = {"isotonic": f"Isotonic{PAPER}", "beta": "Beta", "sigmoid": f"Sigmoid (logistic){RECOMMENDED}"}
LOSS_LABELS = {
    "entropy": f"Most certain estimates on the training rows (expected entropy){PAPER}",
    "cv_brier": f"Best estimates on held-out rows (cross-validated Brier score){RECOMMENDED}",
    "nested_cv_brier": "Thresholds validated too (nested cross-validation; slower, can help on small data)",
}
SHRINKAGE_LABELS = {
    "cv": f"By the factor internal cross-validation finds{RECOMMENDED}",
    None: f"No{PAPER}",
}
INTERVAL_LABELS = {"bonferroni": f"Bonferroni{PAPER}", "sidak": f"Šidák (never wider){RECOMMENDED}"}
BINARIZATION_LABELS = {
    "in-search": f"During the search{PAPER}",
    "preprocess": "Beforehand, once per feature",
}
THRESHOLD_SEARCH_LABELS = {
    "bisect": f"Bisection{PAPER}",
    "brute": "Every mid-point (brute force)",
}
MAX_UPLOAD_MB = 5

ss = st.session_state


def make_current(model, metadata: dict, origin: str) -> None:
    """Make a list the one this page shows and later pages use."""
    ss.trained_model, ss.trained_metadata, ss.train_origin = model, metadata, origin
    ss.train_saved = ss.train_load_message = None
    ss.w_train_model_name = default_model_name(metadata)


def load_uploaded_model() -> None:
    """on_change of the uploader: a valid model file becomes the current list."""
    uploaded = ss.get("w_train_upload")
    ss.train_load_message = None
    if uploaded is None:
        return
    try:
        model = read_model_upload(uploaded.getvalue(), uploaded.name)
    except PSLError as exc:
        ss.train_load_message = {"kind": "error", "text": str(exc)}
        return
    except Exception:  # noqa: BLE001 - a user's file must never crash the page
        logger.exception("unexpected error while loading %s", uploaded.name)
        ss.train_load_message = {
            "kind": "error",
            "text": f"{uploaded.name} could not be loaded: something unexpected went wrong "
            "(the details are in the server log).",
        }
        return
    metadata = dict(getattr(model, "metadata_", None) or {})
    make_current(model, metadata, f"Loaded from the file {uploaded.name}.")
    ss.train_load_message = {
        "kind": "info",
        "text": f"Loaded {uploaded.name}: a list of {model.n_stages_ - 1} stages. "
        "It is now the current list, shown above and used by the next pages.",
    }


def choice(label: str, labels: dict, key: str, default=None, **kwargs) -> None:
    """A radio of the options in ``labels`` (value -> text), kept across page switches; it
    starts at ``default`` (the first option when None)."""
    index = 0 if default is None else list(labels).index(default)
    st.radio(label, list(labels), index=index, format_func=labels.get, key=key, persist_state="session", **kwargs)


def setup_default(key: str):
    """The value an option starts with: the default setup's choice (DEFAULT_SETUP)."""
    return SETUPS[DEFAULT_SETUP][key]


def setup_values(key: str) -> tuple[str, str]:
    """An option's value in the paper's and in the recommended setup, labelled, for a help text."""
    return f"{SETUPS['paper'][key]:g}{PAPER}", f"{SETUPS['recommended'][key]:g}{RECOMMENDED}"


def apply_setup() -> None:
    """on_change of the setup choice: fill the option widgets with that setup's choices
    (a callback, so the values are in place before the widgets are drawn)."""
    for key, value in SETUPS[ss.w_train_setup].items():
        ss[f"w_train_{key}"] = value


def keep_costs(names: list) -> None:
    """on_change of the cost table: keep its edits in ``train_cost_values`` and
    ``train_cost_groups`` (they survive page switches)."""
    for row, change in ss.w_train_cost_editor["edited_rows"].items():
        for column, kept in ((COST, ss.train_cost_values), (GROUP, ss.train_cost_groups)):
            if column in change:
                kept[names[int(row)]] = change[column]


def keep_knowledge(names: list) -> None:
    """on_change of the knowledge table: keep its edits in ``train_directions`` and
    ``train_asks`` (they survive page switches)."""
    for row, change in ss.w_train_knowledge_editor["edited_rows"].items():
        for column, words, kept in (
            (DIRECTION, DIRECTIONS, ss.train_directions), (ASKED, ASKS, ss.train_asks),
        ):
            if column in change:
                kept[names[int(row)]] = {text: key for key, text in words.items()}.get(change[column], "")


def options_from_widgets(prepared) -> TrainingOptions:
    costs, groups = costs_from_rows(cost_rows(prepared.columns, ss.train_cost_values, ss.train_cost_groups))
    monotone, required, forbidden = knowledge_from_rows(
        knowledge_rows(prepared.columns, ss.train_directions, ss.train_asks),
        {name: info.kind for name, info in prepared.columns.items()},
    )
    preset = ss.w_train_score_preset
    score_set = parse_score_set(ss.w_train_custom_scores) if preset == "custom" else SCORE_SET_PRESETS[preset]
    max_stages = ss.w_train_max_stages
    return TrainingOptions(
        score_set=score_set,
        calibration=ss.w_train_calibration,
        binarization=ss.w_train_binarization,
        threshold_search=ss.w_train_threshold_search,
        loss=ss.w_train_loss,
        prior_strength=float(ss.w_train_prior_strength),
        max_feature_uses=int(ss.w_train_max_feature_uses),
        min_support=int(ss.w_train_min_support),
        interval_correction=ss.w_train_interval_correction,
        shrinkage=ss.w_train_shrinkage,
        group_categories=bool(ss.w_train_group_categories),
        max_stages=None if max_stages is None else int(max_stages),
        test_fraction=float(ss.w_train_test_fraction),
        seed=int(ss.w_train_seed),
        cost_ratio=float(ss.w_train_cost_ratio),
        question_costs=costs,
        cost_groups=groups,
        cost_weight=float(ss.w_train_cost_weight),
        cost_unit=check_unit(ss.w_train_cost_unit),
        monotone=monotone,
        required=required,
        forbidden=forbidden,
    )


def sample_size_section(prepared, max_feature_uses: int) -> None:
    """Riley's criteria for this table, before training (psl_triage.evidence)."""
    with shown_errors("checking the sample size"):
        c_statistic = ss.get("w_train_anticipated_c")
        size, table, sentences = development_adequacy(prepared, int(max_feature_uses), c_statistic)
        *details, verdict = sentences
        if size.minimum <= len(prepared.y):
            st.caption(verdict)
        else:
            st.warning(verdict, icon=":material/warning:")
        with st.expander("Is the table large enough? Riley's sample size criteria"):
            for sentence in details:
                st.markdown(sentence)
            st.dataframe(table, hide_index=True, key="w_train_sample_size")
            st.number_input(
                "Anticipated C-statistic (AUC) of the list, if known from earlier work", 0.51, 0.99, None,
                step=0.01, key="w_train_anticipated_c", placeholder="unknown: conservative R²",
                help="Riley et al. 2021 turn an anticipated C-statistic into the R² the criteria need; "
                     "without it the criteria assume a Nagelkerke R² of 0.15.",
            )
            csv_download(table, "sample-size", "w_train_download_sample_size")


def train(prepared, data_name: str) -> None:
    options = options_from_widgets(prepared)
    bar = st.progress(0.0, text="Starting…")

    def progress(stage: int, n_stages: int) -> None:
        bar.progress(stage / n_stages, text=f"Stage {stage} of {n_stages}")

    start = time.perf_counter()
    roles = roles_record(ss.get("column_roles") or {}, ss.get("column_types") or {})
    model, metadata = train_list(prepared, data_name, options, progress=progress, column_roles=roles)
    seconds = time.perf_counter() - start
    bar.progress(1.0, text=f"Done: {model.n_stages_ - 1} stages in {seconds:.1f} s")
    counts = metadata["training_options"]
    test_part = f", measured on {counts['n_test']} test rows" if counts["n_test"] else ", no test rows"
    make_current(
        model,
        metadata,
        f"Trained on {data_name} ({counts['n_train']} training rows{test_part}) "
        f"with the score set {score_set_label(options.score_set)} and "
        + {"paper": "the paper's setup.", "recommended": "the recommended setup."}.get(
            options.setup(), "a custom mix of the paper's and the recommended options."
        ),
    )


def retrain_without(questions: tuple[str, ...], reasons: str) -> None:
    """on_click of "Retrain without ...": take the questions out of the data page's choices,
    prepare the data again and train on this run with the same options."""
    evidence = f"The list was too good to be true with it. {reasons}"
    ss.column_types = {**ss.column_types, **dict.fromkeys(questions, "ignore")}
    ss.column_roles = {**(ss.get("column_roles") or {}), **{name: Role("leak", evidence) for name in questions}}
    ss.flagged_columns = {
        **(ss.get("flagged_columns") or {}), **{name: f"{ROLES['leak']}: {evidence}" for name in questions}
    }
    old = ss.prepared
    try:
        ss.prepared = prepare_training_data(
            ss.raw_df, ss.column_types, ss.outcome, ss.positive_class, ss.missing_handling,
            ss.dataset_meta.columns, (old.positive_label, old.negative_label),
        )
    except DataError as exc:
        ss.prepared, ss.prepare_error = None, str(exc)
        return
    ss.train_retrain_pending = True


# --- page ------------------------------------------------------------------------------------

st.set_page_config(page_title="Train · PSL Triage", page_icon="🩺", layout="wide")
st.title("Train a scoring list")
st.markdown(
    "The learner picks the features one at a time: at each stage the feature, threshold and "
    "points that make the risk estimates best. The result is a list a clinician works through "
    "from the top, with the risk of every total at every stage."
)

st.header("Training data")
prepared = ss.get("prepared")
data_name = ss.get("data_name") or "the data"
if prepared is None:
    reason = ss.get("prepare_error")
    if reason:
        st.warning(f"The data is not ready for training yet: {md(reason)}")
    else:
        st.info("No data loaded yet. Load a table (or the demo) and choose the outcome first.")
    link("pages/0_Data.py", "Go to the data page", "Open the start page (**Data**) in the sidebar.")
else:
    st.markdown(
        f"**{md(data_name)}**: {prepared.n_rows_after} rows and {len(prepared.columns)} features. "
        f"{prepared.n_positive} rows with {md(prepared.positive_label)} (positive), "
        f"{prepared.n_negative} with {md(prepared.negative_label)}."
    )
    sample_size_section(prepared, ss.get("w_train_max_feature_uses") or setup_default("max_feature_uses"))

    st.header("Options")
    choice(
        "Setup",
        SETUP_LABELS,
        "w_train_setup",
        default=DEFAULT_SETUP,
        on_change=apply_setup,
        help="Fills the options below; any of them can still be changed. The paper's setup is "
        "the published method. The recommended one (sigmoid calibration, cross-validated choice "
        "of features, 2 pseudo-counts, up to two thresholds per numeric feature, at least 10 "
        "training rows per answer, Šidák intervals, probabilities pulled toward the base rate by the "
        "factor internal cross-validation finds) gave lower test Brier scores on four "
        "clinical datasets (bench/quality.py) and takes a little longer to train.",
    )
    with st.expander("What you know already (optional): directions, questions asked first or never"):
        st.markdown(
            "A feature whose risk only rises with its value (age, a lab) can be held to it: the list "
            "then never gives a higher value fewer points, at any question. A feature can be asked "
            "first (the presenting complaint; several in the table's order) or never (not available "
            "at triage). Nothing is set by default."
        )
        ss.setdefault("train_directions", {})
        ss.setdefault("train_asks", {})
        st.data_editor(
            knowledge_rows(prepared.columns, ss.train_directions, ss.train_asks), hide_index=True,
            num_rows="fixed", disabled=[COLUMN], key="w_train_knowledge_editor", on_change=keep_knowledge,
            args=(list(prepared.columns),),
            column_config={
                DIRECTION: st.column_config.SelectboxColumn(options=list(DIRECTIONS.values()), required=True),
                ASKED: st.column_config.SelectboxColumn(options=list(ASKS.values()), required=True),
            },
        )
    with st.expander("Question costs (optional): time, money or harm of asking each feature"):
        st.markdown(
            "Give what asking each feature costs at the bedside, in one unit (0: free, e.g. history "
            "and examination). Features measured with one test (a blood draw, an exercise test) get "
            "the test's name: the test is paid once, by the first of them asked. The costs are saved "
            "with the list: Triage shows them and stops before "
            "a question that costs more than a changed outcome is worth. The search can also prefer "
            "cheaper questions."
        )
        ss.setdefault("train_cost_values", {})
        ss.setdefault("train_cost_groups", {})
        names = list(prepared.columns)
        st.data_editor(
            cost_rows(prepared.columns, ss.train_cost_values, ss.train_cost_groups), hide_index=True,
            num_rows="fixed", disabled=[COLUMN], key="w_train_cost_editor", on_change=keep_costs, args=(names,),
            column_config={
                COST: st.column_config.NumberColumn(min_value=0.0, format="%g"),
                GROUP: st.column_config.TextColumn(max_chars=MAX_UNIT_CHARS, help="e.g. blood test"),
            },
        )
        unit_column, weight_column = st.columns(2)
        unit_column.text_input(
            "Unit of the costs", value="", max_chars=MAX_UNIT_CHARS, placeholder="e.g. minutes, EUR, points",
            key="w_train_cost_unit", persist_state="session",
        )
        weight_column.select_slider(
            "Prefer cheaper questions in the search", COST_WEIGHTS, value=0.0, key="w_train_cost_weight",
            format_func=lambda w: "no (0)" if w == 0 else f"{w:g}", persist_state="session",
            help="0 leaves the list as without costs. A weight w lets the most expensive question "
            "come first only if it improves the criterion by w times the base rate's criterion more "
            "than a free one. Measured on the demo with illustrative costs (bench/costs.py, 20 "
            "splits): 0.05 lowered the mean cost asked at the bedside by about a quarter for "
            "+0.012 held-out Brier score; 0.1 by about 60 % for +0.016.",
        )
    with st.form("w_train_form", border=True):
        left, middle, right = st.columns(3)
        with left:
            choice("Score set: the points a feature may get", SCORE_SET_LABELS, "w_train_score_preset")
            st.text_input(
                "Custom score set (used when Custom is chosen)",
                value="-2, -1, 1, 2",
                help="Whole numbers other than 0, separated by commas; ±2 stands for -2 and 2.",
                key="w_train_custom_scores",
                persist_state="session",
            )
            st.number_input(
                COST_RATIO_LABEL,
                min_value=COST_RATIO_RANGE[0],
                max_value=COST_RATIO_RANGE[1],
                value=DEFAULT_COST_RATIO,
                step=1.0,
                format="%g",
                key="w_train_cost_ratio",
                persist_state="session",
            )
            st.caption(
                "Saved with the list as the trade-off Triage, Intervals and Evaluation start with: "
                "the list decides positive above a risk of 1/(1+M). Choose it from what a missed case "
                "and a false alarm cost where the list is used (10 is only the paper's example); "
                "after training the page says over which M the list decides anything. The list "
                "itself is the same for every M."
            )
        with middle:
            choice("Calibration of the probabilities", CALIBRATION_LABELS, "w_train_calibration",
                   default=setup_default("calibration"))
            choice("Thresholds of numeric features are chosen", BINARIZATION_LABELS, "w_train_binarization")
            choice("Threshold search", THRESHOLD_SEARCH_LABELS, "w_train_threshold_search")
            choice(
                "Each stage's feature is the one with",
                LOSS_LABELS,
                "w_train_loss",
                default=setup_default("loss"),
                help="Expected entropy is the paper's criterion, measured on the rows it learns "
                "from. The cross-validated Brier score judges each candidate on held-out folds. "
                "The nested variant also chooses a numeric feature's threshold inside each fold "
                "before scoring the held-out fold, so the threshold's choice is validated too: "
                "measured to help on small data (heart disease, 198 training rows; breast cancer "
                "Coimbra, 77) and to hurt on larger data (Pima, ILPD); 4–6 times slower to train.",
            )
        with right:
            st.number_input(
                "Pseudo-counts per total",
                min_value=0.0,
                max_value=100.0,
                value=float(setup_default("prior_strength")),
                step=1.0,
                format="%.1f",
                help="{}; {}. Pulls the probability of a total seen in "
                "few training rows toward the overall rate, so that rare totals do not get extreme "
                "probabilities.".format(*setup_values("prior_strength")),
                key="w_train_prior_strength",
                persist_state="session",
            )
            st.number_input(
                "Thresholds per numeric feature",
                min_value=1,
                max_value=3,
                value=int(setup_default("max_feature_uses")),
                step=1,
                help="{}: every feature once; {}: a later stage may ask about the same measurement "
                "with another threshold (its value is entered once).".format(*setup_values("max_feature_uses")),
                key="w_train_max_feature_uses",
                persist_state="session",
            )
            st.number_input(
                "Training rows each answer must hold",
                min_value=1,
                max_value=1000,
                value=int(setup_default("min_support")),
                step=1,
                help="{}: any threshold; {}: a threshold is only used where "
                "at least this many training rows fall on each side of it (and between it and the "
                "feature's other threshold), and a yes/no feature only when at least this many rows "
                "answer yes and as many no. Keeps the list from singling out a few extreme cases by "
                "chance. With fewer than twice this many rows no threshold qualifies.".format(
                    *setup_values("min_support")),
                key="w_train_min_support",
                persist_state="session",
            )
            choice(
                "Confidence intervals",
                INTERVAL_LABELS,
                "w_train_interval_correction",
                default=setup_default("interval_correction"),
                help="How a stage's simultaneous intervals share the confidence level among its "
                "totals. Šidák gives the same guarantee with intervals that are never wider.",
            )
            choice(
                "Pull the probabilities toward the base rate",
                SHRINKAGE_LABELS,
                "w_train_shrinkage",
                default=setup_default("shrinkage"),
                help="A list learned from few patients tends to promise more than it keeps: its "
                "probabilities are too far from the base rate on new patients. The internal "
                "cross-validation measures by how much (the calibration slope of its held-out "
                "estimates) and the list's probabilities are pulled back by that slope less its "
                "standard error; with many rows the factor is near 1 and changes little. Measured on small tables "
                "(bench/small_data.py): fewer lists worse than the base rate on new patients, and "
                "lower test Brier scores on three of four tables.",
            )
            st.checkbox(
                "Ask a categorical feature as one grouping of its categories",
                value=bool(setup_default("group_categories")),
                help="Besides one question per category, the search may ask \"Chest pain = typical "
                "or atypical\": the categories in order of their rate of the outcome (or their own "
                "order), cut like a number, so a feature of six categories can be one question. "
                f"Off{PAPER}; on{RECOMMENDED}.",
                key="w_train_group_categories",
                persist_state="session",
            )
            st.number_input(
                "Maximum number of stages",
                min_value=1,
                value=None,
                step=1,
                placeholder="all features" + PAPER,
                help="Leave empty to use every feature.",
                key="w_train_max_stages",
                persist_state="session",
            )
            st.number_input(
                "Test fraction: share of rows held out to measure the list",
                min_value=0.0,
                max_value=0.9,
                value=1 / 3,
                step=0.05,
                format="%.2f",
                help="1/3" + PAPER + ". 0 trains on every row and measures on the training rows only.",
                key="w_train_test_fraction",
                persist_state="session",
            )
            st.number_input(
                "Random seed of the train/test split",
                min_value=0,
                value=0,
                step=1,
                key="w_train_seed",
                persist_state="session",
            )
        submitted = st.form_submit_button("Train", type="primary", key="w_train_submit")
    if submitted or ss.pop("train_retrain_pending", False):
        with shown_errors("training the list"):
            train(prepared, data_name)

st.header("The list")
model = ss.get("trained_model")
metadata = ss.get("trained_metadata") or {}
if model is None:
    st.info("No list yet: train one above, or load a saved model file below.")
else:
    with shown_errors("showing the list"):
        st.caption(md(ss.get("train_origin", "")))
        too_good = recorded_warning(metadata)
        if too_good is not None:
            names = ", ".join(f"**{md(name)}**" for name in too_good.questions)
            st.error(
                f"**Too good to be true.** {' '.join(md(reason) for reason in too_good.reasons)} "
                f"Suspect {names}: a value that defines the outcome, a second outcome, something "
                "recorded after it or an identifier sorted by it. Do not use this list at the bedside "
                "until you know it is measured before the outcome.",
                icon=":material/report:",
            )
            if prepared is not None and set(too_good.questions) <= set(map(str, prepared.X.columns)):
                st.button(
                    f"Retrain without {', '.join(md(name) for name in too_good.questions)}",
                    key="w_train_retrain_without", type="primary", on_click=retrain_without,
                    args=(too_good.questions, " ".join(too_good.reasons)),
                )
        length = " ".join(part for part in (list_end_text(model), small_gain_text(model)) if part)
        if length:
            st.markdown(f"**Length.** {length}")
        shrunk = shrinkage_text(model)
        if shrunk:
            st.markdown(f"**Probabilities.** {shrunk}")
        st.markdown(f"**Decision trade-off.** {decision_text(metadata)}")
        dataset_labels = metadata.get("dataset") if isinstance(metadata.get("dataset"), dict) else {}
        where_m, _ = m_range_text(
            model, saved_cost_ratio(metadata), dataset_labels.get("positive_label") or "positive",
            dataset_labels.get("negative_label") or "negative",
        )
        st.markdown(f"**Where M matters.** {where_m}")
        show_intervals = st.toggle(
            f"Show intervals ({DEFAULT_CONFIDENCE:.0%} confidence)",
            key="w_train_show_intervals",
            persist_state="session",
        )
        dataset = metadata.get("dataset") if isinstance(metadata.get("dataset"), dict) else {}
        outcome = md(dataset.get("positive_label") or "the positive outcome")
        st.markdown(
            f"Each row adds one feature. Its points count when the condition holds; the columns "
            f"are the possible totals so far, and each cell is the probability of **{outcome}** "
            "for a patient with that total at that stage (empty: total not reachable)."
            + (
                " In brackets: the simultaneous confidence interval of the stage, wider where "
                "few training rows had that total."
                if show_intervals
                else ""
            )
        )
        no_gain = no_gain_note(model, outcome)
        if no_gain:
            st.warning(no_gain, icon=":material/warning:")
        table = list_table(model, readable_columns(metadata), intervals=show_intervals)
        config = {name: st.column_config.Column(pinned=True) for name in ("Stage", "Feature", "Points")}
        if show_intervals:  # room for "34% (21–49%)"
            config.update({name: st.column_config.Column(width=115) for name in table.columns[3:]})
        st.dataframe(table, hide_index=True, height="content", column_config=config, key="w_train_list_table")

    st.header("Performance stage by stage")
    with shown_errors("showing the performance"):
        long = performance_long(metadata)
        if long.empty:
            st.info("This model file records no performance measures.")
        else:
            st.markdown(
                "Expected entropy (lower: more certain estimates), Brier score (lower: better "
                "probabilities) and AUC (higher: better ranking of patients) after each stage, on "
                "the training rows and, if some were held out, the test rows."
            )
            measures = performance_table(long)
            st.dataframe(
                measures,
                hide_index=True,
                height="content",
                column_config={
                    name: st.column_config.NumberColumn(format="%.3f") for name in measures.columns[1:]
                },
                key="w_train_performance_table",
            )
            st.plotly_chart(performance_figure(long), key="w_train_performance_chart")

st.header("Save, download or load")
if model is not None:
    with shown_errors("preparing the save options"):
        if "w_train_model_name" not in ss:
            ss.w_train_model_name = default_model_name(metadata)
        name = st.text_input("Model name", key="w_train_model_name", persist_state="session")
        save_column, download_column = st.columns(2)
        with save_column:
            if st.button("Save to the model store", key="w_train_save", type="primary"):
                with shown_errors("saving the list"):
                    stored = save_model(model, name, metadata)
                    ss.trained_metadata = metadata = dict(
                        metadata, name=stored.name, version=stored.version, created=stored.created
                    )
                    ss.train_saved = f"Saved as {stored.path.name} (version {stored.version}) in {stored.path.parent}."
            if ss.get("train_saved"):
                st.success(md(ss.train_saved))
            else:
                st.caption(f"Saved lists go to {md(model_dir())}; a name saved again becomes its next version.")
        with download_column:
            st.download_button(
                "Download the model file (JSON)",
                data=model.to_json(metadata),
                file_name=download_file_name(name),
                mime="application/json",
                on_click="ignore",
                key="w_train_download",
            )
st.file_uploader(
    "Load a model file (.json) saved or downloaded before",
    type=["json"],
    max_upload_size=MAX_UPLOAD_MB,
    on_change=load_uploaded_model,
    key="w_train_upload",
)
stored_lists, _ = list_models()
if stored_lists:
    labels = {str(entry.path): entry.label for entry in stored_lists}
    opened = st.selectbox(
        "Or open a list saved in the model store", list(labels), format_func=labels.get, index=None,
        placeholder="Choose a saved list", key="w_train_open_choice",
    )
    if st.button("Open the saved list", key="w_train_open", disabled=opened is None):
        with shown_errors("opening the saved list"):
            loaded_list = load_model(opened)
            make_current(loaded_list, dict(loaded_list.metadata_ or {}), f"Opened from the model store: {labels[opened]}.")
            st.rerun()
message = ss.get("train_load_message")
if message:
    (st.error if message["kind"] == "error" else st.info)(md(message["text"]))
