// Where squares are: the board's geometry as the server gives it (/api/board: rows,
// columns, squares with name/row/col as white sees them, label style), turned around for
// a flipped board, and read back from a point on the screen.  No DOM: pure arithmetic.

// The lookups of one layout: {rows, columns, labels, variant, squares, byName, byCell}.
export function makeGeometry(layout) {
  const byName = new Map();
  const byCell = new Map();
  for (const sq of layout.squares) {
    byName.set(sq.name, sq);
    byCell.set(sq.row + "," + sq.col, sq);
  }
  return {
    variant: layout.variant,
    rows: layout.rows,
    columns: layout.columns,
    labels: layout.labels,
    squares: layout.squares,
    byName,
    byCell,
  };
}

// The cell [row, col] on screen of a board cell: the same, or turned half a turn.
function turn(geo, row, col, flipped) {
  return flipped ? [geo.rows - 1 - row, geo.columns - 1 - col] : [row, col];
}

// Where the square called name is drawn: [row, col] on screen; null for no such square.
export function screenCell(geo, name, flipped) {
  const sq = geo.byName.get(name);
  return sq ? turn(geo, sq.row, sq.col, flipped) : null;
}

// The square drawn at screen cell (row, col), or null (a light cell of a dark-square
// board, or off the board).
export function squareAtScreen(geo, row, col, flipped) {
  if (row < 0 || col < 0 || row >= geo.rows || col >= geo.columns) return null;
  const [r, c] = turn(geo, row, col, flipped);
  const sq = geo.byCell.get(r + "," + c);
  return sq ? sq.name : null;
}

// The screen cell [row, col] under a point x, y of a board width by height drawn at 0, 0.
export function cellAtPoint(geo, x, y, width, height) {
  if (!(width > 0 && height > 0)) return null;
  const col = Math.floor((x / width) * geo.columns);
  const row = Math.floor((y / height) * geo.rows);
  if (row < 0 || col < 0 || row >= geo.rows || col >= geo.columns) return null;
  return [row, col];
}

// The square under a point of the board (see cellAtPoint), or null.
export function squareAtPoint(geo, x, y, width, height, flipped) {
  const cell = cellAtPoint(geo, x, y, width, height);
  return cell ? squareAtScreen(geo, cell[0], cell[1], flipped) : null;
}

// The label written in the corner of screen cell (row, col): on a numbered board the
// number of the square there (none on a light cell); on a board with edge labels, the
// file letter along the bottom row and the rank along the left column as the board is
// drawn ("a 1" in the bottom left corner), light cells included: an 8x8 dark-square board
// reads a..h and 1..8 round its edges as a full one does.  A file or rank is read from the
// name of any square in the same column or row.
export function cellLabel(geo, row, col, flipped) {
  if (geo.labels === "numbers") return squareAtScreen(geo, row, col, flipped) || "";
  const bottom = row === geo.rows - 1, left = col === 0;
  if (!bottom && !left) return "";
  let file = "", rank = "";
  for (let i = 0; i < Math.max(geo.rows, geo.columns); i++) {
    const inColumn = squareAtScreen(geo, i, col, flipped), inRow = squareAtScreen(geo, row, i, flipped);
    if (inColumn && !file) file = inColumn.charAt(0);
    if (inRow && !rank) rank = inRow.slice(1);
  }
  if (bottom && left) return file + " " + rank;
  return bottom ? file : rank;
}

// Whether screen cell (row, col) is a dark one (the squares draughts is played on, or
// the darker half of a board that uses all of them).
export function isDarkCell(geo, row, col, flipped) {
  const [r, c] = turn(geo, row, col, flipped);
  return (r + c) % 2 === 1;
}

// The square of candidates strictly between a and b on the line from a to b, if any: the
// piece a jump from a to b takes.
export function takenBetween(geo, a, b, candidates) {
  const p = geo.byName.get(a), q = geo.byName.get(b);
  if (!p || !q) return null;
  const dr = Math.sign(q.row - p.row), dc = Math.sign(q.col - p.col);
  for (const name of candidates) {
    const s = geo.byName.get(name);
    if (!s) continue;
    const along = (s.row - p.row) * dc === (s.col - p.col) * dr;
    const between = (s.row - p.row) * dr + (s.col - p.col) * dc > 0 &&
                    (q.row - s.row) * dr + (q.col - s.col) * dc > 0;
    if (along && between) return name;
  }
  return null;
}
