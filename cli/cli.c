/* Errors, numbers and the shared engine options of the command line. */
#include <errno.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "game_moves.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "variant.h"

static void vreport(const char *fmt, va_list ap)
{
    fputs("dama: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int cli_runtime_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return EXIT_RUNTIME;
}

bool cli_long(const char *option, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return cli_usage_error("bad value '%s' for %s: expected a whole number from %ld to %ld", text,
                               option, min, max), false;
    *out = v;
    return true;
}

double cli_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* OpenMP's count is the process's CPU affinity mask (taskset), not every CPU online. */
int cli_cpu_count(void)
{
    int n = omp_get_num_procs();
    return n > 0 ? n : 1;
}

bool cli_threads(const char *text, int *out)
{
    long n;
    if (!cli_long("--threads", text, 1, 1024, &n))
        return false;
    int cpus = cli_cpu_count();
    if (n > cpus) {
        fprintf(stderr, "dama: --threads %ld: using %d, the number of CPUs (more threads only slow "
                "the work down)\n", n, cpus);
        n = cpus;
    }
    *out = (int)n;
    return true;
}

bool cli_option_search_limit(const CliOption *option, const char *value)
{
    SearchLimits *limits = option->dest;
    char dashed[16];
    snprintf(dashed, sizeof dashed, "--%s", option->name);
    long n;
    if (strcmp(option->name, "nodes") == 0)
        return cli_u64(dashed, value, &limits->nodes);
    bool depth = strcmp(option->name, "depth") == 0;
    if (!cli_long(dashed, value, 1, depth ? SEARCH_DEPTH_MAX : 86400000L, &n))
        return false;
    *(depth ? &limits->depth : &limits->movetime_ms) = (int)n;
    return true;
}

bool cli_u64(const char *option, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-')
        return cli_usage_error("bad value '%s' for %s: expected a non-negative whole number", text, option), false;
    *out = v;
    return true;
}

const Variant *cli_variant_any(const char *name)
{
    const Variant *v = variant_by_name(name);
    if (v)
        return v;
    /* "turkish or tr, international or intl": the registry's games and their aliases */
    char known[512] = "";
    size_t used = 0;
    for (int i = 0; variant_at(i) && used < sizeof known; i++) {
        const Variant *g = variant_at(i);
        int n = snprintf(known + used, sizeof known - used, "%s%s%s%s", i ? ", " : "", g->name,
                         g->aliases ? " or " : "", g->aliases ? g->aliases : "");
        used += n > 0 ? (size_t)n : 0;
    }
    cli_usage_error("unknown variant '%s' (this build knows: %s)", name, known);
    return NULL;
}

const Variant *cli_variant(const char *name)
{
    const Variant *v = cli_variant_any(name);
    if (v && !v->eval) {
        cli_usage_error("variant '%s' has no evaluation yet: only 'dama perft' and 'dama moves' "
                        "accept it", v->name);
        return NULL;
    }
    return v;
}

bool cli_option_variant(const CliOption *option, const char *value)
{
    return (*(const Variant **)option->dest = cli_variant(value)) != NULL;
}

void engine_context_init(EngineContext *ctx)
{
    *ctx = (EngineContext){ .variant = &turkish_variant };
    ctx->rules = rules_default(ctx->variant);
}

bool engine_context_variant(const CliOption *option, const char *value)
{
    EngineContext *ctx = option->dest;
    ctx->variant = ctx->rules_only ? cli_variant_any(value) : cli_variant(value);
    return ctx->variant != NULL;
}

bool cli_add_rules(const char **texts, int *count, const char *value)
{
    /* Rule options belong to the variant, which may come later on the command line. */
    if (*count == MAX_RULES_OPTIONS)
        return cli_usage_error("too many --rules options (at most %d): join them with commas",
                               MAX_RULES_OPTIONS), false;
    texts[(*count)++] = value;
    return true;
}

bool engine_context_rules(const CliOption *option, const char *value)
{
    EngineContext *ctx = option->dest;
    return cli_add_rules(ctx->rules_text, &ctx->nrules_text, value);
}

bool cli_apply_rules(const Variant *v, Rules *rules, const char *const *texts, int count)
{
    char err[512];
    *rules = rules_default(v);
    for (int i = 0; i < count; i++)
        if (!rules_parse(v, rules, texts[i], err, sizeof err))
            return cli_usage_error("%s", err), false;
    return true;
}

bool engine_context_finish(EngineContext *ctx)
{
    char err[512];
    if (!cli_apply_rules(ctx->variant, &ctx->rules, ctx->rules_text, ctx->nrules_text))
        return false;
    if (!ctx->fen) {
        ctx->variant->start(&ctx->pos);
    } else if (!position_from_fen(&ctx->pos, ctx->variant, ctx->fen, err, sizeof err)) {
        return cli_usage_error("%s", err), false;
    }
    game_init(&ctx->game, ctx->variant, &ctx->rules, &ctx->pos);
    if (ctx->moves_text && !game_play_text(&ctx->game, ctx->moves_text, err, sizeof err))
        return cli_usage_error("--moves: %s", err), false;
    ctx->pos = ctx->game.pos;
    return true;
}

bool cli_bench_signature(const Variant *v, char *buf, size_t len)
{
    char err[512];
    return bench_signature(v, buf, len, err, sizeof err) || (cli_runtime_error("%s", err), false);
}
