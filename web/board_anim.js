// Plays a move on a drawn board: the piece goes along its path one jump at a time, each
// piece it takes fades as it is jumped and goes when the move ends (as the rules remove
// them), and a man crowned by the move gets its crown at the end.

import { crowned } from "./board_state.js";
import { takenBetween } from "./geometry.js";

const STEP_MS = 220;   // one jump of an animated move

function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// The pieces a move takes, in the order its jumps take them: [[jump index, square]].
// Pure: board_anim's schedule, tested without a DOM.
export function jumpsTaking(geo, path, captured) {
  const remaining = (captured || []).slice();
  const steps = [];
  for (let i = 1; i < path.length; i++) {
    const jumped = takenBetween(geo, path[i - 1], path[i], remaining);
    if (jumped) {
      remaining.splice(remaining.indexOf(jumped), 1);
      steps.push([i, jumped]);
    }
  }
  return steps;
}

// move: {path: [from, landings...], captured: [squares], crowned: bool}.  When it is done
// the drawing holds the moved piece's element on its last square; the caller then draws
// the position after the move.
export async function animateMove(drawing, move) {
  const path = move.path || [];
  const el = path.length ? drawing.pieceEls[path[0]] : null;
  if (!el || path.length < 2 || document.hidden) return false;
  const geo = drawing.state.geometry;
  const taken = new Map(jumpsTaking(geo, path, move.captured).map(([i, name]) => [i, name]));
  drawing.root.classList.add("animating");
  el.classList.add("moving");
  for (let i = 1; i < path.length; i++) {
    drawing.placePiece(el, path[i]);
    await wait(STEP_MS);
    const jumped = taken.get(i);
    if (jumped && drawing.pieceEls[jumped]) drawing.pieceEls[jumped].classList.add("taken");
  }
  if (move.crowned) {
    drawing.setKind(el, crowned(el.dataset.kind));   // resets the classes
    el.classList.add("moving", "crowning");
    await wait(STEP_MS);
  }
  drawing.root.classList.remove("animating");
  el.classList.remove("moving", "crowning");
  drawing.movedPiece(path[0], path[path.length - 1]);
  return true;
}
