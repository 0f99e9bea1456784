# Pyodide from npm, pinned by package-lock.json: the referee console's offline mode runs the rules
# engine with it on the phone, served as static files (docs/deployment.md). Only its files go on.
FROM node:20-bookworm-slim AS pyodide
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

# Production image: gunicorn serving Django; the same image runs the Celery worker and beat.
# Python 3.11: the version CI tests and requirements.lock is resolved for.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# The hash-pinned lock first (a layer of its own, reused until it changes): every file pip
# installs is checked against its hash; `./dev lock` refreshes it from pyproject.toml.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock

COPY pyproject.toml README.md ./
COPY config ./config
COPY games ./games
COPY tournaments ./tournaments
COPY scoring ./scoring
COPY templates ./templates
COPY static ./static
COPY locale ./locale
COPY manage.py ./
# Before collectstatic, which serves it as static/pyodide/ (settings.PYODIDE_DIR).
COPY --from=pyodide /build/node_modules/pyodide ./node_modules/pyodide
# GNU gettext compiles the Japanese catalogue (locale/ja/LC_MESSAGES/django.po) into the image.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
RUN pip install --no-cache-dir --no-deps . \
    && DEBUG=False SECRET_KEY=build-only python manage.py collectstatic --no-input -v0 \
    && python manage.py compilemessages -v0 \
    && useradd --system --uid 1000 kakumei
USER kakumei

EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.conf.py", "config.wsgi"]
