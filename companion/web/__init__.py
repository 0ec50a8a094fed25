"""What serves the pages, around the views: security headers, CSRF and the error pages (:mod:`.security`),
compression (:mod:`.compression`), the URL builders every app shares (:mod:`.routing`), the access log
without keys (:mod:`.access_log`), the board's unchanged refresh answered before Flask
(:mod:`.board_poll`), the bounded pools of heavy work (:mod:`.heavy`) and the operator's metrics
(:mod:`.metrics`).

It may import paper, storage and the core; the views and the app factory import it.
"""
