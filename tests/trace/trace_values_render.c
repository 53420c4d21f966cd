/* trace_values_render.c: decodes captured calls (written by
 * tests/trace/gdb_capture.py) with gostat's decoder and the layouts
 * gorewrite computes, one line per call: `main.add(a=3, b=6) = 9`, then
 * the same call as the JSON arrays of `gostat trace --json`.
 * Usage: trace_values_render BINARY CAPTURES */
#include "rewriter/find/find.h"
#include "rewriter/find/program.h"
#include "rewriter/find/trace_layout.h"
#include "gostat/render/trace_values.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXW = GR_TRACE_MAX_WORDS, MAXB = GR_TRACE_MAX_BYTES };

struct cap {
    uint64_t words[MAXW];
    size_t nwords;
    uint8_t data[MAXB][64];
    const uint8_t *bytes[MAXB];
    uint32_t len[MAXB], full[MAXB];
    size_t nbytes;
    int present;
};

static void read_words(char *line, struct cap *c)
{
    memset(c, 0, sizeof *c);
    c->present = 1;
    for (char *tok = strtok(line, " \n"); tok && c->nwords < MAXW; tok = strtok(NULL, " \n"))
        c->words[c->nwords++] = strtoull(tok, NULL, 16);
}

static void read_bytes(char *line, struct cap *c)
{
    if (c->nbytes >= MAXB)
        return;
    size_t i = c->nbytes++;
    char *hex = strchr(line, ' ');
    c->full[i] = (uint32_t)strtoul(line, NULL, 10);
    c->bytes[i] = c->data[i];
    for (hex = hex ? hex + 1 : NULL; hex && hex[0] && hex[1] && hex[0] != '-' && hex[0] != '\n' &&
                                     c->len[i] < 64; hex += 2) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        c->data[i][c->len[i]++] = (uint8_t)v;
    }
}

static struct gst_trace_capture view(const struct cap *c)
{
    return (struct gst_trace_capture){.words = c->words, .nwords = c->nwords, .bytes = c->bytes,
                                      .bytes_len = c->len, .bytes_full = c->full, .nbytes = c->nbytes};
}

static void render(const struct gr_program *prog, const char *func, const struct cap *in,
                   const struct cap *out)
{
    const struct gr_func *f = gr_program_func_named(prog, func);
    struct gr_trace_layout l;
    struct gr_error err;
    if (!f || gr_trace_layout_of(prog, f, &l, &err) < 0) {
        printf("%s: no layout\n", func);
        return;
    }
    struct gst_trace_capture ci = view(in), co = view(out);
    struct gr_strbuf a = {0}, r = {0}, ja = {0}, jr = {0};
    int rc = gst_trace_values_text(l.desc, l.desc_len, 0, &ci, out->present ? &co : NULL, &a, &r);
    rc |= gst_trace_values_json(l.desc, l.desc_len, 0, &ci, out->present ? &co : NULL, &ja, &jr);
    if (rc < 0)
        printf("%s: decoding failed\n", func);
    else
        printf("%s(%s) = %s\n  %s %s\n", func, gr_strbuf_str(&a), gr_strbuf_str(&r), gr_strbuf_str(&ja),
               gr_strbuf_str(&jr));
    gr_strbuf_free(&a);
    gr_strbuf_free(&r);
    gr_strbuf_free(&ja);
    gr_strbuf_free(&jr);
    gr_trace_layout_free(&l);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s BINARY CAPTURES\n", argv[0]);
        return 2;
    }
    struct gr_elf elf;
    struct gr_program prog;
    struct gr_error err;
    FILE *in = fopen(argv[2], "r");
    if (!in || gr_elf_read(argv[1], &elf, &err) < 0 || gr_find_program(&elf, 0, &prog, &err) < 0) {
        fprintf(stderr, "%s\n", in ? err.msg : "cannot open the captures");
        return 1;
    }
    static struct cap entry, ret, again;
    char func[4096] = "", line[4096], next[4096];
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "CALL ", 5) == 0) {
            snprintf(next, sizeof next, "%s", line + 5);
            next[strcspn(next, "\n")] = 0;
            /* entered again with the same words and no return: runtime.morestack
             * grew the stack and restarted the function; one call */
            long at = ftell(in);
            int same = 0;
            if (func[0] && !ret.present && strcmp(func, next) == 0 && fgets(line, sizeof line, in)) {
                read_words(line + 1, &again);
                same = again.nwords == entry.nwords &&
                       memcmp(again.words, entry.words, entry.nwords * sizeof entry.words[0]) == 0;
            }
            fseek(in, at, SEEK_SET);
            if (func[0] && !same)
                render(&prog, func, &entry, &ret);
            snprintf(func, sizeof func, "%s", next);
            memset(&ret, 0, sizeof ret);
        } else if (strncmp(line, "E ", 2) == 0 || strcmp(line, "E\n") == 0) {
            read_words(line + 1, &entry);
        } else if (strncmp(line, "EB ", 3) == 0) {
            read_bytes(line + 3, &entry);
        } else if (strncmp(line, "X ", 2) == 0 || strcmp(line, "X\n") == 0) {
            read_words(line + 1, &ret);
        } else if (strncmp(line, "XB ", 3) == 0) {
            read_bytes(line + 3, &ret);
        }
    }
    if (func[0])
        render(&prog, func, &entry, &ret);
    fclose(in);
    gr_program_free(&prog);
    gr_elf_free(&elf);
    return 0;
}
