"""The ``trickcam`` command line: :mod:`cli.main` is the entry point, one thin module per verb
(``demo``, ``watch``, ``calibrate``, ``score``, ``serve``, ``recognize``, ``dataset``,
``train``) that parses arguments, calls the parts and prints."""
