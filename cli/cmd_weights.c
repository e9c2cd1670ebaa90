/* `dama weights`: the built-in weights of a variant as a weights file, a starting point for
 * editing or tuning, and a check that a file reads. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "store_open.h"
#include "interrupt.h"
#include "tune_options.h"
#include "variant.h"
#include "weights.h"
#include "weights_store.h"

/* What --check says of a file that reads: enough to tell two weights files apart. */
static void print_check(const char *path, const Weights *w, const Variant *v)
{
    printf("%s: %d weights for %s, eval %s", path, w->count, v->name,
           eval_spec_is_pattern(w->spec) ? "pattern" : "linear");
    if (eval_spec_is_pattern(w->spec))
        printf(" (feature-set %" PRIu32 ", %d patterns)", w->spec->feature_set_version, w->spec->npattern_states);
    printf(", hash %016" PRIx64 "\n", weights_hash(w));
}

static int run_weights(int argc, char **argv)
{
    const Variant *v = &turkish_variant;
    const char *check = NULL;
    EvalChoice eval = EVAL_AS_GIVEN;
    const CliOption options[] = {
        CALL_ARG("variant", &v, cli_option_variant),
        TEXT_ARG("check", &check),
        CALL_ARG("eval", &eval, tune_option_eval),
        { 0 },
    };
    int code = cli_parse(argc, argv, "weights", options, 1);
    if (code >= 0)
        return code;
    const char *name = optind < argc ? argv[optind] : "default";
    if (check && optind < argc)
        return cli_usage_error("--check reads a file: give no SET with it");
    Weights w;
    char err[512];
    interrupt_flag(); /* reading a file stops on Ctrl-C or SIGTERM: exit 130 */
    if (check) {
        /* The file as it is: --eval only says which kind it must be. */
        if (!cli_weights(&w, v, check, NULL))
            return EXIT_USAGE;
        bool pattern = eval_spec_is_pattern(w.spec);
        if ((eval == EVAL_PATTERN && !pattern) || (eval == EVAL_LINEAR && pattern)) {
            weights_free(&w);
            return cli_usage_error("--eval %s: %s holds %s weights", pattern ? "linear" : "pattern", check,
                                   pattern ? "pattern" : "linear");
        }
        print_check(check, &w, v);
        weights_free(&w);
        return EXIT_OK;
    }
    if (!start_weights(&w, v, name, eval, err, sizeof err))
        return cli_usage_error("%s", err);
    /* Like gzip -c: binary data goes to a file or a pipe, never to a terminal. */
    if (eval_spec_is_pattern(w.spec) && isatty(STDOUT_FILENO)) {
        weights_free(&w);
        return cli_usage_error("pattern weights end in binary data: redirect standard output to a file");
    }
    bool written = weights_write(&w, stdout);
    weights_free(&w);
    if (!written)
        return cli_runtime_error("cannot write the weights to standard output");
    return EXIT_OK;
}

const Command cmd_weights = {
    "weights", "print a variant's built-in weights as a weights file, or check a file",
    run_weights,
};
