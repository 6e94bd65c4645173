"""The one data model every format reads into and writes from (:mod:`.match`), the
problems found in a record (:mod:`.problem`), whether two files hold the same match
(:mod:`.fingerprint`) and the match score (:mod:`.matchscore`)."""
