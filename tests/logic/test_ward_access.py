"""A shared ward's roles, settings and the approval of a list (psl_triage.ward)."""

import pytest

from psl_triage.model_file.metadata import ModelMetadata
from psl_triage.model_file.store import list_models
from psl_triage.training.session import TrainingSession
from psl_triage.ward import approval
from psl_triage.ward.access import LOCAL_USER, PERMISSIONS, ROLES, NotAllowed, User, pages_of, refusal
from psl_triage.ward.approval import ARCHIVE, save_list, saver, states, step, visible_lists
from psl_triage.ward.audit import AuditLog
from psl_triage.ward.settings import WardSettings, auth_section_from_env, ward_settings, write_secrets

CLINICIAN = User("cora@ward.example", frozenset({"clinician"}), "10.0.0.5")
RESEARCHER = User("rhea@ward.example", frozenset({"researcher"}))
OTHER_RESEARCHER = User("ravi@ward.example", frozenset({"researcher"}))
APPROVER = User("abel@ward.example", frozenset({"approver"}))
RESEARCHING_APPROVER = User("rita@ward.example", frozenset({"researcher", "approver"}))
ADMIN = User("ada@ward.example", frozenset({"admin"}))
PAGES = ["data", "train", "triage", "calibration", "intervals", "evaluation", "validate", "card", "monitor", "approval", "audit"]


def test_each_role_sees_its_own_pages():
    assert pages_of(CLINICIAN, PAGES) == ["triage", "card"]
    assert pages_of(APPROVER, PAGES) == ["triage", "card", "approval"]
    assert pages_of(ADMIN, PAGES) == ["approval", "audit"]
    assert pages_of(RESEARCHER, PAGES) == [page for page in PAGES if page != "audit"]
    assert pages_of(LOCAL_USER, PAGES) == PAGES
    assert pages_of(User("nobody", frozenset()), PAGES) == []


def test_every_permission_names_known_roles_and_refusals_say_the_role_needed():
    assert all(roles <= set(ROLES) for roles in PERMISSIONS.values())
    assert refusal(CLINICIAN, "save").startswith("A clinician may not save a list: this needs the role researcher")
    assert refusal(RESEARCHER, "save") is None
    assert not CLINICIAN.can("no such action")


def test_without_auth_the_settings_are_off_and_roles_default_to_their_names():
    settings = ward_settings({}, {})
    assert settings == WardSettings() and not settings.auth
    user = settings.user({"email": "x@y", "groups": ["clinician", "other"]})
    assert user.name == "x@y" and user.roles == {"clinician"}


def test_the_role_claim_and_values_come_from_the_secrets_and_the_environment_wins():
    secrets = {"auth": {"keycloak": {"client_id": "psl"}},
               "psl": {"roles": {"claim": "roles", "clinician": ["/ward/doctors"], "approver": "/ward/board"}}}
    settings = ward_settings(secrets, {"PSL_ROLE_ADMIN": "it-admins, security"})
    assert settings.auth and settings.provider == "keycloak" and settings.claim == "roles"
    user = settings.user({"preferred_username": "dora", "roles": ["/ward/doctors", "security"]}, "10.1.1.1")
    assert user == User("dora", frozenset({"clinician", "admin"}), "10.1.1.1")
    assert settings.user({"sub": "s1", "roles": "/ward/board"}).roles == {"approver"}
    assert ward_settings(secrets, {"PSL_ROLE_CLAIM": "grp"}).claim == "grp"
    with pytest.raises(ValueError, match="doctor"):
        ward_settings({"psl": {"roles": {"doctor": ["x"]}}}, {})


def test_the_auth_section_is_written_from_the_environment_only_once(tmp_path):
    env = {"PSL_AUTH_CLIENT_ID": "psl", "PSL_AUTH_CLIENT_SECRET": 'se"cret', "PSL_AUTH_REDIRECT_URI": "http://h/oauth2callback"}
    assert auth_section_from_env({}) is None
    path = tmp_path / ".streamlit" / "secrets.toml"
    assert write_secrets(path, env) and not write_secrets(path, {**env, "PSL_AUTH_CLIENT_ID": "other"})
    import tomllib

    assert tomllib.loads(path.read_text())["auth"]["client_secret"] == 'se"cret'


def test_a_list_goes_from_draft_to_approved_and_only_then_reaches_clinicians(tmp_path, small_list):
    stored = save_list(RESEARCHER, small_list, "Chest pain", None, tmp_path)
    listed, _ = list_models(tmp_path)
    assert visible_lists(CLINICIAN, listed, tmp_path) == [] and visible_lists(APPROVER, listed, tmp_path) == listed
    assert step(RESEARCHER, "propose", stored.path, directory=tmp_path).state == "proposed"
    assert visible_lists(CLINICIAN, listed, tmp_path) == []
    approved = step(APPROVER, "approve", stored.path, directory=tmp_path)
    assert (approved.state, approved.author, approved.approver) == ("approved", RESEARCHER.name, APPROVER.name)
    assert visible_lists(CLINICIAN, listed, tmp_path) == listed
    step(APPROVER, "withdraw", stored.path, directory=tmp_path)
    assert visible_lists(CLINICIAN, listed, tmp_path) == []
    actions = [(e.action, e.user, e.role, e.outcome) for e in AuditLog(tmp_path).entries()]
    assert actions == [("save", RESEARCHER.name, "researcher", "done"), ("propose", RESEARCHER.name, "researcher", "done"),
                       ("approve", APPROVER.name, "approver", "done"), ("withdraw", APPROVER.name, "approver", "done")]


def test_four_eyes_an_approver_never_approves_a_list_they_saved_or_proposed(tmp_path, small_list):
    own = save_list(RESEARCHING_APPROVER, small_list, "Own", None, tmp_path)
    step(RESEARCHING_APPROVER, "propose", own.path, directory=tmp_path)
    with pytest.raises(NotAllowed, match="four eyes"):
        step(RESEARCHING_APPROVER, "approve", own.path, directory=tmp_path)
    proposed_by_them = save_list(RESEARCHER, small_list, "Theirs", None, tmp_path)
    step(RESEARCHING_APPROVER, "propose", proposed_by_them.path, directory=tmp_path)
    with pytest.raises(NotAllowed, match="four eyes"):
        step(RESEARCHING_APPROVER, "approve", proposed_by_them.path, directory=tmp_path)
    assert step(APPROVER, "approve", own.path, directory=tmp_path).state == "approved"
    refused = [e for e in AuditLog(tmp_path).entries() if e.outcome == "refused"]
    assert [(e.action, e.user, e.file) for e in refused] == [("approve", RESEARCHING_APPROVER.name, own.path.name),
                                                             ("approve", RESEARCHING_APPROVER.name, proposed_by_them.path.name)]


def test_a_role_or_a_state_that_does_not_allow_a_step_is_refused_and_recorded(tmp_path, small_list):
    with pytest.raises(NotAllowed, match="may not save"):
        save_list(CLINICIAN, small_list, "Forged", None, tmp_path)
    assert list(tmp_path.glob("*.json")) == []
    stored = save_list(RESEARCHER, small_list, "List", None, tmp_path)
    with pytest.raises(NotAllowed, match="draft"):
        step(APPROVER, "approve", stored.path, directory=tmp_path)
    with pytest.raises(NotAllowed, match="may not approve"):
        step(OTHER_RESEARCHER, "approve", stored.path, directory=tmp_path)
    step(RESEARCHER, "propose", stored.path, directory=tmp_path)
    with pytest.raises(NotAllowed, match="Say why"):
        step(APPROVER, "send_back", stored.path, " ", directory=tmp_path)
    back = step(APPROVER, "send_back", stored.path, "Validate it at a second site first.", directory=tmp_path)
    assert (back.state, back.reason) == ("sent_back", "Validate it at a second site first.")
    log = AuditLog(tmp_path).entries()
    assert [(e.action, e.outcome, e.user) for e in log if e.outcome == "refused"] == [
        ("save", "refused", CLINICIAN.name), ("approve", "refused", APPROVER.name),
        ("approve", "refused", OTHER_RESEARCHER.name), ("send_back", "refused", APPROVER.name)]
    assert log[0].source == "10.0.0.5" and log[0].role == "clinician"


def test_a_changed_file_is_no_longer_approved(tmp_path, small_list):
    stored = save_list(RESEARCHER, small_list, "List", None, tmp_path)
    step(RESEARCHER, "propose", stored.path, directory=tmp_path)
    step(APPROVER, "approve", stored.path, directory=tmp_path)
    listed, _ = list_models(tmp_path)
    assert len(visible_lists(CLINICIAN, listed, tmp_path)) == 1
    stored.path.write_text(stored.path.read_text().replace('"name"', ' "name"', 1))
    listed, _ = list_models(tmp_path)
    assert visible_lists(CLINICIAN, listed, tmp_path) == []


def test_archiving_moves_the_file_the_record_names_and_an_approved_list_is_withdrawn_first(tmp_path, small_list):
    stored = save_list(RESEARCHER, small_list, "List", None, tmp_path)
    step(RESEARCHER, "propose", stored.path, directory=tmp_path)
    step(APPROVER, "approve", stored.path, directory=tmp_path)
    with pytest.raises(NotAllowed, match="approved for clinical use"):
        step(ADMIN, "delete", stored.path, directory=tmp_path)
    content = stored.path.read_bytes()
    step(APPROVER, "withdraw", stored.path, directory=tmp_path)
    assert step(ADMIN, "delete", stored.path, directory=tmp_path).state == "archived"
    last = AuditLog(tmp_path).entries()[-1]
    assert (last.action, last.role, last.detail) == ("delete", "admin", f"{ARCHIVE}/{stored.path.name}")
    assert not stored.path.exists() and (tmp_path / last.detail).read_bytes() == content
    assert list_models(tmp_path) == ([], [])
    again = save_list(RESEARCHER, small_list, "List", None, tmp_path)
    assert states(tmp_path)[again.path.name].state == "draft"
    step(RESEARCHER, "delete", again.path, directory=tmp_path)
    assert sorted(path.name for path in (tmp_path / ARCHIVE).iterdir()) == ["list-v1.2.json", "list-v1.json"]


def test_a_file_outside_the_store_is_refused(tmp_path, small_list):
    stored = save_list(RESEARCHER, small_list, "List", None, tmp_path / "store")
    with pytest.raises(NotAllowed, match="not a saved list"):
        step(RESEARCHER, "propose", stored.path, directory=tmp_path / "elsewhere")
    assert approval.states(tmp_path / "elsewhere") == {}


def test_the_train_pages_save_checks_the_role_of_whoever_saves_now(tmp_path, small_list, monkeypatch):
    """A forged request that reaches the Train page's save as a clinician saves nothing."""
    monkeypatch.setenv("PSL_MODEL_DIR", str(tmp_path))
    session = TrainingSession()
    session.make_current(small_list, ModelMetadata(), "test")
    with pytest.raises(NotAllowed, match="A clinician may not save a list"):
        session.save("Forged", saver(CLINICIAN))
    assert list(tmp_path.glob("*.json")) == [] and session.saved_message is None
    session.save("Allowed", saver(RESEARCHER))
    assert [(e.action, e.user, e.outcome) for e in AuditLog(tmp_path).entries()] == [
        ("save", CLINICIAN.name, "refused"), ("save", RESEARCHER.name, "done")]
    session.save("Local", saver(None))  # without sign-in: saved, nothing checked or recorded
    assert len(list(tmp_path.glob("*.json"))) == 2 and len(AuditLog(tmp_path).entries()) == 2


def test_a_recalibration_saved_through_the_ward_is_recorded_as_one(tmp_path, small_list):
    stored = saver(RESEARCHER, "recalibrate")(small_list, "List", None, tmp_path)
    (entry,) = AuditLog(tmp_path).entries()
    assert (entry.action, entry.user, entry.file, entry.version) == ("recalibrate", RESEARCHER.name, stored.path.name, 1)
    assert states(tmp_path)[stored.path.name].state == "draft"
    with pytest.raises(NotAllowed, match="may not save a recalibrated list"):
        saver(APPROVER, "recalibrate")(small_list, "List", None, tmp_path)
