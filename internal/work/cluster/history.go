package cluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HistoryFile is the file, in a coordinator's state directory, where it keeps what each
// identity did, by job: "chesspuzzles worker list" shows it.
const HistoryFile = "history.json"

// An IdentityHistory is what one identity did in one job: Tasks, the results of it the
// coordinator accepted (first and second computations); Verified, those another identity
// (or the coordinator) computed again with the same result; Disagreements, those where
// another computation differed; Confirmed, its first results that another identity (or
// the coordinator) computed again with the same result, the record adaptive replication
// trusts (see Adaptive); Refused, results it handed in that the coordinator
// refused (no live lease, impossible counters); Declined, the tasks it was drawn to verify
// and declined so often that the coordinator verified them itself (see verifyDeclines);
// Quarantined, whether it was shown wrong or declined too many (its results then all
// dropped and computed again by others, and no task given it).
type IdentityHistory struct {
	Tasks         int  `json:"tasks"`
	Verified      int  `json:"verified"`
	Confirmed     int  `json:"confirmed,omitempty"`
	Disagreements int  `json:"disagreements,omitempty"`
	Refused       int  `json:"refused,omitempty"`
	Declined      int  `json:"declined,omitempty"`
	Quarantined   bool `json:"quarantined,omitempty"`
}

// A History is the IdentityHistory of each identity in each job: job → identity → record.
type History map[string]map[string]*IdentityHistory

// ReadHistory returns the history kept in dir; an empty one if there is none.
func ReadHistory(dir string) (History, error) {
	h := History{}
	data, err := os.ReadFile(filepath.Join(dir, HistoryFile))
	if errors.Is(err, fs.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("%s is damaged: %v", filepath.Join(dir, HistoryFile), err)
	}
	return h, nil
}

// ByIdentity sums an identity's records over the jobs.
func (h History) ByIdentity() map[string]IdentityHistory {
	out := map[string]IdentityHistory{}
	for _, ids := range h {
		for name, r := range ids {
			s := out[name]
			s.Tasks += r.Tasks
			s.Verified += r.Verified
			s.Confirmed += r.Confirmed
			s.Disagreements += r.Disagreements
			s.Refused += r.Refused
			s.Declined += r.Declined
			s.Quarantined = s.Quarantined || r.Quarantined
			out[name] = s
		}
	}
	return out
}

// saveJob writes the records of one job into dir's history, keeping the other jobs'.
func saveJob(dir, job string, ids map[string]*IdentityHistory) error {
	h, err := ReadHistory(dir)
	if err != nil {
		h = History{}
	}
	h[job] = ids
	data, _ := json.MarshalIndent(h, "", "  ")
	return writePrivate(filepath.Join(dir, HistoryFile), append(data, '\n'), false)
}
