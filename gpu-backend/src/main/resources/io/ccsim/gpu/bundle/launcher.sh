#!/bin/sh
# ccsim bundle launcher: the jlinked runtime, the jars, JCuda's driver library. Needs only the NVIDIA driver.
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/runtime/bin/java" ${CCSIM_JAVA_OPTS:--Xss8m} -Djava.library.path="$here/lib" \
  -cp "$here/jars/*" @MAIN_CLASS@ "$@"
