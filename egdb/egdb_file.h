/* One endgame class on disk: a 128-byte header, then the table's two-bit values
 * (egdb_table.h) compressed with zlib.  Header, integers little-endian:
 *
 *     0  "DAMAEGDB"                    96  positions: the class's indices (u64)
 *     8  format version (u32)         104  payload bytes after the header (u64)
 *    12  class: own men, own kings,   112  CRC32 of the payload (u32)
 *        other men, other kings (u8)  116  zero (8 bytes)
 *    16  variant name (16 bytes)      124  CRC32 of bytes 0..123 (u32)
 *    32  rules text (64 bytes: rules_describe, the rules the values hold under)
 *
 * A file is written under a temporary name, synced and renamed, so a file with the class's
 * name was written whole; a reader still checks every field and both checksums and refuses
 * the file with a message naming it. */
#ifndef DAMA_EGDB_FILE_H
#define DAMA_EGDB_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "egdb_table.h"

#define EGDB_HEADER_SIZE 128
#define EGDB_FORMAT_VERSION 1

/* DIR/VARIANT-CLASS.egdb, e.g. "dbs/turkish-1001.egdb". */
void egdb_file_path(const char *dir, const Variant *v, EgdbClass cls, char *buf, size_t len);

/* Writes t for the rules described by rules_text (temporary name, fsync, rename, fsync of
 * the directory); false with err naming the path (no file of that name left behind). */
bool egdb_file_write(const char *path, const EgdbTable *t, const char *rules_text, char *err,
                     size_t errlen);
/* Reads path into t (allocated here) after checking magic, version, variant, class, rules,
 * sizes and checksums; false with err naming the path and what is wrong. */
bool egdb_file_read(const char *path, const Variant *v, EgdbClass cls, const char *rules_text,
                    EgdbTable *t, char *err, size_t errlen);

#endif
