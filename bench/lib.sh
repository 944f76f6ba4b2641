# lib.sh: the lines every bench script shares. A script sources it first, sets its
# defaults and reads its flags:
#
#	. "$(dirname "$0")/lib.sh"
#	rounds=3 big=0
#	flags "[-r ROUNDS] [-8] [N ...]" r:rounds 8+big -- "$@"
#	shift $((OPTIND - 1))
#
# It moves to the module root and makes a temporary directory $tmp, removed on exit (a
# script that starts processes sets its own EXIT trap, which stops them and removes $tmp).
# POSIX sh, so that the sh and the bash scripts source the same file.
#
#	flags USAGE SPEC... -- ARGS
#	                     reads the flags at the start of ARGS with getopts: a SPEC x:VAR
#	                     makes -x VALUE set VAR, x+VAR makes -x set VAR to 1; any other
#	                     flag prints "usage: SCRIPT USAGE" and exits 2. The script then
#	                     shifts $((OPTIND - 1)) to its operands.
#	build PKG NAME       go build ./PKG into $tmp/NAME
#	machine [MORE]       prints "machine: 2 cores, MODEL, load 1.0 1.2 1.5[; MORE]", the line
#	                     every script starts its output with, so that a figure names its load
#	median [FILE [COL]]  the median of column COL (default 1) of FILE (default: standard
#	                     input), numbers one a line
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

flags() {
	_usage=$1 _spec= _vars=
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		case $1 in
		?:?*) _spec=$_spec${1%%:*}: ;;
		?+?*) _spec=$_spec${1%%+*} ;;
		*) echo "flags: bad SPEC \"$1\" in $0" >&2; exit 2 ;;
		esac
		_vars="$_vars $1"
		shift
	done
	if [ $# -gt 0 ]; then shift; fi
	OPTIND=1
	while getopts "$_spec" _opt; do
		_set=0
		for _v in $_vars; do
			case $_v in
			"$_opt":*) eval "${_v#?:}=\$OPTARG" && _set=1 ;;
			"$_opt"+*) eval "${_v#?+}=1" && _set=1 ;;
			esac
		done
		[ $_set = 1 ] || { echo "usage: $0 $_usage" >&2; exit 2; }
	done
}

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

# alternate R WORD...: the words in their order on an odd round R and reversed on an even one,
# so that no method always runs first (a warm cache, a quieter minute).
alternate() {
	local r=$1
	shift
	if ((r % 2 == 0)); then printf '%s\n' "$@" | tac | tr '\n' ' '; else echo "$*"; fi
}

# cpu NAME METHOD: the median CPU seconds of that board and method in $tmp/out, whose lines
# are "name method cpu-s …".
cpu() { awk -v n="$1" -v m="$2" '$1 == n && $2 == m { print $3 }' "$tmp/out" | median; }
