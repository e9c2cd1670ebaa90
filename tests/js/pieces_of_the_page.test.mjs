// The pure parts of the other board modules: the game selects' options (games.js), the
// captures of an animated move (board_anim.js), drag or click (board_input.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import { jumpsTaking } from "../../web/board_anim.js";
import { isDrag } from "../../web/board_input.js";
import { gameOptions, gamesTitle } from "../../web/games.js";
import { makeGeometry } from "../../web/geometry.js";
import { internationalLayout, turkishLayout } from "./layouts.mjs";

// As /api/info lists them.
const GAMES = [
  { name: "turkish", title: "Turkish draughts", rows: 8, columns: 8, labels: "edges", pdn_gametype: 30 },
  { name: "international", title: "International draughts", rows: 10, columns: 10, labels: "numbers", pdn_gametype: 20 },
];

test("the variant selects list the server's games", () => {
  assert.deepEqual(gameOptions(GAMES), [
    { value: "turkish", text: "Turkish draughts" },
    { value: "international", text: "International draughts" },
  ]);
  assert.deepEqual(gameOptions(GAMES, { withSize: true }).map((o) => o.text),
                   ["Turkish draughts (8×8)", "International draughts (10×10)"]);
  assert.deepEqual(gameOptions(GAMES.slice(1), { anyText: "any" }),
                   [{ value: "", text: "any" }, { value: "international", text: "International draughts" }]);
  assert.deepEqual(gameOptions([]), []);
});

test("the page's title names the games", () => {
  assert.equal(gamesTitle(GAMES), "Turkish draughts and International draughts");
  assert.equal(gamesTitle(GAMES.slice(0, 1)), "Turkish draughts");
  assert.equal(gamesTitle([...GAMES, { title: "Russian draughts" }]),
               "Turkish draughts, International draughts and Russian draughts");
});

test("an animated capture takes each piece on the jump that passes it", () => {
  const turkish = makeGeometry(turkishLayout());
  // c6xc8xa8: c7 goes on the first jump, b8 on the second (the order captured lists
  // them in does not matter).
  assert.deepEqual(jumpsTaking(turkish, ["c6", "c8", "a8"], ["b8", "c7"]), [[1, "c7"], [2, "b8"]]);
  assert.deepEqual(jumpsTaking(turkish, ["c3", "c4"], []), [], "a quiet move takes nothing");
  const international = makeGeometry(internationalLayout());
  assert.deepEqual(jumpsTaking(international, ["32", "21", "12"], ["17", "27"]), [[1, "27"], [2, "17"]]);
});

test("a press moved 6 px or more is a drag, less a click", () => {
  assert.equal(isDrag(3, 4), false);
  assert.equal(isDrag(6, 0), true);
  assert.equal(isDrag(-4, -5), true);
});
