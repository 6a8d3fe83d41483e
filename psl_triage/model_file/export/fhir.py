"""The FHIR R4 RiskAssessment of one triaged patient, validated against ``fhir.resources``' R4 models.

The resource holds the answers as contained Observations that its ``basis`` refers to (a number
as a quantity with its unit, a choice as text, an unknown answer and a test not done as a data
absent reason), the list's identity (name, version and the model file's SHA-256) as its
``method``, and one ``prediction``: the outcome (the positive class), the estimate (a decimal, or
a range when unknown answers leave several totals open), the interval as the extension
:data:`INTERVAL_EXTENSION`, the three-way outcome as the qualitative risk and the reason in words
as the rationale. It is built here and handed to the caller: nothing is sent anywhere.
"""

from dataclasses import dataclass

from fhir.resources.riskassessment import RiskAssessment

from psl_triage.words import export as words

LIST_SYSTEM = "urn:psl-triage:list"
"""System of the ``method`` coding: its code is the model file's SHA-256, its version the list's."""
INTERVAL_EXTENSION = "urn:psl-triage:fhir:probability-interval"
"""Extension of a prediction holding the probability's interval (a Range of two decimals)."""
DATA_ABSENT = "http://terminology.hl7.org/CodeSystem/data-absent-reason"


@dataclass(frozen=True)
class Answer:
    """One answered question: its condition and points in words, the answer in words and its raw
    value: a number, a choice, None (unknown) or ``not_measured`` True (the test was not done)."""

    question: str
    text: str
    number: float | None = None
    unit: str = ""
    unknown: bool = False
    not_measured: bool = False


def _observation(index, answer):
    observation = {"resourceType": "Observation", "id": f"answer-{index}", "status": "final",
                   "code": {"text": answer.question}}
    if answer.not_measured or answer.unknown:
        code = "not-performed" if answer.not_measured else "unknown"
        observation["dataAbsentReason"] = {"coding": [{"system": DATA_ABSENT, "code": code}], "text": answer.text}
    elif answer.number is not None:
        quantity = {"value": float(answer.number)}
        if answer.unit:
            quantity["unit"] = answer.unit
        observation["valueQuantity"] = quantity
        observation["note"] = [{"text": answer.text}]
    else:
        observation["valueString"] = answer.text
    return observation


def _when(horizon):
    if horizon is None:
        return {}
    high = {"value": horizon.horizon}
    if horizon.unit:
        high["unit"] = horizon.unit
    return {"whenRange": {"low": {"value": 0.0, **({"unit": high["unit"]} if "unit" in high else {})}, "high": high}}


def risk_assessment(identity, answers, result, settings, occurred, positive_class, horizon=None):
    """The RiskAssessment of one triage (a JSON-ready dict), valid against the R4 models.

    Parameters
    ----------
    identity : dict
        ``{"name", "version", "model_sha256"}`` of the list.
    answers : list of Answer
    result : dict
        Where the triage stopped: ``risk_low``, ``risk_high``, ``lower``, ``upper``, ``outcome``
        (its words), ``explanation`` (why, in words) and ``stop`` (the questions answered).
    settings : str
        The decision settings in words (M, the confidence, the basis).
    occurred : str
        When the triage took place (ISO 8601 date and time with its zone).
    positive_class : str
        What the risk is the risk of.
    horizon : psl_triage.model_file.metadata.ListHorizon or None
        A horizon list's horizon and unit: the risk is of the event within tau,
        the prediction's ``whenRange`` (up to tau from now).

    Raises
    ------
    pydantic.ValidationError
        Never for what this module builds (the tests check it); it would name the element.
    """
    contained = [_observation(i, answer) for i, answer in enumerate(answers, start=1)]
    estimate = ({"probabilityDecimal": result["risk_high"]} if result["risk_low"] == result["risk_high"] else
                {"probabilityRange": {"low": {"value": result["risk_low"]}, "high": {"value": result["risk_high"]}}})
    resource = {
        "resourceType": "RiskAssessment",
        "status": "final",
        "subject": {"display": words.FHIR_SUBJECT},
        "occurrenceDateTime": occurred,
        "method": {
            "coding": [{"system": LIST_SYSTEM, "code": identity["model_sha256"], "version": str(identity["version"]),
                        "display": identity["name"]}],
            "text": words.fhir_method(identity["name"], identity["version"]),
        },
        "prediction": [{
            "extension": [{"url": INTERVAL_EXTENSION, "valueRange": {
                "low": {"value": result["lower"]}, "high": {"value": result["upper"]}}}],
            "outcome": {"text": positive_class},
            **estimate,
            "qualitativeRisk": {"text": result["outcome"]},
            "rationale": result["explanation"],
            **_when(horizon),
        }],
        "note": [{"text": settings}, {"text": words.fhir_questions_answered(result["stop"])}],
    }
    if contained:
        resource["contained"] = contained
        resource["basis"] = [{"reference": f"#{item['id']}"} for item in contained]
    RiskAssessment.parse_obj(resource)
    return resource
