/* A small JSON reader for the codec's test vectors: the whole document as a tree. */
#ifndef FLEET_JSON_H
#define FLEET_JSON_H

#include <stddef.h>

typedef enum { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json json;
struct json {
  json_type type;
  double number;   /* JSON_NUMBER */
  char *string;    /* JSON_STRING: UTF-8, NUL-terminated (escapes decoded) */
  size_t length;   /* JSON_STRING: bytes, without the NUL */
  json *items;     /* JSON_ARRAY, JSON_OBJECT: the elements or member values, in order */
  char **keys;     /* JSON_OBJECT: the member names, one per item */
  size_t count;    /* JSON_ARRAY, JSON_OBJECT: number of items */
};

/* Parses `text`; NULL with a message in `error` when it is not one JSON value. */
json *json_parse(const char *text, char *error, size_t error_size);

/* The member `key` of an object, or NULL (also when `object` is not an object). */
const json *json_get(const json *object, const char *key);

void json_free(json *value);

#endif
