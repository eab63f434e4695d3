"""The one model of what each rule means: its id, kind, severity and fix (registry), and the typed
expectations every check and every replay judge answers by (expectations)."""
