"""Curves with 95 % confidence bands from a summary.csv (python3-matplotlib)."""
import csv


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def curves(rows, x, y, by=(), where=None):
    """{curve label: [(x, mean, ci95)]} sorted by x; rows without a number for x or y are left out."""
    where = where or {}
    out = {}
    for r in rows:
        if any(r.get(k) != v for k, v in where.items()):
            continue
        xv, yv = number(r.get(x)), number(r.get(y))
        if xv is None or yv is None:
            continue
        ci = number(r.get(y + "_ci95")) or 0.0
        label = ", ".join(f"{b.split('.')[-1]}={r.get(b)}" for b in by) if by else y
        out.setdefault(label, []).append((xv, yv, ci))
    return {k: sorted(v) for k, v in out.items()}


def draw(ax, data, logx=False, logy=False):
    for label, pts in data.items():
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        ax.plot(xs, ys, marker="o", label=label)
        ax.fill_between(xs, [p[1] - p[2] for p in pts], [p[1] + p[2] for p in pts], alpha=0.25)
    if logx:
        ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    if data:
        ax.legend(fontsize=8)


def plot_file(summary_path, x, y, by=(), where=None, out="sweep.png", logx=False, logy=False, title=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    data = curves(read(summary_path), x, y, by, where)
    if not data:
        raise ValueError(f"{summary_path}: no rows with numbers in {x} and {y}"
                         + (f" where {where}" if where else ""))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    draw(ax, data, logx, logy)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if title:
        ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def plot_figure(rows, fig_spec, out, label_of=None):
    """One figure from a spec's [[plot]] table: x, y, by (curves), optional part, panels (one subplot per
    value of that column), where, logx, logy, title."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    where = dict(fig_spec.get("where", {}))
    if "part" in fig_spec:
        where["part"] = fig_spec["part"]
    rows = [r for r in rows if all(r.get(k) == str(v) for k, v in where.items())]
    panel_col = fig_spec.get("panels")
    panels = []
    for r in rows:
        v = r.get(panel_col) if panel_col else ""
        if v not in panels:
            panels.append(v)
    if not panels:
        raise ValueError(f"no rows for plot {fig_spec.get('title', fig_spec['y'])}")
    cols = min(len(panels), 3)
    lines = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(lines, cols, figsize=(5.2 * cols, 3.8 * lines), squeeze=False)
    for n, v in enumerate(panels):
        ax = axes[n // cols][n % cols]
        sel = [r for r in rows if not panel_col or r.get(panel_col) == v]
        draw(ax, curves(sel, fig_spec["x"], fig_spec["y"], fig_spec.get("by", [])),
             fig_spec.get("logx", False), fig_spec.get("logy", False))
        ax.set_xlabel(fig_spec["x"])
        ax.set_ylabel(fig_spec["y"])
        if panel_col:
            ax.set_title(f"{panel_col} = {label_of(panel_col, v) if label_of else v}", fontsize=9)
    for n in range(len(panels), lines * cols):
        axes[n // cols][n % cols].set_visible(False)
    if fig_spec.get("title"):
        fig.suptitle(fig_spec["title"] + "  (bands: 95 % CI over seeds)")
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    plt.close(fig)
