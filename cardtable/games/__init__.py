"""The games of cardtable, one sub-package each (see ``cardtable.core.registry``)."""
