/* The rules of one variant behind a small interface.  Search, self-play, the tuner and the
 * command line are written once against it; each variant lives in its own files. */
#ifndef DAMA_VARIANT_H
#define DAMA_VARIANT_H

#include <stddef.h>
#include "types.h"

struct Variant {
    const char *name;     /* "turkish" */
    int max_pieces;       /* pieces a side at the start (16 in Turkish) */
    int promotion_rank[2];/* rank where WHITE / BLACK men are crowned (Turkish; -1 on a
                             board whose crowning squares are no rank of 8 bits) */
    Bitboard board;       /* the bits that are squares (International leaves ghost bits) */
    Bitboard promotion_bb[2]; /* squares where WHITE / BLACK men are crowned */
    bool numbered;        /* squares are numbers: FEN ranges "31-50", short capture text */
    bool evaluated;       /* has an evaluation: search, self-play, tuner accept it */

    /* The initial position. */
    void (*start)(Position *pos);
    /* Legal moves, one per (from, to, captured); list->npaths counts the paths to each. */
    void (*generate)(const Position *pos, const Rules *rules, MoveList *list);
    /* Calls visit for every legal capture path (or quiet move) with its own landing path:
     * what a long-form move text names, and what kish and pydraughts list. */
    void (*for_each_path)(const Position *pos, const Rules *rules,
                          void (*visit)(void *ctx, const Move *move), void *ctx);
    /* Number of legal moves without generating them where possible (bulk perft);
     * count_paths: count every capture path instead of every move. */
    uint64_t (*count)(const Position *pos, const Rules *rules, bool count_paths);
    /* True when the side to move must capture. */
    bool (*capture_pending)(const Position *pos);
    /* Apply a legal move; flips the side to move. */
    void (*make)(Position *pos, const Move *move);
    /* Square text: writes the name of sq into buf (at least 4 bytes); returns buf. */
    const char *(*square_name)(int sq, char *buf);
    /* Reads a square name at text; returns the square and sets *used, or -1. */
    int (*parse_square)(const char *text, int *used);
};

/* Looks a variant up by name ("turkish", "international" or "intl"); NULL when unknown. */
const Variant *variant_by_name(const char *name);
extern const Variant turkish_variant;
extern const Variant international_variant;

/* Rule options: "promotion=man|stop|king,kvm=draw|win,noprogress=N".  Returns false and
 * fills err on a bad option.  rules_default() gives the official rules. */
Rules rules_default(void);
bool rules_parse(Rules *rules, const char *text, char *err, size_t errlen);

#endif
