/* The bad-input corpus (tests/bad/, see its README): every case runs `dama` on a bad input
 * and must give exactly the expected exit code and stderr, and leave no file behind. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#define CORPUS "tests/bad"
#define MAX_CASES 512

/* Replaces every occurrence of from by to in text (a malloc'd copy). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), n = 0;
    for (const char *p = text; (p = strstr(p, from)); p += nf)
        n++;
    char *out = malloc(strlen(text) + n * (nt > nf ? nt - nf : 0) + 1), *o = out;
    assert_non_null(out);
    for (const char *p = text;;) {
        const char *q = strstr(p, from);
        if (!q) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, nt);
        o += nt;
        p = q + nf;
    }
    return out;
}

static char *read_case_file(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return test_read_file(path);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* text's lines sorted (text is consumed; a malloc'd result, each line ending in '\n'). */
static char *sorted_lines(char *text)
{
    size_t len = strlen(text);
    char *lines[256];
    int n = 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 256; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, (size_t)n, sizeof *lines, by_name);
    char *out = calloc(1, len + (size_t)n + 2);
    assert_non_null(out);
    for (int i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
    }
    free(text);
    return out;
}

/* The names in a directory, sorted and joined by '\n' (a malloc'd string).  A database's
 * -wal and -shm files are SQLite's own, made by any reader in WAL mode: not output. */
static char *listing(const char *dir)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -v -e '-wal$' -e '-shm$'", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *buf = calloc(1, 1 << 16);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 16) - 1, p);
    buf[n] = '\0';
    pclose(p);
    return sorted_lines(buf);
}

static int run_shell(const char *cmd)
{
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One case; returns false (after printing why) when it does not behave as written. */
static bool run_case(const char *name)
{
    char dir[300], tmp[] = "/tmp/dama-bad-XXXXXX";
    snprintf(dir, sizeof dir, CORPUS "/%s", name);
    assert_non_null(mkdtemp(tmp));
    char *args = read_case_file(dir, "args"), *expect = read_case_file(dir, "expect");
    if (!args || !expect) {
        print_message("%s: needs 'args' and 'expect'\n", name);
        return false;
    }
    args[strcspn(args, "\n")] = '\0';
    char cmd[8192], cwd[1024], setup_path[600];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(setup_path, sizeof setup_path, "%s/setup", dir);
    if (access(setup_path, F_OK) == 0) {
        /* setup runs in the scratch directory: $DAMA is the binary, $CASE the case's folder. */
        const char *bin = test_dama_bin();
        snprintf(cmd, sizeof cmd, "cd '%s' && DAMA='%s%s%s' CASE='%s/%s' sh '%s/%s'", tmp,
                 bin[0] == '/' ? "" : cwd, bin[0] == '/' ? "" : "/", bin, cwd, dir, cwd, setup_path);
        if (run_shell(cmd) != 0) {
            print_message("%s: setup failed\n", name);
            return false;
        }
    }
    char *before = listing(tmp);

    char *a1 = replace_all(args, "{dir}", dir), *a2 = replace_all(a1, "{tmp}", tmp);
    char err_path[600];
    snprintf(err_path, sizeof err_path, "%s.stderr", tmp);
    /* A hang is a defect too: timeout's exit 124 fails the case. */
    snprintf(cmd, sizeof cmd, "timeout 60 %s %s >/dev/null 2>'%s' </dev/null", test_dama_bin(), a2,
             err_path);
    int code = run_shell(cmd);
    char *err = test_read_file(err_path);
    assert_non_null(err);
    char *got = replace_all(err, tmp, "{tmp}");
    char *after = listing(tmp);
    /* Outputs the case allows (complete ones: batch analysis keeps the good lines). */
    char *leaves = read_case_file(dir, "leaves");
    if (leaves) {
        char *joined = malloc(strlen(before) + strlen(leaves) + 1);
        assert_non_null(joined);
        strcpy(joined, before);
        strcat(joined, leaves);
        free(before);
        free(leaves);
        before = sorted_lines(joined);
    }

    char *want = strchr(expect, '\n');
    int want_code = atoi(expect);
    want = want ? want + 1 : expect + strlen(expect);
    bool ok = true;
    if (code != want_code) {
        print_message("%s: exit %d, expected %d\n", name, code, want_code);
        ok = false;
    }
    if (strcmp(got, want) != 0) {
        print_message("%s: stderr\n%s---- expected\n%s----\n", name, got, want);
        ok = false;
    }
    if (strcmp(before, after) != 0) {
        print_message("%s: files left behind:\n%s---- before\n%s----\n", name, after, before);
        ok = false;
    }
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s' '%s'", tmp, tmp, err_path);
    run_shell(cmd);
    free(args), free(expect), free(before), free(after), free(a1), free(a2), free(err), free(got);
    return ok;
}

static void test_corpus(void **state)
{
    (void)state;
    DIR *d = opendir(CORPUS);
    assert_non_null(d);
    char *names[MAX_CASES];
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[600];
        struct stat st;
        snprintf(path, sizeof path, CORPUS "/%s", e->d_name);
        if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            assert_true(n < MAX_CASES);
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    int failed = 0;
    for (int i = 0; i < n; i++) {
        if (!run_case(names[i]))
            failed++;
        free(names[i]);
    }
    print_message("bad-input corpus: %d cases, %d failed\n", n, failed);
    assert_true(n >= 60);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
