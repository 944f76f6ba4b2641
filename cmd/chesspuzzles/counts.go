// A count's result as "queens count" prints it, in text or JSON, for every way of counting.

package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/chesspuzzles/chesspuzzles/queens"
)

// countRecord is one line of --json output.
type countRecord struct {
	N       int     `json:"n"`
	Total   any     `json:"total"`
	Unique  any     `json:"unique"`
	Seconds float64 `json:"seconds"`
}

// printCounts writes one count as "queens count N" does.
func printCounts(w io.Writer, c queens.Counts, jsonOut bool, secs float64) error {
	if jsonOut {
		return json.NewEncoder(w).Encode(countRecord{N: c.N, Total: c.Total, Unique: c.Unique, Seconds: roundSeconds(secs)})
	}
	_, err := fmt.Fprintf(w, "%d queens: %s solutions, %s fundamental\n", c.N, c.Total, c.Unique)
	return err
}
