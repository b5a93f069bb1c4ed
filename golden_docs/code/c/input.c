#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_SIZE 64

/* A growable byte buffer. */
struct buffer {
    char *data;
    size_t len;
    size_t cap;
};

/* Makes room for n more bytes. */
static int buffer_reserve(struct buffer *b, size_t n) {
    if (b->len + n <= b->cap) {
        return 0;
    }
    size_t cap = b->cap ? b->cap * 2 : BUF_SIZE;
    char *data = realloc(b->data, cap);
    if (!data) {
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

int buffer_append(struct buffer *b, const char *s) {
    size_t n = strlen(s);
    if (buffer_reserve(b, n) != 0) {
        return -1;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}
