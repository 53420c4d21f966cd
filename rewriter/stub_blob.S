/* stub_blob.S: embeds the built stub blob (build/stubs/blob.bin) into gorewrite. */
    .section .rodata
    .balign 16
    .globl gr_stub_blob
    .globl gr_stub_blob_end
gr_stub_blob:
    .incbin BLOB_PATH
gr_stub_blob_end:
    .section .note.GNU-stack,"",@progbits
