"""One state machine over a whole store server: the laws every store keeps, explored on one warm
server, each broken law confirmed on a fresh one (docs/probes.md, "The laws machine").

observe.py learns what each tool does (stateful.watch's experiments) and how to ask a reader about
a record; model.py holds what an example did; laws.py judges observations against the model;
machine.py is the Hypothesis machine; confirm.py replays and shrinks a broken law on fresh servers.
Laws 6 to 9 each add their rules to the machine from a file of their own (probe.py lists them):
series.py, covering.py, folding.py, references.py.
"""
