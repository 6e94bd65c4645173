"""Recording a live game: a session that checks each turn with the engine and writes the transcript as it goes,
and the local web page it is played on (``tavlakit record``)."""
