// The Play view: a game against the engine (or between two people) through
// /api/games: moves by click or drag, the server's reason when one is refused, the
// engine's reply with its evaluation, the turn clock, and the saved game.

import { api, boardLayout } from "./api.js";
import { Board } from "./board.js";
import { clickSquare, moveRequest, ownPiece, targets } from "./move_input.js";
import { evalText, renderMoveList, setText } from "./ui.js";

const POLL_MS = 500;   // how often a game whose clock ran out is asked for again

export class PlayView {
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks || {};
    this.el = (id) => root.querySelector("#" + id);
    this.state = null;
    this.selected = null;
    this.alert = [];
    this.busy = false;
    this.clockTimer = null;
    this.board = new Board(this.el("play-board"), {
      label: "game board",
      onSquare: (name) => this.onSquare(name),
      canDrag: (name) => this.humanToMove() && !this.busy && this.ownPiece(name),
      onDragStart: (name) => this.select(name),
      onDrop: (from, to) => this.tryMove(from, to),
    });
    this.el("play-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.newGame();
    });
    this.el("play-variant").addEventListener("change", () => {
      if (!this.state) this.showStart();
    });
    this.el("play-level-kind").addEventListener("change", () => this.levelDefaults());
    this.el("play-resign").addEventListener("click", () => this.resign());
    this.showStart();
  }

  // Before any game: the start position of the chosen variant.
  async showStart() {
    const variant = this.el("play-variant").value;
    try {
      const layout = await boardLayout(variant);
      this.board.setLayout(layout);
      this.board.setPieces(layout.start || {});
      this.board.setMarks({});
    } catch (err) {
      this.message(err.message, "error");
    }
  }

  levelDefaults() {
    const input = this.el("play-level-value");
    const kind = this.el("play-level-kind").value;
    input.value = { nodes: 20000, depth: 6, movetime: 500 }[kind];
  }

  settings() {
    const kind = this.el("play-level-kind").value;
    const value = Math.max(1, Math.round(Number(this.el("play-level-value").value) || 1));
    const seconds = Math.max(0, Math.round(Number(this.el("play-turn").value) || 0));
    const settings = {
      variant: this.el("play-variant").value,
      human: this.el("play-side").value,
      level: { [kind]: value },
      turn_seconds: seconds,
    };
    const fen = this.el("play-fen").value.trim();
    if (fen !== "") settings.fen = fen;
    return settings;
  }

  async newGame() {
    if (this.busy) return;
    this.busy = true;
    this.stopClock();
    // The old game goes at once, so nothing of it can be clicked while the new one comes.
    this.state = null;
    this.selected = null;
    this.alert = [];
    this.choices([]);
    this.message("");
    this.status("Starting a new game…");
    this.board.setMarks({});
    renderMoveList(this.el("play-moves"), [], 0);
    setText(this.el("play-engine"), "");
    this.el("play-pdn").hidden = true;
    setText(this.el("play-saved"), "");
    try {
      const settings = this.settings();
      this.board.setLayout(await boardLayout(settings.variant));
      this.board.setFlipped(settings.human === "black");
      const state = await api.newGame(settings);
      this.show(state);
    } catch (err) {
      this.message(err.message, "error");
    } finally {
      this.busy = false;
    }
    this.afterTurn();
  }

  humanToMove() {
    const s = this.state;
    if (!s || s.result !== null) return false;
    if (s.to_move !== undefined) return s.to_move === "human";
    return s.human === "both" || s.human === s.side;
  }

  ownPiece(name) {
    return ownPiece(this.state, name);
  }

  onSquare(name) {
    if (!this.state) {
      this.message("Start a new game first.", "info");
      return;
    }
    if (this.busy) return;
    if (!this.humanToMove()) {
      this.message(this.state.result ? "The game is over." : "Wait for the engine's move.", "info");
      return;
    }
    const step = clickSquare(this.state, this.selected, name);
    if ("select" in step) this.select(step.select);
    if (step.note) this.message(step.note, "info");
    else if (!("select" in step)) this.follow(step, name);
  }

  select(name) {
    this.selected = name;
    this.alert = [];
    this.choices([]);
    if (name) this.message("");
    this.render();
  }

  // A piece taken from one square to another: the legal move there, a choice when several
  // captures end there, or the two squares sent anyway so the server says why it is refused.
  tryMove(from, to) {
    return this.follow(moveRequest(this.state, from, to), to);
  }

  follow(step, to) {
    if (step.request) return this.send(step.request);
    this.message("Several captures end on " + to + ": choose one.", "info");
    this.choices(step.choose);
  }

  // One button per legal move to choose from; pointing at one (or focusing it) shows its
  // landing squares and the men it takes.
  choices(moves) {
    const box = this.el("play-choices");
    box.textContent = "";
    for (const move of moves) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move.text;
      const show = (on) => {
        this.hint = on ? move.path.slice(1).concat(move.captured) : [];
        this.render();
      };
      button.addEventListener("mouseenter", () => show(true));
      button.addEventListener("focus", () => show(true));
      button.addEventListener("mouseleave", () => show(false));
      button.addEventListener("blur", () => show(false));
      button.addEventListener("click", () => {
        this.choices([]);
        this.send({ move: move.text });
      });
      box.appendChild(button);
    }
    box.hidden = moves.length === 0;
    if (moves.length === 0) this.hint = [];
  }

  // request: {move: text} or {from, to} (api.move).
  async send(request) {
    this.busy = true;
    try {
      const state = await api.move(this.state.id, request);
      this.selected = null;
      this.alert = [];
      this.message("");
      await this.show(state, true);
    } catch (err) {
      if (err.status === 422) {
        this.alert = err.body.squares || [];
        this.message(err.message, "refusal", err.body.refusal);
        this.render();
      } else if (err.status === 409) {
        this.message(err.message, "info");
        await this.refresh();
      } else {
        this.message(err.message, "error");
      }
    } finally {
      this.busy = false;
    }
    this.afterTurn();
  }

  // What follows a state: the engine's move when it is its turn, the clock otherwise.
  async afterTurn() {
    const s = this.state;
    if (!s || this.busy) return;
    if (s.result !== null) {
      this.stopClock();
      this.render();
      return;
    }
    if (!this.humanToMove()) {
      this.stopClock();
      this.busy = true;
      this.el("play-resign").disabled = true;   // until the engine's move is in
      this.status("The engine is thinking…");
      try {
        await this.show(await api.engine(s.id), true);
      } catch (err) {
        this.message(err.message, "error");
        if (err.status === 409) await this.refresh();
      } finally {
        this.busy = false;
      }
      if (this.state && this.state.result === null && !this.humanToMove()) {
        this.render();   // the engine failed (its message is shown): resigning stays possible
        return;
      }
      return this.afterTurn();
    }
    this.render();   // the marks of a human's turn (none are drawn while busy)
    this.startClock();
  }

  async refresh() {
    if (!this.state) return;
    try {
      await this.show(await api.game(this.state.id), true);
    } catch (err) {
      this.message(err.message, "error");
    }
  }

  async resign() {
    if (!this.state || this.state.result !== null || this.busy) return;
    this.busy = true;
    try {
      await this.show(await api.resign(this.state.id), false);
    } catch (err) {
      this.message(err.message, "error");
    } finally {
      this.busy = false;
    }
    this.afterTurn();
  }

  // Shows a new state; with animate, plays its last move on the board first.
  async show(state, animate) {
    const before = this.state;
    this.state = state;
    const moved = before && before.id === state.id && state.moves.length > before.moves.length;
    if (animate && moved && state.last) {
      this.board.setMarks({ last: [] });
      await this.board.animate(this.lastAsMove(state, before), state.pieces);
    } else {
      this.board.setPieces(state.pieces);
    }
    if (state.last && state.last.by === "clock" && moved) {
      this.message("Time ran out: " + state.last.move + " was played for " +
        (state.moves.length % 2 === 1 ? "white" : "black") + ".", "info");
    } else if (state.result !== null && state.reason === "time" && !(before && before.result !== null)) {
      this.message("Time ran out a second turn in a row: the game is lost on time.", "info");
    }
    if (state.last && state.last.by === "engine") this.showEngine(state.last);
    this.render();
  }

  // The legal move of the previous state that `last` names (for its crowned flag).
  lastAsMove(state, before) {
    const last = state.last;
    const known = before.legal.find((m) => m.text === last.move);
    return {
      path: last.path || (known && known.path) || [],
      captured: last.captured || (known && known.captured) || [],
      crowned: typeof last.crowned === "boolean" ? last.crowned : !!(known && known.crowned),
    };
  }

  showEngine(last) {
    const box = this.el("play-engine");
    box.textContent = "";
    const rows = [
      ["Engine's move", last.move],
      ["Evaluation", evalText(last, "the engine")],
      ["Depth", last.depth],
      ["Nodes", last.nodes != null ? Number(last.nodes).toLocaleString("en") : "–"],
      ["Principal variation", (last.pv || []).join(" ") || "–"],
    ];
    for (const [term, value] of rows) {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = value == null ? "–" : String(value);
      box.append(dt, dd);
    }
  }

  render() {
    const s = this.state;
    if (!s) return;
    const mine = this.humanToMove() && !this.busy;
    const last = s.last ? [...new Set((s.last.path || []).slice(0, 1).concat((s.last.path || []).slice(-1)))] : [];
    this.board.setMarks({
      movable: mine ? s.movable : [],
      selected: this.selected ? [this.selected] : [],
      target: mine ? targets(s, this.selected) : [],
      last,
      alert: this.alert,
      hint: this.hint || [],
    });
    renderMoveList(this.el("play-moves"), s.moves, s.moves.length);
    this.renderStatus();
    this.renderSaved();
    this.el("play-resign").disabled = s.result !== null;
  }

  renderStatus() {
    const s = this.state;
    let text;
    if (s.result !== null) {
      const who = { "white-wins": "White wins", "black-wins": "Black wins", draw: "Draw" }[s.result] || s.result;
      text = "Game over: " + who + (s.reason ? " (" + s.reason + ")" : "") + ".";
    } else if (this.humanToMove()) {
      text = (s.human === "both" ? s.side.charAt(0).toUpperCase() + s.side.slice(1) + " to move" : "Your move") +
        (s.capture_compulsory ? ": a capture is compulsory." : ".");
    } else {
      text = "The engine is to move.";
    }
    this.status(text);
  }

  renderSaved() {
    const s = this.state;
    const link = this.el("play-pdn");
    link.href = api.pdnUrl(s.id);
    link.setAttribute("download", "dama-game-" + s.id + ".pdn");
    link.hidden = false;
    const saved = this.el("play-saved");
    saved.textContent = "";
    if (s.save_error) saved.append("Not saved yet: " + s.save_error + " ");
    if (s.saved_game != null) {
      saved.append("Saved to the database as game " + s.saved_game + ". ");
      const open = document.createElement("button");
      open.type = "button";
      open.className = "link";
      open.textContent = "Replay it";
      open.addEventListener("click", () => this.hooks.replay && this.hooks.replay(s.saved_game));
      saved.appendChild(open);
    }
  }

  status(text) {
    setText(this.el("play-status"), text);
  }

  message(text, kind, refusal) {
    const box = this.el("play-message");
    box.textContent = text || "";
    box.className = "message" + (kind ? " " + kind : "");
    if (refusal) box.dataset.refusal = refusal;
    else delete box.dataset.refusal;
  }

  // The turn clock: counts down the human's time; when it runs out, asks the server for
  // the game, which applies the time-out rule (plays a move for the player, or ends it).
  startClock() {
    this.stopClock();
    const s = this.state;
    const box = this.el("play-clock");
    if (!s || !s.clock || s.result !== null) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const t0 = performance.now();
    const left0 = s.clock.left_ms;
    const id = s.id, plies = s.moves.length;
    let asked = false;
    const tick = async () => {
      if (!this.state || this.state.id !== id || this.state.moves.length !== plies) return;
      const left = Math.max(0, left0 - (performance.now() - t0));
      this.drawClock(left, s.clock);
      if (left > 0 || asked || this.busy) return;
      asked = true;
      try {
        const next = await api.game(id);
        asked = false;
        if (next.moves.length !== plies || next.result !== null) {
          this.stopClock();
          this.selected = null;
          await this.show(next, true);
          this.afterTurn();
        }
      } catch (err) {
        asked = false;
        this.message(err.message, "error");
      }
    };
    this.clockTimer = setInterval(tick, POLL_MS / 2);
    tick();
  }

  drawClock(left, clock) {
    const seconds = Math.ceil(left / 1000);
    const text = this.el("play-clock-time");
    text.textContent = seconds + " s";
    const bar = this.el("play-clock-bar");
    bar.max = clock.turn_ms;
    bar.value = left;
    const side = this.state.side;
    const outs = clock.timeouts ? clock.timeouts[side] : 0;
    this.el("play-clock").classList.toggle("low", left < 5000);
    setText(this.el("play-clock-note"), outs ? "One time-out already: another in a row forfeits." : "");
  }

  stopClock() {
    if (this.clockTimer) clearInterval(this.clockTimer);
    this.clockTimer = null;
    this.el("play-clock").hidden = true;
  }
}
