// The boards as /api/board describes them, written out here from the rules (not asked of
// the server), for the page's unit tests: Turkish 8x8 with every square named a8 (top
// left, as white sees it) to h1; International 10x10 with its 50 dark squares numbered 1
// (row 0, col 1) to 50 (row 9, col 8); Russian 8x8 with its 32 dark squares named b8 (row
// 0, col 1) to g1, a1 dark in white's bottom left corner.

export function turkishLayout() {
  const squares = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) squares.push({ name: "abcdefgh"[col] + (8 - row), row, col });
  }
  return { variant: "turkish", rows: 8, columns: 8, labels: "edges", squares };
}

export function internationalLayout() {
  const squares = [];
  let number = 1;
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      if ((row + col) % 2 === 1) squares.push({ name: String(number++), row, col });
    }
  }
  return { variant: "international", rows: 10, columns: 10, labels: "numbers", squares };
}

export function russianLayout() {
  const squares = [];
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      if ((row + col) % 2 === 1) squares.push({ name: "abcdefgh"[col] + (8 - row), row, col });
    }
  }
  return { variant: "russian", rows: 8, columns: 8, labels: "edges", squares };
}
