package tours

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"time"

	"github.com/chesspuzzles/chesspuzzles/internal/work/sealed"
)

// File is one slice of a plan with the result of each of its tasks, as "knight count
// --shard I/K -o FILE" writes it. Counts are decimal strings (8×8's total passes 2^64).
//
// Checksum is "sha256:" and the hex SHA-256 of the JSON that encoding/json writes for the
// record with Checksum empty. It finds a file changed after it was written (an edited
// count, a cut copy); it is no signature, which is why Merge also checks each result
// against its task and the total against the published count where there is one, and why
// each result carries counters a re-run reproduces (knight count --start S --end E
// --verbose prints them).
type File struct {
	Plan     string       `json:"plan"` // OpenPlan.Name
	Rows     int          `json:"rows"`
	Cols     int          `json:"cols"`
	Tasks    int          `json:"tasks"` // in the whole plan
	Shard    int          `json:"shard"`
	Shards   int          `json:"shards"`
	Weighed  string       `json:"weighed"` // Σ weight × tours over this slice's tasks
	Results  []FileResult `json:"results"`
	Run      string       `json:"run"` // 128 random bits in hex, new for every Compute
	Checksum string       `json:"checksum"`
}

// FileResult is one task's result in a File, with the CPU seconds it took (not checked:
// they differ from run to run).
type FileResult struct {
	ID         int     `json:"id"`
	Start      string  `json:"start,omitempty"` // an open-ends task's squares, "file,rank" (informative)
	End        string  `json:"end,omitempty"`
	Label      string  `json:"label,omitempty"` // another kind's Task.Label (informative)
	Weight     int64   `json:"weight"`
	Tours      string  `json:"tours"`
	States     int64   `json:"states"`
	Peak       int64   `json:"peak"`
	CPUSeconds float64 `json:"cpu_seconds"`
}

// Sum returns the checksum f should carry (see File).
func Sum(f File) string {
	f.Checksum = ""
	return sealed.Checksum(f)
}

// Compute counts the i-th of k slices of p (Slice) with opts (its Tasks are set here) and
// returns the slice's File, sealed. It takes the slice's tasks' time.
func Compute(ctx context.Context, p Plan, i, k int, opts Options) (File, error) {
	ids, err := Slice(p, i, k)
	if err != nil {
		return File{}, err
	}
	opts.Tasks = ids
	secs := map[int]float64{}
	finished := opts.Finished
	opts.Finished = func(r Result, cpu time.Duration) {
		secs[r.ID], _ = strconv.ParseFloat(strconv.FormatFloat(cpu.Seconds(), 'f', 2, 64), 64)
		if finished != nil {
			finished(r, cpu)
		}
	}
	rs, err := Run(ctx, p, opts)
	if err != nil {
		return File{}, err
	}
	rows, cols := p.Size()
	f := File{Plan: p.Name(), Rows: rows, Cols: cols, Tasks: p.Len(), Shard: i, Shards: k, Run: sealed.NewRun()}
	weighed := new(big.Int)
	for _, r := range rs {
		t := p.Task(r.ID)
		fr := FileResult{ID: r.ID, Weight: t.Weight, Tours: r.Tours.String(), States: r.States, Peak: r.Peak, CPUSeconds: secs[r.ID]}
		if o, ok := p.(openEnds); ok {
			ot := o.p.Tasks[r.ID]
			fr.Start, fr.End = squareName(ot.Start.Row, ot.Start.Col, rows), squareName(ot.End.Row, ot.End.Col, rows)
		} else {
			fr.Label = t.Label
		}
		f.Results = append(f.Results, fr)
		weighed.Add(weighed, new(big.Int).Mul(r.Tours, big.NewInt(t.Weight)))
	}
	f.Weighed = weighed.String()
	f.Checksum = Sum(f)
	return f, nil
}

// squareName names a square "file,rank" from 1 (rank 1 the bottom row), as every board's
// squares can be written.
func squareName(row, col, rows int) string {
	return fmt.Sprintf("%d,%d", col+1, rows-row)
}

// MaxFileBytes bounds a result file: about 200 bytes a task.
const MaxFileBytes = 16 << 20

// ReadFile decodes the result file name: one JSON object of a File, nothing after it, at
// most MaxFileBytes, read as sealed.ReadJSON reads (stopping when ctx ends). Errors but
// ctx's wrap ErrInput. It does not check the checksum.
func ReadFile(ctx context.Context, name string) (File, error) {
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return File{}, fmt.Errorf("%w: %q is not a regular file", ErrInput, name)
	}
	var f File
	_, err := sealed.ReadJSON(ctx, name, MaxFileBytes, &f)
	var te *sealed.TrailingError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return File{}, err
	case errors.Is(err, sealed.ErrTooLarge):
		return File{}, fmt.Errorf("%w: %q is larger than %d bytes, more than a result file may be", ErrInput, name, MaxFileBytes)
	case errors.Is(err, sealed.ErrNotJSON), err == nil && (f.Shards < 1 || f.Plan == ""):
		return File{}, fmt.Errorf("%w: %q is not the output of \"knight count --shard I/K -o FILE\"", ErrInput, name)
	case errors.As(err, &te):
		return File{}, fmt.Errorf("%w: %q has data after its JSON object (at byte %d): a result file holds one object", ErrInput, name, te.At)
	case err != nil:
		return File{}, fmt.Errorf("%w: reading %q: %v", ErrInput, name, err)
	}
	return f, nil
}

// Merge reads the result files names of one plan and returns the plan and its total. It
// refuses (ErrInput) files that are not exactly one complete plan of this build: a file
// whose checksum does not match, of another plan or board, of slices of different K, a
// slice missing or given twice (a file given twice, the same run, is refused too), a task
// that is not its slice's or whose result p.Check refuses, a slice whose weighed sum is not
// the sum of its results. It refuses the total (ErrRefused) where the board's count is
// published (kcount.PublishedOpen) and differs. It takes time linear in the files.
func Merge(ctx context.Context, names []string) (Plan, *big.Int, error) {
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%w: no result files given", ErrInput)
	}
	var p Plan
	var first File
	slices := map[int]string{}
	var results []Result
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		f, err := ReadFile(ctx, name)
		if err != nil {
			return nil, nil, err
		}
		if f.Checksum != Sum(f) {
			return nil, nil, fmt.Errorf("%w: %q does not match its checksum: it was changed after it was written", ErrInput, name)
		}
		if p == nil {
			p, err = NewPlan(f.Plan)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: %q: %v", ErrInput, name, err)
			}
			first = f
		}
		if rows, cols := p.Size(); f.Plan != p.Name() || f.Rows != rows || f.Cols != cols || f.Tasks != p.Len() {
			return nil, nil, fmt.Errorf("%w: %q is of the plan %q (%d tasks), not %q (%d tasks) as this build makes it", ErrInput, name, f.Plan, f.Tasks, p.Name(), p.Len())
		}
		if f.Shards != first.Shards {
			return nil, nil, fmt.Errorf("%w: %q is slice %d of %d, %q of %d: give the slices of one K", ErrInput, name, f.Shard, f.Shards, names[0], first.Shards)
		}
		if other, ok := slices[f.Shard]; ok {
			return nil, nil, fmt.Errorf("%w: %q and %q are both slice %d/%d: give each slice once", ErrInput, other, name, f.Shard, f.Shards)
		}
		slices[f.Shard] = name
		ids, err := Slice(p, f.Shard, f.Shards)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %q: %v", ErrInput, name, err)
		}
		if len(f.Results) != len(ids) {
			return nil, nil, fmt.Errorf("%w: %q holds %d results, slice %d/%d has %d tasks", ErrInput, name, len(f.Results), f.Shard, f.Shards, len(ids))
		}
		weighed := new(big.Int)
		for j, fr := range f.Results {
			k, ok := new(big.Int).SetString(fr.Tours, 10)
			if !ok || fr.ID != ids[j] || fr.Weight != p.Task(fr.ID).Weight {
				return nil, nil, fmt.Errorf("%w: %q: result %d is not task %d of slice %d/%d as this build makes it", ErrInput, name, j, ids[j], f.Shard, f.Shards)
			}
			r := Result{ID: fr.ID, Tours: k, States: fr.States, Peak: fr.Peak}
			if err := p.Check(r); err != nil {
				return nil, nil, fmt.Errorf("%w: %q: %v", ErrInput, name, err)
			}
			weighed.Add(weighed, new(big.Int).Mul(k, big.NewInt(fr.Weight)))
			results = append(results, r)
		}
		if weighed.String() != f.Weighed {
			return nil, nil, fmt.Errorf("%w: %q: its weighed sum %s is not its results' %s", ErrInput, name, f.Weighed, weighed)
		}
	}
	if len(slices) != first.Shards {
		for i := range first.Shards {
			if _, ok := slices[i]; !ok {
				return nil, nil, fmt.Errorf("%w: slice %d/%d is missing (%d of %d given)", ErrInput, i, first.Shards, len(slices), first.Shards)
			}
		}
	}
	total, err := p.Total(results)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if want, ok := p.Published(); ok && want.Cmp(total) != 0 {
		return p, total, fmt.Errorf("%w: the results sum to %v for the plan %s, the published count is %v", ErrRefused, total, p.Name(), want)
	}
	return p, total, nil
}
