"""Display objects, as scikit-learn's ``RocCurveDisplay``: a figure of ROC, P-R or
cost curves made by the report's own drawing (:mod:`evalreport.figures.plots`), kept with
its matplotlib objects.

>>> import evalreport
>>> result = evalreport.from_predictions([0, 1, 1, 0, 1, 0], {"a": [.1, .8, .6, .4, .3, .2]}, positive=1,
...                                      confidence={"bootstrap": 0})
>>> display = evalreport.RocCurveDisplay.from_result(result)
>>> display.line_.get_xydata().tolist()[:3]
[[0.0, 0.0], [0.0, 0.6666666666666666], [0.3333333333333333, 0.6666666666666666]]
>>> display.figure_ is display.ax_.figure
True

Each display draws every learner of its source on one Axes (as the report's
figures do). ``lines_`` maps each learner with a curve to its ``Line2D``,
``line_`` is the first of them, ``handles_`` the legend's entries; ``figure_``
and ``ax_`` are where it drew (a new ``matplotlib.figure.Figure`` when no ``ax``
is given: pyplot is never used, so nothing is shown until you show the figure).
"""

from __future__ import annotations

from collections.abc import Mapping

from .figures.plots import drawn_learners, plot_cost_curves, plot_pr, plot_roc

__all__ = ["RocCurveDisplay", "PrecisionRecallDisplay", "CostCurveDisplay"]

#: the zorder of a learner's curve in every figure of evalreport.figures.plots (the hulls,
#: marks and guides have others): the lines of that zorder are the learners' curves,
#: in the learners' order
_CURVE_ZORDER = 3


class _CurveDisplay:
    _plot = None  # the evalreport.figures.plots function
    _has_curve = None  # learner (plots._Learner) -> whether it has a curve here

    def __init__(self, source, **options):
        """``source``: a Result of a binary task, a BinaryEvaluation or a mapping of
        names to either (as :func:`evalreport.figures.plots.plot_roc` takes); ``options``:
        that function's keywords (``threshold``, ``pc_positive``, ``styles``, ...)."""
        self.source = source
        self.options = options
        self.figure_ = self.ax_ = self.line_ = None
        self.lines_: dict = {}
        self.handles_: list = []

    @classmethod
    def from_result(cls, result, *, ax=None, **options):
        """The display of every learner of ``result`` (a Result of a binary task),
        drawn on ``ax`` (default: a new figure)."""
        return cls(result, **options).plot(ax=ax)

    @classmethod
    def from_predictions(cls, y_true, scores, *, positive=1, threshold=None, pc_positive=None, ax=None,
                         **options):
        """The display of ``scores`` (one array, or {name: scores}) against
        ``y_true`` (positive: the label ``positive``), from the engine's
        evaluation of each (no bootstrap, no report)."""
        import numpy as np

        from .metrics import evaluate_binary

        y = np.asarray(y_true) == positive
        named = dict(scores) if isinstance(scores, Mapping) else {"model": scores}
        source = {name: evaluate_binary(y, np.asarray(s, dtype=np.float64)) for name, s in named.items()}
        if pc_positive is not None:
            options["pc_positive"] = pc_positive
        return cls(source, threshold=threshold, **options).plot(ax=ax)

    def plot(self, ax=None, **options):
        """Draw on ``ax`` (default: a new ``matplotlib.figure.Figure``); ``options``
        update the keywords given at construction. Returns the display."""
        if ax is None:
            from matplotlib.figure import Figure

            ax = Figure(figsize=(5.0, 5.0)).subplots()
        options = {**self.options, **options}
        before = len(ax.lines)
        plot = type(self)._plot
        self.handles_ = plot(ax, self.source, **options)
        drawn = drawn_learners(self.source, **{k: v for k, v in options.items()
                                       if k in ("threshold", "pc_positive", "max_fpr")})
        curves = [line for line in ax.lines[before:] if line.get_zorder() == _CURVE_ZORDER]
        keys = [k for k, lr in drawn.learners.items() if type(self)._has_curve(lr)]
        self.lines_ = dict(zip(keys, curves))
        self.line_ = next(iter(self.lines_.values()), None)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {', '.join(self.lines_) or 'not drawn'}>"


class RocCurveDisplay(_CurveDisplay):
    """ROC curves (:func:`evalreport.figures.plots.plot_roc`); a line's data is (FPR, TPR).

    Examples
    --------
    >>> import evalreport
    >>> shown = evalreport.RocCurveDisplay.from_predictions([0, 1, 1, 0], {"a": [0.2, 0.9, 0.6, 0.4]})
    >>> shown.figure_ is shown.ax_.figure, len(shown.lines_) >= 1
    (True, True)
    """

    _plot = staticmethod(plot_roc)
    _has_curve = staticmethod(lambda lr: lr.roc is not None)


class PrecisionRecallDisplay(_CurveDisplay):
    """P-R curves (:func:`evalreport.figures.plots.plot_pr`); a line's data is (recall,
    precision), straight in count space between the curve's points.

    Examples
    --------
    >>> import evalreport
    >>> shown = evalreport.PrecisionRecallDisplay.from_predictions([0, 1, 1, 0], {"a": [0.2, 0.9, 0.6, 0.4]})
    >>> shown.figure_ is shown.ax_.figure, len(shown.lines_) >= 1
    (True, True)
    """

    _plot = staticmethod(plot_pr)
    _has_curve = staticmethod(lambda lr: lr.pr is not None)


class CostCurveDisplay(_CurveDisplay):
    """Cost curves (:func:`evalreport.figures.plots.plot_cost_curves`); a line's data is
    (PC(+), normalised expected cost).

    Examples
    --------
    >>> import evalreport
    >>> shown = evalreport.CostCurveDisplay.from_predictions([0, 1, 1, 0], {"a": [0.2, 0.9, 0.6, 0.4]})
    >>> shown.figure_ is shown.ax_.figure, len(shown.lines_) >= 1
    (True, True)
    """

    _plot = staticmethod(plot_cost_curves)
    _has_curve = staticmethod(lambda lr: lr.summary.cost_curve is not None)
