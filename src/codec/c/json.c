#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *at;
  const char *start;
  char *error;
  size_t error_size;
  int failed;
} reader;

static void fail(reader *r, const char *what) {
  if (!r->failed) snprintf(r->error, r->error_size, "%s at byte %ld", what, (long)(r->at - r->start));
  r->failed = 1;
}

static void skip_space(reader *r) {
  while (*r->at == ' ' || *r->at == '\t' || *r->at == '\n' || *r->at == '\r') r->at++;
}

static int literal(reader *r, const char *word) {
  size_t n = strlen(word);
  if (strncmp(r->at, word, n) != 0) return 0;
  r->at += n;
  return 1;
}

static void *grow(void *items, size_t count, size_t size) {
  /* Capacity doubles at powers of two, so growing one item at a time stays linear. */
  if (count & (count - 1)) return items;
  void *more = realloc(items, (count ? count * 2 : 1) * size);
  if (!more) {
    fputs("out of memory\n", stderr);
    exit(2);
  }
  return more;
}

static int hex4(reader *r, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = *r->at++;
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return 0;
  }
  *out = v;
  return 1;
}

static size_t put_utf8(char *out, unsigned cp) {
  if (cp < 0x80) { out[0] = (char)cp; return 1; }
  if (cp < 0x800) { out[0] = (char)(0xc0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | cp >> 18);
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* A string after its opening quote; escapes never make it longer than the source, so one
 * allocation of the source length is enough. */
static char *read_string(reader *r, size_t *length) {
  const char *end = r->at;
  while (*end && *end != '"') end += (*end == '\\' && end[1]) ? 2 : 1;
  if (!*end) { fail(r, "unterminated string"); return NULL; }
  char *out = grow(NULL, 0, (size_t)(end - r->at) + 1);
  size_t n = 0;
  while (r->at < end) {
    char c = *r->at++;
    if ((unsigned char)c < 0x20) { fail(r, "control character in a string"); break; }
    if (c != '\\') { out[n++] = c; continue; }
    static const char escapes[] = "\"\\/bfnrt", meanings[] = "\"\\/\b\f\n\r\t";
    char e = *r->at++;
    const char *plain = e ? strchr(escapes, e) : NULL;
    if (plain) { out[n++] = meanings[plain - escapes]; continue; }
    unsigned cp, low;
    if (e != 'u' || !hex4(r, &cp)) { fail(r, "bad escape in a string"); break; }
    if (cp >= 0xd800 && cp < 0xdc00) {
      if (r->at[0] != '\\' || r->at[1] != 'u') { fail(r, "lone surrogate in a string"); break; }
      r->at += 2;
      if (!hex4(r, &low) || low < 0xdc00 || low > 0xdfff) { fail(r, "bad surrogate pair in a string"); break; }
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    }
    n += put_utf8(out + n, cp);
  }
  out[n] = '\0';
  *length = n;
  r->at = end + 1;
  if (r->failed) { free(out); return NULL; }
  return out;
}

static int read_value(reader *r, json *v, int depth) {
  memset(v, 0, sizeof *v);
  if (depth > 64) { fail(r, "nested too deeply"); return 0; }
  skip_space(r);
  char c = *r->at;
  if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
    r->at++;
    skip_space(r);
    if (*r->at == close) { r->at++; return 1; }
    for (;;) {
      char *key = NULL;
      if (v->type == JSON_OBJECT) {
        skip_space(r);
        size_t key_length;
        if (*r->at != '"') { fail(r, "expected a member name"); return 0; }
        r->at++;
        if (!(key = read_string(r, &key_length))) return 0;
        skip_space(r);
        if (*r->at != ':') { free(key); fail(r, "expected ':'"); return 0; }
        r->at++;
        v->keys = grow(v->keys, v->count, sizeof *v->keys);
        v->keys[v->count] = key;
      }
      v->items = grow(v->items, v->count, sizeof *v->items);
      int ok = read_value(r, &v->items[v->count], depth + 1);
      v->count++;
      if (!ok) return 0;
      skip_space(r);
      if (*r->at == ',') { r->at++; continue; }
      if (*r->at == close) { r->at++; return 1; }
      fail(r, v->type == JSON_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
      return 0;
    }
  }
  if (c == '"') {
    r->at++;
    v->type = JSON_STRING;
    return (v->string = read_string(r, &v->length)) != NULL;
  }
  if (literal(r, "null")) { v->type = JSON_NULL; return 1; }
  if (literal(r, "true")) { v->type = JSON_TRUE; return 1; }
  if (literal(r, "false")) { v->type = JSON_FALSE; return 1; }
  if (c == '-' || (c >= '0' && c <= '9')) {
    char *end;
    v->type = JSON_NUMBER;
    v->number = strtod(r->at, &end);
    if (end == r->at) { fail(r, "bad number"); return 0; }
    r->at = end;
    return 1;
  }
  fail(r, "expected a JSON value");
  return 0;
}

static void free_value(json *v) {
  for (size_t i = 0; i < v->count; i++) {
    free_value(&v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
}

json *json_parse(const char *text, char *error, size_t error_size) {
  reader r = { text, text, error, error_size, 0 };
  json *v = grow(NULL, 0, sizeof *v);
  int ok = read_value(&r, v, 0);
  skip_space(&r);
  if (ok && *r.at) fail(&r, "text after the JSON value");
  if (r.failed) { json_free(v); return NULL; }
  return v;
}

const json *json_get(const json *object, const char *key) {
  if (!object || object->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; i++) {
    if (strcmp(object->keys[i], key) == 0) return &object->items[i];
  }
  return NULL;
}

void json_free(json *value) {
  if (!value) return;
  free_value(value);
  free(value);
}
