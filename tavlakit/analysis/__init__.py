"""Analysis of replayed records: frames for pandas, dice luck, mars rates, plots."""
