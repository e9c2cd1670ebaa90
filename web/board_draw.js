// Draws a BoardState (board_state.js) into the DOM: a grid of cells (squares are buttons
// on a board that takes moves, labelled from the geometry) and a layer of pieces above
// it, each piece placed by its square so that it can move between squares.

import { MARKS, isKing, isWhite } from "./board_state.js";
import { cellLabel, isDarkCell, screenCell, squareAtScreen } from "./geometry.js";

// A small crown drawn on kings, so they are told from men at a glance (not colour alone).
const CROWN_SVG =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">' +
  '<path d="M3 18 L2 7 L8 11 L12 4 L16 11 L22 7 L21 18 Z"/>' +
  '<rect x="3" y="19" width="18" height="2.5" rx="1"/></svg>';

export class BoardDrawing {
  // readOnly: squares are not buttons (a board that only shows positions).
  constructor(root, state, options) {
    this.root = root;
    this.state = state;
    this.readOnly = !!(options && options.readOnly);
    this.squareEls = {};   // name -> cell element
    this.pieceEls = {};    // name -> piece element on the layer
    this.layer = null;
    root.classList.add("board");
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", (options && options.label) || "board");
  }

  // Draws the whole board anew (a new layout, or the board turned).
  build() {
    const geo = this.state.geometry;
    const flipped = this.state.flipped;
    this.root.textContent = "";
    this.root.style.setProperty("--size", geo.columns);
    this.root.style.setProperty("--rows", geo.rows);
    this.root.dataset.variant = geo.variant;
    this.root.dataset.labels = geo.labels;
    // A board played on every square may be drawn in one colour (style.css).
    if (geo.squares.length === geo.rows * geo.columns) this.root.dataset.everySquare = "";
    else delete this.root.dataset.everySquare;
    this.squareEls = {};
    this.pieceEls = {};
    const grid = document.createElement("div");
    grid.className = "board-grid";
    for (let r = 0; r < geo.rows; r++) {
      for (let c = 0; c < geo.columns; c++) {
        const name = squareAtScreen(geo, r, c, flipped);
        const cell = name ? this.makeSquare(name) : document.createElement("div");
        if (!name) cell.className = "cell";
        cell.classList.add(isDarkCell(geo, r, c, flipped) ? "dark" : "light");
        this.addLabel(cell, cellLabel(geo, r, c, flipped));
        grid.appendChild(cell);
      }
    }
    this.layer = document.createElement("div");
    this.layer.className = "piece-layer";
    this.layer.setAttribute("aria-hidden", "true");
    this.root.append(grid, this.layer);
    this.drawPieces();
    this.drawMarks();
  }

  makeSquare(name) {
    const cell = document.createElement(this.readOnly ? "div" : "button");
    if (this.readOnly) cell.setAttribute("role", "img");
    else cell.type = "button";
    cell.className = "square";
    cell.dataset.square = name;
    this.squareEls[name] = cell;
    return cell;
  }

  // The coordinate written in a cell's corner (geometry.js, cellLabel), if any.
  addLabel(cell, text) {
    if (!text) return;
    const coord = document.createElement("span");
    coord.className = "coord";
    coord.setAttribute("aria-hidden", "true");
    coord.textContent = text;
    cell.appendChild(coord);
  }

  // Puts a piece element on square name (its top left corner, in % of the board).
  placePiece(el, name) {
    const geo = this.state.geometry;
    const cell = screenCell(geo, name, this.state.flipped);
    if (!cell) return;
    el.style.top = (cell[0] * 100) / geo.rows + "%";
    el.style.left = (cell[1] * 100) / geo.columns + "%";
  }

  setKind(el, kind) {
    el.className = "piece " + (isWhite(kind) ? "white" : "black") + (isKing(kind) ? " king" : "");
    el.dataset.kind = kind;
  }

  makePiece(kind) {
    const el = document.createElement("div");
    el.innerHTML = '<span class="crown">' + CROWN_SVG + "</span>";
    this.setKind(el, kind);
    return el;
  }

  // The piece layer made to match the state's pieces: elements kept where a piece stays
  // (so a moved one can slide), made or removed where pieces came or went.
  drawPieces() {
    const pieces = this.state.pieces;
    for (const name of Object.keys(this.pieceEls)) {
      if (!(name in pieces)) {
        this.pieceEls[name].remove();
        delete this.pieceEls[name];
      }
    }
    for (const [name, kind] of Object.entries(pieces)) {
      let el = this.pieceEls[name];
      if (!el) {
        el = this.makePiece(kind);
        this.pieceEls[name] = el;
        this.layer.appendChild(el);
      } else if (el.dataset.kind !== kind) {
        this.setKind(el, kind);
      }
      el.dataset.square = name;
      this.placePiece(el, name);
    }
    this.drawLabels();
  }

  // A piece element that moved from square `from` to `to` (animation): kept for `to`.
  movedPiece(from, to) {
    const el = this.pieceEls[from];
    delete this.pieceEls[from];
    const prior = this.pieceEls[to];
    if (prior && prior !== el) prior.remove();
    if (el) this.pieceEls[to] = el;
  }

  drawMarks() {
    for (const [name, el] of Object.entries(this.squareEls)) {
      const on = this.state.marksOn(name);
      for (const mark of MARKS) el.classList.toggle("mark-" + mark, on.includes(mark));
    }
    this.drawLabels();
  }

  drawLabels() {
    for (const [name, el] of Object.entries(this.squareEls)) el.setAttribute("aria-label", this.state.describe(name));
  }
}
