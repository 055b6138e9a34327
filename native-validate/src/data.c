/* Buffer contents that say who wrote them: byte i of block `block` sent by rank `src` from rotation
 * buffer `rot` holds a value of all four, so a block delivered to the wrong place, from the wrong
 * rank or from a previous iteration's buffer fails the check. */
#include "native.h"

static inline unsigned char pattern(size_t i, int src, int block, int rot) {
  return (unsigned char)(i * 7u + (size_t)src * 31u + (size_t)block * 13u + (size_t)rot * 101u + (i >> 8) * 3u);
}

void fill_block(char *buf, size_t bytes, int src, int block, int rot) {
  for (size_t i = 0; i < bytes; i++) buf[i] = (char)pattern(i, src, block, rot);
}

int check_block(const char *buf, size_t bytes, int src, int block, int rot) {
  for (size_t i = 0; i < bytes; i++)
    if ((unsigned char)buf[i] != pattern(i, src, block, rot)) return 0;
  return 1;
}
