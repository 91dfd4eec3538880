#!/bin/sh
# Writes a C file defining `const char NAME[]` holding the text of FILE (used to compile the
# schemas into the library).  Written here with sed because xxd is not part of a base install.
set -eu
name="$1"; file="$2"
echo "/* generated from $file by scripts/embed.sh - do not edit */"
echo "#if defined(__GNUC__)"
echo "#pragma GCC diagnostic ignored \"-Woverlength-strings\""
echo "#endif"
echo "const char $name[] ="
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$file"
echo ";"
