package shard

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work"
	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
)

// PlanFile is one slice of any [work.Plan] with the result of each of its tasks, as
// [ComputePlan] returns it and "knight count --plan --shard I/K -o FILE" writes it (queens
// counts keep their own [File], which replicas and the verified share need). Counts are
// decimal strings (8×8's tours pass 2⁶⁴).
//
// A knight plan's file is the format knight shard files have had since their first build
// (main 63236ff): Plan its name ("5x5 open-ends v1"), Rows and Cols its board, each result
// its ends or label, "tours" and the counters "states" and "peak". Another plan's names
// itself by its job id, has no board, and its results carry "count" and its own counters.
//
// Checksum is "sha256:" and the hex SHA-256 of the JSON that encoding/json writes for the
// record with Checksum empty. It finds a file changed after it was written (an edited
// count, a cut copy); it is no signature, which is why [MergePlan] also checks each result
// against its task (work.Plan.Check) and the total against the published count where there
// is one, and why each result carries counters a re-run reproduces.
type PlanFile struct {
	Plan     string       `json:"plan"`           // the plan's name (a knight plan's), else its job id
	Rows     int          `json:"rows,omitempty"` // the board, for a plan with one
	Cols     int          `json:"cols,omitempty"`
	Tasks    int          `json:"tasks"` // in the whole plan
	Shard    int          `json:"shard"`
	Shards   int          `json:"shards"`
	Weighed  string       `json:"weighed"` // Σ weight × count over this slice's tasks
	Results  []PlanResult `json:"results"`
	Run      string       `json:"run"` // 128 random bits in hex, new for every ComputePlan
	Checksum string       `json:"checksum"`
}

// PlanResult is one task's result in a [PlanFile], with the CPU seconds it took (not
// checked: they differ from run to run). In JSON it is one object of, in this order: "id",
// an open-ends knight task's squares "start" and "end" as "file,rank" (informative) or
// another task's "label" (its Desc), "weight", the count under CountName as a decimal
// string, each counter under its name, and "cpu_seconds".
type PlanResult struct {
	ID         int
	Start, End string
	Label      string
	Weight     int64
	CountName  string // "tours" for a knight plan, "count" for others
	Count      string
	Counters   []work.Counter
	CPUSeconds float64
}

// MarshalJSON writes r as PlanResult says.
func (r PlanResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	field := func(key string, v any) {
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		val, _ := json.Marshal(v) // strings and numbers only
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	field("id", r.ID)
	if r.Start != "" {
		field("start", r.Start)
	}
	if r.End != "" {
		field("end", r.End)
	}
	if r.Label != "" {
		field("label", r.Label)
	}
	field("weight", r.Weight)
	field(r.CountName, r.Count)
	for _, c := range r.Counters {
		field(c.Name, c.Value)
	}
	field("cpu_seconds", r.CPUSeconds)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads r as PlanResult says: a string under any other key is the count
// (one only), a whole number the next counter.
func (r *PlanResult) UnmarshalJSON(data []byte) error {
	*r = PlanResult{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := delim(dec, '{'); err != nil {
		return err
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		if seen[key] {
			return fmt.Errorf("a task result has %q twice", key)
		}
		seen[key] = true
		var p any
		switch key {
		case "id":
			p = &r.ID
		case "start":
			p = &r.Start
		case "end":
			p = &r.End
		case "label":
			p = &r.Label
		case "weight":
			p = &r.Weight
		case "cpu_seconds":
			p = &r.CPUSeconds
		}
		if p != nil {
			if err := dec.Decode(p); err != nil {
				return err
			}
			continue
		}
		v, err := dec.Token()
		if err != nil {
			return err
		}
		switch v := v.(type) {
		case string:
			if r.CountName != "" {
				return fmt.Errorf("a task result has two counts, %q and %q", r.CountName, key)
			}
			r.CountName, r.Count = key, v
		case json.Number:
			n, err := strconv.ParseUint(v.String(), 10, 64)
			if err != nil {
				return fmt.Errorf("a task result's counter %q is %s, not a whole number from 0 to 2⁶⁴−1", key, v)
			}
			r.Counters = append(r.Counters, work.Counter{Name: key, Value: n})
		default:
			return fmt.Errorf("a task result's %q is %v, neither a count nor a counter", key, v)
		}
	}
	return delim(dec, '}')
}

// SumPlan returns the checksum f should carry (see PlanFile).
func SumPlan(f PlanFile) string {
	f.Checksum = ""
	return sealed.Checksum(f)
}

// The optional methods a plan's files use.
type (
	// namer is a plan with a name for files other than its job id (a knight plan's
	// "5x5 open-ends v1").
	namer interface{ Name() string }
	// sized is a plan of a board.
	sized interface{ Size() (rows, cols int) }
	// ender is a plan whose tasks may have end squares to write.
	ender interface {
		TaskEnds(id int) (start, end string, ok bool)
	}
	// countNamer is a plan whose count has another name in files than "count".
	countNamer interface{ CountName() string }
)

// planHeader returns the fields of p's files that name the plan: Plan, Rows, Cols, Tasks.
func planHeader(p work.Plan) PlanFile {
	f := PlanFile{Plan: p.Job(), Tasks: p.Len()}
	if n, ok := p.(namer); ok {
		f.Plan = n.Name()
	}
	if s, ok := p.(sized); ok {
		f.Rows, f.Cols = s.Size()
	}
	return f
}

// countName returns the name of p's count in its files.
func countName(p work.Plan) string {
	if c, ok := p.(countNamer); ok {
		return c.CountName()
	}
	return "count"
}

// ComputePlan counts the i-th of k slices of p (work.Slice) by work.RunPlan with opts (its
// Tasks are set here; Workers 1 gives each result the CPU time it took) and returns the
// slice's PlanFile, sealed. It takes the slice's tasks' time.
func ComputePlan(ctx context.Context, p work.Plan, i, k int, opts work.Options) (PlanFile, error) {
	if err := work.Build(ctx, p); err != nil {
		return PlanFile{}, err
	}
	ids, err := work.Slice(p, i, k)
	if err != nil {
		return PlanFile{}, err
	}
	opts.Tasks = ids
	secs := map[int]float64{}
	finished := opts.Finished
	opts.Finished = func(r work.Result, cpu time.Duration) error {
		secs[r.ID], _ = strconv.ParseFloat(strconv.FormatFloat(cpu.Seconds(), 'f', 2, 64), 64)
		if finished != nil {
			return finished(r, cpu)
		}
		return nil
	}
	out, err := work.RunPlan(ctx, p, opts)
	if err != nil {
		return PlanFile{}, err
	}
	f := planHeader(p)
	f.Shard, f.Shards, f.Run = i, k, sealed.NewRun()
	name := countName(p)
	e, hasEnds := p.(ender)
	for _, r := range out.Results {
		t, err := p.Task(r.ID)
		if err != nil {
			return PlanFile{}, err
		}
		fr := PlanResult{ID: r.ID, Weight: t.Weight, CountName: name, Count: r.Count.String(), Counters: r.Counters, CPUSeconds: secs[r.ID]}
		var ok bool
		if hasEnds {
			fr.Start, fr.End, ok = e.TaskEnds(r.ID)
		}
		if !ok {
			fr.Label = t.Desc
		}
		f.Results = append(f.Results, fr)
	}
	f.Weighed = out.Total.String()
	f.Checksum = SumPlan(f)
	return f, nil
}

// MaxPlanFileBytes bounds a PlanFile: about 200 bytes a task.
const MaxPlanFileBytes = 16 << 20

// ReadPlanFile decodes the PlanFile name: one JSON object, nothing after it, at most
// MaxPlanFileBytes, read as sealed.ReadJSON reads (stopping when ctx ends). Errors but
// ctx's wrap ErrInput. It does not check the checksum.
func ReadPlanFile(ctx context.Context, name string) (PlanFile, error) {
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return PlanFile{}, inputErrorf("%q is not a regular file", name)
	}
	var f PlanFile
	_, err := sealed.ReadJSON(ctx, name, MaxPlanFileBytes, &f)
	var te *sealed.TrailingError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return PlanFile{}, err
	case errors.Is(err, sealed.ErrTooLarge):
		return PlanFile{}, inputErrorf("%q is larger than %d bytes, more than a result file may be", name, MaxPlanFileBytes)
	case errors.Is(err, sealed.ErrNotJSON), err == nil && (f.Shards < 1 || f.Plan == ""):
		return PlanFile{}, inputErrorf("%q is not the output of \"knight count --shard I/K -o FILE\"", name)
	case errors.As(err, &te):
		return PlanFile{}, inputErrorf("%q has data after its JSON object (at byte %d): a result file holds one object", name, te.At)
	case err != nil:
		return PlanFile{}, inputErrorf("reading %q: %v", name, err)
	}
	return f, nil
}

// MergePlan reads the PlanFiles names of one plan, which plan makes from the name the
// files give it (a knight plan's: work.NewKnightPlan), and returns the plan and its total.
// It refuses (ErrInput) files that are not exactly one complete plan of this build: a file
// whose checksum does not match, of another plan or board, of slices of different K, a
// slice missing or given twice (a file given twice, the same run, is refused too), a task
// that is not its slice's or whose result p.Check refuses, a slice whose weighed sum is not
// the sum of its results. It refuses the total (ErrRefused) where the plan's count is
// published and differs. It takes time linear in the files, and the plan's build.
func MergePlan(ctx context.Context, names []string, plan func(name string) (work.Plan, error)) (work.Plan, *big.Int, error) {
	if len(names) == 0 {
		return nil, nil, inputErrorf("no result files given")
	}
	var p work.Plan
	var first, header PlanFile
	slices := map[int]string{}
	var results []work.Result
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		f, err := ReadPlanFile(ctx, name)
		if err != nil {
			return nil, nil, err
		}
		if f.Checksum != SumPlan(f) {
			return nil, nil, inputErrorf("%q does not match its checksum: it was changed after it was written", name)
		}
		if p == nil {
			if p, err = plan(f.Plan); err == nil {
				err = work.Build(ctx, p)
			}
			if err != nil {
				return nil, nil, inputErrorf("%q: %v", name, err)
			}
			first, header = f, planHeader(p)
		}
		if f.Plan != header.Plan || f.Rows != header.Rows || f.Cols != header.Cols || f.Tasks != header.Tasks {
			return nil, nil, inputErrorf("%q is of the plan %q (%d tasks), not %q (%d tasks) as this build makes it", name, f.Plan, f.Tasks, header.Plan, header.Tasks)
		}
		if f.Shards != first.Shards {
			return nil, nil, inputErrorf("%q is slice %d of %d, %q of %d: give the slices of one K", name, f.Shard, f.Shards, names[0], first.Shards)
		}
		if other, ok := slices[f.Shard]; ok {
			return nil, nil, inputErrorf("%q and %q are both slice %d/%d: give each slice once", other, name, f.Shard, f.Shards)
		}
		slices[f.Shard] = name
		ids, err := work.Slice(p, f.Shard, f.Shards)
		if err != nil {
			return nil, nil, inputErrorf("%q: %v", name, err)
		}
		if len(f.Results) != len(ids) {
			return nil, nil, inputErrorf("%q holds %d results, slice %d/%d has %d tasks", name, len(f.Results), f.Shard, f.Shards, len(ids))
		}
		weighed := new(big.Int)
		for j, fr := range f.Results {
			c, ok := new(big.Int).SetString(fr.Count, 10)
			t, err := p.Task(ids[j])
			if !ok || err != nil || fr.ID != ids[j] || fr.Weight != t.Weight || fr.CountName != countName(p) {
				return nil, nil, inputErrorf("%q: result %d is not task %d of slice %d/%d as this build makes it", name, j, ids[j], f.Shard, f.Shards)
			}
			r := work.Result{ID: fr.ID, Count: c, Counters: fr.Counters}
			if err := p.Check(r); err != nil {
				return nil, nil, inputErrorf("%q: %v", name, err)
			}
			weighed.Add(weighed, new(big.Int).Mul(c, big.NewInt(fr.Weight)))
			results = append(results, r)
		}
		if weighed.String() != f.Weighed {
			return nil, nil, inputErrorf("%q: its weighed sum %s is not its results' %s", name, f.Weighed, weighed)
		}
	}
	if len(slices) != first.Shards {
		for i := range first.Shards {
			if _, ok := slices[i]; !ok {
				return nil, nil, inputErrorf("slice %d/%d is missing (%d of %d given)", i, first.Shards, len(slices), first.Shards)
			}
		}
	}
	total, err := work.Total(p, results)
	if err != nil {
		return nil, nil, inputError(err)
	}
	if want, ok := p.Published(); ok && want.Cmp(total) != 0 {
		return p, total, refusedErrorf("the results sum to %v for the plan %s, the published count is %v", total, header.Plan, want)
	}
	return p, total, nil
}
