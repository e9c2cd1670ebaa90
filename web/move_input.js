// What a person's clicks and drags on the Play board mean, without the DOM: from the
// game's state as the server sends it (side, pieces, legal moves with their squares),
// a click or a drop gives the next step: choose a piece, ask the server for a move (by
// its text from the legal list, or by its two squares so that the server says why it is
// refused), offer a choice between captures, or say what to do.

import { isWhite } from "./board_state.js";

// Whether the piece on square name belongs to the side to move.
export function ownPiece(game, name) {
  const kind = game && game.pieces[name];
  return !!kind && isWhite(kind) === (game.side === "white");
}

// The squares the piece on `from` may go to.
export function targets(game, from) {
  return from ? game.legal.filter((m) => m.from === from).map((m) => m.to) : [];
}

// A piece taken from one square to another: {request} to send to the server (the legal
// move's text, or the two squares of a move the server will refuse with its reason), or
// {choose: [legal moves]} when several captures go from `from` to `to`.
export function moveRequest(game, from, to) {
  const matches = game.legal.filter((m) => m.from === from && m.to === to);
  if (matches.length === 1) return { request: { move: matches[0].text } };
  if (matches.length > 1) return { choose: matches };
  return { request: { from, to } };
}

// A click on square name while `selected` is chosen (or null): one of
//   {select: name | null, note?}   choose a piece (null: put it down again)
//   {request} / {choose}           as moveRequest
//   {note}                         nothing happens; note says why
export function clickSquare(game, selected, name) {
  if (ownPiece(game, name)) {
    if (selected === name) return { select: null };
    const stuck = !game.movable.includes(name);
    return stuck ? { select: name, note: "That piece has no legal move now; the marked pieces may move." }
                 : { select: name };
  }
  if (selected) return moveRequest(game, selected, name);
  return { note: "Choose one of your pieces first: the marked ones may move." };
}
