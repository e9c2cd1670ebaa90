// The Training view: runs and generations (/api/runs, /api/training): Elo by generation
// with its 95 % interval, the loss curves, game lengths and the current run's progress,
// refreshed every few seconds while a run is going.

import { api } from "./api.js";
import { drawChart, histogram, integerX, whiskerPlotter } from "./charts.js";
import { fillRows, markRow, setText } from "./ui.js";

const REFRESH_MS = 3000;

function elo(value) {
  return value === null || value === undefined ? null : (value > 0 ? "+" : "") + Number(value).toFixed(1);
}

// A time as the server gives it: seconds since 1970, or text already.
function when(value) {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return new Date(value * 1000).toISOString().slice(0, 16).replace("T", " ");
  return value;
}

function interval(run) {
  if (run.elo === null || run.elo === undefined) return null;
  const bounds = run.elo_low != null && run.elo_high != null ? " [" + elo(run.elo_low) + ", " + elo(run.elo_high) + "]" : "";
  return elo(run.elo) + bounds;
}

// A generation's loss may be one figure or {train, validation}.
function lossParts(loss) {
  if (loss === null || loss === undefined) return [null, null];
  if (typeof loss === "number") return [null, loss];
  return [loss.train ?? null, loss.validation ?? null];
}

// Training and validation loss against x (rows [x, train, validation]).
function drawLoss(el, rows, x, options, empty) {
  return drawChart(el, rows, Object.assign({
    labels: [x, "train", "validation"],
    xlabel: x,
    ylabel: "loss",
    colors: ["#386fa4", "#d68c1e"],
    digitsAfterDecimal: 4,
  }, options), empty);
}

export class TrainingView {
  constructor(root) {
    this.root = root;
    this.el = (id) => root.querySelector("#" + id);
    this.selected = null;
    this.follow = true;   // show the current run's details until a run is picked
    this.timer = null;
    this.el("training-variant").addEventListener("change", () => {
      this.selected = null;
      this.follow = true;
      this.refresh();
    });
    this.el("training-refresh").addEventListener("click", () => this.refresh());
  }

  enter() {
    this.refresh();
  }

  leave() {
    this.schedule(false);
  }

  schedule(on) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = on ? setTimeout(() => this.refresh(), REFRESH_MS) : null;
  }

  async refresh() {
    const variant = this.el("training-variant").value;
    try {
      const [runsAnswer, training] = await Promise.all([api.runs(), api.training(variant)]);
      const runs = runsAnswer.runs.filter((r) => r.variant === variant).sort((a, b) => b.id - a.id);
      this.runs = runs;
      this.message("");
      this.drawRuns(runs, training.current);
      this.drawGenerations(training.generations || []);
      this.drawCurrent(training.current);
      const current = training.current && runs.find((r) => r.id === training.current.run);
      if ((this.selected === null || (this.follow && current)) && runs.length) {
        this.selected = (current || runs.find((r) => r.kind === "train") || runs[0]).id;
        this.markSelected();
      }
      if (this.selected !== null) await this.drawRun(this.selected);
      setText(this.el("training-updated"), "Updated " + new Date().toLocaleTimeString("en-GB") +
        (training.current ? "; refreshing every " + REFRESH_MS / 1000 + " s while run " + training.current.run + " goes on." : "."));
      if (!this.root.hidden) this.schedule(!!training.current);
    } catch (err) {
      this.message(err.message);
      if (!this.root.hidden) this.schedule(true);
    }
  }

  drawRuns(runs, current) {
    const tbody = this.el("training-runs");
    fillRows(tbody, runs, [
      (r) => r.id, (r) => r.kind, (r) => when(r.started),
      (r) => when(r.finished) || r.status || (current && (current.run === r.id || current.train_run === r.id) ? "running" : null),
      (r) => r.games, (r) => r.generation, (r) => interval(r),
      (r) => (r.promoted === null || r.promoted === undefined ? null : r.promoted ? "yes" : "no"),
    ], (r) => {
      this.selected = r.id;
      this.follow = false;
      this.markSelected();
      this.drawRun(r.id);
    });
    for (const [i, tr] of [...tbody.rows].entries()) tr.dataset.run = runs[i].id;
    this.markSelected();
    setText(this.el("training-runs-note"), runs.length ? "" : "No runs of this variant in the database.");
  }

  markSelected() {
    const tbody = this.el("training-runs");
    markRow(tbody, tbody.querySelector('tr[data-run="' + this.selected + '"]'));
  }

  drawGenerations(generations) {
    const rows = generations.filter((g) => g.elo !== null && g.elo !== undefined).map((g) => {
      const bar = [g.elo_low ?? g.elo, g.elo, g.elo_high ?? g.elo];
      return [g.generation, g.promoted ? bar : null, g.promoted ? null : bar];
    });
    drawChart(this.el("training-elo"), rows, Object.assign({
      labels: ["generation", "promoted", "rejected"],
      customBars: true,
      plotter: whiskerPlotter,
      xlabel: "generation",
      ylabel: "Elo against the best",
      colors: ["#2d6a4f", "#b5563c"],
      includeZero: true,
    }, integerX(rows.map((r) => r[0]))), "No generation has played its match yet.");
    // A generation's training loss may come apart (train_loss) or inside loss.
    const losses = generations.map((g) => {
      const [train, validation] = lossParts(g.loss);
      return [g.generation, g.train_loss ?? train, validation];
    })
      .filter((row) => row[1] !== null || row[2] !== null);
    drawLoss(this.el("training-gen-loss"), losses, "generation",
      Object.assign({ connectSeparatedPoints: true }, integerX(losses.map((r) => r[0]))),
      "No tuning losses recorded yet.");
  }

  drawCurrent(current) {
    const box = this.el("training-current");
    const bar = this.el("training-progress");
    if (!current) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    bar.max = Math.max(1, current.planned || 1);
    bar.value = current.games || 0;
    const what = [current.kind, current.generation != null ? "generation " + current.generation : null]
      .filter(Boolean).join(", ");
    setText(this.el("training-progress-text"), "Run " + current.run + (what ? " (" + what + ")" : "") + ": " +
      (current.games || 0) + " of " + (current.planned || "?") + " games" +
      (current.train_run != null ? ", training run " + current.train_run : "") + ".");
  }

  async drawRun(id) {
    try {
      const run = await api.run(id);
      if (id !== this.selected) return;
      setText(this.el("training-run-title"), "Run " + run.id + " (" + run.kind + ")");
      await this.drawEpochLoss(run);
      const lengths = histogram((run.lengths || []).map((l) => [l.plies, l.games]), 30);
      drawChart(this.el("training-lengths"), lengths, {
        labels: ["plies", "games"],
        xlabel: "game length (plies)",
        ylabel: "games",
        colors: ["#6c4f8a"],
        stepPlot: true,
        fillGraph: true,
        drawPoints: false,
        includeZero: true,
      }, "This run has no games.");
      const p = run.progress;
      setText(this.el("training-run-progress"), p ? p.games + " of " + (p.planned || "?") + " planned games played." : "");
    } catch (err) {
      this.message(err.message);
    }
  }

  // The chosen run's loss by epoch, or when it has none (not a tuning run) the latest
  // tuning run's of the variant.
  async drawEpochLoss(run) {
    let source = run;
    // The newest tuning runs first; one still starting has no epochs yet.
    const tunes = (this.runs || []).filter((r) => r.kind === "tune" && r.id !== run.id).slice(0, 3);
    for (const tune of tunes) {
      if ((source.loss || []).length) break;
      source = await api.run(tune.id);
    }
    setText(this.el("training-epoch-caption"), "Loss by epoch" +
      (source.loss && source.loss.length ? " (tuning run " + source.id + ")" : ""));
    const loss = (source.loss || []).map((l) => [l.epoch, l.train ?? null, l.validation ?? null]);
    drawLoss(this.el("training-epoch-loss"), loss, "epoch", { drawPoints: false },
      "No tuning run of this variant yet.");
  }

  message(text) {
    setText(this.el("training-message"), text || "");
  }
}
