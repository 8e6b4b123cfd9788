"""The verdict layer: each gate's outcome and the run's conclusion, decided once
from the evaluation (:mod:`.gates`, :mod:`.build`) and printed by every sink
(results.json's ``verdict``, page one of the report, the notebook, the command
line's last line). Sinks print it; they decide nothing."""

from .build import (STATUSES, Finding, Leader, LearnerVerdict, Suggestion, Verdict, build_verdict,
                    judged_keys, learner_status, status_line, worst_status)
from .gates import OUTCOMES, gate_failed, outcome, value_interval, with_outcomes

__all__ = ["STATUSES", "OUTCOMES", "Finding", "Leader", "LearnerVerdict", "Suggestion", "Verdict",
           "build_verdict", "judged_keys", "status_line", "learner_status", "worst_status", "gate_failed",
           "outcome", "value_interval", "with_outcomes"]
