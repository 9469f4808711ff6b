"""Collection over the whole tree (``testpaths``: ``tests`` and ``cardtable``).

pytest's doctest collection imports every module of the package and checks
that it came from the file collected. A module loaded from a compiled build
(``cardtable/core/compiled.py``) did not, so the compiled modules are left
out of that collection while a build is in use; they hold no doctest
(``tests/core/test_compiled.py`` checks), and their tests run against the
compiled build itself.
"""

from cardtable.core import compiled

collect_ignore = (
    [module.replace(".", "/") + ".py" for module in compiled.COMPILED]
    if compiled.current_build() is not None
    else []
)
