// The Explorer view: for a position, the moves the stored games played from it
// (/api/explorer), with their games, results and average search score; a move's row
// goes to the position after it, Back to the one before.

import { api, boardLayout, position } from "./api.js";
import { Board } from "./board.js";
import { fillRows, formatEval, setText } from "./ui.js";

export class ExplorerView {
  constructor(root) {
    this.root = root;
    this.el = (id) => root.querySelector("#" + id);
    this.path = [];   // the FENs before the one shown, for Back
    this.fen = "";    // "" = the start position
    this.board = new Board(this.el("explorer-board"), { label: "explored position", readOnly: true });
    this.el("explorer-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.path = [];
      this.show(this.el("explorer-fen").value.trim());
    });
    this.el("explorer-back").addEventListener("click", () => {
      if (this.path.length) this.show(this.path.pop());
    });
    this.loaded = false;
  }

  async enter() {
    if (this.loaded) return;
    this.loaded = true;
    await this.show("");
  }

  async show(fen) {
    const variant = this.el("explorer-variant").value;
    setText(this.el("explorer-message"), "");
    let data, shown, layout;
    try {
      data = await api.explorer(variant, fen);
      [shown, layout] = await Promise.all([position(data.variant, data.fen), boardLayout(data.variant)]);
    } catch (err) {
      setText(this.el("explorer-message"), err.message);
      return;
    }
    this.fen = data.fen;
    this.board.setLayout(layout);
    this.board.setPieces(shown.pieces);
    this.el("explorer-back").disabled = this.path.length === 0;
    setText(this.el("explorer-summary"), data.games + (data.games === 1 ? " game" : " games") +
      " left this position · " + shown.side + " to move");
    fillRows(this.el("explorer-moves"), data.moves, [
      (m) => m.move,
      (m) => m.games,
      (m) => m.white_wins,
      (m) => m.draws,
      (m) => m.black_wins,
      (m) => (m.score === null ? null : formatEval(m.score)),
    ], (m) => {
      this.path.push(this.fen);
      this.show(m.fen);
    });
  }
}
