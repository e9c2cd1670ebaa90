// web/board_state.js: what a board shows, without the DOM.
import { test } from "node:test";
import assert from "node:assert/strict";

import { BoardState, crowned, isKing, isWhite } from "../../web/board_state.js";
import { internationalLayout, turkishLayout } from "./layouts.mjs";

test("a layout is taken once per board; turning the board is told", () => {
  const state = new BoardState();
  assert.equal(state.setLayout(turkishLayout()), true);
  assert.equal(state.setLayout(turkishLayout()), false, "the same board again: nothing to redraw");
  assert.equal(state.setLayout(internationalLayout()), true);
  assert.equal(state.geometry.rows, 10);
  assert.equal(state.setFlipped(true), true);
  assert.equal(state.setFlipped(true), false);
  assert.equal(state.flipped, true);
});

test("pieces on squares the board lacks are left out", () => {
  const state = new BoardState();
  state.setLayout(internationalLayout());
  state.setPieces({ 1: "b", 50: "W", 51: "w", d3: "w" });
  assert.deepEqual(state.pieces, { 1: "b", 50: "W" });
  state.setPieces({ 2: "w" });
  assert.deepEqual(state.pieces, { 2: "w" }, "setPieces replaces, it does not add");
});

test("a square is described by its piece and marks", () => {
  const state = new BoardState();
  state.setLayout(turkishLayout());
  state.setPieces({ d3: "w", c7: "B" });
  state.setMarks({ target: ["d4"], movable: ["d3"], selected: ["d3"], unknown: ["d3"] });
  assert.deepEqual(state.marksOn("d3"), ["movable", "selected"]);
  assert.equal(state.describe("d3"), "d3, white man, may move, selected");
  assert.equal(state.describe("d4"), "d4, empty, legal target");
  assert.equal(state.describe("c7"), "c7, black king");
  const marks = { hint: ["a1"] };
  state.setMarks(marks);
  marks.hint.push("a2");
  assert.deepEqual(state.marksOn("a2"), [], "the state keeps its own copy of the marks");
});

test("piece kinds", () => {
  assert.equal(isWhite("W"), true);
  assert.equal(isWhite("b"), false);
  assert.equal(isKing("B"), true);
  assert.equal(isKing("w"), false);
  assert.equal(crowned("b"), "B");
  assert.equal(crowned("W"), "W");
});
