"""trickcam's glue: the command line, and (later) the scoring service and its live pages."""
