// A draughts board drawn from the server's layout (/api/board): Turkish uses all 64
// squares, International its 50 dark ones.  Squares are buttons (click, keyboard), pieces
// sit on a layer above them so a move can be animated square by square along its path.

const STEP_MS = 220;           // one jump of an animated move
const DRAG_THRESHOLD_PX = 6;   // a press that moves less is a click

const PIECE_NAMES = { w: "white man", W: "white king", b: "black man", B: "black king" };

// A small crown drawn on kings, so they are told from men at a glance (not colour alone).
const CROWN_SVG =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">' +
  '<path d="M3 18 L2 7 L8 11 L12 4 L16 11 L22 7 L21 18 Z"/>' +
  '<rect x="3" y="19" width="18" height="2.5" rx="1"/></svg>';

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class Board {
  // options: label (accessible name), onSquare(name) for a click or key press on a square,
  // onDrop(from, to) for a piece dragged to another square, canDrag(name) -> bool,
  // onDragStart(name), readOnly (squares are not buttons).
  constructor(root, options) {
    this.root = root;
    this.options = options || {};
    this.root.classList.add("board");
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", this.options.label || "board");
    this.layout = null;
    this.flipped = false;
    this.squareEls = {};   // name -> button
    this.pieceEls = {};    // name -> piece element on the layer
    this.pieces = {};
    this.marks = {};
    this.drag = null;
    this.suppressClick = false;
    this.root.addEventListener("click", (e) => this.onClick(e));
    this.root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    this.root.addEventListener("pointermove", (e) => this.onPointerMove(e));
    this.root.addEventListener("pointerup", (e) => this.onPointerUp(e));
    this.root.addEventListener("pointercancel", () => this.cancelDrag());
  }

  setLayout(layout) {
    if (this.layout && this.layout.variant === layout.variant) return;
    this.layout = layout;
    this.size = layout.size;
    this.byName = {};
    this.byCell = {};
    for (const sq of layout.squares) {
      this.byName[sq.name] = sq;
      this.byCell[sq.row + "," + sq.col] = sq;
    }
    this.build();
  }

  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    if (this.layout) this.build();
  }

  // Where a square is drawn: [row, col] on screen.
  screenCell(name) {
    const sq = this.byName[name];
    if (!sq) return null;
    return this.flipped ? [this.size - 1 - sq.row, this.size - 1 - sq.col] : [sq.row, sq.col];
  }

  build() {
    this.root.textContent = "";
    this.root.style.setProperty("--size", this.size);
    this.root.dataset.variant = this.layout.variant;
    this.squareEls = {};
    this.pieceEls = {};
    const grid = document.createElement("div");
    grid.className = "board-grid";
    const numbered = this.layout.variant === "international";
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) {
        const row = this.flipped ? this.size - 1 - r : r;
        const col = this.flipped ? this.size - 1 - c : c;
        const sq = this.byCell[row + "," + col];
        const dark = (row + col) % 2 === 1;
        let cell;
        if (sq) {
          // A board that only shows positions has no buttons to tab through.
          cell = document.createElement(this.options.readOnly ? "div" : "button");
          if (this.options.readOnly) cell.setAttribute("role", "img");
          else cell.type = "button";
          cell.className = "square";
          cell.dataset.square = sq.name;
          this.squareEls[sq.name] = cell;
          const coord = document.createElement("span");
          coord.className = "coord";
          coord.setAttribute("aria-hidden", "true");
          if (numbered) coord.textContent = sq.name;
          else if (r === this.size - 1 || c === 0) coord.textContent = this.edgeLabel(sq, r, c);
          if (coord.textContent) cell.appendChild(coord);
        } else {
          cell = document.createElement("div");
          cell.className = "cell";
        }
        cell.classList.add(dark ? "dark" : "light");
        grid.appendChild(cell);
      }
    }
    this.layer = document.createElement("div");
    this.layer.className = "piece-layer";
    this.layer.setAttribute("aria-hidden", "true");
    this.root.append(grid, this.layer);
    const pieces = this.pieces;
    this.pieces = {};
    this.setPieces(pieces);
    this.setMarks(this.marks);
  }

  // Turkish edge squares carry their file (bottom row) and rank (left column).
  edgeLabel(sq, r, c) {
    let text = "";
    if (c === 0) text += sq.name.slice(1);
    if (r === this.size - 1) text = sq.name.charAt(0) + (text ? " " + text : "");
    return text;
  }

  placePiece(el, name) {
    const cell = this.screenCell(name);
    if (!cell) return;
    el.style.top = (cell[0] * 100) / this.size + "%";
    el.style.left = (cell[1] * 100) / this.size + "%";
  }

  makePiece(kind) {
    const el = document.createElement("div");
    el.innerHTML = '<span class="crown">' + CROWN_SVG + "</span>";
    this.setKind(el, kind);
    return el;
  }

  setKind(el, kind) {
    el.className = "piece " + (kind.toLowerCase() === "w" ? "white" : "black") +
      (kind === "W" || kind === "B" ? " king" : "");
    el.dataset.kind = kind;
  }

  // Shows exactly these pieces ({square: "w"|"W"|"b"|"B"}), at once.
  setPieces(pieces) {
    this.pieces = Object.assign({}, pieces);
    for (const name of Object.keys(this.pieceEls)) {
      if (!(name in this.pieces)) {
        this.pieceEls[name].remove();
        delete this.pieceEls[name];
      }
    }
    for (const [name, kind] of Object.entries(this.pieces)) {
      if (!this.byName || !this.byName[name]) continue;
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
    this.updateLabels();
  }

  updateLabels() {
    for (const [name, el] of Object.entries(this.squareEls)) {
      const kind = this.pieces[name];
      const states = [];
      for (const [mark, names] of Object.entries(this.marks)) {
        if (names.includes(name) && MARK_WORDS[mark]) states.push(MARK_WORDS[mark]);
      }
      el.setAttribute("aria-label",
        name + (kind ? ", " + PIECE_NAMES[kind] : ", empty") + (states.length ? ", " + states.join(", ") : ""));
    }
  }

  // marks: {movable, selected, target, last, alert, hint}: lists of squares, each drawn
  // with its own class (the CSS says how).
  setMarks(marks) {
    this.marks = {};
    for (const [mark, names] of Object.entries(marks || {})) this.marks[mark] = (names || []).slice();
    for (const [name, el] of Object.entries(this.squareEls)) {
      for (const mark of MARKS) el.classList.toggle("mark-" + mark, (this.marks[mark] || []).includes(name));
    }
    this.updateLabels();
  }

  // Plays a move on the board: the piece goes along path one jump at a time, each piece it
  // takes fades as it is jumped and goes when the move ends (as the rules remove them);
  // a man crowned by the move gets its crown at the end.  Then the board shows `after`.
  async animate(move, after) {
    const path = move.path || [];
    const el = path.length ? this.pieceEls[path[0]] : null;
    if (!el || path.length < 2 || document.hidden) {
      this.setPieces(after);
      return;
    }
    this.root.classList.add("animating");
    el.classList.add("moving");
    const remaining = (move.captured || []).slice();
    for (let i = 1; i < path.length; i++) {
      this.placePiece(el, path[i]);
      await wait(STEP_MS);
      const jumped = this.takenBetween(path[i - 1], path[i], remaining);
      if (jumped) {
        remaining.splice(remaining.indexOf(jumped), 1);
        const taken = this.pieceEls[jumped];
        if (taken) taken.classList.add("taken");
      }
    }
    if (move.crowned) {
      this.setKind(el, el.dataset.kind.toUpperCase());   // resets the classes
      el.classList.add("moving", "crowning");
      await wait(STEP_MS);
    }
    this.root.classList.remove("animating");
    el.classList.remove("moving", "crowning");
    // The moved piece is now on its last square; let setPieces match it there.
    delete this.pieceEls[path[0]];
    const prior = this.pieceEls[path[path.length - 1]];
    if (prior && prior !== el) prior.remove();
    this.pieceEls[path[path.length - 1]] = el;
    this.setPieces(after);
  }

  // The captured square on the line from a to b (strictly between them), if any.
  takenBetween(a, b, candidates) {
    const p = this.byName[a], q = this.byName[b];
    if (!p || !q) return null;
    const dr = Math.sign(q.row - p.row), dc = Math.sign(q.col - p.col);
    for (const name of candidates) {
      const s = this.byName[name];
      if (!s) continue;
      const along = (s.row - p.row) * dc === (s.col - p.col) * dr;
      const between = (s.row - p.row) * dr + (s.col - p.col) * dc > 0 &&
                      (q.row - s.row) * dr + (q.col - s.col) * dc > 0;
      if (along && between) return name;
    }
    return null;
  }

  squareAt(clientX, clientY) {
    const rect = this.root.getBoundingClientRect();
    const c = Math.floor(((clientX - rect.left) / rect.width) * this.size);
    const r = Math.floor(((clientY - rect.top) / rect.height) * this.size);
    if (r < 0 || c < 0 || r >= this.size || c >= this.size) return null;
    const row = this.flipped ? this.size - 1 - r : r;
    const col = this.flipped ? this.size - 1 - c : c;
    const sq = this.byCell[row + "," + col];
    return sq ? sq.name : null;
  }

  onClick(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const square = event.target.closest(".square");
    if (square && this.options.onSquare) this.options.onSquare(square.dataset.square);
  }

  onPointerDown(event) {
    if (event.button !== 0 || !this.layout) return;
    const name = this.squareAt(event.clientX, event.clientY);
    if (!name || !this.pieceEls[name] || !this.options.canDrag || !this.options.canDrag(name)) return;
    this.drag = { from: name, x: event.clientX, y: event.clientY, active: false, pointer: event.pointerId };
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.active) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_THRESHOLD_PX) return;
      drag.active = true;
      this.root.setPointerCapture(event.pointerId);
      this.pieceEls[drag.from].classList.add("dragging");
      if (this.options.onDragStart) this.options.onDragStart(drag.from);
    }
    const rect = this.root.getBoundingClientRect();
    const cellPx = rect.width / this.size;
    const el = this.pieceEls[drag.from];
    el.style.left = event.clientX - rect.left - cellPx / 2 + "px";
    el.style.top = event.clientY - rect.top - cellPx / 2 + "px";
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = null;
    if (!drag.active) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const el = this.pieceEls[drag.from];
    if (el) {
      el.classList.remove("dragging");
      this.placePiece(el, drag.from);
    }
    const to = this.squareAt(event.clientX, event.clientY);
    if (to && to !== drag.from && this.options.onDrop) this.options.onDrop(drag.from, to);
  }

  cancelDrag() {
    if (!this.drag) return;
    const el = this.pieceEls[this.drag.from];
    if (el) {
      el.classList.remove("dragging");
      this.placePiece(el, this.drag.from);
    }
    this.drag = null;
  }
}

const MARKS = ["movable", "selected", "target", "last", "alert", "hint"];
const MARK_WORDS = {
  movable: "may move",
  selected: "selected",
  target: "legal target",
  last: "last move",
  alert: "must capture",
  hint: "suggested",
};
