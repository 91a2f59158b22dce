// The NDK's ABI note (crtbegin_so.o's .note.android.ident): name "Android", type 1, the API
// level the library was built for (24), then the NDK version strings (empty here).
    .section .note.android.ident,"a",%note
    .balign 4
    .long 8
    .long 132
    .long 1
    .asciz "Android"
    .long 24
    .fill 128, 1, 0
