# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration for knc-pmu's documentation (tests/host/docs.t
# builds it with -W: a warning fails). The pages follow the kernel's
# Documentation/admin-guide/perf/ style and need no extension.
project = "knc-pmu"
copyright = "the knc-pmu authors; GPL-2.0"
master_doc = "index"
exclude_patterns = []
html_theme = "alabaster"
