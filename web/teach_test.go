package web

import (
	"net/url"
	"strconv"
	"testing"
)

func TestTeachAPI(t *testing.T) {
	h := New(Options{}).Handler()

	t.Run("trace pages join up", func(t *testing.T) {
		// The 4-queens search in pages of 7 events: the counters of the last event are
		// those of the whole search (60 placed… as the engine test checks), and the pages
		// follow on from each other.
		all := getJSON(t, h, "/api/queens/trace?n=4&limit=20000", 200)
		events := all["events"].([]any)
		if all["done"] != true || len(events) == 0 {
			t.Fatalf("n=4: done %v, %d events", all["done"], len(events))
		}
		var joined []any
		for from := 0; ; from += 7 {
			p := getJSON(t, h, "/api/queens/trace?n=4&limit=7&from="+strconv.Itoa(from), 200)
			joined = append(joined, p["events"].([]any)...)
			if p["done"] == true {
				break
			}
		}
		if len(joined) != len(events) {
			t.Fatalf("pages give %d events, one request %d", len(joined), len(events))
		}
		last := events[len(events)-1].([]any)
		if last[6].(float64) != 2 {
			t.Errorf("4 queens: %v solutions, want 2", last[6])
		}
		naive := all["naive"].(map[string]any)
		if naive["candidates"].(float64) != 24 {
			t.Errorf("naive candidates %v, want 24", naive["candidates"])
		}
		getJSON(t, h, "/api/queens/trace?n=13", 400)
		getJSON(t, h, "/api/queens/trace?n=8&limit=0", 400)
	})

	t.Run("puzzle", func(t *testing.T) {
		p := getJSON(t, h, "/api/queens/puzzle?n=8&level=easy&seed=1", 200)
		given := p["given"].([]any)
		sol := p["solution"].([]any)
		perm := make([]int, len(sol))
		for i, v := range sol {
			perm[i] = int(v.(float64))
			if g := int(given[i].(float64)); g >= 0 && g != perm[i] {
				t.Errorf("given queen on row %d not in the solution", i)
			}
		}
		if !isSolution(perm) {
			t.Errorf("solution %v is not a solution", perm)
		}
		getJSON(t, h, "/api/queens/puzzle?n=5", 400)
		getJSON(t, h, "/api/queens/puzzle?n=8&level=extreme", 400)
	})

	t.Run("explain", func(t *testing.T) {
		e := getJSON(t, h, "/api/knight/explain?size=8&start=a1", 200)
		steps := e["steps"].([]any)
		if len(steps) != 64 || e["stuck"] != false {
			t.Fatalf("8×8 from a1: %d steps, stuck %v", len(steps), e["stuck"])
		}
		first := steps[0].(map[string]any)
		if len(first["candidates"].([]any)) != 2 || first["tie"] != true {
			t.Errorf("first step %v: want two candidates tied", first)
		}
		getJSON(t, h, "/api/knight/explain?size=40", 400)
	})

	t.Run("next", func(t *testing.T) {
		n := getJSON(t, h, "/api/knight/next?size=8&path="+url.QueryEscape("a1 b3"), 200)
		if n["left"].(float64) != 62 || n["stuck"] != false {
			t.Errorf("next after a1 b3: %v", n)
		}
		st := n["step"].(map[string]any)
		if len(st["candidates"].([]any)) != 5 {
			t.Errorf("b3 after a1 has %d candidates, want 5", len(st["candidates"].([]any)))
		}
		getJSON(t, h, "/api/knight/next?size=8&path="+url.QueryEscape("a1 c1"), 400)
	})

	t.Run("complete", func(t *testing.T) {
		c := getJSON(t, h, "/api/knight/complete?size=8&path="+url.QueryEscape("a1 b3 c1"), 200)
		if c["found"] != true || len(c["squares"].([]any)) != 64 {
			t.Errorf("complete a1 b3 c1: %v", c["found"])
		}
		c = getJSON(t, h, "/api/knight/complete?size=8&path="+url.QueryEscape("b6 d5 c7 e6"), 200)
		if c["found"] != false || c["reason"] == nil {
			t.Errorf("complete b6 d5 c7 e6: %v, want found false with a reason", c)
		}
		getJSON(t, h, "/api/knight/complete?size=8&path=z9", 400)
	})

	t.Run("replay", func(t *testing.T) {
		a := getJSON(t, h, "/api/knight/replay?size=8&start=b5&method=article", 200)
		if a["stuck"] != true || len(a["squares"].([]any)) != 60 {
			t.Errorf("article from b5: stuck %v after %d squares, want stuck after 60", a["stuck"], len(a["squares"].([]any)))
		}
		a = getJSON(t, h, "/api/knight/replay?size=8&start=a8&method=article", 200)
		if a["stuck"] != false || len(a["squares"].([]any)) != 64 {
			t.Errorf("article from a8: %v", a["stuck"])
		}
		getJSON(t, h, "/api/knight/replay?size=8&method=greedy", 400)
	})
}
