"""Issue 41 in a browser: a ward that signs users in through a real OpenID Connect provider on
localhost (oidc-provider-mock), with roles from its ``groups`` claim.

Signed out, only the sign-in page; a clinician sees Triage and Card and only approved lists, and
cannot reach Train by its address; a researcher trains, saves and proposes, and cannot approve
a list of their own even holding the approver role; an approver approves it and the clinician's
Triage offers it without a restart; the administrator's Audit page shows each step with the
right user and role, and the chain intact.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, StreamlitApp, _new_page, free_port, running_server
from playwright.sync_api import expect
from psl_flows import go_to_demo_landing, train

from psl_triage.ward import settings
from psl_triage.ward.audit import AuditLog

OIDC_VENV = PROJECT_ROOT / ".venv-oidc"
OIDC_REQUIREMENTS = Path(__file__).with_name("requirements-oidc.txt")
USERS = {
    "cora": ["psl-clinicians"],
    "rhea": ["psl-researchers", "psl-approvers"],
    "abel": ["psl-approvers"],
    "ada": ["psl-admins"],
    "nora": ["hospital-staff"],
}


def documented_roles() -> str:
    """The ``[psl.roles]`` example of psl_triage.ward.settings' docstring: the ward here signs in
    with the configuration its documentation shows (the USERS' groups are the example's)."""
    block = settings.__doc__.split("in the secrets::\n\n", 1)[1].split("\n\n", 1)[0]
    assert block.lstrip().startswith("[psl.roles]"), block
    return textwrap.dedent(block) + "\n"


def _provider_command() -> Path:
    """oidc-provider-mock, installed into .venv-oidc from requirements-oidc.txt on first use."""
    command = OIDC_VENV / "bin" / "oidc-provider-mock"
    if not command.exists():
        subprocess.run([sys.executable, "-m", "venv", str(OIDC_VENV)], check=True)
        subprocess.run([str(OIDC_VENV / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                        "-r", str(OIDC_REQUIREMENTS)], check=True)
    return command


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    """The identity provider, with the four users of :data:`USERS`; yields its base URL."""
    port = free_port()
    claims = [json.dumps({"sub": sub, "email": f"{sub}@ward.example", "groups": groups}) for sub, groups in USERS.items()]
    log = open(tmp_path_factory.mktemp("oidc") / "oidc.log", "w")  # noqa: SIM115 - closed below
    process = subprocess.Popen([str(_provider_command()), "--port", str(port),
                                *[arg for claim in claims for arg in ("--user-claims", claim)]],
                               stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{url}/.well-known/openid-configuration", timeout=2).close()
            break
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail("the OpenID Connect provider did not start", pytrace=False)
            time.sleep(0.2)
    yield url
    process.terminate()
    process.wait(timeout=10)
    log.close()


@pytest.fixture(scope="module")
def ward(provider, tmp_path_factory):
    """The app with sign-in through ``provider``; yields (base URL, model folder)."""
    folder = tmp_path_factory.mktemp("ward")
    port = free_port()
    secrets = folder / "secrets.toml"
    secrets.write_text(f"""
[auth]
redirect_uri = "http://127.0.0.1:{port}/oauth2callback"
cookie_secret = "a-test-cookie-secret-of-enough-length-0123456789"
client_id = "psl-triage"
client_secret = "psl-triage-secret"
server_metadata_url = "{provider}/.well-known/openid-configuration"
{documented_roles()}""")
    with running_server(folder / "models", "streamlit-ward-server.log", ("--secrets.files", str(secrets)), port) as (url, _):
        yield url, folder / "models"


@pytest.fixture
def sign_in(browser, ward, request):
    """``sign_in("cora")`` returns a StreamlitApp of that user, signed in, in a session of its own."""
    pages = []

    def make(sub: str | None) -> StreamlitApp:
        page = _new_page(browser, ward[0])
        pages.append(page)
        app = StreamlitApp(page, ward[0])
        app.open()
        expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
        if sub is not None:
            app.widget("ward_sign_in").get_by_role("button").click()
            page.get_by_role("button", name=sub, exact=True).click()  # the provider's one-click user
            page.wait_for_url(re.compile(rf"^{re.escape(ward[0])}/"))
            app.wait_for_render()
            expect(page.get_by_test_id("stSidebar")).to_contain_text(re.compile(rf"Signed in as {sub}@\W?ward\.example"))
        return app

    yield make
    for page in pages:
        page.context.close()


def nav_links(app: StreamlitApp) -> list[str]:
    app.open_sidebar()
    return [text.strip() for text in app.page.get_by_test_id("stSidebarNav").get_by_role("link").all_inner_texts()]


def test_signed_out_only_the_sign_in_page_is_served(sign_in):
    app = sign_in(None)
    for path in ("", "Train", "Triage", "Audit"):
        app.open(path)
        expect(app.page.get_by_role("heading", name="Sign in")).to_be_visible()
        expect(app.page.get_by_role("heading", name=re.compile("^(Train|Triage|Audit)"))).to_have_count(0)
    expect(app.page.get_by_test_id("stSidebarNav")).to_have_count(0)


def go(app: StreamlitApp, label: str) -> None:
    """Open a page through the sidebar in the same session (the role's first page is at the root
    address, which StreamlitApp.navigate does not expect of Triage)."""
    app.open_sidebar()
    app.sidebar_link(label).click()
    app.wait_for_render()


def _approval_section(app, name):
    return app.page.locator('[class*="st-key-approval_list_"]').filter(has_text=name).last


def test_a_list_is_proposed_approved_by_another_and_reaches_the_clinician_at_once(sign_in, ward):
    base_url, models = ward
    clinician = sign_in("cora")
    assert nav_links(clinician) == ["Triage", "Card"]
    expect(clinician.page.get_by_text("No list is approved for clinical use yet", exact=False).first).to_be_visible()
    clinician.open("Train")  # by its address: not served to a clinician
    expect(clinician.page.get_by_role("dialog")).to_contain_text("Page not found")
    expect(clinician.widget("w_train_submit")).to_have_count(0)
    clinician.open()  # a new session of the same signed-in user; it stays open from here on

    researcher = sign_in("rhea")
    assert "Train" in nav_links(researcher) and "Audit" not in nav_links(researcher)
    go_to_demo_landing(researcher, reload=False)
    train(researcher, max_stages=3)
    researcher.widget("w_train_save").get_by_role("button").click()
    researcher.wait_idle()
    expect(researcher.alerts("success").filter(has_text="Saved as")).to_be_visible()
    researcher.navigate("Approval")
    section = _approval_section(researcher, "draft")
    section.get_by_role("button", name="Propose for approval").click()
    researcher.wait_idle()
    expect(researcher.alerts("success")).to_contain_text("now proposed for approval")
    _approval_section(researcher, "proposed").get_by_role("button", name="Approve").click()
    researcher.wait_idle()
    expect(researcher.alerts("error")).to_contain_text("four eyes")

    go(clinician, "Triage")
    expect(clinician.page.get_by_text("No list is approved for clinical use yet", exact=False).first).to_be_visible()
    approver = sign_in("abel")
    approver.navigate("Approval")
    _approval_section(approver, "proposed").get_by_role("button", name="Read its card and report").click()
    approver.wait_for_render()
    expect(approver.page.get_by_text(re.compile(r"Saved by rhea@\W?ward\.example; proposed for approval"))).to_be_visible()
    approver.navigate("Approval")
    _approval_section(approver, "proposed").get_by_role("button", name="Approve").click()
    approver.wait_idle()
    expect(approver.alerts("success")).to_contain_text("now approved for clinical use")

    go(clinician, "Card")
    go(clinician, "Triage")  # the same session, no restart: the approved list is offered
    expect(clinician.page.get_by_role("combobox", name="Scoring list")).to_have_value(re.compile(r"\(v1, "))
    go(clinician, "Card")
    expect(clinician.page.get_by_text(re.compile(r"approved for clinical use by abel@\W?ward\.example"))).to_be_visible()

    _approval_section(approver, "approved").get_by_role("button", name="Withdraw").click()
    approver.wait_idle()
    go(clinician, "Triage")
    expect(clinician.page.get_by_text("No list is approved for clinical use yet", exact=False).first).to_be_visible()

    admin = sign_in("ada")
    assert nav_links(admin) == ["Approval", "Audit"]
    admin.navigate("Audit")
    expect(admin.alerts("success")).to_contain_text("The audit trail is intact")
    with admin.page.expect_download() as download:
        admin.widget("audit_download_fhir").get_by_role("button").click()
    assert json.loads(Path(download.value.path()).read_text())["resourceType"] == "Bundle"
    admin.wait_idle()
    steps = [(e.action, e.user, e.role, e.outcome) for e in AuditLog(models).entries() if e.action != "sign_in"]
    assert steps == [
        ("save", "rhea@ward.example", "researcher", "done"),
        ("propose", "rhea@ward.example", "researcher", "done"),
        ("approve", "rhea@ward.example", "approver", "refused"),
        ("approve", "abel@ward.example", "approver", "done"),
        ("withdraw", "abel@ward.example", "approver", "done"),
        ("export", "ada@ward.example", "admin", "done"),
    ]
    signed_in = {(e.user, e.detail) for e in AuditLog(models).entries() if e.action == "sign_in"}
    assert {("cora@ward.example", "clinician"), ("rhea@ward.example", "approver and researcher"),
            ("abel@ward.example", "approver"), ("ada@ward.example", "administrator")} <= signed_in


def test_sign_out_returns_to_the_sign_in_page(sign_in):
    app = sign_in("cora")
    app.page.get_by_test_id("stSidebar").get_by_role("button", name="Sign out").click()
    app.page.get_by_role("button", name="End session").click()  # the provider's end of the session
    expect(app.page.get_by_role("heading", name="Sign in")).to_be_visible()
    app.open("Triage")
    expect(app.page.get_by_role("heading", name="Sign in")).to_be_visible()


def test_a_user_without_a_role_is_told_so_and_reaches_no_page(sign_in):
    app = sign_in("nora")
    expect(app.alerts("warning")).to_contain_text("none of this app's roles")
    for path in ("Triage", "Train", "Audit"):
        app.open(path)
        expect(app.page.get_by_test_id("stAlertContentWarning")).to_contain_text("none of this app's roles")
        expect(app.widget("triage_model_choice")).to_have_count(0)
