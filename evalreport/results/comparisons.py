"""results.json's comparisons block: envelopment, rankings, the cost envelope and
hull, the paired tests, Friedman's test, and each data set's winner."""

from __future__ import annotations

from .format import InlineList, num

__all__ = ["comparisons_dict"]


def comparisons_dict(result: Result) -> dict:
    """The comparisons block; entries name their data set when there are several."""
    several = len(result.comparisons) > 1
    env, rankings, envelope, hull = [], {}, [], []
    delong, mcnemar, paired_t = [], [], []
    for c in result.comparisons:
        tag = {"dataset": c.dataset} if several else {}
        for p in c.pairs:
            env.append({**tag, "a": p.a, "b": p.b, "verdict": p.envelopment.verdict,
                        "crossings_fpr": InlineList(p.envelopment.crossings_fpr),
                        "intervals": [{"from": i.fpr_from, "to": i.fpr_to, "above": i.above}
                                      for i in p.envelopment.intervals]})
        block = {r.measure: InlineList(r.order) for r in c.rankings}
        block["agree"] = c.rankings_agree
        block["disagreements"] = [{"a": d.a, "b": d.b, "prefer_a": InlineList(d.prefer_a),
                                   "prefer_b": InlineList(d.prefer_b)} for d in c.disagreements]
        if several:
            rankings[str(c.dataset)] = block
        else:
            rankings = block
        for t in c.tests:
            if t.delong is not None:
                d = t.delong
                delong.append({**tag, "a": t.a, "b": t.b, "auc_difference": num(d.difference),
                               "z": num(d.z), "p_value": num(d.p_value), "p_holm": num(d.p_holm),
                               "ci": InlineList(num(x) for x in d.ci) if d.ci else None})
            if t.mcnemar is not None:
                m = t.mcnemar
                row = {**tag, "a": t.a, "b": t.b, "e01": num(m.e01), "e10": num(m.e10),
                       "method": m.method, "statistic": num(m.statistic), "p_value": num(m.p_value),
                       "p_holm": num(m.p_holm)}
                if m.p_value_exact is not None:  # the chi-square asked for with few disagreements
                    row["p_value_exact"] = num(m.p_value_exact)
                mcnemar.append(row)
            if t.paired_t is not None:
                pt = t.paired_t
                paired_t.append({**tag, "a": t.a, "b": t.b, "mean_difference": num(pt.mean_difference),
                                 "t": num(pt.t), "dof": pt.dof, "p_value": num(pt.p_value),
                                 "ci": InlineList(num(x) for x in pt.ci)})
        for v in c.roc_hull:
            hull.append({**tag, "fpr": v.fpr, "tpr": v.tpr, "learner": v.learner,
                         "threshold": num(v.threshold)})
        for iv in c.cost_envelope:
            envelope.append({**tag, "learner": iv.learner, "threshold": num(iv.threshold),
                             "pc_from": iv.pc_from, "pc_to": iv.pc_to})
    # only what was computed, in this order
    out = {key: rows for key, rows in (
        ("envelopment", env), ("rankings", rankings), ("cost_envelope", envelope), ("roc_hull", hull),
        ("delong", delong), ("mcnemar", mcnemar), ("paired_t", paired_t)) if rows}
    if result.friedman is not None:
        f = result.friedman
        fr = f.friedman
        out["friedman"] = {
            "measure": f.measure, "datasets": InlineList(f.datasets), "learners": InlineList(f.learners),
            "average_ranks": {n: num(r) for n, r in zip(f.learners, fr.average_ranks)},
            "chi2": num(fr.chi2), "p_value_chi2": num(fr.p_value_chi2),
            "f_statistic": num(fr.f_statistic), "p_value_f": num(fr.p_value_f),
            "critical_difference": num(fr.critical_difference), "alpha": num(fr.alpha),
            "significant_pairs": [InlineList([f.learners[i], f.learners[j]]) for i, j in fr.significant_pairs],
            "too_few_datasets": f.too_few_datasets,
        }
    if result.comparisons:
        winners = {str(c.dataset): c.winner for c in result.comparisons}
        out[result.task.winner_key] = winners if several else result.comparisons[0].winner
    return out
