"""The JSON API's machine-readable description (OpenAPI 3.1): the scoring and referee calls
(:mod:`.openapi`), the tables' (:mod:`.openapi_tables`) and the clubs' (:mod:`.openapi_clubs`).

It may import the entry screens, the referees, the rules and the core; views.api serves it.
"""
