/* The page's files (web/) and the charting library (libjs-dygraphs), from disk only: a path
 * with a ".." segment, a backslash or an absolute path is refused (404), and so is a file
 * whose real path (every symbolic link followed) is not inside the real path of its
 * directory: nothing outside the two directories is ever served, whatever links they
 * hold.  A link to a file inside its directory is served. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api_json.h"
#include "server.h"

#define MAX_FILE_BYTES (16 << 20)

static const char *content_type(const char *path)
{
    static const struct { const char *ext, *type; } types[] = {
        { ".html", "text/html; charset=utf-8" },
        { ".css", "text/css; charset=utf-8" },
        { ".js", "text/javascript; charset=utf-8" },
        { ".json", "application/json" },
        { ".map", "application/json" },
        { ".svg", "image/svg+xml" },
        { ".png", "image/png" },
        { ".ico", "image/x-icon" },
        { ".txt", "text/plain; charset=utf-8" },
    };
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(dot, types[i].ext) == 0)
            return types[i].type;
    return "application/octet-stream";
}

/* A relative path of plain segments: no "..", no ".", no empty segment, no backslash. */
static bool safe_relative(const char *rel)
{
    if (!rel || !rel[0] || rel[0] == '/' || strchr(rel, '\\'))
        return false;
    for (const char *seg = rel; *seg;) {
        size_t n = strcspn(seg, "/");
        if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
            return false;
        seg += n;
        if (*seg == '/')
            seg++;
    }
    return true;
}

/* The real path of dir/rel into real (PATH_MAX bytes) when it lies inside dir's own real
 * path; false otherwise (or when it does not exist). */
static bool real_path_inside(const char *dir, const char *rel, char *real)
{
    char path[PATH_MAX], root[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, rel) >= (int)sizeof path || !realpath(dir, root) ||
        !realpath(path, real))
        return false;
    size_t n = strlen(root);
    return strncmp(real, root, n) == 0 && (real[n] == '/' || (n == 1 && root[0] == '/'));
}

/* Replies with dir/rel, or 404. */
static void send_file(const char *dir, const char *rel, HttpReply *reply)
{
    char path[PATH_MAX];
    if (!dir || !safe_relative(rel) || !real_path_inside(dir, rel, path)) {
        reply_error(reply, 404, "no such file");
        return;
    }
    /* path has no link left: one swapped in since is not followed */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_FILE_BYTES) {
        if (fd >= 0)
            close(fd);
        reply_error(reply, 404, "no such file: %s", rel);
        return;
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *data = malloc(len + 1);
    while (data && got < len) {
        ssize_t n = read(fd, data + got, len - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!data || got != len) {
        free(data);
        reply_error(reply, 500, "cannot read %s", rel);
        return;
    }
    http_reply_take(reply, 200, content_type(path), data, len);
}

void route_index(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req, (void)args;
    send_file(srv->web_dir, "index.html", reply);
}

void route_static(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    send_file(srv->web_dir, args->rest, reply);
}

void route_dygraphs(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    send_file(srv->dygraphs_dir, args->rest, reply);
}
