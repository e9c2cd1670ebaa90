/* `dama weights`: the built-in weights of a variant as a weights file, a starting point for
 * editing or tuning, and a check that a file reads. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pipeline.h"
#include "variant.h"
#include "weights.h"

enum { OPT_W_CHECK = OPT_FIRST_FREE };

static int run_weights(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "variant", required_argument, 0, OPT_VARIANT },
        { "check", required_argument, 0, OPT_W_CHECK },
        { "help", no_argument, 0, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    const Variant *v = &turkish_variant;
    const char *check = NULL;
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        switch (o) {
        case OPT_HELP: return cli_print_help("weights");
        case OPT_VARIANT: if (!(v = cli_variant(optarg))) return EXIT_USAGE; break;
        case OPT_W_CHECK: check = optarg; break;
        default: return EXIT_USAGE;
        }
    }
    if (argc - optind > 1)
        return cli_usage_error("unexpected argument '%s' (see 'dama weights --help')", argv[optind + 1]);
    const char *name = optind < argc ? argv[optind] : "default";
    if (check && optind < argc)
        return cli_usage_error("--check reads a file: give no SET with it");
    Weights w;
    char err[512];
    if (!pipeline_weights_by_name(&w, v, check ? check : name, err, sizeof err))
        return cli_usage_error("%s", err);
    bool written = check || weights_write(&w, stdout);
    weights_free(&w);
    if (check)
        printf("%s: %d weights for %s\n", check, weights_count(v->eval), v->name);
    if (!written)
        return cli_runtime_error("cannot write the weights to standard output");
    return EXIT_OK;
}

const Command cmd_weights = {
    "weights", "print a variant's built-in weights as a weights file, or check a file",
    "usage: dama weights [--variant NAME] [default | material]\n"
    "       dama weights [--variant NAME] --check FILE\n"
    "\n"
    "Prints the weights file of the built-in hand-set weights (default) or of the material-\n"
    "only baseline (material) to standard output: every weight with the reason of its term,\n"
    "ready to edit and give to --weights, --start or --a/--b.  With --check, reads FILE as\n"
    "weights of the variant and prints 'FILE: N weights for VARIANT', or the first error as\n"
    "FILE:LINE: reason (exit 2).\n"
    "\n"
    "  -v, --variant NAME  turkish (default) or international (short tr, intl)\n",
    run_weights,
};
