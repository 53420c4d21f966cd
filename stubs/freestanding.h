/* freestanding.h: the stubs' one copy of the string, memory and file
 * helpers that libc would give (the stubs run before the Go runtime,
 * without libc: stubs/startup.c, stubs/finish.c). */
#ifndef GS_FREESTANDING_H
#define GS_FREESTANDING_H

#include <stddef.h>
#include <stdint.h>

size_t gs_str_len(const char *s);
int gs_starts_with(const char *s, const char *prefix);
void gs_mem_copy(void *dst, const void *src, size_t n);
void gs_zero(void *p, uint64_t n);
int gs_bytes_equal(const uint8_t *a, const uint8_t *b, uint64_t n);

/* Appends n bytes of src to buf[*len], as many as fit before cap - 1, and
 * keeps buf NUL-terminated. -1 when src was cut (a path must then not be
 * used), else 0. */
int gs_append(char *buf, size_t *len, size_t cap, const char *src, size_t n);
int gs_append_str(char *buf, size_t *len, size_t cap, const char *src);
int gs_append_u64(char *buf, size_t *len, size_t cap, uint64_t v);
int gs_append_hex64(char *buf, size_t *len, size_t cap, uint64_t v);

/* Appends name with each byte of every unit that may not reach a
 * terminal (format/text_rule.h) as '_', so that a program named "app\e]0;x\a"
 * cannot put terminal escapes into directory listings; -1 (nothing more
 * appended) when it does not fit. */
int gs_append_safe_name(char *buf, size_t *len, size_t cap, const char *name);

/* All len bytes at file offset off: 0, or a negative errno (-1 for a
 * write of nothing). read_all reads zeros past the file's end. */
long gs_write_all(long fd, const void *buf, uint64_t len, uint64_t off);
long gs_read_all(long fd, void *buf, uint64_t len, uint64_t off);

#endif
