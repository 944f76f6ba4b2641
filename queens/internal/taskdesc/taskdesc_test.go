package taskdesc

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chesspuzzles/chesspuzzles/queens/count"
)

// toy is a Task whose count is its description's length.
type toy struct{ id, n int }

func (x toy) CountContext(ctx context.Context) (count.Result, error) {
	return count.Result{ID: x.id, Solutions: uint64(x.n)}, ctx.Err()
}

func (x toy) CheckResult(r count.Result) error {
	if r.Solutions != uint64(x.n) {
		return errors.New("wrong count")
	}
	return nil
}

var errToy = errors.New("empty description")

var toyFormat = Format[toy]{Method: count.MethodFrames, Plan: "the toy plan", Read: func(t count.Task) (toy, error) {
	if t.Desc == "" {
		return toy{}, errToy
	}
	return toy{t.ID, len(t.Desc)}, nil
}}

func TestFormat(t *testing.T) {
	good := count.Task{N: 8, ID: 3, Method: count.MethodFrames, Weight: 1, Desc: "abc"}
	if x, err := toyFormat.Parse(8, good); err != nil || x != (toy{3, 3}) {
		t.Errorf("Parse(8, %+v) = %+v, %v; want {3 3}, nil", good, x, err)
	}
	if r, err := toyFormat.CountTask(context.Background(), 8, good); err != nil || r.ID != 3 || r.Solutions != 3 {
		t.Errorf("CountTask(good) = %+v, %v; want ID 3, 3 solutions", r, err)
	}
	rebuild := func(x toy) (count.Task, error) {
		return count.Task{N: 8, ID: x.id, Method: count.MethodFrames, Weight: 1, Desc: strings.Repeat("x", x.n)}, nil
	}
	if c, err := toyFormat.CheckTask(8, good, rebuild); err != nil || c.ID != 3 || c.Desc != "xxx" {
		t.Errorf("CheckTask(good) = %+v, %v; want the task rebuilt", c, err)
	}
	refuse := func(toy) (count.Task, error) { return count.Task{}, errToy }
	if _, err := toyFormat.CheckTask(8, good, refuse); !errors.Is(err, errToy) {
		t.Errorf("CheckTask(good, refuse) error = %v, want rebuild's", err)
	}
	if err := toyFormat.CheckResult(8, good, count.Result{ID: 3, Solutions: 3}); err != nil {
		t.Errorf("CheckResult(good, right) = %v", err)
	}
	if err := toyFormat.CheckResult(8, good, count.Result{ID: 3, Solutions: 4}); err == nil {
		t.Error("CheckResult(good, wrong) = nil, want the task's error")
	}

	otherN, otherMethod, empty := good, good, good
	otherN.N = 9
	otherMethod.Method = count.MethodJoin
	empty.Desc = ""
	for _, c := range []struct {
		t    count.Task
		want string
	}{
		{otherN, "task 3 of N=9 is not a task of the toy plan: the plan is of N=8"},
		{otherMethod, `task 3 of N=8 is not a task of the toy plan: method "join"`},
		{empty, "task 3 of N=8 is not a task of the toy plan: empty description"},
	} {
		if _, err := toyFormat.Parse(8, c.t); err == nil || err.Error() != c.want {
			t.Errorf("Parse(8, %+v) error = %v, want %q", c.t, err, c.want)
		}
		r, err := toyFormat.CountTask(context.Background(), 8, c.t)
		if err == nil || r != (count.Result{ID: 3}) || !strings.HasPrefix(err.Error(), "task 3 of") {
			t.Errorf("CountTask(8, %+v) = %+v, %v; want ID 3 and Parse's error", c.t, r, err)
		}
		if _, err := toyFormat.CheckTask(8, c.t, rebuild); err == nil {
			t.Errorf("CheckTask(8, %+v) = nil error, want Parse's", c.t)
		}
		if err := toyFormat.CheckResult(8, c.t, count.Result{ID: 3, Solutions: 3}); err == nil {
			t.Errorf("CheckResult(8, %+v) = nil, want Parse's error", c.t)
		}
	}
	if _, err := toyFormat.Parse(8, empty); !errors.Is(err, errToy) {
		t.Errorf("Parse(empty) error %v does not wrap Read's", err)
	}
}
