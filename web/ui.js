// Small pieces of the page every view uses: texts, the move list, tables.

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// An evaluation in hundredths of a man as men with a sign: 37 -> "+0.37".
export function formatEval(cp) {
  if (cp === null || cp === undefined || Number.isNaN(Number(cp))) return "–";
  const men = Number(cp) / 100;
  return (men > 0 ? "+" : men < 0 ? "−" : "") + Math.abs(men).toFixed(2);
}

// An engine's evaluation: from the mover's view (and white's, when the server gives it).
export function evalText(found, mover) {
  let text = formatEval(found.eval) + " for " + mover;
  if (found.eval_white !== undefined && found.eval_white !== null) text += " · " + formatEval(found.eval_white) + " for white";
  if (found.score && !/^[-+]?\d+$/.test(String(found.score))) text += " (" + found.score + ")";
  return text;
}

// The moves as numbered pairs (white, black); the ply `current` (1 = first move) is
// marked; onPick(ply) makes each move a button that goes to the position after it.
export function renderMoveList(list, moves, current, onPick) {
  list.textContent = "";
  for (let i = 0; i < moves.length; i += 2) {
    const li = document.createElement("li");
    const number = document.createElement("span");
    number.className = "num";
    number.textContent = i / 2 + 1 + ".";
    li.appendChild(number);
    for (let ply = i + 1; ply <= Math.min(i + 2, moves.length); ply++) {
      const item = document.createElement(onPick ? "button" : "span");
      item.className = "move";
      item.textContent = moves[ply - 1];
      item.dataset.ply = ply;
      if (onPick) {
        item.type = "button";
        item.addEventListener("click", () => onPick(ply));
      }
      if (ply === current) {
        item.classList.add("current");
        item.setAttribute("aria-current", "step");
      }
      li.appendChild(item);
    }
    list.appendChild(li);
  }
  // Scrolls the list itself (it is position: relative), never the page.
  const mark = list.querySelector(".current");
  if (!mark) return;
  if (mark.offsetTop < list.scrollTop) list.scrollTop = mark.offsetTop;
  else if (mark.offsetTop + mark.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = mark.offsetTop + mark.offsetHeight - list.clientHeight;
  }
}

// Fills a <tbody> with one row per item, a cell per function of cells; onPick(item, row)
// makes rows choosable by click or Enter.
export function fillRows(tbody, items, cells, onPick) {
  tbody.textContent = "";
  for (const item of items) {
    const tr = document.createElement("tr");
    for (const cell of cells) {
      const td = document.createElement("td");
      const value = cell(item);
      td.textContent = value === null || value === undefined ? "–" : String(value);
      tr.appendChild(td);
    }
    if (onPick) {
      tr.tabIndex = 0;
      tr.classList.add("pickable");
      tr.addEventListener("click", () => onPick(item, tr));
      tr.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onPick(item, tr);
        }
      });
    }
    tbody.appendChild(tr);
  }
}

// Marks one row of a table as chosen.
export function markRow(tbody, row) {
  for (const tr of tbody.querySelectorAll("tr")) {
    const on = tr === row;
    tr.classList.toggle("chosen", on);
    tr.setAttribute("aria-selected", on ? "true" : "false");
  }
}

export const RESULT_TEXT = { "white-wins": "white wins", "black-wins": "black wins", draw: "draw" };
