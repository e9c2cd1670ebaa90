// What a board shows, without the DOM: its geometry, which way up it is, the pieces on
// it and the marks on its squares, and the words a screen reader says for a square.
// Drawing (board_draw.js) reads this; nothing here draws.

import { makeGeometry } from "./geometry.js";

// The marks a square may carry, each drawn with its own class (the CSS says how), and
// the words that say it.
export const MARKS = ["movable", "selected", "target", "last", "alert", "hint"];
const MARK_WORDS = {
  movable: "may move",
  selected: "selected",
  target: "legal target",
  last: "last move",
  alert: "must capture",
  hint: "suggested",
};
const PIECE_NAMES = { w: "white man", W: "white king", b: "black man", B: "black king" };

export function isKing(kind) {
  return kind === "W" || kind === "B";
}

export function isWhite(kind) {
  return kind === "w" || kind === "W";
}

// The king a man becomes ("w" -> "W"); a king stays one.
export function crowned(kind) {
  return kind.toUpperCase();
}

export class BoardState {
  constructor() {
    this.geometry = null;
    this.flipped = false;
    this.pieces = {};   // square name -> "w" | "W" | "b" | "B"
    this.marks = {};    // mark -> [square names]
  }

  // A layout from /api/board; true when it is a different board from the one shown.
  setLayout(layout) {
    if (this.geometry && this.geometry.variant === layout.variant) return false;
    this.geometry = makeGeometry(layout);
    return true;
  }

  // True when the board turned.
  setFlipped(flipped) {
    flipped = !!flipped;
    if (this.flipped === flipped) return false;
    this.flipped = flipped;
    return true;
  }

  // Exactly these pieces ({square: kind}); those on squares the board lacks are left out.
  setPieces(pieces) {
    this.pieces = {};
    for (const [name, kind] of Object.entries(pieces || {})) {
      if (this.geometry && this.geometry.byName.has(name)) this.pieces[name] = kind;
    }
  }

  // marks: {movable, selected, target, last, alert, hint}: lists of squares.
  setMarks(marks) {
    this.marks = {};
    for (const [mark, names] of Object.entries(marks || {})) this.marks[mark] = (names || []).slice();
  }

  // The marks on square name, in the order of MARKS.
  marksOn(name) {
    return MARKS.filter((mark) => (this.marks[mark] || []).includes(name));
  }

  // "d3, white man, may move": what a screen reader says for a square.
  describe(name) {
    const kind = this.pieces[name];
    const words = this.marksOn(name).map((mark) => MARK_WORDS[mark]);
    return name + (kind ? ", " + PIECE_NAMES[kind] : ", empty") + (words.length ? ", " + words.join(", ") : "");
  }
}
