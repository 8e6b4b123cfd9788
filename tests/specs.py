"""Spec texts shared by the error corpora (tests/test_cli_errors.py,
tests/test_spec_corpus.py): a small valid binary spec over pred.csv."""

BASE = """\
version: 1
title: t
data:
  - path: pred.csv
    label: y
    id: id
    learners:
      a: p_a
      b: p_b
report: {formats: [json], out: out}
"""
