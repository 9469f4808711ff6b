"""Everything SQL: the tables (one ``schema``), storing games, leases that say which process
serves a table, ratings, the analysis queue, and the migrations."""
