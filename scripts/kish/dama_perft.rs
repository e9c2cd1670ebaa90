//! A perft harness over kish (https://github.com/Sanavesa/kish, Rust), an independent
//! Turkish draughts generator: `make bench` compares dama's speed with it when KISH_BIN
//! names the built harness, and the king perft vectors were checked with it.  Not built
//! by dama's Makefile (kish is never a dependency).  To build it, from a kish checkout
//! (1.1.7 was used; kish needs its crates rustc-hash and rayon):
//!   cp dama_perft.rs examples/ && RUSTFLAGS="-C target-cpu=native" \
//!     cargo build --release --example dama_perft
//! and run target/release/examples/dama_perft.
//!
//! Usage: dama_perft DEPTH [FEN|start] [kish|paths|unique]
//!   kish    (default) kish's own Board::perft: every capture path counts, and a position
//!           with no move above the horizon counts as one leaf.  Timed.
//!   paths   a plain loop over kish's moves with dama's convention (a position with no
//!           move before the horizon adds nothing): `dama perft --paths`.
//!   unique  the same with moves that give the same position merged (kish's Action is the
//!           change of the board, so equal actions are one move): `dama perft`.
//! FEN is dama's: W:WKd4,a3:BKe5,f6 (side to move, then each colour's squares, K a king).
//! Prints "nodes N time S nps X", as dama perft does.
use kish::{Action, Board, State, Team};

fn square_bit(name: &str) -> u64 {
    let b = name.as_bytes();
    assert!(b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]), "bad square {name}");
    1u64 << ((b[1] - b'1') as u64 * 8 + (b[0] - b'a') as u64)
}

fn read_fen(fen: &str) -> Board {
    if fen == "start" {
        return Board::new_default();
    }
    let mut parts = fen.split(':');
    let turn = match parts.next() {
        Some("W") => Team::White,
        Some("B") => Team::Black,
        _ => panic!("bad side to move in {fen}"),
    };
    let (mut pieces, mut kings) = ([0u64; 2], 0u64);
    for part in parts {
        let colour = match part.chars().next() {
            Some('W') => 0,
            Some('B') => 1,
            _ => panic!("bad colour in {fen}"),
        };
        for sq in part[1..].split(',').filter(|s| !s.is_empty()) {
            match sq.strip_prefix('K') {
                Some(k) => {
                    pieces[colour] |= square_bit(k);
                    kings |= square_bit(k);
                }
                None => pieces[colour] |= square_bit(sq),
            }
        }
    }
    Board::new(turn, State::new(pieces, kings))
}

fn perft_loop(board: &Board, depth: u32, unique: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves: Vec<Action> = board.actions();
    if unique {
        moves.sort();
        moves.dedup();
    }
    moves
        .iter()
        .map(|m| {
            let mut child = board.apply(m);
            child.swap_turn_();
            perft_loop(&child, depth - 1, unique)
        })
        .sum()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).expect("usage: dama_perft DEPTH [FEN] [kish|paths|unique]");
    let board = read_fen(args.get(2).map_or("start", |s| s.as_str()));
    let mode = args.get(3).map_or("kish", |s| s.as_str());
    let start = std::time::Instant::now();
    let nodes = match mode {
        "kish" => board.perft(depth as u64),
        "paths" => perft_loop(&board, depth, false),
        "unique" => perft_loop(&board, depth, true),
        _ => panic!("unknown mode {mode}"),
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes} time {secs:.3} nps {:.0}", nodes as f64 / secs.max(1e-9));
}
