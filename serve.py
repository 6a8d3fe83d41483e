"""PSL Triage's server: ``streamlit run serve.py`` (``make run``, the Docker image).

Serves the app, ``app.py`` (which AppTest, and ``streamlit run app.py`` on a computer of one's
own, run without it), behind :class:`ui.exposure.Exposure`: responses say that only the app
itself, and the origins of ``PSL_FRAME_ANCESTORS``, may show it in a frame, and Streamlit's
``/_stcore/metrics`` is answered only to this computer. A wrong setting stops the server at
start with the reason.
"""

import sys

import streamlit as st
from starlette.middleware import Middleware

from ui.exposure import Exposure, SettingError, frame_ancestors_from_environment

try:
    ANCESTORS = frame_ancestors_from_environment()
except SettingError as exc:
    sys.exit(str(exc))

app = st.App("app.py", middleware=[Middleware(Exposure, ancestors=ANCESTORS)])
