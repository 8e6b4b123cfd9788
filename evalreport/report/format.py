"""The report's number style, as the report's modules import it: it lives in
:mod:`evalreport.number_style`, beside the evaluation, since the verdict's
sentences and the figures' legends print numbers the same way and the
evaluation imports nothing of the report (docs/architecture.md)."""

from ..number_style import *  # noqa: F401,F403
from ..number_style import __all__  # noqa: F401
