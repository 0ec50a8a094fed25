"""The WSGI entry point: `waitress-serve --listen=127.0.0.1:8000 wsgi:app` or gunicorn wsgi:app."""

from companion import create_app

app = create_app()
