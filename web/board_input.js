// A board's input: a click (or Enter/Space on a square's button) names a square; a
// press on a piece that moves far enough drags it, and letting go names the square it
// was dropped on.  What a click or a drop means is the caller's (move_input.js).

import { squareAtPoint } from "./geometry.js";

const DRAG_THRESHOLD_PX = 6;   // a press that moves less is a click

// Whether a press that has moved dx, dy pixels is a drag rather than a click.
export function isDrag(dx, dy) {
  return Math.hypot(dx, dy) >= DRAG_THRESHOLD_PX;
}

// options: onSquare(name), onDrop(from, to), canDrag(name) -> bool, onDragStart(name).
export class BoardInput {
  constructor(drawing, options) {
    this.drawing = drawing;
    this.options = options || {};
    this.drag = null;
    this.suppressClick = false;
    const root = drawing.root;
    root.addEventListener("click", (e) => this.onClick(e));
    root.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    root.addEventListener("pointermove", (e) => this.onPointerMove(e));
    root.addEventListener("pointerup", (e) => this.onPointerUp(e));
    root.addEventListener("pointercancel", () => this.cancelDrag());
  }

  // The square under a point of the page, or null.
  squareAt(clientX, clientY) {
    const state = this.drawing.state;
    const rect = this.drawing.root.getBoundingClientRect();
    return squareAtPoint(state.geometry, clientX - rect.left, clientY - rect.top,
                         rect.width, rect.height, state.flipped);
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
    if (event.button !== 0 || !this.drawing.state.geometry) return;
    const name = this.squareAt(event.clientX, event.clientY);
    if (!name || !this.drawing.pieceEls[name] || !this.options.canDrag || !this.options.canDrag(name)) return;
    this.drag = { from: name, x: event.clientX, y: event.clientY, active: false, pointer: event.pointerId };
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    const el = this.drawing.pieceEls[drag.from];
    if (!el) return;
    if (!drag.active) {
      if (!isDrag(event.clientX - drag.x, event.clientY - drag.y)) return;
      drag.active = true;
      this.drawing.root.setPointerCapture(event.pointerId);
      el.classList.add("dragging");
      if (this.options.onDragStart) this.options.onDragStart(drag.from);
    }
    const geo = this.drawing.state.geometry;
    const rect = this.drawing.root.getBoundingClientRect();
    el.style.left = event.clientX - rect.left - rect.width / geo.columns / 2 + "px";
    el.style.top = event.clientY - rect.top - rect.height / geo.rows / 2 + "px";
  }

  onPointerUp(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = null;
    if (!drag.active) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    this.putBack(drag.from);
    const to = this.squareAt(event.clientX, event.clientY);
    if (to && to !== drag.from && this.options.onDrop) this.options.onDrop(drag.from, to);
  }

  cancelDrag() {
    if (!this.drag) return;
    this.putBack(this.drag.from);
    this.drag = null;
  }

  putBack(name) {
    const el = this.drawing.pieceEls[name];
    if (!el) return;
    el.classList.remove("dragging");
    this.drawing.placePiece(el, name);
  }
}
