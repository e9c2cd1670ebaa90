// web/move_input.js: what clicks and drops on the Play board ask of the server.
import { test } from "node:test";
import assert from "node:assert/strict";

import { clickSquare, moveRequest, ownPiece, targets } from "../../web/move_input.js";

// Turkish "W:Wa2,d3:Bd4,h7" as the server sends it: white must take d4 with d3.
const CAPTURE = {
  side: "white",
  pieces: { a2: "w", d3: "w", d4: "b", h7: "b" },
  movable: ["d3"],
  legal: [{ text: "d3xd5", from: "d3", to: "d5", path: ["d3", "d5"], captured: ["d4"], crowned: false }],
};

// Turkish "W:Wg5,Kg7:Ba4,d7,c5,g2": the king on g7 has two captures ending on h2.
const CHOICE = {
  side: "white",
  pieces: { g5: "w", g7: "W", a4: "b", d7: "b", c5: "b", g2: "b" },
  movable: ["g7"],
  legal: [
    { text: "g7xa7xa2xh2", from: "g7", to: "h2", path: ["g7", "a7", "a2", "h2"], captured: ["d7", "a4", "g2"] },
    { text: "g7xc7xc2xh2", from: "g7", to: "h2", path: ["g7", "c7", "c2", "h2"], captured: ["d7", "c5", "g2"] },
  ],
};

// Clicks in order, as the Play view follows them: the requests sent and the notes shown.
function clicks(game, squares) {
  let selected = null;
  const out = [];
  for (const name of squares) {
    const step = clickSquare(game, selected, name);
    if ("select" in step) selected = step.select;
    if (step.note) out.push({ note: step.note });
    else if (step.request) out.push(step.request);
    else if (step.choose) out.push({ choose: step.choose.map((m) => m.text) });
  }
  return { selected, out };
}

test("a piece of the side to move is one's own", () => {
  assert.equal(ownPiece(CAPTURE, "a2"), true);
  assert.equal(ownPiece(CAPTURE, "d4"), false);
  assert.equal(ownPiece(CAPTURE, "e5"), false);
  assert.equal(ownPiece({ ...CAPTURE, side: "black" }, "h7"), true);
  assert.equal(ownPiece(null, "a2"), false);
});

test("a chosen piece's targets are where its legal moves end", () => {
  assert.deepEqual(targets(CAPTURE, "d3"), ["d5"]);
  assert.deepEqual(targets(CAPTURE, "a2"), []);
  assert.deepEqual(targets(CAPTURE, null), []);
});

test("choosing a piece, then its target, asks for the legal move by its text", () => {
  assert.deepEqual(clicks(CAPTURE, ["d3", "d5"]).out, [{ move: "d3xd5" }]);
});

test("a move the rules refuse goes to the server by its squares, for its reason", () => {
  const { out, selected } = clicks(CAPTURE, ["a2", "a3"]);
  assert.deepEqual(out, [{ note: "That piece has no legal move now; the marked pieces may move." }, { from: "a2", to: "a3" }]);
  assert.equal(selected, "a2", "the piece stays chosen while the server answers");
  assert.deepEqual(moveRequest(CAPTURE, "d3", "d4"), { request: { from: "d3", to: "d4" } });
});

test("a second click on the chosen piece puts it down; another own piece is chosen instead", () => {
  assert.equal(clicks(CAPTURE, ["d3", "d3"]).selected, null);
  assert.equal(clicks(CAPTURE, ["d3", "a2"]).selected, "a2");
  assert.deepEqual(clicks(CAPTURE, ["d3", "d3", "d5"]).out,
                   [{ note: "Choose one of your pieces first: the marked ones may move." }]);
});

test("a click on a square with nothing chosen asks for a piece first", () => {
  assert.deepEqual(clicks(CAPTURE, ["d4"]).out, [{ note: "Choose one of your pieces first: the marked ones may move." }]);
});

test("two captures from the same square to the same square are offered as a choice", () => {
  assert.deepEqual(clicks(CHOICE, ["g7", "h2"]).out, [{ choose: ["g7xa7xa2xh2", "g7xc7xc2xh2"] }]);
  assert.deepEqual(moveRequest(CHOICE, "g7", "h2").choose.length, 2);
});
