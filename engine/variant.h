/* The rules of one variant behind a small interface.  Search, self-play, the tuner and the
 * command line are written once against it; each variant lives in its own files. */
#ifndef DAMA_VARIANT_H
#define DAMA_VARIANT_H

#include <stddef.h>
#include "eval_spec.h"
#include "game.h"
#include "types.h"

struct PerftOptions;

/* How squares are labelled when the board is drawn. */
enum SquareLabels {
    LABELS_EDGES = 0,  /* files a.. along the bottom, ranks 1.. up the side (Turkish) */
    LABELS_NUMBERS = 1 /* each playable square carries its number (International) */
};

struct Variant {
    const char *name;     /* "turkish": the name on the command line, in files and the DB */
    const char *title;    /* "Turkish draughts": the name for people */
    const char *aliases;  /* other names variant_by_name accepts, space-separated ("tr") */
    /* Hub engines and GUIs: the names they give the game, NULL-terminated ("normal",
     * "standard"; NULL when only dama's name is used), and whether it is the game a Hub
     * engine plays when it offers no variant parameter (International, the protocol's). */
    const char *const *hub_aliases;
    bool hub_default;
    /* Geometry of the board as drawn, White at the bottom: rows x columns cells, of which
     * `squares` are playable (the bits of `board`); square_cell gives the cell of a square,
     * row 0 the top row, column 0 the left. */
    int rows, columns, squares;
    void (*square_cell)(int sq, int *row, int *col);
    int labels;           /* enum SquareLabels */
    /* The lines pieces move along: the square one step from sq in direction dir (0..3), or
     * -1 off the board; a king slides along all four.  A Black man's step goes the other
     * way of one of black_man_back[0..black_man_backs-1] (what egdb/ walks backwards). */
    int (*step)(int sq, int dir);
    const int *black_man_back;
    int black_man_backs;
    int max_pieces;       /* pieces a side at the start (16 in Turkish) */
    Bitboard board;       /* the bits that are squares (International leaves ghost bits) */
    Bitboard promotion_bb[2]; /* squares where WHITE / BLACK men are crowned */
    bool numbered;        /* squares are numbers: FEN ranges "31-50", short capture text */
    const EvalSpec *eval; /* its evaluation (eval_spec.h); NULL while it has none */
    const EvalSpec *pattern_eval; /* its pattern evaluation; NULL while it has none */
    int pdn_gametype;     /* PDN GameType tag: 30 Turkish, 20 International */
    /* The square names PDN files of this GameType use when they are not square_name's
     * (Brazilian: a1..h8, the standard's "26,W,8,8,A0,0", where dama writes 1..32
     * elsewhere); NULL: square_name.  PDN moves and FEN are then written with them, the
     * long capture text and no FEN ranges. */
    const char *(*pdn_square_name)(int sq, char *buf);
    /* The shipped pattern weights (data/weights/NAME-pattern.txt) built in by the game's
     * NAME_shipped.c (shipped_weights.h); NULL start when it has none. */
    const unsigned char *shipped_start, *shipped_end;
    /* The game's own end reasons beyond the shared ones of enum Reason: their stored names
     * ("no-progress"); its game_end returns game_reason(v, k) for reasons[k]. */
    const char *const *reasons;
    int reason_count;
    /* The bench set (bench.h): openings, middlegames and endgames of this game as FEN.
     * Changing it changes the variant's signature. */
    const char *const *bench_fens;
    int bench_count;

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
    /* The variant's own perft (perft.h has the contract), its generator and make-move
     * inlined; NULL: perft runs the generic loop over generate, make and count. */
    uint64_t (*perft)(const Position *pos, const Rules *rules, int depth,
                      const struct PerftOptions *opt);
    /* True when the side to move must capture. */
    bool (*capture_pending)(const Position *pos);
    /* For the search, which asks at every node (NULL: it asks count and generate instead).
     * has_quiet_move: the side to move has a man's step or a king's move, captures aside;
     * with none pending, whether it can move at all (count(...) > 0), without counting.
     * generate_known: generate, told capture_pending's answer for pos, so that a position
     * with no capture is not looked at for one again: the same list. */
    bool (*has_quiet_move)(const Position *pos);
    void (*generate_known)(const Position *pos, const Rules *rules, bool capture, MoveList *list);
    /* The board as the other side sees it (Turkish: ranks mirrored; International: the
     * half turn): position_flip exchanges colours with it. */
    Bitboard (*mirror)(Bitboard b);
    /* Apply a legal move; flips the side to move. */
    void (*make)(Position *pos, const Move *move);
    /* Square text: writes the name of sq into buf (at least 4 bytes); returns buf. */
    const char *(*square_name)(int sq, char *buf);
    /* Reads a square name at text; returns the square and sets *used, or -1. */
    int (*parse_square)(const char *text, int *used);

    /* Rule options, owned by the variant: the official rules, one "key=value" option
     * (false with a message in err on an unknown key or a bad value), and their help. */
    Rules (*rules_default)(void);
    bool (*rules_option)(Rules *rules, const char *key, size_t keylen, const char *val,
                         size_t vallen, char *err, size_t errlen);
    const char *rules_help; /* "promotion=man|stop|king, kvm=draw|win, noprogress=N" */
    const char *rules_keys; /* "promotion, kvm, noprogress": named by the unknown-key error */
    /* Writes the options as "key=value ..." for a run's params: equal text, equal rules. */
    void (*rules_describe)(const Rules *rules, char *buf, size_t len);
    /* A man's move is irreversible too (International: men never step back), not only a
     * capture: the draw counters and the repetition window restart after it. */
    bool men_irreversible;
    /* Material class the endgame counts look at (International: which lone-king count
     * applies); NULL when the variant has none.  game.c restarts endgame_plies on a change. */
    int (*endgame_class)(const Position *pos);
    /* The end of the game by this variant's rules (see game_end in game.h). */
    GameEnd (*game_end)(const Position *pos, const Rules *rules, bool can_move,
                        const DrawCounts *counts);
};

/* The one notion of an irreversible move: after it no earlier position can come back, so
 * repetition looks no further back and the draw counters restart (game.c, search.c). */
static inline bool move_irreversible(const Variant *v, const Position *pos, const Move *m)
{
    return m->captured || (v->men_irreversible && ((pos->men[pos->side] >> m->from) & 1));
}

/* The variants of this build, the registry (engine/games/registry.c), Turkish (the
 * default) first: i = 0, 1, ... until NULL. */
const Variant *variant_at(int i);
/* Its place in the registry, or -1. */
int variant_index(const Variant *v);
/* Looks a variant up by name or one of its aliases ("turkish" or "tr"); NULL when
 * unknown. */
const Variant *variant_by_name(const char *name);
/* The same, also accepting the names Hub engines and GUIs use (hub_aliases: "normal"). */
const Variant *variant_by_hub_name(const char *name);
/* The variant whose PDN GameType number is number; NULL when none. */
const Variant *variant_by_pdn_gametype(int number);
/* The names of the registry joined by separator ("turkish|international"); returns buf. */
char *variant_names(const char *separator, char *buf, size_t len);
/* The square drawn at (row, col) (see Variant.square_cell), or -1 for an unplayable cell. */
int variant_square_at(const Variant *v, int row, int col);
/* The two games other code names directly: Turkish, the default, and International, whose
 * protocol DXP is.  A new game needs no such name. */
extern const Variant turkish_variant;
extern const Variant international_variant;

/* Sets one option of game's own struct in a Rules value, for code that knows the game (its
 * tests): RULES_SET(turkish, rules, kvm, KVM_WIN).  Reading: turkish_rules(&rules).kvm. */
#define RULES_SET(game, rules, field, value)                                                  \
    do {                                                                                      \
        __typeof__(game##_rules(&(rules))) rules_set_ = game##_rules(&(rules));               \
        rules_set_.field = (value);                                                           \
        (rules) = game##_rules_pack(rules_set_);                                              \
    } while (0)

/* Rule options of variant v: rules_default gives its official rules; rules_parse reads
 * comma-separated "key=value" options over *rules (false and err on a bad one). */
Rules rules_default(const Variant *v);
bool rules_parse(const Variant *v, Rules *rules, const char *text, char *err, size_t errlen);

/* Helpers for the variants' option parsers: val (vallen bytes) is one of names[0..n-1]
 * (*out gets its index), or a whole number in 0..max. */
bool rules_choice(const char *val, size_t vallen, const char *const *names, int n, int *out);
bool rules_number(const char *val, size_t vallen, int max, int *out);
/* Writes the error for a key no variant option has, or a bad value; returns false. */
bool rules_unknown(const Variant *v, const char *key, size_t keylen, char *err, size_t errlen);
bool rules_bad_value(const char *key, size_t keylen, const char *val, size_t vallen, char *err,
                     size_t errlen);

#endif
