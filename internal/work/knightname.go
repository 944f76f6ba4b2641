package work

import (
	"fmt"
	"strconv"
	"strings"

	kcount "github.com/chesspuzzles/chesspuzzles/knight/count"
)

// The knight plans' names. A knight plan is a pure function of its name, "8x8 open-ends
// v1": its board, its kind and the kind's version. Files, checkpoints and cluster jobs
// carry the name, and a worker or a merge makes the plan again from it alone
// ([NewKnightPlan], a millisecond for an 8×8 open-ends plan).

// KindOpenEnds is the kind of the plans of a task for each class of pairs of end squares
// (kcount.NewOpenPlan).
const KindOpenEnds = "open-ends"

// KindOpenSplit is the family of the split plans' kinds (kcount.NewSplitPlan): each is
// "open-split-" and its levels, and a worker that runs one runs them all.
const KindOpenSplit = "open-split"

// KnightPlanName returns the name of the knight plan of a kind and version on a rows×cols
// board: "8x8 open-ends v1".
func KnightPlanName(rows, cols int, kind string, version int) string {
	return fmt.Sprintf("%dx%d %s v%d", rows, cols, kind, version)
}

// ParseKnightPlanName is the inverse of KnightPlanName. A kind is made of lower-case
// letters, digits and dashes.
func ParseKnightPlanName(name string) (rows, cols int, kind string, version int, err error) {
	bad := fmt.Errorf("plan name %q: want <rows>x<cols> <kind> v<version>, as \"8x8 open-ends v1\"", name)
	f := strings.Fields(name)
	if len(f) != 3 || strings.Join(f, " ") != name {
		return 0, 0, "", 0, bad
	}
	rs, cs, ok := strings.Cut(f[0], "x")
	vs, ok2 := strings.CutPrefix(f[2], "v")
	rows, err1 := strconv.Atoi(rs)
	cols, err2 := strconv.Atoi(cs)
	version, err3 := strconv.Atoi(vs)
	if !ok || !ok2 || err1 != nil || err2 != nil || err3 != nil || rows < 1 || cols < 1 || version < 1 || !kindOK(f[1]) ||
		KnightPlanName(rows, cols, f[1], version) != name {
		return 0, 0, "", 0, bad
	}
	return rows, cols, f[1], version, nil
}

// kindOK reports whether kind is made of lower-case letters, digits and dashes.
func kindOK(kind string) bool {
	if kind == "" {
		return false
	}
	for _, c := range kind {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// KnightKinds returns the knight plan kinds (split plans by their family, KindOpenSplit),
// each with its version, that NewKnightPlan makes: "open-ends v1", "open-split v1".
func KnightKinds() []string {
	return []string{KindOpenEnds + " v" + strconv.Itoa(kcount.OpenPlanVersion), KindOpenSplit + " v" + strconv.Itoa(kcount.SplitPlanVersion)}
}

// KnightFamily returns the family of a knight plan kind, as KnightKinds lists them:
// "open-split" for every "open-split-LEVELS", else the kind itself.
func KnightFamily(kind string) string {
	if strings.HasPrefix(kind, KindOpenSplit+"-") {
		return KindOpenSplit
	}
	return kind
}

// NewKnightPlan returns the knight plan a name names (see [KnightPlanName]), as this build
// makes it, or an error saying which names it can make. It takes the plan's construction
// time (a millisecond for an 8×8 open-ends plan).
func NewKnightPlan(name string) (*KnightPlan, error) {
	rows, cols, kind, version, err := ParseKnightPlanName(name)
	if err != nil {
		return nil, err
	}
	if kind == KindOpenEnds {
		if version != kcount.OpenPlanVersion {
			return nil, fmt.Errorf("plan %q: this build makes %s plans of version %d only", name, kind, kcount.OpenPlanVersion)
		}
		p, err := kcount.NewOpenPlan(rows, cols)
		if err != nil {
			return nil, err
		}
		return Knight(p), nil
	}
	levels, ok := strings.CutPrefix(kind, KindOpenSplit+"-")
	if !ok {
		return nil, fmt.Errorf("plan %q: this build makes plans of kind %s and open-split-LEVELS only", name, KindOpenEnds)
	}
	if version != kcount.SplitPlanVersion {
		return nil, fmt.Errorf("plan %q: this build makes open-split plans of version %d only", name, kcount.SplitPlanVersion)
	}
	ls, err := kcount.ParseSplitLevels(levels)
	if err != nil {
		return nil, err
	}
	p, err := kcount.NewSplitPlan(rows, cols, ls)
	if err != nil {
		return nil, err
	}
	if p.Name() != name {
		return nil, fmt.Errorf("plan %q: this build names it %q", name, p.Name())
	}
	return Knight(p), nil
}
