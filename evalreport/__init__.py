"""evalreport: declarative evaluation reports for classifiers."""

__version__ = "0.1.0"
