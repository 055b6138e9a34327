#!/bin/sh
# Builds the native backend from source with this machine's C compiler: native-validate/build/intranode-native.
# `intranode calibrate` and `intranode validate` run it when the binary is missing or older than a source.
# Exit status 3 when no C compiler is found.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
if ! command -v "$cc" > /dev/null 2>&1; then
  echo "intranode-native: no C compiler: '$cc' is not on PATH (install gcc or clang, or set CC)" >&2
  exit 3
fi
mkdir -p "$here/build"
"$cc" -std=c11 -O2 -Wall -Wextra -Werror -o "$here/build/intranode-native.tmp" "$here"/src/*.c -lrt
mv "$here/build/intranode-native.tmp" "$here/build/intranode-native"
echo "$here/build/intranode-native"
