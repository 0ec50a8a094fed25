"""The WSGI entry point: `waitress-serve --listen=127.0.0.1:8000 wsgi:app` or gunicorn wsgi:app."""

from companion import compile_templates, create_app

app = create_app()
compile_templates(app)  # before gunicorn forks its workers (--preload), so that they share the work
