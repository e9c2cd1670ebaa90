// web/geometry.js: squares to screen cells and back, flipped or not, labels, jumps.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  cellAtPoint, cellLabel, isDarkCell, makeGeometry, screenCell, squareAtPoint, squareAtScreen, takenBetween,
} from "../../web/geometry.js";
import { internationalLayout, russianLayout, turkishLayout } from "./layouts.mjs";

const turkish = makeGeometry(turkishLayout());
const international = makeGeometry(internationalLayout());
const russian = makeGeometry(russianLayout());

test("a square is drawn at its own cell, and half a turn round when flipped", () => {
  assert.deepEqual(screenCell(turkish, "d3", false), [5, 3]);
  assert.deepEqual(screenCell(turkish, "d3", true), [2, 4]);
  assert.deepEqual(screenCell(turkish, "a8", true), [7, 7]);
  assert.deepEqual(screenCell(international, "1", false), [0, 1]);
  assert.deepEqual(screenCell(international, "1", true), [9, 8]);
  assert.deepEqual(screenCell(international, "46", true), [0, 9]);
  assert.equal(screenCell(turkish, "z9", false), null);
});

test("the square at a screen cell is the one drawn there", () => {
  assert.equal(squareAtScreen(turkish, 0, 0, false), "a8");
  assert.equal(squareAtScreen(turkish, 0, 0, true), "h1");
  assert.equal(squareAtScreen(turkish, 7, 7, true), "a8");
  assert.equal(squareAtScreen(international, 9, 8, true), "1");
  assert.equal(squareAtScreen(international, 0, 0, false), null, "a light cell is no square");
  assert.equal(squareAtScreen(international, 0, 10, false), null, "off the board");
  for (const flipped of [false, true]) {
    for (const sq of international.squares) {
      const [row, col] = screenCell(international, sq.name, flipped);
      assert.equal(squareAtScreen(international, row, col, flipped), sq.name);
    }
  }
});

test("a point on the board falls in the cell under it", () => {
  // 400 px square board: cells of 50 px (Turkish), 40 px (International).
  assert.deepEqual(cellAtPoint(turkish, 175, 260, 400, 400), [5, 3]);
  assert.equal(squareAtPoint(turkish, 175, 260, 400, 400, false), "d3");
  assert.equal(squareAtPoint(turkish, 175, 260, 400, 400, true), "e6");
  assert.equal(squareAtPoint(international, 45, 5, 400, 400, false), "1");
  assert.equal(squareAtPoint(international, 5, 5, 400, 400, false), null);
  assert.equal(squareAtPoint(turkish, -1, 10, 400, 400, false), null);
  assert.equal(squareAtPoint(turkish, 10, 400, 400, 400, false), null, "the bottom edge is off the board");
  assert.equal(cellAtPoint(turkish, 10, 10, 0, 0), null, "a board not drawn yet");
});

test("edge labels go along the bottom row and left column as drawn; numbers on every square", () => {
  assert.equal(cellLabel(turkish, 7, 0, false), "a 1");
  assert.equal(cellLabel(turkish, 7, 3, false), "d");
  assert.equal(cellLabel(turkish, 3, 0, false), "5");
  assert.equal(cellLabel(turkish, 3, 3, false), "");
  assert.equal(cellLabel(turkish, 7, 0, true), "h 8");
  assert.equal(cellLabel(turkish, 7, 3, true), "e");
  assert.equal(cellLabel(turkish, 0, 7, true), "");
  assert.equal(cellLabel(international, 3, 2, false), "17");
  assert.equal(cellLabel(international, 0, 1, true), "50");
  assert.equal(cellLabel(international, 0, 0, false), "", "a light cell carries no number");
});

// Russian players read a..h along the bottom and 1..8 up the left of their 8x8 board, light
// cells included (a1 is dark, in white's bottom left corner; h1 and a8 are light).
test("an 8x8 dark-square board carries every file and rank on its edges", () => {
  const bottom = (flipped) => [...Array(8).keys()].map((c) => cellLabel(russian, 7, c, flipped));
  const left = (flipped) => [...Array(7).keys()].map((r) => cellLabel(russian, r, 0, flipped));
  assert.deepEqual(bottom(false), ["a 1", "b", "c", "d", "e", "f", "g", "h"]);
  assert.deepEqual(left(false), ["8", "7", "6", "5", "4", "3", "2"]);
  assert.deepEqual(bottom(true), ["h 8", "g", "f", "e", "d", "c", "b", "a"]);
  assert.deepEqual(left(true), ["1", "2", "3", "4", "5", "6", "7"]);
  assert.equal(cellLabel(russian, 3, 3, false), "", "none inside the board");
  assert.ok(isDarkCell(russian, 7, 0, false) && !isDarkCell(russian, 7, 7, false), "a1 dark, h1 light");
});

test("dark cells are those of the playing squares of a dark-square board", () => {
  for (const flipped of [false, true]) {
    for (let row = 0; row < 10; row++) {
      for (let col = 0; col < 10; col++) {
        assert.equal(isDarkCell(international, row, col, flipped), squareAtScreen(international, row, col, flipped) !== null);
      }
    }
  }
});

test("the piece a jump takes is the one on the line between its squares", () => {
  assert.equal(takenBetween(turkish, "d3", "d5", ["d4"]), "d4");
  assert.equal(takenBetween(turkish, "d3", "d5", ["e4", "d6"]), null);
  assert.equal(takenBetween(turkish, "a1", "a8", ["c4", "a5"]), "a5", "a king's long jump");
  assert.equal(takenBetween(turkish, "c8", "a8", ["c7", "b8"]), "b8", "sideways");
  // International: 32 over 27 to 21 (a diagonal jump); 28 is not on that line.
  assert.equal(takenBetween(international, "32", "21", ["28", "27"]), "27");
  assert.equal(takenBetween(international, "32", "21", ["28"]), null);
});
