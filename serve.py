"""PSL Triage's server: ``streamlit run serve.py`` (``make run``, the Docker image).

Serves the app, ``app.py`` (which AppTest, and ``streamlit run app.py`` on a computer of one's
own, run without it), behind :class:`ui.exposure.Exposure`: responses say that only the app
itself, and the origins of ``PSL_FRAME_ANCESTORS``, may show it in a frame, and Streamlit's
``/_stcore/metrics`` is answered only to this computer. The upload limit, ``PSL_MAX_UPLOAD_MB``,
becomes Streamlit's own (``server.maxUploadSize``) here, and ``PSL_MAX_TRAINING_MINUTES`` is
checked. A session whose tab closed is shut down once ``server.disconnectedSessionTTL`` has
passed, and its memory given back (:mod:`ui.session_end`). A wrong setting stops the server at
start with the reason: it is never passed on to Streamlit.
"""

import os
import sys

import streamlit as st
from starlette.middleware import Middleware
from streamlit import config

from psl_core.errors import PSLError
from psl_triage.data import upload_limit_mb
from psl_triage.training.runs import MAX_TRAINING_ENV, max_training_minutes
from psl_triage.words.settings import NOT_STARTED
from ui.exposure import Exposure, SettingError, frame_ancestors_from_environment
from ui.session_end import ending_sessions

try:
    ANCESTORS = frame_ancestors_from_environment()
    UPLOAD_LIMIT_MB = upload_limit_mb(os.environ.get("PSL_MAX_UPLOAD_MB"))
    max_training_minutes(os.environ.get(MAX_TRAINING_ENV))  # read again by each training
except (SettingError, PSLError) as exc:
    sys.exit(NOT_STARTED.format(problem=exc))

config.set_option("server.maxUploadSize", UPLOAD_LIMIT_MB, "PSL_MAX_UPLOAD_MB")
app = st.App("app.py", middleware=[Middleware(Exposure, ancestors=ANCESTORS)], lifespan=ending_sessions)
