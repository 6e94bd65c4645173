"""The one data model every format reads into and writes from (:mod:`.match`), the
problems found in a record (:mod:`.problem`) and the match score
(:mod:`.matchscore`)."""
