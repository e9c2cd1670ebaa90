// The Replay view: the games of the database (/api/db/games), filtered by run, variant,
// result and opening; one game stepped through with its move list, the evaluation graph
// of its stored scores and, on request, the engine's analysis of the position shown.  A
// game annotated by `dama annotate --game` (the annotation of /api/db/games/N) shows its
// marks (?!, ?, ??) in the move list and on the graph, and the better line on request.

import { api, boardLayout, position } from "./api.js";
import { Board } from "./board.js";
import { drawChart } from "./charts.js";
import { evalText, fillRows, markRow, renderMoveList, RESULT_TEXT, setText } from "./ui.js";

const PAGE = 50;
// The marks' colours, on the graph and in the move list.
const MARK_COLOR = { "?!": "#b08900", "?": "#d9730d", "??": "#c0392b" };
// Scores beyond this many men (a forced result) are drawn at it.
const GRAPH_CAP = 10;

export class ReplayView {
  constructor(root) {
    this.root = root;
    this.el = (id) => root.querySelector("#" + id);
    this.game = null;
    this.ply = 0;
    this.offset = 0;
    this.board = new Board(this.el("replay-board"), { label: "replayed game", readOnly: true });
    this.el("replay-filters").addEventListener("submit", (e) => {
      e.preventDefault();
      this.offset = 0;
      this.list();
    });
    this.el("replay-older").addEventListener("click", () => this.page(PAGE));
    this.el("replay-newer").addEventListener("click", () => this.page(-PAGE));
    const nav = { "replay-first": () => 0, "replay-prev": () => this.ply - 1,
                  "replay-next": () => this.ply + 1, "replay-last": () => this.plies() };
    for (const [id, target] of Object.entries(nav)) {
      this.el(id).addEventListener("click", () => this.go(target()));
    }
    this.el("replay-analyze").addEventListener("click", () => this.analyze());
    // The better line of a marked move: made here, shown only for an annotated game.
    this.betterButton = document.createElement("button");
    this.betterButton.type = "button";
    this.betterButton.id = "replay-better";
    this.betterButton.textContent = "Show the better line";
    this.betterButton.hidden = true;
    this.betterButton.addEventListener("click", () => this.better());
    this.el("replay-analyze").after(this.betterButton);
    document.addEventListener("keydown", (e) => this.onKey(e));
    this.loaded = false;
  }

  // Called when the view is shown: the run list and the games, the first time.
  async enter() {
    if (this.loaded) return;
    this.loaded = true;
    await this.loadRuns();
    await this.list();
  }

  async loadRuns() {
    const select = this.el("replay-run");
    try {
      const { runs } = await api.runs();
      const keep = select.value;
      select.length = 1;   // keeps "any run"
      for (const run of runs) {
        const option = document.createElement("option");
        option.value = run.id;
        option.textContent = "run " + run.id + " · " + run.kind + " · " + run.variant + " · " + run.games + " games";
        select.appendChild(option);
      }
      select.value = keep;
    } catch (err) {
      this.message(err.message);
    }
  }

  page(delta) {
    this.offset = Math.max(0, this.offset + delta);
    this.list();
  }

  async list() {
    const filters = {
      run: this.el("replay-run").value,
      variant: this.el("replay-variant").value,
      result: this.el("replay-result").value,
      opening: this.el("replay-opening").value.trim(),
      limit: PAGE,
      offset: this.offset,
    };
    const tbody = this.el("replay-games");
    try {
      const { total, games } = await api.dbGames(filters);
      this.message("");
      fillRows(tbody, games, [
        (g) => g.id, (g) => g.run, (g) => g.variant, (g) => RESULT_TEXT[g.result] || g.result,
        (g) => g.reason, (g) => g.plies, (g) => (g.opening_id != null ? g.opening_id : g.opening),
      ], (g, row) => {
        markRow(tbody, row);
        this.open(g.id);
      });
      // An opening is shown by its id; its FEN is the cell's tooltip.
      for (const [i, tr] of [...tbody.rows].entries()) {
        if (games[i].opening) tr.cells[6].title = games[i].opening;
      }
      const last = Math.min(total, this.offset + games.length);
      setText(this.el("replay-count"), total === 0 ? "No games match." :
        "Games " + (this.offset + 1) + "–" + last + " of " + total + ".");
      this.el("replay-newer").disabled = this.offset === 0;
      this.el("replay-older").disabled = last >= total;
    } catch (err) {
      this.message(err.message);
    }
  }

  // Opens a stored game at its start (or at `ply`).
  async open(id, ply) {
    try {
      const game = await api.dbGame(id);
      this.board.setLayout(await boardLayout(game.variant));
      this.game = game;
      this.el("replay-game").hidden = false;
      setText(this.el("replay-title"), "Game " + game.id + " · run " + game.run + " · " + game.variant +
        " · " + (RESULT_TEXT[game.result] || game.result || "unfinished") + (game.reason ? " (" + game.reason + ")" : ""));
      setText(this.el("replay-analysis"), "");
      this.message("");
      this.drawEval();
      this.go(ply === undefined ? 0 : ply);
    } catch (err) {
      this.message(err.message);
    }
  }

  plies() {
    return this.game ? this.game.moves.length : 0;
  }

  fenAt(ply) {
    return ply === 0 ? this.game.start_fen : this.game.fens[ply - 1];
  }

  // Goes to ply (0 = the start): the board, the move list and the ply line together,
  // once the server has said what the position holds.
  async go(ply) {
    if (!this.game) return;
    const game = this.game;
    const target = Math.max(0, Math.min(this.plies(), ply));
    const token = (this.goToken = (this.goToken || 0) + 1);
    let shown;
    try {
      shown = await this.positionAt(target);
    } catch (err) {
      this.message(err.message);
      return;
    }
    if (token !== this.goToken || game !== this.game) return;   // another step came first
    this.ply = target;
    this.shown = shown;
    this.hint = [];
    setText(this.el("replay-analysis"), "");
    this.showPosition();
    renderMoveList(this.el("replay-moves"), this.game.moves, this.ply, (p) => this.go(p));
    this.showMarks();
    setText(this.el("replay-ply"), "Ply " + this.ply + " of " + this.plies() +
      (this.ply > 0 ? ": " + this.game.moves[this.ply - 1] : " (start)"));
    this.el("replay-first").disabled = this.el("replay-prev").disabled = this.ply === 0;
    this.el("replay-next").disabled = this.el("replay-last").disabled = this.ply === this.plies();
    if (this.evalChart) this.evalChart.updateOptions({});   // moves the marker of the ply
  }

  // {pieces, last: [from, to] of the move that led there}: the position at ply, from the
  // server (the move played from the position before, when there is one).
  async positionAt(ply) {
    const variant = this.game.variant;
    if (ply === 0) return { pieces: (await position(variant, this.fenAt(0))).pieces, last: [] };
    const before = await position(variant, this.fenAt(ply - 1), this.game.moves[ply - 1]);
    return { pieces: before.after.pieces, last: [before.move.from, before.move.to] };
  }

  // The from and to squares of a move's text in the position shown, for a hint.
  async hintFor(text) {
    const answer = await position(this.game.variant, this.fenAt(this.ply), text);
    return [answer.move.from, answer.move.to];
  }

  showPosition() {
    if (!this.shown) return;
    this.board.setPieces(this.shown.pieces);
    this.board.setMarks({ last: this.shown.last, hint: this.hint });
  }

  // The annotation's move at ply (1 = the first move), or null.
  noteAt(ply) {
    const notes = this.game && this.game.annotation;
    return notes && ply >= 1 && ply <= notes.length ? notes[ply - 1] : null;
  }

  // The marks after the moves of the list; the better-line button for a marked move.
  showMarks() {
    for (const item of this.el("replay-moves").querySelectorAll(".move")) {
      const note = this.noteAt(Number(item.dataset.ply));
      if (!note || !note.mark) continue;
      const mark = document.createElement("span");
      mark.className = "mark";
      mark.textContent = note.mark;
      mark.style.color = MARK_COLOR[note.mark];
      mark.style.fontWeight = "bold";
      item.appendChild(mark);
      item.title = "lost " + (note.loss / 100).toFixed(2) + " men; better " + note.best;
    }
    const note = this.noteAt(this.ply);
    this.betterButton.hidden = !(note && note.mark);
  }

  // Goes to the position before the marked move and shows what was better there.
  async better() {
    const ply = this.ply;
    const note = this.noteAt(ply);
    if (!note || !note.mark) return;
    await this.go(ply - 1);
    if (this.ply !== ply - 1) return;
    const men = (score) => (Math.abs(score) > 20000 ? (score > 0 ? "win" : "loss")
                                                     : (score / 100).toFixed(2));
    setText(this.el("replay-analysis"), note.move + note.mark + " (" + men(note.before) + " → " + men(note.after) +
      ", " + note.mover + "'s view) · better " + note.best + " · line " + note.line);
    try {
      this.hint = await this.hintFor(note.best);
    } catch (err) {
      this.message(err.message);
      return;
    }
    if (this.ply === ply - 1) this.showPosition();
  }

  // The graph's points [ply, men]: the annotation's scores from the start (white's view,
  // a forced result drawn at GRAPH_CAP) when there is one, else the scores stored with the
  // game.
  evalRows() {
    const notes = this.game.annotation;
    if (notes && notes.length) {
      const men = (score, mover) => {
        const white = (mover === "white" ? score : -score) / 100;
        return Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, white));
      };
      return [[0, men(notes[0].before, notes[0].mover)]].concat(notes.map((n) => [n.ply, men(n.after, n.mover)]));
    }
    const scores = this.game.scores || [];
    return scores.some((s) => s !== null && s !== undefined)
      ? scores.map((s, i) => [i + 1, s === null || s === undefined ? null : s / 100])
      : [];
  }

  drawEval() {
    const rows = this.evalRows();
    this.evalChart = drawChart(this.el("replay-eval"), rows, {
      labels: ["ply", "evaluation (men, white's view)"],
      xlabel: "ply",
      ylabel: "men",
      colors: ["#2d6a4f"],
      fillGraph: true,
      includeZero: true,
      underlayCallback: (ctx, area, g) => {
        this.drawMarks(ctx, g, rows);
        if (!this.ply) return;
        const x = g.toDomXCoord(this.ply);
        ctx.fillStyle = "rgba(214, 140, 30, 0.35)";
        ctx.fillRect(x - 2, area.y, 4, area.h);
      },
      clickCallback: (e, x) => this.go(Math.round(x)),
    }, "No evaluations were stored with this game.");
  }

  // A dot on the graph at each marked move, in its mark's colour.
  drawMarks(ctx, g, rows) {
    for (const note of this.game.annotation || []) {
      const row = rows.find((r) => r[0] === note.ply);
      if (!note.mark || !row || row[1] === null) continue;
      const [x, y] = g.toDomCoords(note.ply, row[1]);
      ctx.fillStyle = MARK_COLOR[note.mark];
      ctx.beginPath();
      ctx.arc(x, y, 5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  async analyze() {
    if (!this.game) return;
    const button = this.el("replay-analyze");
    const out = this.el("replay-analysis");
    const nodes = Math.max(1, Math.round(Number(this.el("replay-nodes").value) || 200000));
    const ply = this.ply;
    button.disabled = true;
    setText(out, "Analysing…");
    try {
      const a = await api.analyze(this.game.variant, this.fenAt(ply), nodes);
      if (ply !== this.ply) return;
      setText(out, "Best " + a.move + " · " + evalText(a, "the side to move") + " · depth " + a.depth +
        " · " + Number(a.nodes).toLocaleString("en") + " nodes · pv " + (a.pv || []).join(" "));
      const hint = a.move ? await this.hintFor(a.move) : [];
      if (ply !== this.ply) return;
      this.hint = hint;
      this.showPosition();
    } catch (err) {
      setText(out, err.message);
    } finally {
      button.disabled = false;
    }
  }

  onKey(event) {
    if (!this.game || this.root.hidden) return;
    if (event.target.closest && event.target.closest("input, select, textarea, [role='tab']")) return;
    const target = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.plies() }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    this.go(target);
  }

  message(text) {
    setText(this.el("replay-message"), text || "");
  }
}
