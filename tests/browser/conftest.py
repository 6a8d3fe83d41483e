"""Browser tests: the real app in a Streamlit server, driven by Debian's Chromium.

Fixtures
--------
streamlit_server  session: starts ``streamlit run serve.py`` on a free port with an
                  empty model store (PSL_MODEL_DIR) and yields its base URL.
browser           session: headless Chromium (/usr/bin/chromium) through Playwright.
page              test: a fresh browser context and page, base URL set to the server;
                  a screenshot lands in test-artifacts/ when the test fails.
app               test: a :class:`StreamlitApp` around that page, the usual way in.
new_app           test: a factory of more apps, each in its own browser context (a
                  separate Streamlit session), for tests that need several at once.
own_app           test: (app, server pid) on a server started for the test alone, with an
                  empty model store: for measuring the server (its memory).

Without /usr/bin/chromium the browser tests are skipped, except on CI (CI set),
where they fail: CI must run them.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
# The machine's network is closed: without the background-networking flags
# Chromium keeps opening connections that are refused. --disable-dev-shm-usage
# because Debian's launcher fails to detect a small /dev/shm on some machines.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
SERVER_START_TIMEOUT_S = 60
# Milliseconds: a 2-core CI machine compiles numba code on first use.
DEFAULT_TIMEOUT_MS = 30_000
VIEWPORT = {"width": 1280, "height": 900}
LANDING_PAGE = "Data"  # the sidebar title of the default page (app.py), at the root URL

BROWSER_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = BROWSER_DIR.parent.parent
ARTIFACTS_DIR = PROJECT_ROOT / "test-artifacts"
SERVER_LOG_NAME = "streamlit-server.log"

# Streamlit sets data-test-script-state on the stApp element; these two values
# mean the script is not running (finished normally, or failed to compile).
IDLE_APP = (
    '[data-testid="stApp"][data-test-script-state="notRunning"], '
    '[data-testid="stApp"][data-test-script-state="compilationError"]'
)

expect.set_options(timeout=DEFAULT_TIMEOUT_MS)

_REPORTS = pytest.StashKey[dict]()


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BROWSER_DIR in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    return report


# ---------------------------------------------------------------- helpers


def wait_for_app_idle(page: Page, timeout_ms: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until Streamlit has finished the current (re)run of the script.

    Call it after every interaction that triggers a rerun (a click, a typed value,
    an upload). A short pause first lets a just-sent rerun request reach the app,
    then the app must report "not running" and the running-status widget be gone.
    """
    page.wait_for_timeout(150)
    page.locator(IDLE_APP).wait_for(state="attached", timeout=timeout_ms)
    expect(page.get_by_test_id("stStatusWidget")).to_be_hidden(timeout=timeout_ms)


def assert_no_exception(page: Page) -> None:
    """Fail with the app's own message when it shows an exception box."""
    exceptions = page.get_by_test_id("stException")
    if exceptions.count():
        shown = "\n---\n".join(text.strip() for text in exceptions.all_inner_texts())
        pytest.fail(f"the app shows {exceptions.count()} exception(s):\n{shown}", pytrace=False)


class StreamlitApp:
    """The app as one browser tab sees it.

    ``open("Triage")`` loads the page whose URL path is ``/Triage`` (Streamlit
    derives it from ``pages/N_Triage.py``) and waits until it is idle.
    ``page_errors`` collects uncaught JavaScript errors of the tab.
    """

    def __init__(self, page: Page, base_url: str):
        self.page = page
        self.base_url = base_url
        self.page_errors: list[str] = []
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))

    def open(self, path: str = "") -> Page:
        self.page.goto(f"{self.base_url}/{path.lstrip('/')}")
        self.wait_for_render()
        return self.page

    def wait_for_render(self, timeout_ms: float = DEFAULT_TIMEOUT_MS) -> None:
        """Wait until the script is idle and every element is drawn (no loading skeleton left).

        Streamlit loads some widgets' code lazily and shows a skeleton meanwhile. A click that
        reruns the script before they are mounted once reset widgets on the landing page
        (test_landing_state.py, which clicks early on purpose), so a test starts only once
        everything is drawn, as a user would.
        """
        self.wait_idle(timeout_ms)
        expect(self.page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=timeout_ms)

    def wait_idle(self, timeout_ms: float = DEFAULT_TIMEOUT_MS) -> None:
        wait_for_app_idle(self.page, timeout_ms)

    def wait_quiet(self, checks: int = 3, pause_ms: float = 500) -> None:
        """``wait_idle`` again after each of ``checks`` pauses: on a busy server a rerun may
        start after ``wait_idle``'s short pause, and a click that lands while it redraws the
        page can be lost. Call it before a click that must count (e.g. Train)."""
        for _ in range(checks):
            self.wait_idle()
            self.page.wait_for_timeout(pause_ms)
        self.wait_idle()

    def assert_no_exception(self) -> None:
        assert_no_exception(self.page)

    def navigate(self, label: str, wait: bool = True) -> Page:
        """Go to another page through the sidebar, keeping the session (``open`` starts a new one).

        ``label`` is the link's text: "Train", "Triage", ... ("Data" is the landing page).
        ``wait=False`` only clicks: call ``wait_idle`` later (to keep several sessions busy at once).
        """
        self.open_sidebar()
        link = self.sidebar_link(label)
        expect(link).to_be_visible()
        link.click()
        path = "" if label == LANDING_PAGE else label
        self.page.wait_for_url(re.compile(rf"^{re.escape(self.base_url)}/{re.escape(path)}/?(\?.*)?$"))
        if wait:
            self.wait_idle()
        return self.page

    def open_sidebar(self) -> None:
        """Expand the sidebar if it is collapsed, as Streamlit starts it in a narrow (tablet) window."""
        sidebar = self.page.get_by_test_id("stSidebar")
        expect(sidebar).to_be_attached()
        if sidebar.get_attribute("data-collapsed") == "true":
            self.page.get_by_test_id("stExpandSidebarButton").click()
            expect(sidebar).to_have_attribute("data-collapsed", "false")

    def sidebar_link(self, label: str) -> Locator:
        return self.page.get_by_test_id("stSidebarNav").get_by_role("link", name=label, exact=True)

    def widget(self, key: str) -> Locator:
        """The element of the widget (or keyed element) with this ``key=`` (Streamlit's st-key class)."""
        return self.page.locator(f".st-key-{key}")

    def choice_widget(self, name: str) -> Locator:
        """A widget keyed by a version, by its key's base name.

        pages/0_Data.py keys its choices about the active dataset by the dataset version
        (``w_outcome_v3``, ``w_positive_v3::<outcome>``, see its docstring), so a new dataset gets
        fresh widgets: ``choice_widget("w_outcome")`` is the outcome selectbox of whichever
        dataset is active. The input of M is keyed the same way by the list it follows
        (``triage_cost_ratio_v2``, ui.cost_ratio_input).
        """
        return self.page.locator(f'[class*="st-key-{name}_v"]')

    def alerts(self, kind: str) -> Locator:
        """st.error / st.warning / st.info / st.success boxes: kind "error", "warning", "info", "success"."""
        return self.page.get_by_test_id(f"stAlertContent{kind.capitalize()}")

    def metric_value(self, label: str | re.Pattern) -> Locator:
        """The value of the st.metric whose label contains ``label`` (text or pattern)."""
        label_element = self.page.get_by_test_id("stMetricLabel").filter(has_text=label)
        return self.page.get_by_test_id("stMetric").filter(has=label_element).get_by_test_id("stMetricValue")

    def upload(self, key: str, files) -> None:
        """Give the st.file_uploader with this key a file (path, or dict with name/mimeType/buffer)."""
        self.widget(key).locator('input[type="file"]').set_input_files(files)
        self.wait_idle()


# --------------------------------------------------------------- fixtures


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no server log)"


def _wait_for_health(url: str, server: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(
                f"the Streamlit server exited with code {server.returncode} before it was "
                f"healthy; last lines of {log_path}:\n{_tail(log_path)}",
                pytrace=False,
            )
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.read().decode().strip() == "ok":
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    pytest.fail(
        f"the Streamlit server did not answer 'ok' on {url} within {SERVER_START_TIMEOUT_S} s; "
        f"last lines of {log_path}:\n{_tail(log_path)}",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def streamlit_server(tmp_path_factory: pytest.TempPathFactory):
    """Start the app with an empty model store; yield its base URL."""
    with running_server(tmp_path_factory.mktemp("server-models"), SERVER_LOG_NAME) as (base_url, _):
        yield base_url


@pytest.fixture(scope="session")
def server_log() -> Path:
    """The log of the session's server (``streamlit_server``)."""
    return ARTIFACTS_DIR / SERVER_LOG_NAME


@pytest.fixture()
def own_streamlit_server(tmp_path: Path):
    """A server of the test's own (for measuring it); yields (base URL, process id)."""
    with running_server(tmp_path / "models", "streamlit-own-server.log") as server:
        yield server


@contextmanager
def running_server(model_dir: Path, log_name: str, extra_args: tuple = (), port: int | None = None):
    """Run the app with the model store ``model_dir``; yield (base URL, the server's pid).
    ``extra_args``: more options of ``streamlit run`` (a secrets file); ``port``: the one to
    serve on (default a free one)."""
    if not (PROJECT_ROOT / "app.py").is_file():
        pytest.fail(f"{PROJECT_ROOT / 'app.py'} is missing: there is no app to test", pytrace=False)
    port = port or free_port()
    ARTIFACTS_DIR.mkdir(exist_ok=True)
    log_path = ARTIFACTS_DIR / log_name
    env = {
        **os.environ,
        "PSL_MODEL_DIR": str(model_dir),
        "PYTHONUNBUFFERED": "1",
        "PSL_LOG_TIMING": "1",  # the pages' server times in the log (ui.timed)
    }
    command = [
        sys.executable, "-m", "streamlit", "run", "serve.py",  # the app behind its server middleware
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
        # The app hides error details from its users; a failing test should show them.
        "--client.showErrorDetails", "full",
        *extra_args,
    ]
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            command, cwd=PROJECT_ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=log, stderr=subprocess.STDOUT,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_for_health(f"{base_url}/_stcore/health", server, log_path)
        yield base_url, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture(scope="session")
def chromium_executable() -> Path:
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    reason = f"{CHROMIUM} is missing (Debian package chromium; `make test` installs it when run as root)"
    if _ci():
        pytest.fail(f"{reason}: CI must run the browser tests", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser(chromium_executable: Path):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def _new_page(browser, base_url: str, viewport: dict | None = None) -> Page:
    context = browser.new_context(base_url=base_url, viewport=viewport or VIEWPORT)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context.new_page()


def _screenshot_if_failed(page: Page, request: pytest.FixtureRequest, suffix: str = "") -> None:
    call = request.node.stash.get(_REPORTS, {}).get("call")
    if call is not None and call.failed:
        ARTIFACTS_DIR.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid) + suffix
        try:
            page.screenshot(path=ARTIFACTS_DIR / f"{name}.png", full_page=True)
        except PlaywrightError as error:  # a crashed tab must not hide the test's own failure
            print(f"no failure screenshot for {request.node.nodeid}{suffix}: {error}")


@pytest.fixture
def page(browser, streamlit_server: str, request: pytest.FixtureRequest):
    page = _new_page(browser, streamlit_server)
    yield page
    _screenshot_if_failed(page, request)
    page.context.close()


@pytest.fixture
def app(page: Page, streamlit_server: str) -> StreamlitApp:
    return StreamlitApp(page, streamlit_server)


@pytest.fixture
def own_app(browser, own_streamlit_server, request: pytest.FixtureRequest):
    """(StreamlitApp, server pid) on a server of the test's own, to measure that server."""
    base_url, pid = own_streamlit_server
    page = _new_page(browser, base_url)
    yield StreamlitApp(page, base_url), pid
    _screenshot_if_failed(page, request)
    page.context.close()


@pytest.fixture
def new_app(browser, streamlit_server: str, request: pytest.FixtureRequest):
    """``new_app()`` returns a StreamlitApp in a fresh browser context: a separate session.

    ``new_app(viewport={"width": 768, "height": 1024})`` gives the window another size (default
    VIEWPORT). Every page gets a failure screenshot (``<test>-session<n>.png``) and is closed
    after the test.
    """
    pages: list[Page] = []

    def make(viewport: dict | None = None) -> StreamlitApp:
        page = _new_page(browser, streamlit_server, viewport)
        pages.append(page)
        return StreamlitApp(page, streamlit_server)

    yield make
    for number, page in enumerate(pages):
        _screenshot_if_failed(page, request, f"-session{number}")
        page.context.close()
