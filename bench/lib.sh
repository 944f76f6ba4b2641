# lib.sh: the lines every bench script shares. A script sources it first, after its flags:
#
#	. "$(dirname "$0")/lib.sh"
#
# It moves to the module root and makes a temporary directory $tmp, removed on exit (a
# script that starts processes sets its own EXIT trap, which stops them and removes $tmp).
# POSIX sh, so that the sh and the bash scripts source the same file.
#
#	build PKG NAME       go build ./PKG into $tmp/NAME
#	machine [MORE]       prints "machine: 2 cores, MODEL, load 1.0 1.2 1.5[; MORE]", the line
#	                     every script starts its output with, so that a figure names its load
#	median [FILE [COL]]  the median of column COL (default 1) of FILE (default: standard
#	                     input), numbers one a line
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { go build -o "$tmp/$2" "./$1"; }

machine() {
	printf 'machine: %s cores, %s, load %s%s\n' "$(nproc)" \
		"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" "${1:+; $1}"
}

median() {
	awk -v c="${2:-1}" '{ print $c }' "${1:--}" | sort -g |
		awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
