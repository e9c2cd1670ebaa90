// A draughts board drawn from the server's geometry (/api/board), put together from its
// parts as chessground splits them: what it shows (board_state.js), drawing
// (board_draw.js), input (board_input.js) and moves played on it (board_anim.js).  The
// views use only this.

import { animateMove } from "./board_anim.js";
import { BoardDrawing } from "./board_draw.js";
import { BoardInput } from "./board_input.js";
import { BoardState } from "./board_state.js";

export class Board {
  // options: label (accessible name), readOnly (squares are not buttons), and for a board
  // that takes moves onSquare(name), onDrop(from, to), canDrag(name), onDragStart(name).
  constructor(root, options) {
    this.state = new BoardState();
    this.drawing = new BoardDrawing(root, this.state, options);
    if (!(options && options.readOnly)) this.input = new BoardInput(this.drawing, options);
  }

  setLayout(layout) {
    if (this.state.setLayout(layout)) this.drawing.build();
  }

  setFlipped(flipped) {
    if (this.state.setFlipped(flipped) && this.state.geometry) this.drawing.build();
  }

  // Shows exactly these pieces ({square: "w"|"W"|"b"|"B"}), at once.
  setPieces(pieces) {
    this.state.setPieces(pieces);
    if (this.state.geometry) this.drawing.drawPieces();
  }

  // marks: {movable, selected, target, last, alert, hint}: lists of squares.
  setMarks(marks) {
    this.state.setMarks(marks);
    if (this.state.geometry) this.drawing.drawMarks();
  }

  // Plays move ({path, captured, crowned}) on the board, then shows the pieces `after`.
  async animate(move, after) {
    if (this.state.geometry) await animateMove(this.drawing, move);
    this.setPieces(after);
  }
}
