/* The DamExchange protocol (docs/dxp.md): the codec against messages written by hand from
 * the specification (its own examples where it gives them), positions and moves against the
 * rules, and end to end over 127.0.0.1: dama following (`dama dxp --listen`) and dama
 * initiating (`dama dxp --connect`, and a DXP side of `dama match` that plays the very games
 * of a match between two searchers), and peers that misbehave: garbage, a flood without NUL,
 * silence, a disconnect, an illegal move. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dxp_text.h"
#include "position.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "variant.h"

static char tmp[128];
static char dama[160];

static int group_setup(void **state)
{
    (void)state;
    char real[PATH_MAX];
    size_t n;
    signal(SIGPIPE, SIG_IGN); /* a fake peer's write to a closed connection fails, no more */
    if (!realpath(test_dama_bin(), real) || (n = strlen(real)) >= sizeof dama)
        return -1;
    memcpy(dama, real, n + 1);
    return test_tmpdir_make(tmp, sizeof tmp, "dxp");
}

static int group_teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(tmp);
}

/* ---- the codec ---- */

static DxpMessage decoded(const char *text)
{
    DxpMessage m;
    char err[128];
    if (!dxp_decode(text, &m, err, sizeof err))
        fail_msg("'%s' refused: %s", text, err);
    return m;
}

/* Decodes text, encodes the result and expects text back. */
static DxpMessage round_trip(const char *text)
{
    DxpMessage m = decoded(text);
    char back[DXP_TEXT_MAX + 1];
    size_t n = dxp_encode(&m, back, sizeof back);
    assert_int_equal(n, strlen(text));
    assert_string_equal(back, text);
    return m;
}

static void test_spec_examples(void **state)
{
    (void)state;
    /* MOVE: the specification's two examples, 6-11 and 5x25 taking 23, 22, 12 and 20 */
    DxpMessage m = round_trip("M0012061100");
    assert_int_equal(m.type, 'M');
    assert_int_equal(m.seconds, 12);
    assert_int_equal(m.from, 6);
    assert_int_equal(m.to, 11);
    assert_int_equal(m.ncaptured, 0);
    m = round_trip("M001205250422122320");
    assert_int_equal(m.from, 5);
    assert_int_equal(m.to, 25);
    assert_int_equal(m.ncaptured, 4);
    int caps[] = { 22, 12, 23, 20 };
    for (int i = 0; i < 4; i++)
        assert_int_equal(m.captured[i], caps[i]);
    /* GAMEACC: Tornado accepts */
    m = round_trip("ATornado voor Windows 4.0        0");
    assert_string_equal(m.name, "Tornado voor Windows 4.0");
    assert_int_equal(m.code, '0');
    /* GAMEEND, CHAT, BACKREQ as the specification shows them */
    m = round_trip("E00");
    assert_int_equal(m.reason, '0');
    assert_int_equal(m.stop, '0');
    m = round_trip("CWhat do you think about move 35?");
    assert_string_equal(m.text, "What do you think about move 35?");
    m = round_trip("B005Z");
    assert_int_equal(m.move_number, 5);
    assert_int_equal(m.color, 'Z');
    m = round_trip("K1");
    assert_int_equal(m.code, '1');
}

static void test_game_request(void **state)
{
    (void)state;
    /* the start position: black to follow, 90 minutes, 75 moves */
    DxpMessage m = round_trip("R01Tornado voor Windows 4.0        Z090075A");
    assert_int_equal(m.version, 1);
    assert_string_equal(m.name, "Tornado voor Windows 4.0");
    assert_int_equal(m.color, 'Z');
    assert_int_equal(m.minutes, 90);
    assert_int_equal(m.moves, 75);
    assert_int_equal(m.start, 'A');
    /* a position: white kings on 1 and 50, a black man on 23, black to move */
    char req[DXP_TEXT_MAX + 1];
    snprintf(req, sizeof req, "R01dama                            W005000BZ%s",
             "W" "eeeeeeeeee" "eeeeeeeeee" "e" "z" "eeeeeeeeee" "eeeeeeeeee" "eeeeee" "W");
    m = round_trip(req);
    assert_int_equal(m.start, 'B');
    assert_int_equal(m.moves, 0);
    Position pos;
    char err[128];
    assert_true(dxp_position_from_text(m.position, &pos, err, sizeof err));
    assert_int_equal(pos.side, BLACK);
    char fen[256];
    position_to_fen(&pos, &international_variant, fen, sizeof fen);
    assert_string_equal(fen, "B:WK1,K50:B23");
}

static void expect_refused(const char *text, const char *why)
{
    DxpMessage m;
    char err[128];
    if (dxp_decode(text, &m, err, sizeof err))
        fail_msg("'%s' accepted", text);
    if (!strstr(err, why))
        fail_msg("'%s': '%s' lacks '%s'", text, err, why);
}

static void test_bad_messages(void **state)
{
    (void)state;
    expect_refused("", "empty");
    expect_refused("X12", "unknown message type 'X'");
    expect_refused("C", "1 to 126 characters"); /* found by fuzz_dxp: accepted, then not encodable */
    expect_refused("M001206110", "too short for its number captured");
    expect_refused("M0012061101", "too short for its captured square");
    expect_refused("M00120611002", "1 characters too many");
    expect_refused("M0012065100", "outside 01..50");
    expect_refused("M0012060000", "outside 01..50");
    expect_refused("M00a2061100", "time is not 4 digits");
    expect_refused("M0012061121", "more than 20");
    expect_refused("E02", "stop code");
    expect_refused("E4", "reason");
    expect_refused("E000", "too many");
    expect_refused("Ashort0", "too short for its name");
    expect_refused("R01dama                            X005000A", "follower colour");
    expect_refused("R01dama                            W005000C", "starting position");
    expect_refused("R01dama                            W005000BW", "51 characters");
    expect_refused("B000W", "start at 001");
    expect_refused("K2", "acceptance code");
    char long_text[200];
    memset(long_text, 'C', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    expect_refused(long_text, "longer than 127");
    expect_refused("C\xc3\xa9", "not ASCII");
    /* what does not encode: a field out of range */
    DxpMessage m = { .type = 'M', .seconds = 10000, .from = 1, .to = 2 };
    char buf[DXP_TEXT_MAX + 1];
    assert_int_equal(dxp_encode(&m, buf, sizeof buf), 0);
    m = (DxpMessage){ .type = 'E', .reason = '0', .stop = '2' };
    assert_int_equal(dxp_encode(&m, buf, sizeof buf), 0);
    m = (DxpMessage){ .type = 'E', .reason = '0', .stop = '0' };
    assert_int_equal(dxp_encode(&m, buf, 3), 0); /* no room for the NUL */
}

static void test_positions(void **state)
{
    (void)state;
    Position start, back;
    international_variant.start(&start);
    char text[DXP_SQUARES + 2], err[128];
    dxp_position_to_text(&start, text);
    assert_string_equal(text, "Wzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    assert_true(dxp_is_start_position(&start));
    assert_true(dxp_position_from_text(text, &back, err, sizeof err));
    assert_memory_equal(&start, &back, sizeof start);
    /* Hub's letters for black are not DXP's; a wrong side or length is refused */
    text[1] = 'b';
    assert_false(dxp_position_from_text(text, &back, err, sizeof err));
    assert_non_null(strstr(err, "black is z or Z"));
    assert_false(dxp_position_from_text("Bzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww", &back, err, sizeof err));
    assert_non_null(strstr(err, "W or Z"));
    assert_false(dxp_position_from_text("Wzz", &back, err, sizeof err));
    /* a white man on the crowning row cannot be */
    assert_false(dxp_position_from_text("Wweeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeez", &back, err, sizeof err));
}

static void test_moves(void **state)
{
    (void)state;
    Position start, pos;
    international_variant.start(&start);
    Rules rules = rules_default(&international_variant);
    char err[192], text[DXP_TEXT_MAX + 1];
    Move mv;
    /* 32-28 from the start, and back to the same text */
    DxpMessage m = decoded("M0003322800");
    if (!dxp_move_from_message(&m, &start, &rules, &mv, err, sizeof err))
        fail_msg("%s", err);
    DxpMessage out;
    dxp_move_message(&mv, 3, &out);
    dxp_encode(&out, text, sizeof text);
    assert_string_equal(text, "M0003322800");
    m = decoded("M0000322600");
    assert_false(dxp_move_from_message(&m, &start, &rules, &mv, err, sizeof err));
    assert_non_null(strstr(err, "illegal move 32-26"));
    /* a capture: white 28 takes the black man on 23, landing on 19 */
    assert_true(dxp_position_from_text("Weeeeeeeeeeeeeeeeeeeeeezeeeeweeeeeeeeeeeeeeeeeeeeee", &pos, err, sizeof err));
    m = decoded("M000028190123");
    assert_true(dxp_move_from_message(&m, &pos, &rules, &mv, err, sizeof err));
    dxp_move_message(&mv, 0, &out);
    dxp_encode(&out, text, sizeof text);
    assert_string_equal(text, "M000028190123");
    /* without its captured squares it is still the one move that fits; with a wrong one not */
    m = decoded("M0000281900");
    assert_true(dxp_move_from_message(&m, &pos, &rules, &mv, err, sizeof err));
    m = decoded("M000028190122");
    assert_false(dxp_move_from_message(&m, &pos, &rules, &mv, err, sizeof err));
}

/* ---- end to end ---- */

/* Starts `dama ARGS` in the background with its output in tmp/NAME.out; returns its pid. */
static pid_t start_dama(const char *name, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec '%s' %s >'%s/%s.out' 2>&1", dama, args, tmp, name);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static char *output_of(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.out", tmp, name);
    char *text = test_read_file(path);
    assert_non_null(text);
    return text;
}

/* The port a `dama dxp --listen 127.0.0.1:0` prints on its first line. */
static int listening_port(const char *name)
{
    for (int i = 0; i < 200; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s.out", tmp, name);
        char *text = test_read_file(path);
        const char *at = text ? strstr(text, "dxp listening on 127.0.0.1:") : NULL;
        int port = at ? atoi(at + strlen("dxp listening on 127.0.0.1:")) : 0;
        free(text);
        if (port > 0)
            return port;
        struct timespec ts = { 0, 25000000L };
        nanosleep(&ts, NULL);
    }
    fail_msg("%s: no 'dxp listening' line", name);
    return 0;
}

/* Waits at most 30 s for pid; its exit code. */
static int exit_code(pid_t pid)
{
    for (int i = 0; i < 3000; i++) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        struct timespec ts = { 0, 10000000L };
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    fail_msg("pid %d did not end in 30 s", (int)pid);
    return -1;
}

/* The scores and reasons of the "game N: ..." lines of text, in order, as one string
 * ("2-0 (no-moves), 1-1 (repetition)"). */
static void scores_of(const char *text, char *out, size_t len)
{
    out[0] = '\0';
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *nl = strchr(p, '\n');
        size_t linelen = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, "game ", 5) != 0)
            continue;
        const char *paren = NULL; /* the last " (" of the line: the score is before it */
        for (const char *q = p; q + 1 < p + linelen; q++)
            if (q[0] == ' ' && q[1] == '(')
                paren = q;
        assert_non_null(paren);
        assert_true(paren - p >= 3);
        size_t n = strlen(out);
        snprintf(out + n, len - n, "%s%.*s", n ? ", " : "", (int)(p + linelen - (paren - 3)), paren - 3);
    }
}

static void test_dama_follows_dama_initiates(void **state)
{
    (void)state;
    pid_t follower = start_dama("follower", "dxp --listen 127.0.0.1:0 --once --nodes 1500 --hash 2 --weights default");
    int port = listening_port("follower");
    char args[256];
    snprintf(args, sizeof args, "dxp --connect 127.0.0.1:%d --games 2 --nodes 1500 --hash 2 --weights default", port);
    pid_t initiator = start_dama("initiator", args);
    assert_int_equal(exit_code(initiator), 0);
    assert_int_equal(exit_code(follower), 0);
    char *f = output_of("follower"), *i = output_of("initiator");
    char fs[256], is[256];
    scores_of(f, fs, sizeof fs);
    scores_of(i, is, sizeof is);
    if (!strchr(is, ',') || strcmp(fs, is) != 0) /* two games, the same scores and reasons */
        fail_msg("the two sides saw different games:\n%s\n---\n%s", i, f);
    /* every game ended by the rules, each side seeing the other's result */
    assert_null(strstr(i, "engine-crash"));
    assert_null(strstr(i, "illegal-move"));
    assert_null(strstr(i, "time-forfeit"));
    int w1, d1, l1, w2, d2, l2;
    const char *ti = strstr(i, "dxp games 2 "), *tf = strstr(f, "dxp games 2 ");
    assert_non_null(ti);
    assert_non_null(tf);
    assert_int_equal(sscanf(ti, "dxp games 2 wins %d draws %d losses %d unknown 0", &w1, &d1, &l1), 3);
    assert_int_equal(sscanf(tf, "dxp games 2 wins %d draws %d losses %d unknown 0", &w2, &d2, &l2), 3);
    assert_int_equal(w1, l2);
    assert_int_equal(d1, d2);
    assert_int_equal(l1, w2);
    /* the initiator names the follower by the name its game accept gave */
    assert_null(strstr(i, "127.0.0.1"));
    free(f);
    free(i);
}

/* A port free a moment ago (for a program that listens on a port given in advance). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t n = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &n), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static long query_long(const char *db, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long v = -1;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(h));
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return v;
}

/* A DXP side of a match, started by its command (dama following), plays the very games of
 * the match between two searchers: the same moves, the same results. */
static void test_match_dxp_side(void **state)
{
    (void)state;
    char db[256], args[1024], out[1 << 14];
    snprintf(db, sizeof db, "%s/match.db", tmp);
    assert_int_equal(test_dama_run(out, sizeof out, "match -v intl --db %s --a default --b default --games 4 "
                                   "--nodes 1500 --hash 2", db), 0);
    int port = free_port();
    snprintf(args, sizeof args, "match -v intl --db %s --a default --dxp-b 127.0.0.1:%d --dxp-command-b "
             "\"exec '%s' dxp --listen 127.0.0.1:%d --nodes 1500 --hash 2 --weights default\" --games 4 "
             "--nodes 1500 --hash 2", db, port, dama, port);
    int code = test_dama_run(out, sizeof out, "%s", args);
    if (code != 0)
        fail_msg("dama %s: exit %d\n%s", args, code, out);
    assert_non_null(strstr(out, "match games 4"));
    assert_int_equal(query_long(db, "SELECT count(*) FROM games g JOIN games h ON h.game_index = g.game_index "
                                    "AND h.run_id = 1 WHERE g.run_id = 2 AND g.moves = h.moves "
                                    "AND g.result = h.result AND g.plies > 20"), 4);
    assert_int_equal(query_long(db, "SELECT count(*) FROM runs WHERE id = 2 AND params LIKE '% b=engine:dxp:127.0.0.1:%'"), 1);
    /* usage errors: another variant, more than one thread, a command without an address */
    test_dama_expect("match --db /nonexistent/x.db --a default --dxp-b 127.0.0.1:1 --games 2", 2,
                     "DXP is the protocol of International draughts");
    test_dama_expect("match -v intl --db /nonexistent/x.db --a default --dxp-b 127.0.0.1:1 --threads 2 --games 2", 2,
                     "--threads 1");
    test_dama_expect("match -v intl --db /nonexistent/x.db --a default --dxp-command-b true --games 2", 2,
                     "needs --dxp-b");
    test_dama_expect("match -v intl --db /nonexistent/x.db --b default --dxp-a nowhere --games 2", 2,
                     "bad address");
    test_dama_expect("dxp -v tr --listen 0", 2, "International draughts (10x10) only");
    /* nobody listens: an error before any game, not a game won by the absent peer */
    assert_int_equal(test_dama_run(out, sizeof out, "dxp --connect 127.0.0.1:%d --nodes 100", free_port()), 1);
    assert_non_null(strstr(out, "cannot connect to 127.0.0.1:"));
    assert_null(strstr(out, "game 1"));
    test_dama_expect("dxp --listen 0 --connect 127.0.0.1:1", 2, "one of --listen");
}

/* ---- peers that misbehave ---- */

static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

static void send_text(int fd, const char *text)
{
    (void)!write(fd, text, strlen(text) + 1); /* with its NUL */
}

/* The next message from fd within 20 s, into buf ("" when the connection closed). */
static void read_message(int fd, char *buf, size_t len)
{
    size_t n = 0;
    for (;;) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 20000) <= 0)
            fail_msg("no message in 20 s");
        char c;
        if (read(fd, &c, 1) != 1) {
            buf[0] = '\0';
            return;
        }
        if (c == '\0' || n + 1 == len)
            break;
        buf[n++] = c;
    }
    buf[n] = '\0';
}

#define TEST_REQUEST(color, start) "R01test                            " color "001000" start

/* dama following: garbage is ignored message by message, a wrong version and a bad position
 * are refused with their codes, a flood without NUL, a disconnect in a game and silence end
 * the connection, and dama itself exits 0 each time (--once). */
static void test_follower_survives_bad_peers(void **state)
{
    (void)state;
    char msg[256];
    pid_t pid = start_dama("bad1", "dxp --listen 127.0.0.1:0 --once --timeout 1000 --nodes 300");
    int fd = connect_to(listening_port("bad1"));
    send_text(fd, "Xgarbage");
    send_text(fd, "M12");
    send_text(fd, "C\x1b[2Jhello"); /* a chat with a terminal escape */
    send_text(fd, "R02test                            W001000A");
    read_message(fd, msg, sizeof msg);
    assert_int_equal(msg[0], 'A');
    assert_int_equal(msg[strlen(msg) - 1], '1'); /* wrong version */
    send_text(fd, TEST_REQUEST("W", "B") "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    read_message(fd, msg, sizeof msg);
    assert_int_equal(msg[strlen(msg) - 1], '2'); /* Hub's letters: not this game */
    send_text(fd, TEST_REQUEST("W", "A"));
    read_message(fd, msg, sizeof msg);
    assert_int_equal(msg[strlen(msg) - 1], '0');
    read_message(fd, msg, sizeof msg); /* dama is white: its first move */
    assert_int_equal(msg[0], 'M');
    assert_int_equal(strlen(msg), 11);
    char flood[300];
    memset(flood, 'C', sizeof flood);
    (void)!write(fd, flood, sizeof flood);
    read_message(fd, msg, sizeof msg);
    assert_string_equal(msg, ""); /* dama closed the connection */
    close(fd);
    assert_int_equal(exit_code(pid), 0);
    char *out = output_of("bad1");
    assert_non_null(strstr(out, "ignored: unknown message type 'X'"));
    assert_non_null(strstr(out, "ignored: bad M message"));
    assert_non_null(strstr(out, "says: ?[2Jhello"));
    assert_null(strchr(out, '\x1b'));
    assert_non_null(strstr(out, "without a NUL"));
    free(out);

    pid = start_dama("bad2", "dxp --listen 127.0.0.1:0 --once --timeout 1000 --nodes 300");
    fd = connect_to(listening_port("bad2"));
    send_text(fd, TEST_REQUEST("Z", "A"));
    read_message(fd, msg, sizeof msg);
    send_text(fd, "M0000322800");
    read_message(fd, msg, sizeof msg); /* dama's answer as black */
    assert_int_equal(msg[0], 'M');
    close(fd);
    assert_int_equal(exit_code(pid), 0);
    out = output_of("bad2");
    assert_non_null(strstr(out, "closed the connection during a game"));
    free(out);

    pid = start_dama("bad3", "dxp --listen 127.0.0.1:0 --once --timeout 500 --nodes 300");
    fd = connect_to(listening_port("bad3"));
    read_message(fd, msg, sizeof msg); /* nothing said: dama gives up on us */
    assert_string_equal(msg, "");
    close(fd);
    assert_int_equal(exit_code(pid), 0);
    out = output_of("bad3");
    assert_non_null(strstr(out, "no message in time"));
    free(out);
}

/* A follower that plays its part until its first move, then does what mode says: "illegal"
 * (a move that is not legal), "crash" (closes the connection), "silent" (never moves),
 * "garbage" (a message that is not DXP).  Serves connection after connection until killed. */
static void fake_follower(int lfd, const char *mode)
{
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            _exit(0);
        char msg[256];
        for (;;) {
            read_message(fd, msg, sizeof msg);
            bool my_turn = false;
            if (msg[0] == '\0')
                break;
            if (msg[0] == 'R') {
                send_text(fd, "Afake                            0");
                my_turn = msg[35] == 'W';
            } else if (msg[0] == 'M') {
                my_turn = true;
            } else if (msg[0] == 'E') {
                send_text(fd, "E00");
            }
            if (!my_turn)
                continue;
            if (strcmp(mode, "illegal") == 0)
                send_text(fd, "M0000010200");
            else if (strcmp(mode, "garbage") == 0)
                send_text(fd, "M??");
            else if (strcmp(mode, "crash") == 0)
                break;
        }
        close(fd);
    }
}

static void initiator_against(const char *mode, const char *reason, const char *limits)
{
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t n = sizeof a;
    assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(lfd, 4), 0);
    assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &n), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        fake_follower(lfd, mode);
    close(lfd);
    char db[256], out[1 << 14], sql[256];
    snprintf(db, sizeof db, "%s/%s.db", tmp, mode);
    int code = test_dama_run(out, sizeof out, "match -v intl --db %s --a default --dxp-b 127.0.0.1:%d --games 2 "
                             "--hash 2 %s", db, ntohs(a.sin_port), limits);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    if (code != 0)
        fail_msg("%s: exit %d\n%s", mode, code, out);
    /* A wins both games, whatever colour the fake held, with the fake's reason */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE reason = '%s' AND result = "
             "CASE game_index WHEN 0 THEN 'white' ELSE 'black' END", reason);
    if (query_long(db, sql) != 2)
        fail_msg("%s: expected two games lost by %s:\n%s", mode, reason, out);
}

static void test_initiator_survives_bad_peers(void **state)
{
    (void)state;
    initiator_against("illegal", "illegal-move", "--nodes 300");
    initiator_against("crash", "engine-crash", "--nodes 300");
    initiator_against("garbage", "engine-crash", "--nodes 300");
    initiator_against("silent", "time-forfeit", "--clock 1 --engine-margin 200");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_examples),
        cmocka_unit_test(test_game_request),
        cmocka_unit_test(test_bad_messages),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_dama_follows_dama_initiates),
        cmocka_unit_test(test_match_dxp_side),
        cmocka_unit_test(test_follower_survives_bad_peers),
        cmocka_unit_test(test_initiator_survives_bad_peers),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
