// Position text (PDN FEN, as dama writes it) to the pieces on the board, for the views
// that get positions as text only (replay): "W:Wa2,Kd4:Ba6" or "B:W31-50:B1-20".

const START = {
  turkish: "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:" +
           "Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
  international: "W:W31-50:B1-20",
};

// Square names of one FEN item: "d4", "31" or a range "31-50".
function itemSquares(item) {
  const range = /^(\d+)-(\d+)$/.exec(item);
  if (!range) return [item];
  const names = [];
  for (let n = Number(range[1]); n <= Number(range[2]); n++) names.push(String(n));
  return names;
}

// {side: "white"|"black", pieces: {square: "w"|"W"|"b"|"B"}}; throws on text it cannot read.
export function parseFen(text, variant) {
  let fen = String(text || "").trim();
  if (fen === "" || fen === "start") fen = START[variant] || START.turkish;
  fen = fen.replace(/\.$/, "");
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
