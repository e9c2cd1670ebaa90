/* Commands that read the database, end to end: `dama export` and `dama analyze --game` on a
 * read-only file and in a read-only directory, and `dama tune`'s checks of its inputs and
 * output before it fits.
 *
 * Root ignores file permissions, so as root the readers run as user nobody (setpriv); a
 * read-only connection is proven apart from permissions by tests/test_store.c
 * (test_open_readonly: every write through it fails, the file is unchanged). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

static char dir[64], db[96];

/* Where sh() sends stdout and stderr: set by the group setup. */
static char redirect[256];
#define sh(...) test_shell(redirect, __VA_ARGS__)

static char *output(void)
{
    char path[96];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    char *t = test_read_file(path);
    assert_non_null(t);
    return t;
}

static void expect_output(const char *needle)
{
    char *out = output();
    if (!strstr(out, needle))
        fail_msg("output does not mention '%s':\n%s", needle, out);
    free(out);
}

/* How a reader is run so that permissions bind it: as nobody when we are root. */
static const char *as_reader(void)
{
    return geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
}

static bool reader_possible(void)
{
    if (geteuid() != 0 || system("setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null") == 0)
        return true;
    printf("read-only database tests skipped: running as root without a working setpriv\n");
    return false;
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/dama-test-readers-XXXXXX");
    if (!mkdtemp(dir) || chmod(dir, 0755) != 0)
        return -1;
    snprintf(redirect, sizeof redirect, ">%s/out.txt 2>&1", dir);
    snprintf(db, sizeof db, "%s/t.db", dir);
    return sh("%s selfplay --db %s --games 4 --nodes 200 --threads 1", test_dama_bin(), db) == 0 &&
                   sh("%s tune --db %s --epochs 2 --out %s/w.txt", test_dama_bin(), db, dir) == 0
               ? 0
               : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A copy of the database, mode 0444, in sub (created with mode dir_mode after the copy). */
static void read_only_copy(const char *sub, int dir_mode, char *path, size_t len)
{
    char d[128];
    snprintf(d, sizeof d, "%s/%s", dir, sub);
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(path, len, "%s/ro.db", d);
    assert_int_equal(sh("cp %s %s && chmod 444 %s", db, path, path), 0);
    assert_int_equal(chmod(d, (mode_t)dir_mode), 0);
}

/* An output directory any user may write. */
static void open_out_dir(const char *sub, char *path, size_t len)
{
    snprintf(path, len, "%s/%s/", dir, sub);
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(chmod(path, 0777), 0);
}

static void export_read_only(const char *sub, int dir_mode)
{
    char ro[160], out[160];
    read_only_copy(sub, dir_mode, ro, sizeof ro);
    char sub_out[64];
    snprintf(sub_out, sizeof sub_out, "%s-out", sub);
    open_out_dir(sub_out, out, sizeof out);
    char snapshot[200];
    snprintf(snapshot, sizeof snapshot, "%s/%s.before", dir, sub);
    assert_int_equal(sh("cp %s %s", ro, snapshot), 0);
    if (sh("%s%s export --db %s --out %s", as_reader(), test_dama_bin(), ro, out) != 0)
        fail_msg("export of a read-only database failed: %s", output());
    expect_output("export analyses rows 0");
    char games[200];
    snprintf(games, sizeof games, "%sgames.csv", out);
    char *csv = test_read_file(games);
    assert_non_null(csv);
    int lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 4);
    free(csv);
    /* byte for byte as it was, and nothing written beside it (a reader may leave an empty
     * -wal where it can create one) */
    assert_int_equal(sh("cmp %s %s", ro, snapshot), 0);
    char wal[200];
    snprintf(wal, sizeof wal, "%s-wal", ro);
    struct stat st;
    assert_true(stat(wal, &st) != 0 || st.st_size == 0);
}

/* Used to fail with "attempt to write a readonly database". */
static void test_export_read_only_file(void **state)
{
    (void)state;
    if (reader_possible())
        export_read_only("rofile", 0777);
}

/* The directory too: SQLite cannot create the WAL's -shm there. */
static void test_export_read_only_directory(void **state)
{
    (void)state;
    if (!reader_possible())
        return;
    export_read_only("rodir", 0555);
    char shm[160];
    snprintf(shm, sizeof shm, "%s/rodir/ro.db-shm", dir);
    struct stat st;
    assert_int_not_equal(stat(shm, &st), 0);
}

/* analyze --game reads the game read-only and writes its CSV: a reader, it succeeds; the
 * stored analyses need a writable database, and it says they are not stored.  Used to
 * write the whole CSV and then exit 1 on "attempt to write a readonly database". */
static void test_analyze_read_only(void **state)
{
    (void)state;
    if (!reader_possible())
        return;
    char ro[160], out[160];
    read_only_copy("roanalyze", 0555, ro, sizeof ro);
    open_out_dir("roanalyze-out", out, sizeof out);
    if (sh("%s%s analyze --db %s --game 1 --plies 0,1 --nodes 100 --threads 1 --out %sa.csv",
           as_reader(), test_dama_bin(), ro, out) != 0)
        fail_msg("analyze of a read-only database failed: %s", output());
    expect_output("roanalyze/ro.db: the analyses will not be stored: cannot write the database: "
                  "the file is read-only (mode 0444)");
    expect_output("analyzed 2 positions");
    char csv[200];
    snprintf(csv, sizeof csv, "%sa.csv", out);
    char *text = test_read_file(csv);
    if (!text)
        fail_msg("the analysis CSV was not written: %s", output());
    assert_non_null(strstr(text, "game1:ply0,"));
    assert_non_null(strstr(text, "game1:ply1,"));
    free(text);
}

/* The writers on a database they cannot write: the reason, naming the file, exit 1.  They
 * used to say "reading the database header: unable to open database file" (read-only file
 * system), "... attempt to write a readonly database" (directory) or fail at their first
 * write (file). */
static void expect_writers_refused(const char *prefix, const char *sub, const char *ro, const char *why)
{
    const char *bin = test_dama_bin();
    char pdn[160], expected[400], sub_out[64], out_dir[160], tune[240];
    snprintf(sub_out, sizeof sub_out, "%s-out", sub);
    open_out_dir(sub_out, out_dir, sizeof out_dir);
    snprintf(tune, sizeof tune, "tune --epochs 1 --out %sw.txt", out_dir);
    snprintf(pdn, sizeof pdn, "%s/one.pdn", dir);
    FILE *f = fopen(pdn, "w");
    assert_non_null(f);
    fputs("[GameType \"30\"]\n1. a3-a4 a6-a5 *\n", f);
    fclose(f);
    assert_int_equal(chmod(pdn, 0644), 0);
    snprintf(expected, sizeof expected, "dama: %s: cannot write the database: %s\n", ro, why);
    const char *commands[] = { "selfplay --games 2 --nodes 100 --threads 1", tune,
                               "pdn import" };
    for (int i = 0; i < 3; i++) {
        int rc = sh("%s%s %s --db %s%s%s", prefix, bin, commands[i], ro, i == 2 ? " " : "", i == 2 ? pdn : "");
        char *out = output();
        if (rc != 1 || strcmp(out, expected) != 0)
            fail_msg("%s: exit %d, said:\n%sexpected exit 1 and:\n%s", commands[i], rc, out, expected);
        free(out);
    }
}

static void test_writers_read_only_file(void **state)
{
    (void)state;
    if (!reader_possible())
        return;
    char ro[160], why[200];
    read_only_copy("wfile", 0777, ro, sizeof ro);
    snprintf(why, sizeof why, "the file is read-only (mode 0444)");
    expect_writers_refused(as_reader(), "wfile", ro, why);
}

static void test_writers_read_only_directory(void **state)
{
    (void)state;
    if (!reader_possible())
        return;
    char ro[160], why[200];
    read_only_copy("wdir", 0555, ro, sizeof ro);
    assert_int_equal(chmod(ro, 0666), 0);
    snprintf(why, sizeof why, "its directory %s/wdir is not writable (SQLite writes the -wal and -shm "
             "files there)", dir);
    expect_writers_refused(as_reader(), "wdir", ro, why);
}

/* A read-only file system, as a read-only bind mount in a user and mount namespace of its
 * own (binds root too); skipped where unshare cannot make one. */
static void test_writers_read_only_file_system(void **state)
{
    (void)state;
    char d[128], ro[160], prefix[400];
    snprintf(d, sizeof d, "%s/wfs", dir);
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(ro, sizeof ro, "%s/ro.db", d);
    assert_int_equal(sh("cp %s %s", db, ro), 0);
    snprintf(prefix, sizeof prefix, "unshare --user --map-root-user --mount sh -c 'mount --bind -o ro %s %s && "
             "exec \"$@\"' sh ", d, d);
    if (sh("%s touch %s/x", prefix, d) == 0 || sh("%s true", prefix) != 0) {
        printf("read-only file system test skipped: unshare cannot make a read-only bind mount here\n");
        return;
    }
    expect_writers_refused(prefix, "wfs", ro, "the file system is read-only");
}

static int64_t runs_in(const char *path)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sqlite3 %s 'SELECT count(*) FROM runs'", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    long long n = -1;
    assert_int_equal(fscanf(p, "%lld", &n), 1);
    pclose(p);
    return n;
}

/* Each wrong input is named before any fit, and nothing is recorded for it. */
static void test_tune_checks_first(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    char missing[128], w[128];
    snprintf(missing, sizeof missing, "%s/missing.db", dir);
    snprintf(w, sizeof w, "%s/w2.txt", dir);
    assert_int_equal(sh("%s tune --db %s --out %s", bin, missing, w), 1);
    expect_output("missing.db: no such database");
    struct stat st;
    assert_int_not_equal(stat(missing, &st), 0); /* not created */

    int64_t runs = runs_in(db); /* selfplay run 1, tune run 2 */
    assert_int_equal(sh("%s tune --db %s --runs 999 --out %s", bin, db, w), 2);
    expect_output("no run 999");
    assert_int_equal(sh("%s tune --db %s --runs 1,2 --out %s", bin, db, w), 2);
    expect_output("run 2 is a tune run, not a selfplay, match or import run");
    assert_int_equal(sh("%s tune --db %s --out /tmp", bin, db), 2);
    expect_output("/tmp is a directory");
    assert_int_equal(sh("%s tune --db %s --out %s/no/such/dir/w.txt", bin, db, dir), 1);
    expect_output("cannot write there");
    assert_int_equal(runs_in(db), runs);
    assert_int_not_equal(stat(w, &st), 0);

    /* by default only finished runs; an unfinished one only when named */
    char unfinished[128];
    snprintf(unfinished, sizeof unfinished, "%s/unfinished.db", dir);
    assert_int_equal(sh("cp %s %s && sqlite3 %s \"UPDATE runs SET status = 'interrupted' WHERE id = 1\"", db,
                        unfinished, unfinished), 0);
    assert_int_equal(sh("%s tune --db %s --epochs 2 --out %s", bin, unfinished, w), 1);
    expect_output("no finished self-play or match run has games");
    assert_int_equal(sh("%s tune --db %s --runs 1 --epochs 2 --out %s", bin, unfinished, w), 0);
    expect_output("weights written to");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_read_only_file),
        cmocka_unit_test(test_export_read_only_directory),
        cmocka_unit_test(test_analyze_read_only),
        cmocka_unit_test(test_writers_read_only_file),
        cmocka_unit_test(test_writers_read_only_directory),
        cmocka_unit_test(test_writers_read_only_file_system),
        cmocka_unit_test(test_tune_checks_first),
    };
    return cmocka_run_group_tests_name("db readers", tests, group_setup, group_teardown);
}
