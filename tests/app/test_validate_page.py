"""The Validate page (pages/6_Validate.py) in Streamlit's AppTest: a Cleveland list judged on
the Hungarian table, a column mapped by hand, recalibrated and saved as a new version."""

import html
import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from psl_triage.model_file.store import save_model
from psl_triage.training.fit import train_list
from psl_triage.training.options import TrainingOptions
from psl_triage.words import shown
from tests.apptest import put_list, training
from tests.paths import ROOT

PAGE = str(ROOT / "pages" / "6_Validate.py")


@pytest.fixture(scope="module")
def trained(demo_prepared):
    model, metadata = train_list(demo_prepared, "Heart disease (UCI, Cleveland)", TrainingOptions(max_stages=6))
    stored = save_model(model, "Validate page test", metadata)  # version 1 in the store
    return model, dict(metadata, name=stored.name, version=stored.version, created=stored.created)


def hungarian_csv(rename=None):
    frame = pd.read_csv(ROOT / "datasets" / "heart_hungarian.csv").rename(columns=rename or {})
    return frame.to_csv(index=False).encode()


def open_page(trained):
    at = AppTest.from_file(PAGE, default_timeout=90)
    put_list(at, *trained)
    at.run()
    assert not at.exception
    return at


def judged_at_hungary(trained):
    """The page with the Hungarian table uploaded as hu.csv, its outcome the 0/1 heart_disease."""
    at = open_page(trained)
    frame = pd.read_csv(ROOT / "datasets" / "heart_hungarian.csv")
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    at.file_uploader(key="validate_upload").set_value(("hu.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception and not at.error
    return at


def test_without_a_list_the_page_says_where_to_get_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))  # an empty store
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    assert not at.exception
    assert any("Train" in info.value for info in at.info)


def test_validate_map_and_recalibrate(trained, isolated_model_dir):
    model, metadata = trained
    assert "oldpeak" in {literal.column for literal in model.literals_}
    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(
        ("hungary.csv", hungarian_csv({"oldpeak": "ST depression"}), "text/csv")
    ).run()
    assert not at.exception and not at.error
    # The saved outcome "heart_disease" is not in this table: the page asks for it.
    assert any("outcome column" in info.value for info in at.info)
    at.selectbox(key="validate_outcome").set_value("num").run()
    assert at.multiselect(key="validate_positive").value == [1]  # the saved positive value found in num
    at.multiselect(key="validate_positive").set_value([1, 2, 3, 4]).run()
    # oldpeak is not matched by name: mapped by hand.
    mapping = at.selectbox(key="validate_map_oldpeak")
    mapping.set_value("ST depression").run()
    assert not at.exception and not at.error
    shown = at.table[0].value
    assert list(shown["Measure"])[:3] == [
        "Observed − expected rate", "Calibration-in-the-large (intercept)", "Calibration slope",
    ]
    assert len(at.get("plotly_chart")) == 3  # reliability, calibration curve, decision curves
    # Hungary's table answers thal for 28 patients and ca for 3: one question can be recalibrated.
    assert at.number_input(key="validate_keep").value == 1
    at.button(key="validate_recalibrate").click().run()
    assert not at.exception and not at.error
    assert at.success and "version 2" in at.success[-1].value
    saved = json.loads((isolated_model_dir / "validate-page-test-v2.json").read_text())
    origin = saved["metadata"]["origin"]
    assert origin["recalibrated_from"] == {"name": "Validate page test", "version": 1, "created": metadata["created"]}
    assert saved["metadata"]["source"] == "recalibrated" and "performance" not in saved["metadata"]
    assert origin["table"] == {"name": "hungary.csv", "n_rows": 294} and origin["n_stages"] == 1
    assert saved["stages"][0]["feature"] == model.literals_[0].column and len(saved["stages"]) == 1
    assert saved["calibration"][0]["positives"] == [106]  # stage 0: every Hungarian positive
    training(at).saved_message = "Saved as the list before."  # the Train page's last save, of another list
    at.button(key="validate_use").click().run()
    assert not at.exception and training(at).model.n_stages_ == 2
    # The recalibrated list is the current one, with its own origin, name and no earlier save's message.
    session = training(at)
    assert session.origin.startswith("Recalibrated at another site (hungary.csv)") and session.saved_message is None
    assert session.metadata.source == "recalibrated" and session.take_proposed_name() == session.metadata.name


def test_a_table_without_a_needed_column_judges_the_earlier_stages(trained):
    at = open_page(trained)
    frame = pd.read_csv(ROOT / "datasets" / "heart_hungarian.csv").drop(columns=["thal"])
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    at.file_uploader(key="validate_upload").set_value(("no-thal.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    at.selectbox(key="validate_map_thal").set_value(None).run()
    assert not at.exception and not at.error
    assert any("not in this table" in caption.value for caption in at.caption)
    assert at.selectbox(key="validate_stage").options == ["0 (294 patients with every answer known or not recorded)"]


def test_an_unreadable_upload_is_an_error_not_a_traceback(trained):
    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(("broken.csv", b"\x00\x01\x02" * 50, "text/csv")).run()
    assert not at.exception and at.error


def cleveland_csv():
    return (ROOT / "datasets" / "heart_cleveland.csv").read_bytes()


def test_the_page_names_the_list_it_validates(trained):
    at = open_page(trained)
    named = shown(" ".join(markdown.value for markdown in at.markdown))
    assert "Validating **Validate page test** (version 1" in named
    assert "trained on Heart disease (UCI, Cleveland), 198 of its 297 patients (99 held out" in named


def test_any_saved_list_can_be_validated_without_one_on_the_train_page(trained, isolated_model_dir):
    at = AppTest.from_file(PAGE, default_timeout=90).run()  # a fresh session: no list on Train
    assert not at.exception
    path = str(isolated_model_dir / "validate-page-test-v1.json")
    at.selectbox(key="validate_model_choice").set_value(path).run()
    assert not at.exception and not at.error
    assert "Validating **Validate page test** (version 1" in shown(" ".join(m.value for m in at.markdown))
    at.file_uploader(key="validate_upload").set_value(("hungary.csv", hungarian_csv(), "text/csv")).run()
    at.selectbox(key="validate_outcome").set_value("num").run()
    assert not at.exception and not at.error and at.table  # judged


def test_the_training_table_itself_is_flagged(trained):
    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(("cleveland.csv", cleveland_csv(), "text/csv")).run()
    at.selectbox(key="validate_outcome").set_value("num").run()
    at.multiselect(key="validate_positive").set_value([1, 2, 3, 4]).run()
    assert not at.exception
    assert any("looks like the list's own training data" in warning.value for warning in at.warning)
    at.file_uploader(key="validate_upload").set_value(("hungary.csv", hungarian_csv(), "text/csv")).run()
    at.selectbox(key="validate_outcome").set_value("num").run()
    assert not any("own training data" in warning.value for warning in at.warning)


def test_the_report_repeats_the_warning_that_the_table_is_the_training_data(trained):
    """The walk on MASS/birthwt: validation on the list's own training table appeared in the
    downloadable report under "Validation at other sites" without the page's warning."""
    from psl_triage.judging.card import report_html
    from psl_triage.judging.evidence import report_evidence

    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(("cleveland.csv", cleveland_csv(), "text/csv")).run()
    at.selectbox(key="validate_outcome").set_value("num").run()
    at.multiselect(key="validate_positive").set_value([1, 2, 3, 4]).run()
    warning = next(shown(w.value) for w in at.warning if "own training data" in w.value)
    report = report_html(*trained, evidence=report_evidence(2, site=at.session_state["validate_site_report"]))
    assert f"<p>{html.escape(warning)}</p>" in report
    at.file_uploader(key="validate_upload").set_value(("hungary.csv", hungarian_csv(), "text/csv")).run()
    at.selectbox(key="validate_outcome").set_value("num").run()
    report = report_html(*trained, evidence=report_evidence(2, site=at.session_state["validate_site_report"]))
    assert "own training data" not in report and "Judged in this session on hungary.csv" in report


def test_the_upload_stays_when_the_user_comes_back_from_another_page(trained):
    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(("hungary.csv", hungarian_csv(), "text/csv")).run()
    at.selectbox(key="validate_outcome").set_value("num").run()
    at.file_uploader(key="validate_upload").set_value(None).run()  # Streamlit forgets the file on a page switch
    assert not at.exception
    assert not any("Upload a table" in info.value for info in at.info)
    assert any("hungary.csv, uploaded earlier" in shown(caption.value) for caption in at.caption)
    assert at.selectbox(key="validate_outcome").value == "num"


def test_the_site_gets_sample_size_calibration_decision_curves_and_subgroups(trained):
    import plotly.io as pio

    at = judged_at_hungary(trained)
    stage = at.session_state["validate_report"][2].stage
    assert stage >= 1
    charts = {figure.layout.title.text: figure for figure in
              (pio.from_json(chart.proto.spec) for chart in at.get("plotly_chart"))}
    curve = charts["Calibration curve with its 95% band"]
    assert {"flexible calibration curve", "95% band of the curve",
            "observed rate per total (Clopper–Pearson 95%)"} <= {t.name for t in curve.data}
    decision = charts["Decision curves: net benefit at this site"]
    names = {t.name for t in decision.data}
    assert {"the list", "Treat all", "Treat none"} <= names
    assert any(name.startswith("M = 10: threshold 1/(1+M)") for name in names)
    tables = [d.value for d in at.dataframe]
    assert any("Target 95 % interval width" in t.columns for t in tables)
    assert any("Measure" in t.columns and t["Measure"].str.startswith("ICI").any() for t in tables)
    assert any("precise validation" in m.value for m in at.markdown)
    at.selectbox(key="validate_subgroup_column").set_value("sex").run()
    assert not at.exception and not at.error
    groups = next(d.value for d in at.dataframe if "Group" in d.value.columns)
    assert {"0", "1", "All patients"} <= set(groups["Group"].astype(str))


def test_the_card_report_carries_what_validate_showed(trained):
    from psl_triage.judging.card import report_html
    from psl_triage.judging.evidence import report_evidence

    at = judged_at_hungary(trained)
    site = at.session_state["validate_site_report"]
    assert site["owner"] is trained[0] and site["where"].startswith("hu.csv: ")
    report = report_html(*trained, evidence=report_evidence(2, site=site))
    assert "Judged in this session on hu.csv" in report and "Calibration there" in report
    assert "net benefit is" in report and "precise validation" in report


def test_a_coding_error_until_the_sites_numbers_are_sorted_into_the_lists_bands():
    import numpy as np

    from psl_triage.data import infer_column_types, prepare_training_data

    rng = np.random.default_rng(4)
    n = 600
    mm = rng.integers(3, 120, n)
    bands = pd.cut(mm, [0, 20, 50, 1000], labels=["<=20", "20-50", ">50"]).astype(str)
    frame = pd.DataFrame({"size": bands})
    logit = np.select([bands == ">50", bands == "20-50"], [1.5, 0.3], -1.0)
    frame["recur"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    prepared = prepare_training_data(frame, infer_column_types(frame[["size"]]), "recur", 1)
    at = open_page(train_list(prepared, "bands", TrainingOptions(max_stages=2)))
    site = frame.assign(size=mm).to_csv(index=False).encode()
    at.file_uploader(key="validate_upload").set_value(("mm.csv", site, "text/csv")).run()
    assert not at.exception
    assert any("Column 'size'" in shown(error.value) and "<=20" in shown(error.value) for error in at.error)
    assert not at.table  # nothing judged while the coding differs
    at.checkbox(key="validate_bands_size").check().run()
    assert not at.exception and not at.error
    assert at.table and any("mapped to the list's coding" in shown(s.value) for s in at.success)


def test_the_list_chosen_on_triage_is_the_one_validate_and_card_open_with(project_root, trained, isolated_model_dir):
    """Issue 26, item 2: the page no longer ignores the list chosen on Triage."""
    path = str(isolated_model_dir / "validate-page-test-v1.json")
    at = AppTest.from_file(str(project_root / "app.py"), default_timeout=90)
    put_list(at, *trained)
    at.switch_page("pages/2_Triage.py").run()
    assert at.selectbox(key="triage_model_choice").value == "trained"
    at.selectbox(key="triage_model_choice").set_value(path).run()
    at.switch_page("pages/6_Validate.py").run()
    assert not at.exception and at.selectbox(key="validate_model_choice").value == path
    at.switch_page("pages/7_Card.py").run()
    assert not at.exception and at.selectbox(key="card_model_choice").value == path


def test_a_second_table_with_the_saved_outcome_starts_at_it(trained):
    """The walk on rpart/stagec: a first table without the list's outcome left the outcome
    empty, and a second table holding it had to be searched again."""
    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(("hungary.csv", hungarian_csv(), "text/csv")).run()
    assert at.selectbox(key="validate_outcome").value is None  # no heart_disease here
    frame = pd.read_csv(ROOT / "datasets" / "heart_hungarian.csv")
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    at.file_uploader(key="validate_upload").set_value(("hu.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    assert not at.exception and not at.error
    assert at.selectbox(key="validate_outcome").value == "heart_disease"
    assert at.multiselect(key="validate_positive").value == [1]
    assert at.table  # judged without a further choice
    # A third table without the outcome keeps the user's choice where it still fits (today's behaviour).
    at.selectbox(key="validate_outcome").set_value("num").run()
    at.file_uploader(key="validate_upload").set_value(("hungary.csv", hungarian_csv(), "text/csv")).run()
    assert at.selectbox(key="validate_outcome").value == "num"


def test_another_list_on_the_same_table_starts_at_its_own_outcome(trained):
    """The table stays, the list changes (trained or loaded on Train): the new list's outcome is
    chosen, not the one the widget held for the old list."""
    import copy

    model, metadata = trained
    frame = pd.read_csv(ROOT / "datasets" / "heart_hungarian.csv")
    frame["heart_disease"] = (frame["num"] > 0).astype(int)
    at = open_page(trained)
    at.file_uploader(key="validate_upload").set_value(("hu.csv", frame.to_csv(index=False).encode(), "text/csv")).run()
    assert at.selectbox(key="validate_outcome").value == "heart_disease"
    other = dict(metadata, dataset=dict(metadata["dataset"], outcome="num", positive_class=[1]))
    put_list(at, copy.deepcopy(model), other)
    at.run()
    assert not at.exception and not at.error
    assert at.selectbox(key="validate_outcome").value == "num" and at.table
