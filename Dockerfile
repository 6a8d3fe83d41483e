# PSL Triage: the Streamlit app on port 8501, models kept in the volume /data/models.
#   docker build -t psl-triage .
#   docker run --rm -p 8501:8501 -v psl-models:/data/models psl-triage
FROM python:3.11-slim

# The code under /app is read-only for the app user; numba's compiled kernels live in
# NUMBA_CACHE_DIR, compiled during the build (below) and writable by the app user.
# NUMBA_CPU_NAME=generic compiles for any x86-64 CPU, so the cache built on one machine is
# valid on the machine that runs the image (numba keys its cache by CPU model otherwise).
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    NUMBA_CACHE_DIR=/var/cache/psl-numba \
    NUMBA_CPU_NAME=generic \
    PSL_MODEL_DIR=/data/models \
    PSL_MAX_UPLOAD_MB=50

RUN groupadd --system --gid 10001 psl \
    && useradd --system --uid 10001 --gid psl --create-home --home-dir /home/psl \
       --shell /usr/sbin/nologin psl

WORKDIR /app

# Dependencies first, so a code change does not reinstall them. This is the only
# step that uses the network.
COPY requirements.txt ./
RUN pip install -r requirements.txt

RUN mkdir -p /data/models "$NUMBA_CACHE_DIR" \
    && chown psl:psl /data/models "$NUMBA_CACHE_DIR"

# The library first, and its kernels compiled as the app user into NUMBA_CACHE_DIR (about
# 30 s): every container starts with them compiled, and an edit outside psl_core does
# not compile them again.
COPY psl_core/ psl_core/
USER psl
RUN python -m psl_core.warmup

COPY . .
VOLUME /data/models
EXPOSE 8501

# python:3.11-slim has no curl; Python's urllib asks Streamlit's health endpoint.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://localhost:8501/_stcore/health', timeout=4).read().strip() != b'ok')"]

# serve.py reads PSL_MAX_UPLOAD_MB (docker run -e PSL_MAX_UPLOAD_MB=200) and refuses a bad one.
# Sign-in settings given as PSL_AUTH_* variables first become the secrets file Streamlit reads,
# unless one is mounted there (docs/ward.md); without them nothing is written. exec hands PID 1
# to Streamlit so `docker stop` reaches it.
CMD ["sh", "-c", "python -m psl_triage.ward.settings /home/psl/.streamlit/secrets.toml && exec streamlit run serve.py --server.port 8501 --server.address 0.0.0.0"]
