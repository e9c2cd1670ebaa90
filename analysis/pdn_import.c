/* PDN import: each game read (pdn_read.c), checked (pdn_game.c) and replayed into the
 * record the store keeps, then one transaction per file. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bitboard.h"
#include "game.h"
#include "notation.h"
#include "pdn_game.h"
#include "pdn_import.h"
#include "pdn_write.h"
#include "position.h"
#include "variant.h"

/* How many checked games wait for the store at most: the memory of an import is this many
 * records and one game's text, whatever the file's size. */
#define IMPORT_BATCH 256
/* import_game's code when the database fails (the reader's own codes are PDN_READ_*). */
#define IMPORT_DB_FAILED 3

typedef struct Importer {
    Store *store;
    const PdnImportConfig *cfg;
    const char *path;
    int64_t *run_id;
    Game *game;
    PdnRecord pending[IMPORT_BATCH];
    int npending;
    bool in_transaction;
    PdnImportCounts counts;
    char *err;
    size_t errlen;
} Importer;

void pdn_record_free(PdnRecord *p)
{
    free(p->moves);
    free(p->fen);
    free(p->identity);
    free(p->source);
    for (int i = 0; i < p->imp.ntags; i++) {
        free(p->tags[i].name);
        free(p->tags[i].value);
    }
    for (int i = 0; i < p->imp.nnotes; i++)
        free(p->notes[i].text);
    free(p->tags);
    free(p->notes);
    free(p->positions);
    memset(p, 0, sizeof *p);
}

/* Reports a bad game: "FILE:LINE: game N[, move M]: ...". */
static int bad_game(const PdnImportConfig *cfg, const char *path, const PdnGame *g, long line,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int bad_game(const PdnImportConfig *cfg, const char *path, const PdnGame *g, long line,
                    const char *fmt, ...)
{
    if (cfg->errors) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(cfg->errors, "%s:%ld: game %ld", path, line, g->number);
        vfprintf(cfg->errors, fmt, ap);
        fputc('\n', cfg->errors);
        va_end(ap);
    }
    return 0;
}

/* A growing text of space-separated moves. */
typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

static bool text_add(Text *t, const char *word)
{
    size_t n = strlen(word);
    if (t->len + n + 2 > t->cap) {
        size_t cap = (t->cap + n + 2) * 2;
        char *p = realloc(t->s, cap);
        if (!p)
            return false;
        t->s = p;
        t->cap = cap;
    }
    if (t->len)
        t->s[t->len++] = ' ';
    memcpy(t->s + t->len, word, n + 1);
    t->len += n;
    return true;
}

/* 64-bit FNV-1a over a string, from a given basis, finished by a mixer so that the two
 * halves of the identity are independent. */
static uint64_t hash_text(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3u;
    }
    h ^= 0xff; /* the end of a field: "ab","c" differs from "a","bc" */
    h *= 0x100000001b3u;
    return h;
}

static uint64_t mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The tags that say which game this is, besides its moves and start. */
static const char *const identity_tags[] = { "Event", "Site", "Date", "Round", "White", "Black",
                                             "DamaRun", "DamaGameIndex" };

/* 32 hex digits of a hash over the variant, the start, the moves and the identifying tags. */
static char *game_identity(const Variant *v, const PdnGame *g, const char *fen, const char *moves)
{
    uint64_t h[2] = { 0xcbf29ce484222325u, 0x84222325cbf29ce4u };
    for (int k = 0; k < 2; k++) {
        h[k] = hash_text(hash_text(hash_text(h[k], v->name), fen), moves);
        for (size_t i = 0; i < sizeof identity_tags / sizeof *identity_tags; i++) {
            const PdnTag *t = pdn_tag_find(g, identity_tags[i]);
            h[k] = hash_text(hash_text(h[k], identity_tags[i]), t ? t->value : "");
        }
        h[k] = mix64(h[k]);
    }
    char *out = malloc(33);
    if (out)
        snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, h[0], h[1]);
    return out;
}

/* A tag's value as a whole number in [0, max]; false when absent or not one. */
static bool tag_number(const PdnGame *g, const char *name, uint64_t max, uint64_t *out)
{
    const PdnTag *t = pdn_tag_find(g, name);
    if (!t || !t->value[0])
        return false;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(t->value, &end, 10);
    if (errno || *end || t->value[0] == '-' || n > max)
        return false;
    *out = n;
    return true;
}

static int reason_from_name(const char *name)
{
    for (int r = REASON_NONE + 1; r < REASON_COUNT; r++)
        if (strcmp(reason_name(r), name) == 0)
            return r;
    return REASON_NONE;
}

/* The tags kept with the game (all but those the game itself gives back), and its notes. */
static bool copy_tags_and_notes(PdnRecord *p, const PdnGame *g, const int *note_ply)
{
    p->tags = calloc((size_t)g->ntags + 1, sizeof *p->tags);
    p->notes = calloc((size_t)(g->nitems - g->nmoves) + 1, sizeof *p->notes);
    if (!p->tags || !p->notes)
        return false;
    for (int i = 0; i < g->ntags; i++) {
        const char *name = g->tags[i].name;
        if (strcasecmp(name, "Result") == 0 || strcasecmp(name, "GameType") == 0
            || strcasecmp(name, "FEN") == 0 || strcasecmp(name, "SetUp") == 0)
            continue;
        StorePdnTag *t = &p->tags[p->imp.ntags++];
        t->name = strdup(name);
        t->value = strdup(g->tags[i].value);
        if (!t->name || !t->value)
            return false;
    }
    for (int i = 0; i < g->nitems; i++) {
        const PdnItem *it = &g->items[i];
        if (it->kind == PDN_MOVE || it->kind == PDN_SETUP) /* a setup is the start, written as FEN */
            continue;
        StorePdnNote *n = &p->notes[p->imp.nnotes++];
        n->ply = note_ply[i];
        if (!(n->text = strndup(it->text, it->len)))
            return false;
    }
    return true;
}

/* "3" for White's third move, "3..." for Black's. */
static void move_number(char *buf, size_t len, int ply, int first_side)
{
    int half = ply + (first_side == BLACK);
    snprintf(buf, len, "%d%s", half / 2 + 1, half % 2 ? "..." : "");
}

/* How many of g's moves from item `from` on are legal in turn from pos, up to the first
 * that is not or that names several moves (positions only: enough to tell paths apart). */
static int moves_replayed(const PdnImportConfig *cfg, const PdnGame *g, int from, Position pos)
{
    int n = 0;
    for (int i = from; i < g->nitems; i++) {
        PdnProblem pr;
        Move m;
        if (g->items[i].kind != PDN_MOVE)
            continue;
        if (!pdn_game_move(cfg->variant, &cfg->rules, &pos, &g->items[i], &m, &pr))
            break;
        cfg->variant->make(&pos, &m);
        n++;
    }
    return n;
}

/* A short form that names several moves (item i: "36x16" for two capture paths, which the
 * standard would have written in long form): the move after which the rest of the game
 * goes on legally furthest, when one does so alone; false when none or several tie. */
static bool resolve_ambiguous(const PdnImportConfig *cfg, const PdnGame *g, int i, const Position *pos, Move *m)
{
    Move candidates[8];
    int n = pdn_game_candidates(cfg->variant, &cfg->rules, pos, &g->items[i], candidates, 8);
    int best = -1, best_plies = -1;
    bool tie = false;
    for (int k = 0; k < n; k++) {
        Position after = *pos;
        cfg->variant->make(&after, &candidates[k]);
        int plies = moves_replayed(cfg, g, i + 1, after);
        tie = plies == best_plies;
        if (plies > best_plies) {
            best = k;
            best_plies = plies;
        }
    }
    if (n < 2 || tie)
        return false;
    *m = candidates[best];
    return true;
}

/* Replays the game's moves from its start, noting each position and each item's ply:
 * 1 when all are legal, 0 on a bad move (said), -1 when out of memory. */
static int replay_moves(const PdnImportConfig *cfg, const char *path, const PdnGame *g, Game *game,
                        const Position *start, PdnRecord *p, Text *moves, int *note_ply)
{
    const Variant *v = cfg->variant;
    PdnProblem pr;
    for (int i = 0; i < g->nitems; i++) {
        const PdnItem *it = &g->items[i];
        note_ply[i] = game->ply;
        if (it->kind != PDN_MOVE)
            continue;
        char number[32], text[256];
        move_number(number, sizeof number, game->ply, start->side);
        Move m;
        if (!pdn_game_move(v, &cfg->rules, &game->pos, it, &m, &pr)
            && !resolve_ambiguous(cfg, g, i, &game->pos, &m)) {
            if (it->raw_len > PDN_TOKEN_MAX)
                bad_game(cfg, path, g, pr.line, ", move %s: %s: %s", number, pr.what, pr.why);
            else
                bad_game(cfg, path, g, pr.line, ", move %s: %s", number, pr.why);
            return 0;
        }
        if (!text_add(moves, move_to_text(v, &m, text, sizeof text)))
            return -1;
        if (!game_play(game, &m)) {
            bad_game(cfg, path, g, it->line, ", move %s: longer than %d plies", number, MAX_GAME_PLIES);
            return 0;
        }
        p->positions[game->ply] = (StoredPosition){ .pos = game->pos, .capture_pending = v->capture_pending(&game->pos) };
    }
    return 1;
}

/* The game's result and reason from the file and the rules; false (said) when the file
 * contradicts the rules. */
static bool judge_result(const PdnImportConfig *cfg, const char *path, const PdnGame *g, const Game *game,
                         int *result, int *reason)
{
    bool bad = false;
    /* The result the file gives against the one the rules give (a final position
     * without a legal move has lost); "*" takes the rules' result when there is one. */
    int stated = pdn_result_from_text(g->result);
    int ruled = game_result(game, reason);
    long line = g->result[0] ? g->result_line : g->line;
    char buf[64];
    GameEnd end = { ruled, *reason };
    if (ruled != RESULT_NONE && *reason == REASON_NO_MOVES && stated != RESULT_NONE && stated != ruled) {
        bad = true;
        bad_game(cfg, path, g, line, ": result %s: the game ended %s", g->result, game_end_text(end, buf, sizeof buf));
    }
    /* Neither given nor ruled: an unfinished game or a fragment, stored as such. */
    *result = stated != RESULT_NONE ? stated : ruled;
    if (*result != ruled) {
        const PdnTag *t = pdn_tag_find(g, "DamaReason");
        *reason = t ? reason_from_name(t->value) : REASON_NONE;
    }
    return !bad;
}

/* Fills the import's game record and origin from the replayed game and its tags. */
static void fill_import(PdnRecord *p, const Variant *v, const PdnGame *g, const Game *game,
                        const Position *start, int result, int reason)
{
    int winner = result == RESULT_WHITE_WINS ? WHITE : BLACK;
    uint64_t seed = 0, run = 0, index = 0;
    tag_number(g, "DamaSeed", UINT64_MAX, &seed);
    p->imp.rec = (GameRecord){
        .variant = v->name,
        .result = result,
        .reason = reason != REASON_NONE ? reason_name(reason) : NULL,
        .plies = game->ply,
        .mars = (result == RESULT_WHITE_WINS || result == RESULT_BLACK_WINS)
              && popcount(position_pieces(&game->pos, winner)) == popcount(position_pieces(start, winner)),
        .moves = p->moves,
        .seed = seed,
        .positions = p->positions,
        .npositions = game->ply + 1,
    };
    p->imp.opening_fen = p->fen;
    p->imp.identity = p->identity;
    p->imp.source = p->source;
    p->imp.has_origin = tag_number(g, "DamaRun", INT64_MAX, &run) && tag_number(g, "DamaGameIndex", INT32_MAX, &index);
    p->imp.origin_run = (int64_t)run;
    p->imp.origin_index = (int)index;
    p->imp.tags = p->tags;
    p->imp.notes = p->notes;
}

int pdn_record_make(const PdnImportConfig *cfg, const char *path, const PdnGame *g, Game *game,
                    PdnRecord *out)
{
    const Variant *v = cfg->variant;
    memset(out, 0, sizeof *out);
    if (g->syntax)
        return bad_game(cfg, path, g, g->syntax_line, ": %s: %s", g->syntax_what, g->syntax_why);
    PdnProblem pr;
    Position start;
    bool setup;
    if (!pdn_game_start(v, g, &start, &setup, &pr))
        return bad_game(cfg, path, g, pr.line, ": %s: %s", pr.what, pr.why);
    game_init(game, v, &cfg->rules, &start);
    PdnRecord p = { 0 };
    Text moves = { 0 };
    int *note_ply = calloc((size_t)g->nitems + 1, sizeof *note_ply);
    p.positions = calloc((size_t)g->nmoves + 1, sizeof *p.positions);
    if (!note_ply || !p.positions || !text_add(&moves, "")) {
        free(note_ply);
        free(moves.s);
        pdn_record_free(&p);
        return -1;
    }
    p.positions[0] = (StoredPosition){ .pos = start, .capture_pending = v->capture_pending(&start) };
    int replayed = replay_moves(cfg, path, g, game, &start, &p, &moves, note_ply);
    int result = RESULT_NONE, reason = REASON_NONE;
    bool bad = replayed == 0;
    if (replayed == 1)
        bad = !judge_result(cfg, path, g, game, &result, &reason);
    if (replayed != 1 || bad) {
        free(note_ply);
        free(moves.s);
        pdn_record_free(&p);
        return replayed < 0 ? -1 : 0;
    }
    char fen[1024], source[64];
    position_to_fen(&start, v, fen, sizeof fen);
    snprintf(source, sizeof source, ":%ld", g->line);
    p.moves = moves.s;
    p.fen = strdup(fen);
    p.identity = game_identity(v, g, fen, moves.s);
    p.source = malloc(strlen(path) + strlen(source) + 1);
    if (p.source)
        strcat(strcpy(p.source, path), source);
    bool ok = p.fen && p.identity && p.source && copy_tags_and_notes(&p, g, note_ply);
    free(note_ply);
    if (!ok) {
        pdn_record_free(&p);
        return -1;
    }
    fill_import(&p, v, g, game, &start, result, reason);
    p.start = start;
    p.setup = setup;
    *out = p;
    return 1;
}

/* The pending games into the file's transaction (begun with the first): false when the
 * database fails (im->err). */
static bool flush(Importer *im)
{
    if (!im->npending)
        return true;
    StorePdnImport batch[IMPORT_BATCH];
    for (int i = 0; i < im->npending; i++)
        batch[i] = im->pending[i].imp;
    int written = 0;
    const PdnImportConfig *cfg = im->cfg;
    bool ok = (im->in_transaction || (im->in_transaction = store_pdn_import_begin(im->store)))
           && store_pdn_import_add(im->store, cfg->variant->name, cfg->params, cfg->engine_version,
                                   cfg->bench_signature, im->run_id, batch, im->npending, &written);
    if (!ok)
        snprintf(im->err, im->errlen, "%s", store_error(im->store));
    im->counts.imported += written;
    im->counts.duplicates += im->npending - written;
    for (int i = 0; i < im->npending; i++)
        pdn_record_free(&im->pending[i]);
    im->npending = 0;
    return ok;
}

/* Checks one game and, when it is good, queues it: 0, PDN_READ_OOM or IMPORT_DB_FAILED. */
static int import_game(void *ctx, const PdnGame *g)
{
    Importer *im = ctx;
    im->counts.games++;
    int made = pdn_record_make(im->cfg, im->path, g, im->game, &im->pending[im->npending]);
    if (made < 0)
        return PDN_READ_OOM;
    if (!made) {
        im->counts.bad++;
        return 0;
    }
    if (++im->npending == IMPORT_BATCH && !flush(im))
        return IMPORT_DB_FAILED;
    return 0;
}

bool pdn_record_write(FILE *f, const PdnRecord *r, const Variant *v, const Rules *rules, char *err, size_t errlen)
{
    PdnGameOut out = {
        .variant = v, .rules = rules, .start = &r->start, .setup = r->setup, .moves = r->moves,
        .result = r->imp.rec.result, .tags = r->tags, .ntags = r->imp.ntags, .notes = r->notes,
        .nnotes = r->imp.nnotes,
    };
    return pdn_write_game(f, &out, err, errlen);
}

int pdn_import_file(Store *s, const PdnImportConfig *cfg, const char *path, int64_t *run_id,
                    PdnImportCounts *counts, char *err, size_t errlen)
{
    err[0] = '\0';
    Importer *im = calloc(1, sizeof *im);
    Game *game = malloc(sizeof *game);
    if (!im || !game) {
        free(im);
        free(game);
        snprintf(err, errlen, "out of memory");
        return 1;
    }
    *im = (Importer){ .store = s, .cfg = cfg, .path = path, .run_id = run_id, .game = game, .err = err,
                      .errlen = errlen };
    int64_t run_before = *run_id;
    int code = pdn_read_file(path, import_game, im, cfg->stop, err, errlen);
    if (code == 0 && !flush(im))
        code = IMPORT_DB_FAILED;
    if (code == 0 && im->in_transaction && !store_pdn_import_commit(s)) {
        snprintf(err, errlen, "%s", store_error(s));
        code = IMPORT_DB_FAILED;
    }
    if (code != 0 && im->in_transaction) {
        store_pdn_import_rollback(s);
        *run_id = run_before; /* a run created in the transaction is gone with it */
    }
    for (int i = 0; i < im->npending; i++)
        pdn_record_free(&im->pending[i]);
    if (code == 0) {
        counts->games += im->counts.games;
        counts->bad += im->counts.bad;
        counts->imported += im->counts.imported;
        counts->duplicates += im->counts.duplicates;
    }
    free(im);
    free(game);
    switch (code) {
    case 0: return 0;
    case PDN_READ_OOM: if (!err[0]) snprintf(err, errlen, "out of memory"); return 1;
    case IMPORT_DB_FAILED: return 1;
    case PDN_READ_STOPPED: return 130;
    default: return 2;
    }
}
