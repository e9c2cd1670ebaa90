// Position text (PDN FEN, as dama writes it) to the pieces on the board, for the views
// that get positions as text only (replay): "W:Wa2,Kd4:Ba6" or "B:W31-50:B1-20".
// (International items may be ranges; the server always writes its FEN in full.)

// Square names of one FEN item: "d4", "31" or a range "31-50".
function itemSquares(item) {
  const range = /^(\d+)-(\d+)$/.exec(item);
  if (!range) return [item];
  const names = [];
  for (let n = Number(range[1]); n <= Number(range[2]); n++) names.push(String(n));
  return names;
}

// {side: "white"|"black", pieces: {square: "w"|"W"|"b"|"B"}}; throws on text it cannot read.
export function parseFen(text) {
  const fen = String(text || "").trim().replace(/\.$/, "");
  const parts = fen.split(":");
  const side = parts[0].toUpperCase();
  if (side !== "W" && side !== "B") throw new Error("position text: unknown side to move in " + fen);
  const pieces = {};
  for (const part of parts.slice(1)) {
    const colour = part.charAt(0).toUpperCase();
    if (colour !== "W" && colour !== "B") continue;
    const body = part.slice(1);
    if (body === "") continue;
    for (let item of body.split(",")) {
      item = item.trim();
      const king = item.charAt(0).toUpperCase() === "K";
      if (king) item = item.slice(1);
      const letter = colour === "W" ? "w" : "b";
      for (const name of itemSquares(item.toLowerCase())) {
        pieces[name] = king ? letter.toUpperCase() : letter;
      }
    }
  }
  return { side: side === "W" ? "white" : "black", pieces };
}

// The squares a move text names, in order: "d3xd5xf5" -> ["d3", "d5", "f5"].
export function moveSquares(text) {
  return String(text || "").replace(/=K$/i, "").split(/[-x]/).filter((s) => s !== "");
}
