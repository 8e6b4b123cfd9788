"""results.json's writer, under its former name: it lives in evalreport.report.results
(results.json is one of the report's sinks, beside the HTML and the PDF)."""

from .report.results import InlineList, published_inputs, report_warnings, result_dict

__all__ = ["result_dict", "report_warnings", "published_inputs", "InlineList"]
