"""What many record files need, without pandas: work on every core (:mod:`.parallel`),
the Parquet store's manifest and plan (:mod:`.manifest`), the frames' columns
(:mod:`.schema`) and player names across files (:mod:`.names`)."""
