package work

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// Plans made again from their job id. A worker on another machine, or a merge of shard
// files, has nothing of a plan but its job id ([Plan.Job]); the kind of the id, its
// leading lower-case letters ("q" of "q17v1", "k" of "k8x8-open-ends-v1", "toy" of
// "toy12-5-v1"), says which function makes the plan again. Queens and knight plans are
// known to every build; a third kind of count registers its function once, before any
// runner sees its job ([RegisterKind]): that and its Plan are all it writes to run on the
// cluster.

// kinds holds the function of each kind.
var kinds = struct {
	sync.RWMutex
	open map[string]func(job string) (Plan, error)
}{open: map[string]func(string) (Plan, error){"q": openQueens, "k": openKnight}}

// RegisterKind makes OpenJob make the plans of kind (lower-case letters: the job ids'
// leading letters) by open, which returns the plan of a job id of that kind as this build
// makes it, or why it cannot. A second registration of a kind replaces the first. It is
// safe for concurrent use.
func RegisterKind(kind string, open func(job string) (Plan, error)) {
	if kind == "" || JobKind(kind) != kind {
		panic(fmt.Sprintf("work.RegisterKind: kind %q is not lower-case letters", kind))
	}
	kinds.Lock()
	defer kinds.Unlock()
	kinds.open[kind] = open
}

// Kinds returns the kinds OpenJob makes plans of, sorted.
func Kinds() []string {
	kinds.RLock()
	defer kinds.RUnlock()
	var ks []string
	for k := range kinds.open {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// JobKind returns the kind of a job id: its leading lower-case ASCII letters.
func JobKind(job string) string {
	i := strings.IndexFunc(job, func(c rune) bool { return c < 'a' || c > 'z' })
	if i < 0 {
		return job
	}
	return job[:i]
}

// OpenJob returns the plan whose id is job, made by the function of its kind, not built
// (see [Build]), or why this build cannot make it. A queens plan costs nothing until it is
// built; a knight plan about a millisecond.
func OpenJob(job string) (Plan, error) {
	kinds.RLock()
	open := kinds.open[JobKind(job)]
	kinds.RUnlock()
	if open == nil {
		return nil, fmt.Errorf("job %q is of no kind this build runs (it runs %s)", job, strings.Join(Kinds(), ", "))
	}
	p, err := open(job)
	if err == nil && p.Job() != job {
		err = fmt.Errorf("job %q: this build makes the plan %q of it", job, p.Job())
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// openQueens returns the queens plan of job "q<N>v<version>", by its version's method.
func openQueens(job string) (Plan, error) {
	n, v, err := ParseQueensJob(job)
	if err != nil {
		return nil, err
	}
	p, err := queens.NewPlan(n, "", v)
	if err != nil {
		return nil, err
	}
	return Queens(p), nil
}

// ParseQueensJob is the inverse of [QueensJob].
func ParseQueensJob(job string) (n, v int, err error) {
	if k, _ := fmt.Sscanf(job, "q%dv%d", &n, &v); k != 2 || n < 1 || v < 1 || QueensJob(n, v) != job {
		return 0, 0, fmt.Errorf("a queens job id looks like q<N>v<plan version>, got %q", job)
	}
	return n, v, nil
}

// openKnight returns the knight plan of job "k<rows>x<cols>-<kind>-v<version>".
func openKnight(job string) (Plan, error) {
	name, err := ParseKnightJob(job)
	if err != nil {
		return nil, err
	}
	return NewKnightPlan(name)
}

// ParseKnightJob returns the name of the knight plan whose job id is job (the inverse of
// [KnightPlan.Job]: "k8x8-open-ends-v1" is "8x8 open-ends v1").
func ParseKnightJob(job string) (string, error) {
	bad := fmt.Errorf("a knight job id looks like k<rows>x<cols>-<kind>-v<version>, got %q", job)
	rest, ok := strings.CutPrefix(job, "k")
	size, rest, ok2 := strings.Cut(rest, "-")
	i := strings.LastIndex(rest, "-v")
	if !ok || !ok2 || i < 0 {
		return "", bad
	}
	name := size + " " + rest[:i] + " v" + rest[i+2:]
	if _, _, _, _, err := ParseKnightPlanName(name); err != nil || "k"+strings.ReplaceAll(name, " ", "-") != job {
		return "", bad
	}
	return name, nil
}

// A TaskChecker is a [Plan] that takes a task from its description alone, without making
// its task list: CheckTask returns the task t describes as the plan makes it, or why t is
// none of its tasks. A worker given a task of a plan whose list takes minutes to make (a
// queens plan of N = 27) checks it so; a worker of any other plan makes the plan and
// compares.
type TaskChecker interface {
	CheckTask(t Task) (Task, error)
}

// A MemoryBounder is a [Plan] whose tasks' memory a runner bounds: past bytes a task
// returns an error instead of growing (0: no bound).
type MemoryBounder interface {
	BoundMemory(bytes int64)
}

// A SumChecker is a [Plan] with published values besides its total (a queens plan: U(N)):
// CheckSums returns why the plan's total and the weighted sums of its counters, by name,
// cannot be the plan's, or nil. Runners call it on a whole plan's sums only.
type SumChecker interface {
	CheckSums(total *big.Int, sums map[string]*big.Int) error
}
