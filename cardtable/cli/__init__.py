"""The ``cardtable`` command line: thin faces over the core."""
