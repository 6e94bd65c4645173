"""Pictures of positions and matches: SVG boards (:mod:`.svg`) and the offline HTML
viewer (:mod:`.viewer`, with its scripts and styles in ``static/``)."""
