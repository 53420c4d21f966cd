/* fuzz_trace_desc.c: libFuzzer harness over gostat's trace values:
 * gst_trace_desc_check on an untrusted descriptor and, when it passes,
 * both decoders (trace_values.c) on untrusted captured words and byte
 * copies. Input: a 2-byte descriptor length, the descriptor, then the
 * words (entry and return captures share them) and the byte copies' data. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gostat/render/trace_values.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t dlen = (size_t)data[0] | (size_t)data[1] << 8;
    if (dlen > size - 2)
        dlen = size - 2;
    const uint8_t *desc = data + 2, *rest = desc + dlen;
    size_t nrest = size - 2 - dlen;
    if (gst_trace_desc_check(desc, dlen) < 0)
        return 0;
    uint64_t words[64] = {0};
    size_t nwords = nrest / 8 < 64 ? nrest / 8 : 64;
    memcpy(words, rest, nwords * 8);
    const uint8_t *bytes[16];
    uint32_t len[16], full[16];
    for (size_t i = 0; i < 16; i++) {
        bytes[i] = rest;
        len[i] = (uint32_t)(nrest < 64 ? nrest : 64) >> (i % 4);
        full[i] = len[i] + (uint32_t)(i * 7);
    }
    struct gst_trace_capture c = {.words = words, .nwords = nwords, .bytes = bytes, .bytes_len = len,
                                  .bytes_full = full, .nbytes = nrest % 17};
    struct gr_strbuf a = {0}, r = {0};
    gst_trace_values_json(desc, dlen, (int64_t)(nrest * 4096), &c, nrest & 1 ? &c : NULL, &a, &r);
    gr_strbuf_reset(&a);
    gr_strbuf_reset(&r);
    gst_trace_values_text(desc, dlen, 0, &c, &c, &a, &r);
    gr_strbuf_free(&a);
    gr_strbuf_free(&r);
    return 0;
}
