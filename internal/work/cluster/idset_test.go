package cluster

import (
	"slices"
	"testing"
)

// TestIDSet: ids added once each, at the ends of words and of the set, are what has, len
// and ids report; del takes them out; ids out of range are in no set.
func TestIDSet(t *testing.T) {
	parallel(t)
	for _, c := range []struct {
		name  string
		tasks int
		add   []int
		del   []int
		want  []int
	}{
		{"empty", 0, nil, nil, nil},
		{"one task", 1, []int{0, 0}, nil, []int{0}},
		{"word ends", 130, []int{129, 63, 64, 0, 127, 128, 64}, []int{127, 5}, []int{0, 63, 64, 128, 129}},
		{"all of 64", 64, []int{63, 62, 61, 0}, []int{62, 61, 63, 0}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newIDSet(c.tasks)
			for _, id := range c.add {
				s.add(id)
			}
			for _, id := range c.del {
				s.del(id)
			}
			if got := slices.Collect(s.ids()); !slices.Equal(got, c.want) {
				t.Errorf("ids() = %v, want %v", got, c.want)
			}
			if s.len() != len(c.want) {
				t.Errorf("len() = %d, want %d", s.len(), len(c.want))
			}
			for id := -1; id <= c.tasks+64; id++ {
				if got, want := s.has(id), slices.Contains(c.want, id); got != want {
					t.Errorf("has(%d) = %v, want %v", id, got, want)
				}
			}
		})
	}
}
