/* `dama hub`: the options of the Hub protocol engine (hub/hub_engine.h), checked before any
 * GUI speaks, then the engine's session on stdin and stdout. */
#include <stdio.h>
#include <string.h>

#include "book_file.h"
#include "commands.h"
#include "hub_engine.h"
#include "hub_line.h"
#include "interrupt.h"
#include "weights_store.h"
#include "variant.h"
#include "weights.h"

/* A text option into the char array option->dest of option->max bytes. */
static bool copy_option(const CliOption *option, const char *value)
{
    if (strlen(value) >= (size_t)option->max)
        return cli_usage_error("--%s: too long", option->name), false;
    snprintf(option->dest, (size_t)option->max, "%s", value);
    return true;
}
#define COPY_ARG(name_, array_) \
    { .name = (name_), .kind = ARG_CALL, .dest = (array_), .max = sizeof(array_), .call = copy_option }

/* Reads hub's options into p.  -1: go on; else an exit code. */
static int parse_args(int argc, char **argv, HubParams *p)
{
    const CliOption options[] = {
        CALL_ARG("variant", &p->variant, cli_option_variant),
        COPY_ARG("rules", p->rules),
        LONG_ARG("hash", &p->hash_mb, 1, HUB_HASH_MAX),
        COPY_ARG("weights", p->weights),
        COPY_ARG("book", p->book),
        COPY_ARG("egdb", p->egdb),
        INT_ARG("threads", &p->threads, 1, hub_threads_max()),
        { 0 },
    };
    return cli_parse(argc, argv, "hub", options, 0);
}

/* Checks the command line's values now, so a mistake shows before any GUI: the rules,
 * the weights and the book load.  -1: go on; else an exit code. */
static int check_params(const HubParams *p)
{
    int code = -1;
    char err[600];
    Rules rules = rules_default(p->variant);
    Weights w;
    /* the names match and the engine itself take (best, default, material, a file) */
    if (p->rules[0] && !rules_parse(p->variant, &rules, p->rules, err, sizeof err))
        code = cli_usage_error("--rules: %s", err);
    else if (p->weights[0]
             && !weights_by_name(&w, p->variant, p->weights, err, sizeof err))
        code = cli_usage_error("%s", err);
    else if (p->weights[0])
        weights_free(&w);
    Book book;
    if (code < 0 && p->book[0]) {
        if (!book_read(&book, p->book, interrupt_flag(), err, sizeof err))
            code = cli_usage_error("%s", err);
        else if (book.variant != p->variant)
            code = cli_usage_error("--book: %s is a book of %s, not %s", p->book, book.variant->name,
                                   p->variant->name);
        book_free(&book); /* read again by init, as a set-param book is */
    }
    return code;
}

static int run_hub(int argc, char **argv)
{
    HubParams params = { .variant = &turkish_variant, .hash_mb = HUB_HASH_DEFAULT };
    HubParams *p = &params;
    int code = parse_args(argc, argv, p);
    if (code < 0)
        code = check_params(p);
    if (code >= 0)
        return code;
    switch (hub_engine_run(p)) {
    case HUB_END_LINE_TOO_LONG:
        return cli_usage_error("standard input: a line longer than the %d KiB limit of a Hub line",
                               HUB_LINE_MAX / 1024);
    case HUB_END_NO_MEMORY: return cli_runtime_error("out of memory");
    default: return EXIT_OK;
    }
}

const Command cmd_hub = {
    "hub", "an engine for Hub and other GUIs speaking the Hub protocol (version 2)",
    run_hub,
};
